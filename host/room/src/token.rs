//! The secrets of a room: one random token per seat (what a seat's link carries) and one
//! random claim per phone that took a seat (what lets the same phone come back).
//!
//! Both are 128 bits from the operating system's random source, written in lower-case hex.
//! A token names its session in clear (`12-3f9a…`), so that a link kept from another game
//! is refused with a message that says so; the session number is no secret, the 128 bits
//! are.

use std::fmt;

/// Random bits in a token or a claim.
const SECRET_BYTES: usize = 16;

/// A secret of [`SECRET_BYTES`] random bytes, in hex.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Fresh random bits from the operating system.
    pub fn random() -> Result<Secret, getrandom::Error> {
        let mut bytes = [0u8; SECRET_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Secret(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The secret as written in links and messages.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `text` is this secret, compared in constant time (a phone on the network
    /// learns nothing from how fast a wrong guess is refused).
    pub fn matches(&self, text: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), text.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// Secrets are never printed by accident (logs, panics).
impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// A seat's token: the session it belongs to and its secret, written `SESSION-HEX`.
#[derive(Clone, Debug)]
pub struct SeatToken {
    /// The session the room was opened for.
    pub session: u64,
    /// The random part.
    pub secret: Secret,
}

impl SeatToken {
    /// A fresh token for a seat of `session`.
    pub fn new(session: u64) -> Result<SeatToken, getrandom::Error> {
        Ok(SeatToken {
            session,
            secret: Secret::random()?,
        })
    }

    /// As written in the seat's link.
    pub fn text(&self) -> String {
        format!("{}-{}", self.session, self.secret.as_str())
    }
}

/// A token as a phone sent it, split into its session and its secret (unchecked).
pub fn parse(text: &str) -> Option<(u64, &str)> {
    let (session, secret) = text.split_once('-')?;
    Some((session.parse().ok()?, secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_128_random_bits_and_their_session() {
        let a = SeatToken::new(12).unwrap();
        let b = SeatToken::new(12).unwrap();
        assert_eq!(a.secret.as_str().len(), 32, "128 bits in hex");
        assert_ne!(a.secret, b.secret, "each token is drawn afresh");
        let text = a.text();
        assert_eq!(parse(&text), Some((12, a.secret.as_str())));
        assert!(a.secret.matches(a.secret.as_str()));
        assert!(!a.secret.matches(b.secret.as_str()));
        assert!(!a.secret.matches(""));
        assert_eq!(parse("garbage"), None);
        assert_eq!(parse("x-abc"), None);
        assert!(!format!("{a:?}").contains(a.secret.as_str()));
    }
}
