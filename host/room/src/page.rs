//! The phone page: one HTML file, its script and its style, embedded in the binary. The
//! script draws the seat's scene as SVG from the scene JSON the room sends (see
//! ARCHITECTURE.md, "The room"), and turns taps into the same click paths as the window.

/// `/` and `/s/TOKEN`.
pub const HTML: &str = include_str!("page/index.html");
/// `/phone.js`.
pub const JS: &str = include_str!("page/phone.js");
/// `/phone.css`.
pub const CSS: &str = include_str!("page/phone.css");
