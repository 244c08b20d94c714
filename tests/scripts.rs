//! The scripts a user runs — every file directly in `scripts/` (`scripts/lab/` holds one-off
//! experiments, `scripts/lib/` what the scripts share) — are executable and answer `--help`
//! with their usage and exit 0, before they build, install or start anything: the help is
//! read with only the system's directories on `PATH` (no cargo, no engine built).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far more than printing a text takes: a script that reaches this started real work.
const DEADLINE: Duration = Duration::from_secs(30);

fn user_scripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

#[test]
fn every_user_script_answers_help_with_exit_0() {
    let scripts = user_scripts();
    // The shell and Python entry points the README documents; far fewer means a wrong folder.
    assert!(scripts.len() >= 15, "scripts/ holds {scripts:?}");
    let scratch = std::env::temp_dir().join(format!("wuzi-script-help-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for path in scripts {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert!(
                mode & 0o111 != 0,
                "scripts/{name} is not executable (chmod +x)"
            );
        }
        let mut child = Command::new(&path)
            .arg("--help")
            .current_dir(&scratch)
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting scripts/{name}: {e}"));
        let t = Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if t.elapsed() > DEADLINE {
                let _ = child.kill();
                let _ = child.wait();
                panic!("scripts/{name} --help still runs after {DEADLINE:?}: it does not stop at --help");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut out = String::new();
        let mut err = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(
            status.success(),
            "scripts/{name} --help: {status}\nstdout: {out}\nstderr: {err}"
        );
        assert!(
            out.contains(&name) && out.lines().count() >= 2,
            "scripts/{name} --help prints no usage naming it:\n{out}"
        );
        assert!(
            err.is_empty(),
            "scripts/{name} --help wrote to stderr: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
