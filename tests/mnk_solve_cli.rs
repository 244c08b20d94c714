//! The `solve` subcommand's contract: one line in, `value plies nodes microseconds` out.

use wuzi::game::mnk::solve_cli;

fn run(args: &[&str], input: &str) -> anyhow::Result<Vec<Vec<String>>> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    solve_cli(&args, &mut input.as_bytes(), &mut out)?;
    Ok(String::from_utf8(out)?
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
    assert!(run(&["--width", "2"], "\n").is_err());
    assert!(run(&["--k", "9"], "\n").is_err());
    assert!(run(&["--bogus"], "\n").is_err());
    assert!(run(&[], "1,1 1,1\n").is_err());
    assert!(run(&[], "5,5\n").is_err());
    assert!(run(&[], "a,b\n").is_err());
    assert!(run(&[], "11\n").is_err());
}
