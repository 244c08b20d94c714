//! libFuzzer target over the protocol parser alone: any bytes, split into lines as the
//! stdin reader splits them, must give results without panicking, and nothing the parser
//! hands back for echoing (unknown text, error reasons) may hold a line break or another
//! control character, since that would forge a second protocol line on the manager's side.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::protocol::command::{Command, Parser};

fn clean(s: &str) -> bool {
    !s.chars().any(|c| c.is_control())
}

fuzz_target!(|data: &[u8]| {
    let mut p = Parser::new();
    for line in data.split(|&b| b == b'\n') {
        let mut next = p.feed_bytes(line);
        while let Some(r) = next {
            match r {
                Ok(Command::Unknown(text)) => assert!(clean(&text), "unknown echo {text:?}"),
                Ok(Command::Info { key, .. }) => assert!(!key.contains('\n')),
                Ok(_) => {}
                Err(e) => assert!(clean(&e.to_string()), "error text {e}"),
            }
            next = p.next_pending();
        }
    }
});
