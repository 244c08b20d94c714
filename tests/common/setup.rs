//! The tools a test needs besides cargo (GNU parallel, chromium) come from the project's own
//! `scripts/setup.sh`: a test asks for its tool here, and where it is missing the script runs
//! once (it installs with apt-get as root), so that `cargo test --release` on a fresh Debian
//! machine installs what it needs instead of failing. Where the script cannot install it
//! (no root, not Debian), the test fails and says how to get the tool.

use std::process::Command;
use std::sync::Once;

/// Makes sure `present()` holds, running `scripts/setup.sh` once if it does not; fails the
/// test naming `what` when even that does not help.
pub fn ensure(what: &str, present: impl Fn() -> bool) {
    static SETUP: Once = Once::new();
    if present() {
        return;
    }
    SETUP.call_once(|| {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/setup.sh");
        let status = Command::new("bash").arg(script).status();
        eprintln!("{what} was missing: ran scripts/setup.sh: {status:?}");
    });
    assert!(
        present(),
        "{what} is missing and scripts/setup.sh could not install it (it installs with \
         apt-get and needs root): run `sudo scripts/setup.sh`"
    );
}
