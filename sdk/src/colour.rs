//! Colours of seats, cells, pieces and cards.

use serde::{Deserialize, Serialize};

/// An sRGB colour, written `"#rrggbb"` in JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Colour {
    /// A colour from its components.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Colour { r, g, b }
    }

    /// `"#rrggbb"`.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// Parses `"#rrggbb"`.
    pub fn from_hex(s: &str) -> Option<Self> {
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Colour::rgb(byte(0)?, byte(2)?, byte(4)?))
    }
}

impl Serialize for Colour {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Colour {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Colour::from_hex(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a #rrggbb colour")))
    }
}

#[cfg(test)]
mod tests {
    use super::Colour;

    #[test]
    fn colours_are_hex_in_json() {
        let c = Colour::rgb(0x12, 0xab, 0xff);
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"#12abff\"");
        assert_eq!(serde_json::from_str::<Colour>("\"#12abff\"").unwrap(), c);
        assert!(serde_json::from_str::<Colour>("\"red\"").is_err());
    }
}
