//! Every relative link in the repository's markdown (README.md, ARCHITECTURE.md, docs/ and
//! the folders' READMEs) names a file or folder that exists, and a `#fragment` names a
//! heading of that file, as GitHub makes anchors of headings. Pages move between the README
//! and docs/ (issue #67), and a link left pointing at the old place is easy to miss.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The markdown files under `dir`, not descending into build output, run directories or
/// hidden folders (none of those is tracked).
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for e in entries {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "arena-out" {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The lines outside fenced code blocks, with inline code spans removed (a `[x](y)` shown
/// as code is not a link; a link whose text is code keeps its target).
fn prose_lines(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut kept = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                kept.push_str(part);
            }
        }
        lines.push(kept);
    }
    lines
}

/// GitHub's anchor for a heading: lower case, punctuation and symbols dropped (letters,
/// digits, `-` and `_` kept), spaces as `-`; a repeated anchor gets `-1`, `-2`, ….
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        if fenced {
            continue;
        }
        let title = title.trim_start_matches('#').trim();
        let base: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = base.clone();
        let mut n = 0;
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    seen
}

/// The targets of the inline links `[text](target)` on a line.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &rest[end..];
    }
    targets
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// Every broken relative link of the markdown under `root`, as `file: target (why)`.
fn broken_links(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    markdown_files(root, &mut files);
    files.sort();
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        for line in prose_lines(&text) {
            for target in link_targets(&line) {
                if target.is_empty() || is_external(&target) {
                    continue;
                }
                let (path, fragment) = match target.split_once('#') {
                    Some((p, f)) => (p, Some(f)),
                    None => (target.as_str(), None),
                };
                let dest = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().unwrap().join(path)
                };
                if !dest.exists() {
                    broken.push(format!("{shown}: {target} (no such file)"));
                    continue;
                }
                if let Some(fragment) = fragment {
                    let headings = std::fs::read_to_string(&dest).map(|t| anchors(&t));
                    if !headings.is_ok_and(|h| h.contains(fragment)) {
                        broken.push(format!("{shown}: {target} (no such heading)"));
                    }
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_markdown_link_resolves() {
    let root = root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    // README, ARCHITECTURE and the pages of docs/ at least: fewer means the walk went wrong.
    assert!(files.len() >= 15, "markdown found: {files:?}");
    let broken = broken_links(&root);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_broken_link_and_a_missing_heading_are_found() {
    let dir = std::env::temp_dir().join(format!("wuzi-doc-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(
        dir.join("docs/page.md"),
        "# A page\n\n## Running a tournament: on many machines (Slurm)\n\n## Notes\n## Notes\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("README.md"),
        "[ok](docs/page.md) [ok](docs/page.md#running-a-tournament-on-many-machines-slurm)\n\
         [ok](docs/page.md#notes-1) [ok](docs/) [ok](https://example.com/x.md)\n\
         `[code](not/a/link.md)`\n\
         ```\n[fenced](not/a/link.md)\n```\n\
         [gone](docs/moved.md) [anchor](docs/page.md#a-heading-that-moved)\n",
    )
    .unwrap();
    let broken = broken_links(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        broken,
        [
            "README.md: docs/moved.md (no such file)",
            "README.md: docs/page.md#a-heading-that-moved (no such heading)",
        ]
    );
}
