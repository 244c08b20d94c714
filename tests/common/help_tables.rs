//! The command tables against the binaries' `--help`: under each `## Command line` of the
//! text given (README.md with docs/cli.md after it), each
//! `### `BIN SUBCOMMAND…`` heading's table must be that help's own entries, word for word, in
//! both directions, and every subcommand of `BIN --help` must have its table. Shared by the
//! tests of `pbrain-wuzi` (tests/cli.rs) and `wuzi-arena` (tests/arena_cli.rs).

use std::process::{Command, Stdio};

/// Runs of whitespace as one space: the help aligns its columns, the README does not.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An entry of a help or a README table: (the command, argument or option, what it does).
type Entry = (String, String);

/// The indented entries of a help text (under `Commands:`, `Arguments:` and `Options:`).
fn help_entries(help: &str) -> Vec<Entry> {
    let mut in_list = false;
    let mut entries = Vec::new();
    for line in help.lines() {
        if line.ends_with(':') && !line.starts_with(' ') {
            in_list = matches!(line, "Commands:" | "Arguments:" | "Options:");
        } else if in_list && line.starts_with("  ") {
            let line = line.trim_start();
            let (name, what) = line.split_once("  ").unwrap_or((line, ""));
            entries.push((name.to_string(), squeeze(what)));
        } else if line.is_empty() {
            in_list = false;
        }
    }
    entries
}

/// The README's tables under `## Command line` for the binary `bin`: for each `### `bin …``
/// heading, the subcommand's words after `bin` and the table's rows.
fn readme_tables(readme: &str, bin: &str) -> Vec<(Vec<String>, Vec<Entry>)> {
    let sections: Vec<&str> = readme
        .split("\n## Command line\n")
        .skip(1)
        .map(|s| s.split("\n## ").next().unwrap())
        .collect();
    assert!(!sections.is_empty(), "README has a Command line section");
    // `None` while under another binary's heading
    let mut tables: Vec<(Vec<String>, Vec<Entry>)> = Vec::new();
    let mut ours = false;
    for line in sections.iter().flat_map(|s| s.lines()) {
        if let Some(heading) = line.strip_prefix("### ") {
            let words: Vec<String> = heading
                .trim_matches('`')
                .split_whitespace()
                .map(String::from)
                .collect();
            ours = words.first().map(String::as_str) == Some(bin);
            if ours {
                tables.push((words[1..].to_vec(), Vec::new()));
            }
        } else if let Some(row) = line.strip_prefix("| `").filter(|_| ours) {
            let (name, rest) = row.split_once("` | ").expect("a row: | `name` | text |");
            let what = rest.strip_suffix(" |").expect("a row ends with |");
            let table = tables.last_mut().expect("a table under a heading");
            table.1.push((name.to_string(), squeeze(what)));
        }
    }
    tables
}

/// The help `exe args… --help` prints; it must succeed.
fn help(exe: &str, args: &[String]) -> String {
    let o = Command::new(exe)
        .args(args)
        .arg("--help")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{exe} starts: {e}"));
    assert!(o.status.success(), "{exe} {args:?} --help");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Checks `readme`'s tables for the binary `bin` (at `exe`) against its help.
pub fn check_readme_tables(readme: &str, bin: &str, exe: &str) {
    let tables = readme_tables(readme, bin);
    // every subcommand has its table (the help subcommand's help is the top level's)
    let mut commands: Vec<Vec<String>> = help_entries(&help(exe, &[]))
        .into_iter()
        .filter(|(name, _)| !name.starts_with('-') && name != "help")
        .map(|(name, _)| vec![name])
        .collect();
    commands.insert(0, Vec::new());
    let documented: Vec<Vec<String>> = tables.iter().map(|t| t.0.clone()).collect();
    assert_eq!(
        documented, commands,
        "README tables of {bin} vs the commands of --help"
    );
    for (command, rows) in &tables {
        let entries = help_entries(&help(exe, command));
        let shown = [bin.to_string()]
            .iter()
            .chain(command)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(!entries.is_empty(), "`{shown} --help` lists nothing");
        for row in rows {
            assert!(
                entries.contains(row),
                "README row {row:?} is not a line of `{shown} --help`"
            );
        }
        for entry in &entries {
            assert!(
                rows.contains(entry),
                "`{shown} --help` line {entry:?} is missing from the README"
            );
        }
    }
}
