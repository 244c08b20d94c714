//! What the tests of the Python measurement scripts share: a scratch folder, a fake engine
//! standing in for another program, and running a script as a user does.

use std::path::{Path, PathBuf};
use std::process::Command;

/// An empty folder for one test, named by the test file's `prefix` and the test's `tag`.
pub fn scratch(prefix: &str, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `scripts/<name>` in the repository.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

/// An executable shell script `pbrain-fake` in `dir` with the text `text`.
#[cfg(unix)]
pub fn fake_engine(dir: &Path, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let fake = dir.join("pbrain-fake");
    std::fs::write(&fake, text).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    fake
}

/// Runs `python3 scripts/<name> args…`; fails the test unless it succeeds, and returns its
/// standard output.
pub fn run(name: &str, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(script(name))
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
