//! QR codes of the seats' links, for the front ends to draw: the window paints the modules,
//! the terminal prints them with half blocks.

use qrcode::{Color, EcLevel, QrCode};

/// A QR code as a square of modules, dark or light, without its quiet zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qr {
    /// Modules per side.
    pub width: usize,
    /// Row by row from the top-left: `true` is dark.
    pub dark: Vec<bool>,
}

/// Light modules around the code that readers need (the standard asks for four).
pub const QUIET_ZONE: usize = 4;

impl Qr {
    /// The code of `text` (a link), with medium error correction so that a glare on a TV
    /// screen still reads; `None` if the text is too long for any QR code.
    pub fn new(text: &str) -> Option<Qr> {
        let code = QrCode::with_error_correction_level(text, EcLevel::M).ok()?;
        let width = code.width();
        let dark = code
            .to_colors()
            .into_iter()
            .map(|c| c == Color::Dark)
            .collect();
        Some(Qr { width, dark })
    }

    /// Whether the module at (x, y) is dark; outside the code (the quiet zone) is light.
    pub fn is_dark(&self, x: isize, y: isize) -> bool {
        let inside = |v: isize| (0..self.width as isize).contains(&v);
        inside(x) && inside(y) && self.dark[y as usize * self.width + x as usize]
    }

    /// The code for a terminal, two rows of modules per line, quiet zone included. Light
    /// modules are drawn (`█`, `▀`, `▄`) and dark ones left blank, which reads right on the
    /// usual dark terminal background.
    pub fn terminal(&self) -> String {
        let q = QUIET_ZONE as isize;
        let side = self.width as isize + 2 * q;
        let mut out = String::new();
        for top in (0..side).step_by(2) {
            for x in 0..side {
                let upper = !self.is_dark(x - q, top - q);
                let lower = top + 1 < side && !self.is_dark(x - q, top + 1 - q);
                out.push(match (upper, lower) {
                    (true, true) => '█',
                    (true, false) => '▀',
                    (false, true) => '▄',
                    (false, false) => ' ',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_makes_a_square_code_with_its_finder_patterns() {
        let qr =
            Qr::new("http://192.168.1.20:41234/s/12-0123456789abcdef0123456789abcdef").unwrap();
        assert_eq!(qr.dark.len(), qr.width * qr.width);
        // The top-left finder pattern: a dark 7×7 ring around a light ring and a dark core.
        assert!((0..7).all(|i| qr.is_dark(i, 0) && qr.is_dark(0, i)));
        assert!(!qr.is_dark(1, 1) && qr.is_dark(3, 3));
        assert!(!qr.is_dark(-1, 0), "the quiet zone is light");
        let text = qr.terminal();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), (qr.width + 2 * QUIET_ZONE).div_ceil(2));
        assert!(lines
            .iter()
            .all(|l| l.chars().count() == qr.width + 2 * QUIET_ZONE));
        assert!(
            lines[0].chars().all(|c| c == '█'),
            "the quiet zone is drawn light"
        );
    }
}
