//! The crate's layers point one way (see ARCHITECTURE.md): every top-level module of `src/`
//! has a rank, and a module may use only modules of its own rank or below; and no modules
//! use each other in a circle, neither at the top level nor among the files of one folder
//! (such as `arena/referee.rs` and `arena/swap2.rs`).
//!
//! The check reads the sources as text: every `crate::`, `super::` and `self::` path outside
//! comments and outside the test code at the end of a file (`#[cfg(test)]` at column 0 and
//! what follows, and `tests.rs` files), `use` lists with their braces included, each
//! resolved to the deepest module of `src/` it names. A use between a folder's `mod.rs` and
//! the files it declares (a parent re-exporting a child, a child using its parent's types)
//! is structure, not a dependency between peers, and is not counted. Tests may use anything.
//!
//! The same reading checks what the engine's lower layers may not do: no module under
//! `game/` or `search/` reads stdin or prints (no `print!`-family or `dbg!` macro, no
//! `stdin`, `stdout` or `stderr`: text in and out belongs to the protocol and the tools), and
//! none uses `anyhow` (typed errors on the engine's path).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules, lowest first. A module may use its own rank and those below.
const LAYERS: &[(&str, u32)] = &[
    // The vocabulary every layer speaks, and the deterministic random numbers.
    ("base", 0),
    ("rng", 0),
    // Rules and positions.
    ("game", 1),
    // Searches: alpha-beta, threats, the Connect Four and m,n,k solvers.
    ("search", 2),
    // Driving a search for one game: the engine facade, opening rules, the bench.
    ("opening", 3),
    ("engine", 3),
    ("bench", 3),
    // Text in and out: the protocol loop; the arena, which runs engines as processes.
    ("protocol", 4),
    ("arena", 4),
    // Tools for people on top: play in the terminal, tuning, the solve drivers and the
    // Connect Four book builder, the n-tuple training, the command line.
    ("play", 5),
    ("tune", 5),
    ("solve", 5),
    ("train", 5),
    ("cli", 6),
];

type ModPath = Vec<String>;

/// Every module of the library: its path (`["arena", "referee"]`) and its source text.
fn modules(src: &Path) -> BTreeMap<ModPath, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<ModPath, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let mut m = prefix.to_vec();
            if path.is_dir() {
                if prefix.is_empty() && name == "bin" {
                    continue;
                }
                m.push(name);
                walk(&path, &m, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                if prefix.is_empty() && (name == "lib" || name == "main") {
                    continue;
                }
                if name != "mod" {
                    m.push(name);
                }
                out.insert(m, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    out
}

/// The source without comments and without the test code at its end.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            Some(i) if line[..i].matches('"').count() % 2 == 0 => &line[..i],
            _ => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The paths one module's code names, as written (`crate::game::Move`,
/// `super::judge::Fault`), with `use` braces expanded.
fn paths(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let ahead: String = chars[i..chars.len().min(i + 7)].iter().collect();
        let starts_word = i == 0
            || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
            || chars[i - 1] == '$';
        if starts_word
            && ["crate::", "super::", "self::"]
                .iter()
                .any(|p| ahead.starts_with(p))
        {
            let (found, end) = path_at(&chars, i);
            out.extend(found);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The path starting at `i` and where it ends; a `{…}` group gives one path per member.
fn path_at(s: &[char], mut i: usize) -> (Vec<String>, usize) {
    let mut head = String::new();
    while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_' || s[i] == ':') {
        head.push(s[i]);
        i += 1;
    }
    if i < s.len() && s[i] == '{' && head.ends_with("::") {
        let mut out = Vec::new();
        i += 1;
        loop {
            while i < s.len() && (s[i].is_whitespace() || s[i] == ',') {
                i += 1;
            }
            if i >= s.len() || s[i] == '}' {
                return (out, i + 1);
            }
            let (members, end) = path_at(s, i);
            out.extend(members.into_iter().map(|m| format!("{head}{m}")));
            // Skip what follows a member (`as name`) up to the next one.
            i = end;
            while i < s.len() && s[i] != ',' && s[i] != '}' {
                i += 1;
            }
        }
    }
    (vec![head.trim_end_matches(':').to_string()], i)
}

/// The deepest module of `known` that `path`, written in module `from`, names.
fn resolve(path: &str, from: &ModPath, known: &BTreeSet<ModPath>) -> ModPath {
    let mut words = path.split("::").filter(|w| !w.is_empty()).peekable();
    let mut base: ModPath = if words.peek() == Some(&"crate") {
        words.next();
        Vec::new()
    } else {
        from.clone()
    };
    let mut target = base.clone();
    for w in words {
        match w {
            "self" => {}
            "super" => {
                base.pop();
                target = base.clone();
            }
            _ => {
                base.push(w.to_string());
                if !known.contains(&base) {
                    break;
                }
                target = base.clone();
            }
        }
    }
    target
}

/// The dependencies between peers: `(user, used)` pairs of sibling modules (or top-level
/// modules), from every path that leaves its own subtree for a sibling's.
fn edges(mods: &BTreeMap<ModPath, String>) -> BTreeSet<(ModPath, ModPath)> {
    let known: BTreeSet<ModPath> = mods.keys().cloned().collect();
    let mut out = BTreeSet::new();
    for (from, text) in mods {
        if from.last().is_some_and(|n| n == "tests") {
            continue;
        }
        for p in paths(&code(text)) {
            let to = resolve(&p, from, &known);
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            // An ancestor or a descendant: a folder and its own files.
            if common == from.len() || common == to.len() {
                continue;
            }
            out.insert((from[..=common].to_vec(), to[..=common].to_vec()));
        }
    }
    out
}

/// The top-level modules whose code may neither read stdin, print nor use `anyhow`.
const QUIET: &[&str] = &["game", "search"];

/// What a quiet module's code may not name: the printing macros, the standard streams and
/// the tools' error crate.
const LOUD: &[&str] = &[
    "print!",
    "println!",
    "eprint!",
    "eprintln!",
    "dbg!",
    "stdin",
    "stdout",
    "stderr",
    "anyhow",
];

/// Each use of a [`LOUD`] word, as a whole word, in the code of a [`QUIET`] module.
fn loud(mods: &BTreeMap<ModPath, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (m, text) in mods {
        if !QUIET.contains(&m[0].as_str()) || m.last().is_some_and(|n| n == "tests") {
            continue;
        }
        let code = code(text);
        for word in LOUD {
            let whole = code.match_indices(word).any(|(i, _)| {
                let ident = |c: char| c.is_alphanumeric() || c == '_';
                let before = code[..i].chars().next_back().is_none_or(|c| !ident(c));
                let after = code[i + word.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| word.ends_with('!') || !ident(c));
                before && after
            });
            if whole {
                out.push(format!(
                    "`{}` uses `{word}`: no text in or out below the tools",
                    m.join("::")
                ));
            }
        }
    }
    out
}

/// Layer breaches and cycles, one line each; empty when the layers hold.
fn problems(mods: &BTreeMap<ModPath, String>) -> Vec<String> {
    let rank: BTreeMap<&str, u32> = LAYERS.iter().copied().collect();
    let mut out = Vec::new();
    for m in mods.keys().filter(|m| m.len() == 1) {
        if !rank.contains_key(m[0].as_str()) {
            out.push(format!("`{}` has no layer: add it to LAYERS", m[0]));
        }
    }
    let edges = edges(mods);
    for (a, b) in &edges {
        if let ([a], [b]) = (a.as_slice(), b.as_slice()) {
            if let (Some(ra), Some(rb)) = (rank.get(a.as_str()), rank.get(b.as_str())) {
                if rb > ra {
                    out.push(format!(
                        "`{a}` (layer {ra}) uses `{b}` (layer {rb}), a higher layer"
                    ));
                }
            }
        }
    }
    // Cycles: a peer that reaches itself again, each circle reported once.
    let next = |m: &ModPath| -> Vec<ModPath> {
        edges
            .iter()
            .filter(|(a, _)| a == m)
            .map(|(_, b)| b.clone())
            .collect()
    };
    let mut reported = BTreeSet::new();
    for start in edges
        .iter()
        .map(|(a, _)| a.clone())
        .collect::<BTreeSet<_>>()
    {
        let mut stack = vec![vec![start.clone()]];
        let mut seen = BTreeSet::new();
        while let Some(chain) = stack.pop() {
            for n in next(chain.last().unwrap()) {
                if n == start {
                    let mut names: Vec<String> = chain.iter().map(|m| m.join("::")).collect();
                    if reported.insert(names.iter().cloned().collect::<BTreeSet<_>>()) {
                        names.push(start.join("::"));
                        out.push(format!("import cycle: {}", names.join(" -> ")));
                    }
                } else if seen.insert(n.clone()) {
                    let mut longer = chain.clone();
                    longer.push(n);
                    stack.push(longer);
                }
            }
        }
    }
    out
}

#[test]
fn the_layers_point_one_way_and_no_modules_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    assert!(
        mods.contains_key(&vec!["game".to_string()]),
        "src/ was read"
    );
    let found = problems(&mods);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn game_and_search_neither_read_stdin_nor_print() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    assert!(
        mods.contains_key(&vec!["search".to_string(), "connect4".to_string()]),
        "src/ was read"
    );
    let found = loud(&mods);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_quiet_check_sees_printing_and_reading() {
    let mods: BTreeMap<ModPath, String> = [
        module("search::a", "fn f() { println!(\"{}\", 1); }\n"),
        module("search::b", "fn f() { eprint!(\"x\"); }\n"),
        module("game::c", "use std::io::{stdin, BufRead};\n"),
        module("game::d", "fn f() -> anyhow::Result<()> { Ok(()) }\n"),
        module(
            "game::e",
            "fn f(out: &mut dyn std::io::Write) { let _ = std::io::stderr(); }\n",
        ),
        // Comments, test code, names that only contain a word, and the layers above pass.
        module(
            "search::f",
            "// println!(\"x\");\nfn stdout_free(printed: u32) {}\n",
        ),
        module(
            "search::g",
            "#[cfg(test)]\nmod tests { fn f() { println!(); } }\n",
        ),
        module("search::tests", "fn f() { println!(); }\n"),
        module(
            "protocol",
            "fn f() { println!(); let _ = std::io::stdin(); }\n",
        ),
    ]
    .into_iter()
    .collect();
    let found = loud(&mods);
    let has = |s: &str| found.iter().any(|f| f.starts_with(s));
    assert!(has("`search::a` uses `println!`"), "{found:?}");
    assert!(has("`search::b` uses `eprint!`"), "{found:?}");
    assert!(has("`game::c` uses `stdin`"), "{found:?}");
    assert!(has("`game::d` uses `anyhow`"), "{found:?}");
    assert!(has("`game::e` uses `stderr`"), "{found:?}");
    assert_eq!(found.len(), 5, "{found:?}");
}

/// A module of the detectors' tests: its path (`arena::referee`) and its text.
fn module(path: &str, text: &str) -> (ModPath, String) {
    (
        path.split("::").map(str::to_string).collect(),
        text.to_string(),
    )
}

#[test]
fn the_check_sees_a_breach_and_a_cycle() {
    let mods: BTreeMap<ModPath, String> = [
        module("game", "use crate::search::{self, Limits};\n"),
        module("search", "use crate::game::Move;\n"),
        module("arena", "pub mod referee;\npub mod swap2;\n"),
        module("arena::referee", "use super::swap2::{self, OpeningRule};\n"),
        module(
            "arena::swap2",
            "// use super::referee::judge;\nuse super::{referee::judge, Named};\n",
        ),
        module("base", "#[cfg(test)]\nmod tests { use crate::cli::Cli; }\n"),
    ]
    .into_iter()
    .collect();
    let found = problems(&mods);
    let has = |s: &str| found.iter().any(|f| f.contains(s));
    assert!(has("`game` (layer 1) uses `search` (layer 2)"), "{found:?}");
    assert!(has("import cycle: game -> search -> game"), "{found:?}");
    assert!(
        has("arena::referee -> arena::swap2 -> arena::referee"),
        "{found:?}"
    );
    assert!(!has("base"), "test code is not a dependency: {found:?}");
    assert_eq!(found.len(), 3, "{found:?}");
}
