//! `veillee play`: a game in the terminal, hot-seat between humans and random players.

use std::io::{BufRead, Write};

use anyhow::{bail, Context};
use veillee_sdk::{GameRng, Seat, Setup, Status};

use super::board_text::render;
use crate::catalog::Catalog;
use crate::engine::GameEngine;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Player {
    Human,
    Random,
}

pub fn run(
    catalog: &Catalog,
    game: &str,
    seats: &[String],
    seed: Option<u64>,
    lang: &str,
) -> anyhow::Result<()> {
    let mut engine = catalog.engine(game)?;
    let players = parse_seats(seats)?;
    let seed = seed.unwrap_or_else(clock_seed);
    let manifest = engine.manifest().clone();
    let handle = engine.create(&Setup::new(players.len() as u8, seed))?;
    println!(
        "{} — seed {seed} (replay it with --seed {seed})",
        manifest.name.get(lang)
    );
    let mut rng = GameRng::new(seed ^ 0xb07);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut last_human: Option<Seat> = None;
    loop {
        let status = engine.status(handle)?;
        let seat = match &status {
            Status::Finished { outcome } => {
                println!("{}", render(&engine.view(handle, None)?, lang));
                let winners: Vec<String> = outcome
                    .winners
                    .iter()
                    .map(|&w| seat_name(&manifest, w, lang))
                    .collect();
                match winners.is_empty() {
                    true => println!("Draw — {}", outcome.reason.get(lang)),
                    false => println!(
                        "Winner: {} — {}",
                        winners.join(", "),
                        outcome.reason.get(lang)
                    ),
                }
                return Ok(());
            }
            Status::ToAct { seats } => *seats.first().context("no seat to act")?,
        };
        let player = *players
            .get(seat as usize)
            .context("the game asked an unknown seat to act")?;
        let actions = engine.legal_actions(handle, seat)?;
        let chosen = if player == Player::Human {
            if manifest.hidden_information && last_human.is_some_and(|s| s != seat) {
                println!(
                    "\n\n==== Pass to {} — press Enter when ready ====",
                    seat_name(&manifest, seat, lang)
                );
                let mut line = String::new();
                input.read_line(&mut line)?;
                print!("\x1b[2J\x1b[H");
            }
            last_human = Some(seat);
            println!("\n{}", render(&engine.view(handle, Some(seat))?, lang));
            for (i, action) in actions.iter().enumerate() {
                println!(
                    "  {:>3}. {}  [{}]",
                    i + 1,
                    action.label.get(lang),
                    action.id
                );
            }
            match ask(
                &mut input,
                &actions.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(),
                &seat_name(&manifest, seat, lang),
            )? {
                Some(i) => i,
                None => {
                    println!("Game abandoned (seed {seed}).");
                    return Ok(());
                }
            }
        } else {
            rng.below(actions.len())
        };
        let action = &actions[chosen];
        let events = engine.apply(handle, seat, &action.id)?;
        println!(
            "{}: {}",
            seat_name(&manifest, seat, lang),
            action.label.get(lang)
        );
        for event in events {
            println!("    {}", event.text.get(lang));
        }
    }
}

/// Asks until the answer is an action number or id; `None` on `q` or end of input.
fn ask(input: &mut impl BufRead, ids: &[&str], who: &str) -> anyhow::Result<Option<usize>> {
    loop {
        print!("{who}, your move (number or id, q to quit): ");
        std::io::stdout().flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let answer = line.trim();
        if answer == "q" {
            return Ok(None);
        }
        if let Ok(n) = answer.parse::<usize>() {
            if (1..=ids.len()).contains(&n) {
                return Ok(Some(n - 1));
            }
        }
        if let Some(i) = ids.iter().position(|id| *id == answer) {
            return Ok(Some(i));
        }
        println!(
            "`{answer}` is not one of the {} moves listed above.",
            ids.len()
        );
    }
}

fn parse_seats(seats: &[String]) -> anyhow::Result<Vec<Player>> {
    seats
        .iter()
        .map(|s| match s.trim() {
            "human" => Ok(Player::Human),
            "random" | "bot" => Ok(Player::Random),
            other => bail!("seat kind `{other}` is unknown: use human or random"),
        })
        .collect()
}

fn seat_name(manifest: &veillee_sdk::Manifest, seat: Seat, lang: &str) -> String {
    manifest
        .seats
        .get(seat as usize)
        .map(|s| s.name.get(lang).to_string())
        .unwrap_or_else(|| format!("seat {seat}"))
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs())
}
