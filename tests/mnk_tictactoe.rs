//! The m,n,k engine never loses tic-tac-toe: every sequence of opponent moves is tried, with
//! the engine moving first and second, and each of its moves comes from `think` exactly as
//! the protocol would call it.

use std::collections::HashMap;
use wuzi::game::mnk::Mnk;
use wuzi::game::{Color, Game, Outcome};
use wuzi::search::mnk::think;
use wuzi::search::{Limits, Stop, ThinkContext};

struct Tally {
    games: u64,
    engine_wins: u64,
    draws: u64,
}

fn engine_move(g: &Mnk) -> wuzi::game::Move {
    let options = HashMap::new();
    let mut report = |_: &wuzi::search::Iteration| {};
    let mut ctx = ThinkContext {
        limits: Limits::default(),
        stop: Stop::new(),
        report: &mut report,
        options: &options,
    };
    think(g, &mut ctx).best
}

/// Plays on from `g` with the engine as `engine`, branching over every opponent move.
fn explore(g: &mut Mnk, engine: Color, tally: &mut Tally) {
    if let Some(o) = g.outcome() {
        tally.games += 1;
        match o {
            Outcome::Win(c) if c == engine => tally.engine_wins += 1,
            Outcome::Win(_) => panic!("engine lost: {:?}", g),
            Outcome::Draw => tally.draws += 1,
        }
        return;
    }
    if g.side_to_move() == engine {
        let m = engine_move(g);
        g.try_play(m).expect("engine move must be legal");
        explore(g, engine, tally);
        g.undo();
    } else {
        for m in g.legal_moves() {
            g.play(m);
            explore(g, engine, tally);
            g.undo();
        }
    }
}

#[test]
fn engine_never_loses_tic_tac_toe_moving_first_or_second() {
    for engine in [Color::Black, Color::White] {
        let mut g = Mnk::new(3, 3, 3).unwrap();
        let mut tally = Tally {
            games: 0,
            engine_wins: 0,
            draws: 0,
        };
        explore(&mut g, engine, &mut tally);
        assert_eq!(tally.games, tally.engine_wins + tally.draws);
        // The engine punishes mistakes: some opponent sequences must lose.
        assert!(
            tally.engine_wins > 0,
            "{engine:?}: no wins in {} games",
            tally.games
        );
        // Perfect play against perfect play is a draw, so draws exist too.
        assert!(tally.draws > 0);
        eprintln!(
            "{engine:?}: {} games, {} won, {} drawn",
            tally.games, tally.engine_wins, tally.draws
        );
    }
}

#[test]
fn engine_wins_4_3_3_and_4_4_3_from_the_first_move_against_everything() {
    for (w, h) in [(4, 3), (4, 4)] {
        let mut g = Mnk::new(w, h, 3).unwrap();
        let mut tally = Tally {
            games: 0,
            engine_wins: 0,
            draws: 0,
        };
        explore(&mut g, Color::Black, &mut tally);
        assert_eq!(
            tally.engine_wins, tally.games,
            "{w}x{h}: a game was not won"
        );
    }
}
