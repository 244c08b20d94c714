//! Solves known m,n,k values from the empty board and prints value, plies, nodes and time
//! for each: `cargo run --release --example mnk_bench -- [max_cells | m,n,k ...]`.
//! With `m,n,k` arguments only those known values are solved; with a number, every known
//! value on a board of at most that many cells (default 49).

use wuzi::solve::mnk::{bench_values, KNOWN_VALUES};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let named: Vec<_> = KNOWN_VALUES
        .iter()
        .filter(|v| args.contains(&format!("{},{},{}", v.width, v.height, v.k)))
        .copied()
        .collect();
    let chosen = if named.is_empty() {
        let max_cells = args.iter().find_map(|a| a.parse().ok()).unwrap_or(49usize);
        KNOWN_VALUES
            .iter()
            .filter(|v| v.width * v.height <= max_cells)
            .copied()
            .collect()
    } else {
        named
    };
    let wrong = bench_values(&chosen, &mut std::io::stdout())?;
    if wrong > 0 {
        anyhow::bail!("{wrong} values disagree with the literature");
    }
    Ok(())
}
