//! The launcher's look (an evening palette, large type for the sofa) and the few widgets the
//! screens share: buttons, cards, panels, a confirmation dialog.

use egui::{Color32, CornerRadius, FontId, Margin, RichText, Stroke, TextStyle, Ui, Vec2};

/// Window background.
pub const BACKGROUND: Color32 = Color32::from_rgb(0x1a, 0x1d, 0x2b);
/// Cards and panels.
pub const PANEL: Color32 = Color32::from_rgb(0x26, 0x2a, 0x3d);
/// Raised elements inside panels.
pub const RAISED: Color32 = Color32::from_rgb(0x33, 0x38, 0x50);
/// The accent: candle light.
pub const ACCENT: Color32 = Color32::from_rgb(0xf2, 0xb3, 0x4f);
/// Main text.
pub const TEXT: Color32 = Color32::from_rgb(0xf1, 0xed, 0xe4);
/// Secondary text.
pub const MUTED: Color32 = Color32::from_rgb(0xb4, 0xb3, 0xc2);
/// Errors.
pub const DANGER: Color32 = Color32::from_rgb(0xff, 0x7b, 0x72);
/// Success.
pub const GOOD: Color32 = Color32::from_rgb(0x7e, 0xe0, 0x9c);

/// Installs the palette and the large type on a context.
pub fn install_style(ctx: &egui::Context) {
    ctx.set_visuals(egui::Visuals::dark());
    ctx.global_style_mut(|style| {
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(34.0)),
            (TextStyle::Body, FontId::proportional(21.0)),
            (TextStyle::Button, FontId::proportional(21.0)),
            (TextStyle::Small, FontId::proportional(16.0)),
            (TextStyle::Monospace, FontId::monospace(19.0)),
        ]
        .into();
        style.spacing.item_spacing = Vec2::new(12.0, 10.0);
        style.spacing.button_padding = Vec2::new(16.0, 8.0);
        style.spacing.interact_size.y = 38.0;
        style.spacing.slider_width = 420.0;
        style.spacing.icon_width = 26.0;
        style.spacing.icon_width_inner = 14.0;
        style.spacing.icon_spacing = 10.0;
        let v = &mut style.visuals;
        v.panel_fill = BACKGROUND;
        v.window_fill = PANEL;
        v.extreme_bg_color = Color32::from_rgb(0x12, 0x14, 0x1f);
        v.override_text_color = Some(TEXT);
        v.selection.bg_fill = ACCENT.linear_multiply(0.6);
        v.hyperlink_color = ACCENT;
        v.widgets.inactive.weak_bg_fill = RAISED;
        v.widgets.inactive.bg_fill = RAISED;
        v.widgets.hovered.weak_bg_fill = Color32::from_rgb(0x44, 0x4a, 0x68);
        v.widgets.active.weak_bg_fill = Color32::from_rgb(0x55, 0x5c, 0x80);
        for w in [
            &mut v.widgets.inactive,
            &mut v.widgets.hovered,
            &mut v.widgets.active,
        ] {
            w.corner_radius = CornerRadius::same(8);
        }
        v.widgets.hovered.bg_stroke = Stroke::new(1.5, ACCENT);
    });
}

/// Adds fonts after egui's own, for the symbols it lacks.
pub fn add_fallback_fonts(ctx: &egui::Context, fonts: Vec<(String, Vec<u8>)>) {
    for (name, bytes) in fonts {
        ctx.add_font(egui::epaint::text::FontInsert::new(
            &name,
            egui::FontData::from_owned(bytes),
            vec![
                egui::epaint::text::InsertFontFamily {
                    family: egui::FontFamily::Proportional,
                    priority: egui::epaint::text::FontPriority::Lowest,
                },
                egui::epaint::text::InsertFontFamily {
                    family: egui::FontFamily::Monospace,
                    priority: egui::epaint::text::FontPriority::Lowest,
                },
            ],
        ));
    }
}

/// A prominent button in the accent colour.
pub fn primary(ui: &mut Ui, text: &str) -> egui::Response {
    ui.add(
        egui::Button::new(
            RichText::new(text)
                .color(Color32::from_rgb(0x20, 0x18, 0x08))
                .strong(),
        )
        .fill(ACCENT)
        .min_size(Vec2::new(0.0, 44.0)),
    )
}

/// An ordinary button, a little taller than egui's.
pub fn button(ui: &mut Ui, text: &str) -> egui::Response {
    ui.add(egui::Button::new(text).min_size(Vec2::new(0.0, 40.0)))
}

/// A button for something that destroys data.
pub fn danger(ui: &mut Ui, text: &str) -> egui::Response {
    ui.add(
        egui::Button::new(RichText::new(text).color(DANGER))
            .stroke(Stroke::new(1.0, DANGER))
            .min_size(Vec2::new(0.0, 40.0)),
    )
}

/// A rounded panel around some content.
pub fn card<R>(ui: &mut Ui, add: impl FnOnce(&mut Ui) -> R) -> R {
    egui::Frame::new()
        .fill(PANEL)
        .corner_radius(CornerRadius::same(14))
        .inner_margin(Margin::same(18))
        .stroke(Stroke::new(1.0, RAISED))
        .show(ui, add)
        .inner
}

/// The frame of a bar or side panel of the play and replay screens.
pub fn panel_frame(margin: i8) -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .inner_margin(Margin::same(margin))
}

/// Whether the window is short (1024×600, or a large interface scale): the play screen
/// draws smaller cards and text so that a hand and the scores fit without scrolling.
pub fn short_window(ctx: &egui::Context) -> bool {
    ctx.content_rect().height() < 700.0
}

/// The width of the play and replay screens' side panel in this window.
pub fn side_width(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().width() * 0.27).clamp(320.0, 440.0)
}

/// A screen title.
pub fn title(ui: &mut Ui, text: &str) {
    ui.label(RichText::new(text).heading().color(ACCENT));
}

/// A message in words about something that went wrong, with a button to dismiss it.
/// Returns true when dismissed.
pub fn error_panel(ui: &mut Ui, heading: &str, detail: &str, dismiss: &str) -> bool {
    let mut dismissed = false;
    egui::Frame::new()
        .fill(Color32::from_rgb(0x4a, 0x22, 0x26))
        .corner_radius(CornerRadius::same(10))
        .inner_margin(Margin::same(14))
        .stroke(Stroke::new(1.5, DANGER))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("⚠ {heading}")).strong().color(DANGER));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    dismissed = button(ui, dismiss).clicked();
                });
            });
            ui.label(detail);
        });
    dismissed
}

/// A note that something went well.
pub fn info_panel(ui: &mut Ui, text: &str, dismiss: &str) -> bool {
    let mut dismissed = false;
    egui::Frame::new()
        .fill(Color32::from_rgb(0x1f, 0x3d, 0x2c))
        .corner_radius(CornerRadius::same(10))
        .inner_margin(Margin::same(12))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(RichText::new(text).color(GOOD));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    dismissed = button(ui, dismiss).clicked();
                });
            });
        });
    dismissed
}

/// What the user answered in a confirmation dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not answered yet.
    Open,
    /// Confirmed.
    Yes,
    /// Cancelled.
    No,
}

/// A modal confirmation over the whole window, for something that destroys data.
pub fn confirm(ctx: &egui::Context, id: &str, body: &str, yes: &str, no: &str) -> Answer {
    ask(ctx, id, body, yes, no, true)
}

/// A modal question over the whole window; `destructive` draws "yes" as a danger button.
pub fn ask(
    ctx: &egui::Context,
    id: &str,
    body: &str,
    yes: &str,
    no: &str,
    destructive: bool,
) -> Answer {
    let mut answer = Answer::Open;
    egui::Modal::new(egui::Id::unique(id)).show(ctx, |ui| {
        ui.set_max_width(620.0);
        ui.label(body);
        ui.add_space(12.0);
        ui.horizontal(|ui| {
            let yes = if destructive {
                danger(ui, yes)
            } else {
                primary(ui, yes)
            };
            if yes.clicked() {
                answer = Answer::Yes;
            }
            if button(ui, no).clicked() {
                answer = Answer::No;
            }
        });
    });
    answer
}

/// A one-line text field with a visible label that also names it for screen readers.
pub fn text_field(ui: &mut Ui, label: &str, value: &mut String, width: f32) -> egui::Response {
    let label = ui.label(label);
    ui.add(egui::TextEdit::singleline(value).desired_width(width))
        .labelled_by(label.id)
}

/// A spinner with a line of text.
pub fn busy(ui: &mut Ui, text: &str) {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(RichText::new(text).color(MUTED));
    });
}

/// A seat's colour as a round token of `size` points, outlined so that dark colours read on
/// the dark theme.
pub fn seat_dot(ui: &mut Ui, fill: Color32, size: f32) {
    let (r, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let outline = if size >= 18.0 { 2.0 } else { 1.0 };
    ui.painter().circle(
        r.center(),
        size / 2.0 - 1.0,
        fill,
        egui::Stroke::new(outline, Color32::WHITE),
    );
}

/// Converts a game colour.
pub fn colour(c: veillee_sdk::Colour) -> Color32 {
    Color32::from_rgb(c.r, c.g, c.b)
}

/// Dark or light text, whichever reads best on `background`.
pub fn ink_on(background: Color32) -> Color32 {
    let [r, g, b, _] = background.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma > 140.0 {
        Color32::from_rgb(0x15, 0x15, 0x1c)
    } else {
        Color32::from_rgb(0xf7, 0xf4, 0xec)
    }
}
