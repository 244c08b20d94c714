//! The `solve` subcommand's contract: one line in, `value plies nodes microseconds` out.

use clap::Parser;
use wuzi::cli::{Cli, CliError, Command};

/// Runs `pbrain-wuzi solve --game mnk ARGS` on `input`, as the binary parses and runs it.
fn run(args: &[&str], input: &str) -> Result<Vec<Vec<String>>, String> {
    let argv = ["pbrain-wuzi", "solve", "--game", "mnk"]
        .into_iter()
        .chain(args.iter().copied());
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    let Some(Command::Solve(solve)) = cli.command else {
        panic!("not a solve command line");
    };
    let mut out = Vec::new();
    solve
        .run(&mut input.as_bytes(), &mut out)
        .map_err(|e| match e {
            CliError::Usage(u) => format!("usage: {u}"),
            CliError::Failed(e) => format!("failed: {e:#}"),
        })?;
    Ok(String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect())
}

#[test]
fn solves_one_position_per_line() {
    let lines = run(
        &["--width", "3", "--height", "3", "--k", "3"],
        "\n1,1\n0,0 1,0 0,1\n1,1 0,0 2,2 2,0\n",
    )
    .unwrap();
    assert_eq!(lines.len(), 4);
    let heads: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| (l[0].as_str(), l[1].as_str()))
        .collect();
    // Empty board: a draw fills the board (9 plies); after the centre, 8 are left.
    assert_eq!(heads[0], ("draw", "9"));
    assert_eq!(heads[1], ("draw", "8"));
    // O to move blocks 0,2; X 1,1 then threatens 2,2 and 2,1: O loses on ply 4.
    assert_eq!(heads[2], ("loss", "4"));
    // X must block 1,0, which only trades threats: a draw over the 5 empty cells.
    assert_eq!(heads[3], ("draw", "5"));
    for l in &lines {
        assert_eq!(l.len(), 4);
        assert!(l[2].parse::<u64>().is_ok() && l[3].parse::<u64>().is_ok());
    }
}

#[test]
fn rectangles_and_size_shorthand() {
    let lines = run(&["--width=4", "--height=3", "--k=3"], "\n").unwrap();
    assert_eq!((lines[0][0].as_str(), lines[0][1].as_str()), ("win", "7"));
    let lines = run(&["--size", "4", "--k", "3"], "\n").unwrap();
    assert_eq!((lines[0][0].as_str(), lines[0][1].as_str()), ("win", "5"));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    // options the game cannot use are usage errors, before any input is read
    for args in [
        &["--width", "2"][..],
        &["--k", "9"],
        &["--weak"],
        &["--timeout-s", "1"],
    ] {
        let e = run(args, "\n").unwrap_err();
        assert!(e.starts_with("usage: "), "{args:?}: {e}");
    }
    assert!(run(&["--bogus"], "\n").is_err());
    // bad positions fail the run
    for input in ["1,1 1,1\n", "5,5\n", "a,b\n", "11\n"] {
        let e = run(&[], input).unwrap_err();
        assert!(e.starts_with("failed: "), "{input:?}: {e}");
    }
}
