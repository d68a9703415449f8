//! What `play` waits for: lines typed at the terminal and, with phone seats, the phones'
//! moves, on one channel — so that the host can type at the big screen (undo, redo, save
//! and quit) while the phones think, and a phone can answer while the terminal asks.
//!
//! The terminal is read on a thread of its own, line by line; the room's moves are forwarded
//! by another.

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{channel, Receiver, Sender};

use veillee_room::PhoneMove;

/// Something for the play loop.
pub enum Input {
    /// A line typed at the terminal (without its line break).
    Line(String),
    /// A move from a phone, checked against its seat's state.
    Phone(PhoneMove),
}

/// What the terminal's thread and the room's forwarder send.
enum Sent {
    Input(Input),
    /// The terminal's input ended (end of file, or it cannot be read).
    End,
}

/// The play loop's inputs.
pub struct Inputs {
    receiver: Receiver<Sent>,
    /// For the room's forwarder, until one is started.
    spare: Option<Sender<Sent>>,
    /// Phones' moves that came while the terminal was asking its own question.
    queued: VecDeque<PhoneMove>,
    /// Whether the terminal's input ended.
    ended: bool,
}

impl Inputs {
    /// Starts reading the terminal's standard input on its own thread.
    pub fn from_terminal() -> Inputs {
        let (sender, receiver) = channel();
        let lines = sender.clone();
        // The thread stays blocked on the terminal until the process ends: nothing else
        // reads standard input while a game is played.
        let _ = std::thread::Builder::new()
            .name("veillee-terminal".into())
            .spawn(move || {
                for line in std::io::stdin().lock().lines() {
                    let Ok(line) = line else { break };
                    if lines.send(Sent::Input(Input::Line(line))).is_err() {
                        return;
                    }
                }
                let _ = lines.send(Sent::End);
            });
        Inputs {
            receiver,
            spare: Some(sender),
            queued: VecDeque::new(),
            ended: false,
        }
    }

    /// Forwards the room's moves here (once; the forwarder ends with the room).
    pub fn forward(&mut self, moves: Receiver<PhoneMove>) {
        let Some(sender) = self.spare.take() else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("veillee-phones".into())
            .spawn(move || {
                for mv in moves {
                    if sender.send(Sent::Input(Input::Phone(mv))).is_err() {
                        return;
                    }
                }
            });
    }

    /// The next line typed at the terminal, keeping phones' moves for later; `None` once the
    /// terminal's input ended.
    pub fn line(&mut self) -> Option<String> {
        while !self.ended {
            match self.receiver.recv() {
                Ok(Sent::Input(Input::Line(line))) => return Some(line),
                Ok(Sent::Input(Input::Phone(mv))) => self.queued.push_back(mv),
                Ok(Sent::End) | Err(_) => self.ended = true,
            }
        }
        None
    }

    /// The next phone move (those kept while the terminal asked first) or typed line;
    /// `None` when neither can come any more.
    pub fn next(&mut self) -> Option<Input> {
        if let Some(mv) = self.queued.pop_front() {
            return Some(Input::Phone(mv));
        }
        loop {
            match self.receiver.recv() {
                Ok(Sent::Input(input)) => return Some(input),
                // Without a terminal, phones still play.
                Ok(Sent::End) => self.ended = true,
                Err(_) => return None,
            }
        }
    }
}
