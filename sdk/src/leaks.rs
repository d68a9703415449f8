//! What each viewer reads of a game: the one reading both leak checks compare — the native
//! `testing::random_games` every game crate runs, and the conformance kit the host runs on a
//! plugin. A leak is a difference, between a game and a copy of it whose hidden part was
//! re-drawn for a viewer, in what that viewer reads here.

use crate::{Action, Event, Manifest, Seat, Target, Text};

/// What `seat` reads of its own legal actions: each one's id, click path and label (its
/// private label where it has one).
pub fn actions_read(actions: &[Action], seat: Seat) -> Vec<(&str, &[Target], &Text)> {
    actions
        .iter()
        .map(|a| {
            (
                a.id.as_str(),
                a.path.as_slice(),
                a.label_for(seat, Some(seat)),
            )
        })
        .collect()
}

/// The texts `viewer` reads of the events of `actor`'s move, leaving out the reveals (a
/// reveal may differ between a game and a re-drawn copy: it shows what was hidden).
pub fn read_by(events: &[Event], actor: Seat, viewer: Option<Seat>) -> Vec<Text> {
    events
        .iter()
        .filter(|e| !e.reveal)
        .map(|e| e.text_for(Some(actor), viewer).clone())
        .collect()
}

/// How a leak report names a viewer: `the spectator`, or `seat 1, Red` (seat numbers from
/// 0, as in action ids).
pub fn viewer_name(manifest: &Manifest, viewer: Option<Seat>) -> String {
    match viewer {
        None => "the spectator".into(),
        Some(seat) => match manifest.seats.get(usize::from(seat)) {
            Some(info) => format!("seat {seat}, {}", info.name.en),
            None => format!("seat {seat}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reveal_is_left_out_and_a_private_text_is_read_by_its_seat_alone() {
        let events = vec![
            Event::new(Text::same("public")).with_private(Vec::new(), Text::same("yours")),
            Event::reveal(Text::same("shown")),
        ];
        assert_eq!(read_by(&events, 0, Some(0)), vec![Text::same("yours")]);
        assert_eq!(read_by(&events, 0, Some(1)), vec![Text::same("public")]);
        assert_eq!(read_by(&events, 0, None), vec![Text::same("public")]);
    }
}
