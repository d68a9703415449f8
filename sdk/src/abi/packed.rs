//! The packed playout result of `veillee_playout_packed` (ABI 1.13): a
//! [`crate::PlayoutResult`] as a few little-endian integers and two texts, written by the
//! plugin into its kept output buffer and read by the host straight from the plugin's memory
//! — no JSON to write, scan and parse for every random game.
//!
//! | field | bytes |
//! |---|---|
//! | moves played | `u32` |
//! | flags: `1` the game finished (an outcome follows), `2` stuck | `u8` |
//! | *when finished:* winners: their count, then one seat each | `u32`, `u8` × count |
//! | scores: their count, then one each | `u32`, `i64` × count |
//! | the reason in French, then in English: a length, then UTF-8 | `u32` + bytes, twice |
//!
//! Nothing follows the last field.

use crate::{Outcome, PlayoutResult, Text};

/// Flag: an outcome follows.
const FINISHED: u8 = 1;
/// Flag: a seat was to act with no legal move.
const STUCK: u8 = 2;

/// Appends `result`, packed, to `out`. Fails only when a list or a text is longer than a
/// `u32` counts.
pub fn write(result: &PlayoutResult, out: &mut Vec<u8>) -> Result<(), String> {
    out.extend_from_slice(&result.moves.to_le_bytes());
    let flags = if result.outcome.is_some() {
        FINISHED
    } else {
        0
    } | if result.stuck { STUCK } else { 0 };
    out.push(flags);
    let Some(outcome) = &result.outcome else {
        return Ok(());
    };
    write_count(out, outcome.winners.len(), "winners")?;
    out.extend_from_slice(&outcome.winners);
    write_count(out, outcome.scores.len(), "scores")?;
    for score in &outcome.scores {
        out.extend_from_slice(&score.to_le_bytes());
    }
    for text in [&outcome.reason.fr, &outcome.reason.en] {
        write_count(out, text.len(), "bytes of reason")?;
        out.extend_from_slice(text.as_bytes());
    }
    Ok(())
}

fn write_count(out: &mut Vec<u8>, count: usize, what: &str) -> Result<(), String> {
    let count = u32::try_from(count).map_err(|_| format!("{count} {what} do not fit a u32"))?;
    out.extend_from_slice(&count.to_le_bytes());
    Ok(())
}

/// Reads a packed result. `bytes` come from a plugin: every count is checked against the
/// bytes left before anything is allocated, and the error says what did not add up.
pub fn read(bytes: &[u8]) -> Result<PlayoutResult, String> {
    let mut at = Reader { bytes, at: 0 };
    let moves = at.u32("the moves played")?;
    let flags = at.take(1, "the flags")?[0];
    if flags & !(FINISHED | STUCK) != 0 {
        return Err(format!("unknown flags {flags:#04x} (only 1 and 2 exist)"));
    }
    let outcome = if flags & FINISHED != 0 {
        let winners = at.u32("the number of winners")? as usize;
        let winners = at.take(winners, "the winners")?.to_vec();
        let scores = at.u32("the number of scores")? as usize;
        let scores = at
            .take(scores.saturating_mul(8), "the scores")?
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().expect("chunks of 8")))
            .collect();
        let fr = at.text("the reason in French")?;
        let en = at.text("the reason in English")?;
        Some(Outcome {
            winners,
            scores,
            reason: Text { fr, en },
        })
    } else {
        None
    };
    if at.at != bytes.len() {
        return Err(format!(
            "{} bytes follow the end of the result",
            bytes.len() - at.at
        ));
    }
    Ok(PlayoutResult {
        moves,
        outcome,
        stuck: flags & STUCK != 0,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize, what: &str) -> Result<&'a [u8], String> {
        let left = self.bytes.len() - self.at;
        if len > left {
            return Err(format!(
                "it ends at byte {} where {what} needed {len} bytes more",
                self.bytes.len()
            ));
        }
        let taken = &self.bytes[self.at..self.at + len];
        self.at += len;
        Ok(taken)
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let bytes = self.take(4, what)?;
        Ok(u32::from_le_bytes(bytes.try_into().expect("4 bytes")))
    }

    fn text(&mut self, what: &str) -> Result<String, String> {
        let len = self.u32(what)? as usize;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| format!("{what} is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text;

    fn packed(result: &PlayoutResult) -> Vec<u8> {
        let mut out = Vec::new();
        write(result, &mut out).unwrap();
        out
    }

    #[test]
    fn every_kind_of_result_reads_back_as_written() {
        let results = [
            PlayoutResult {
                moves: 47,
                outcome: Some(Outcome {
                    winners: vec![1],
                    scores: vec![-3, i64::MAX],
                    reason: text("le seigneur est pris — fin", "the lord is captured"),
                }),
                stuck: false,
            },
            PlayoutResult {
                moves: 0,
                outcome: Some(Outcome::draw(text("", ""))),
                stuck: false,
            },
            PlayoutResult {
                moves: u32::MAX,
                outcome: None,
                stuck: true,
            },
        ];
        for result in results {
            assert_eq!(read(&packed(&result)), Ok(result));
        }
    }

    #[test]
    fn a_result_that_does_not_add_up_is_refused_with_what_is_wrong() {
        let good = packed(&PlayoutResult {
            moves: 5,
            outcome: Some(Outcome::win(0, text("fini", "done"))),
            stuck: false,
        });
        let cut = read(&good[..good.len() - 1]).unwrap_err();
        assert!(cut.contains("the reason in English"), "{cut}");
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(
            read(&longer).unwrap_err(),
            "1 bytes follow the end of the result"
        );
        let mut flags = good.clone();
        flags[4] = 4;
        assert!(read(&flags).unwrap_err().contains("unknown flags"));
        // A count far beyond the bytes sent is refused before anything is allocated.
        let mut huge = 5u32.to_le_bytes().to_vec();
        huge.push(FINISHED);
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(read(&huge)
            .unwrap_err()
            .contains("the winners needed 4294967295"));
        let mut not_utf8 = good;
        let at = not_utf8.len() - 1;
        not_utf8[at] = 0xff;
        assert_eq!(
            read(&not_utf8).unwrap_err(),
            "the reason in English is not UTF-8"
        );
    }
}
