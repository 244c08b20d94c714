//! libFuzzer target over the whole command loop: the input is a manager's transcript run
//! through `protocol::run_with` against a real engine (replies go to stdout, which the
//! fuzzer ignores). Every command, bad or not, must leave the loop running to the end of
//! input; a panic anywhere is a finding. Searches are kept to a few milliseconds by settings
//! sent first, and lines starting with `END` are dropped because the loop then exits the
//! process by design, which libFuzzer would count as a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::engine::Engine;

const PRELUDE: &[u8] =
    b"INFO timeout_turn 5\nINFO max_depth 1\nINFO thread_num 1\nINFO hash_size 256\n";

/// Keys whose odd values would make one input take seconds (long clocks, big tables).
const SLOW_INFO: [&str; 7] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_depth",
    "max_node",
    "hash_size",
    "thread_num",
];

fn keep(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let mut words = text.split_whitespace();
    match words.next().map(|w| w.to_ascii_uppercase()) {
        Some(w) if w == "END" => false,
        Some(w) if w == "INFO" => words
            .next()
            .is_none_or(|k| !SLOW_INFO.iter().any(|s| k.eq_ignore_ascii_case(s))),
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 1 << 16 {
        return;
    }
    let mut input = PRELUDE.to_vec();
    for line in data.split(|&b| b == b'\n').filter(|l| keep(l)).take(200) {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    wuzi::protocol::run_with(Engine::new(), std::io::Cursor::new(input));
});
