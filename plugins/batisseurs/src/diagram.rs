//! Positions written as text diagrams, for tests and tools, and a position moved on in
//! rounds.

use veillee_sdk::Seat;

use crate::board::{self, Sq, PIECES};
use crate::{Batisseurs, WHITE};

impl Batisseurs {
    /// A position from a diagram, for tests and tools: nine lines for rows 1 (top) to 9,
    /// nine characters each for columns `a`–`i` (spaces ignored, an optional row number
    /// first). White's pieces in capitals, Black's in small letters: `T` the tower, `G` a
    /// gate, `W` a wall square (a run of three, or six for two walls side by side); `.` (or
    /// any other character) an empty square. Each player has exactly one tower, two gates
    /// and two walls.
    ///
    /// Nothing has been played yet; `to_move` is to move. Walls and gates take their
    /// numbers (`wall1`, `gate1` …) in square order.
    pub fn from_diagram(diagram: &str, to_move: Seat) -> Result<Batisseurs, String> {
        let mut lines: Vec<Vec<char>> = diagram
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<_>>()
            })
            .filter(|line| !line.is_empty())
            .collect();
        for (row, line) in lines.iter_mut().enumerate() {
            if line.len() == 10 && line[0] == (b'1' + row as u8) as char {
                line.remove(0);
            }
        }
        if lines.len() != 9 || lines.iter().any(|l| l.len() != 9) {
            return Err("a diagram is 9 lines (rows 1 to 9) of 9 squares (a to i)".into());
        }
        if to_move > 1 {
            return Err(format!("seat {to_move} does not play Bâtisseurs"));
        }
        let mut at = [[Sq::MAX; PIECES as usize]; 2];
        for seat in 0..2u8 {
            let letter = |c: char| {
                if seat == WHITE {
                    c
                } else {
                    c.to_ascii_lowercase()
                }
            };
            let (mut towers, mut gates, mut walls) = (Vec::new(), Vec::new(), Vec::new());
            for (row, line) in lines.iter().enumerate() {
                let mut run = 0;
                for col in 0..=9usize {
                    let s = board::sq(col.min(8) as u8, row as u8);
                    let c = line.get(col).copied().unwrap_or('.');
                    if col < 9 && c == letter('W') {
                        run += 1;
                        continue;
                    }
                    if run % 3 != 0 {
                        return Err(format!(
                            "a run of {run} `{}` on row {}",
                            letter('W'),
                            row + 1
                        ));
                    }
                    let end = if col < 9 { s } else { s + 1 };
                    for k in 0..run / 3 {
                        walls.push(end - (run - 3 * k) as u8 + 1);
                    }
                    run = 0;
                    if col < 9 && c == letter('T') {
                        towers.push(s);
                    } else if col < 9 && c == letter('G') {
                        gates.push(s);
                    }
                }
            }
            if towers.len() != 1 || gates.len() != 2 || walls.len() != 2 {
                return Err(format!(
                    "seat {seat} needs one tower, two gates and two walls, not {}, {} and {}",
                    towers.len(),
                    gates.len(),
                    walls.len()
                ));
            }
            at[seat as usize] = [walls[0], walls[1], towers[0], gates[0], gates[1]];
        }
        Ok(Batisseurs::position(at, to_move))
    }

    /// The same position after `rounds` rounds (for the safety limit's draw offer).
    pub fn with_rounds(mut self, rounds: u16) -> Batisseurs {
        self.rounds = rounds;
        self
    }
}
