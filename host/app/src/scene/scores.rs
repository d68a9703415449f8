//! The score lines as a small table, one column per seat.

use egui::{Color32, FontId, Painter, Ui};
use veillee_sdk::{Scene, ScoreLine, Seat, Text};

use crate::i18n::{Lang, S};
use crate::widgets::{self};

/// The scene's score lines as a small table. Lines about a seat are laid out with one
/// column per seat, headed by `seat`'s name and colour for it.
pub fn scores_ui(ui: &mut Ui, scene: &Scene, lang: Lang, seat: impl Fn(Seat) -> (String, Color32)) {
    if scene.scores.is_empty() {
        return;
    }
    ui.label(
        egui::RichText::new(lang.t(S::Scores))
            .strong()
            .color(widgets::MUTED),
    );
    let painter = ui.painter().clone();
    general_scores(ui, &painter, scene, lang);
    let figures = Figures::of(scene);
    if figures.seats.is_empty() {
        return;
    }
    match seat_layout(ui, &painter, lang, &figures, &seat) {
        SeatLayout::Lines => seat_lines(ui, scene, lang, &figures.seats, &seat),
        SeatLayout::Table(columns) => seat_table(ui, scene, lang, &figures, columns, &seat),
    }
}

/// How wide `text` is in `font`, on one line.
fn width(painter: &Painter, text: &str, font: FontId) -> f32 {
    painter
        .layout_no_wrap(text.to_string(), font, Color32::WHITE)
        .size()
        .x
}

/// The lines about no seat in particular: a table of labels and values, or, when that
/// does not fit across, each label with its value after it.
fn general_scores(ui: &mut Ui, painter: &Painter, scene: &Scene, lang: Lang) {
    let code = lang.code();
    let general: Vec<&ScoreLine> = scene.scores.iter().filter(|l| l.seat.is_none()).collect();
    let body = egui::TextStyle::Body.resolve(ui.style());
    let general_width = general
        .iter()
        .map(|l| {
            width(painter, l.label.get(code), body.clone())
                + 24.0
                + width(painter, &l.value, body.clone())
        })
        .fold(0.0, f32::max);
    if general_width > ui.available_width() {
        // A long label ("Moves without capture or advance") wraps, its value after it.
        for line in general {
            ui.horizontal_wrapped(|ui| {
                ui.label(line.label.get(code));
                ui.label(egui::RichText::new(&line.value).strong());
            });
        }
    } else if !general.is_empty() {
        egui::Grid::new("scores")
            .num_columns(2)
            .spacing([24.0, 6.0])
            .show(ui, |ui| {
                for line in general {
                    ui.label(line.label.get(code));
                    ui.label(egui::RichText::new(&line.value).strong());
                    ui.end_row();
                }
            });
    }
}

/// The seats that have figures and the kinds of figure, each once, in the order the lines
/// give them.
struct Figures<'a> {
    seats: Vec<Seat>,
    labels: Vec<&'a Text>,
}

impl<'a> Figures<'a> {
    fn of(scene: &'a Scene) -> Self {
        let mut seats: Vec<Seat> = Vec::new();
        let mut labels: Vec<&Text> = Vec::new();
        for line in &scene.scores {
            if let Some(s) = line.seat {
                if !seats.contains(&s) {
                    seats.push(s);
                }
                if !labels.contains(&&line.label) {
                    labels.push(&line.label);
                }
            }
        }
        Figures { seats, labels }
    }
}

/// How the seats' figures are laid out across the panel.
enum SeatLayout {
    /// One line per seat: even wrapped columns would be too narrow to read.
    Lines,
    /// One row per seat, one column per kind of figure.
    Table(Columns),
}

/// The columns of the seats' table.
#[derive(Clone, Copy)]
struct Columns {
    /// Whether the figures' names wrap, in columns `width` wide.
    wrapped: bool,
    width: f32,
}

/// One row per seat (there may be five), one column per kind of figure; when that does
/// not fit across the panel, the figures' names wrap in narrower columns (a 1024-wide
/// window's panel), unless even those would be too narrow to read: then one line per seat.
fn seat_layout(
    ui: &Ui,
    painter: &Painter,
    lang: Lang,
    figures: &Figures<'_>,
    seat: &impl Fn(Seat) -> (String, Color32),
) -> SeatLayout {
    let Figures { seats, labels } = figures;
    let body = egui::TextStyle::Body.resolve(ui.style());
    let names = seats
        .iter()
        .map(|&s| width(painter, &seat(s).0, FontId::proportional(21.0)) + 20.0)
        .fold(0.0, f32::max);
    let wide: f32 = labels
        .iter()
        .map(|l| width(painter, l.get(lang.code()), FontId::proportional(16.0)) + 14.0)
        .sum::<f32>()
        + names
        + 14.0;
    let gaps = 10.0 * (labels.len() as f32 + 1.0);
    let named = seats
        .iter()
        .map(|&s| width(painter, &seat(s).0, body.clone()) + 20.0)
        .fold(0.0, f32::max);
    let column = (ui.available_width() - named - gaps) / labels.len() as f32;
    let wrapped = wide > ui.available_width();
    if wrapped && column < 48.0 {
        SeatLayout::Lines
    } else {
        SeatLayout::Table(Columns {
            wrapped,
            width: column,
        })
    }
}

/// Each seat's name and colour, then its figures on a wrapping line under it.
fn seat_lines(
    ui: &mut Ui,
    scene: &Scene,
    lang: Lang,
    seats: &[Seat],
    seat: &impl Fn(Seat) -> (String, Color32),
) {
    for &s in seats {
        let (name, dot) = seat(s);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 6.0;
            widgets::seat_dot(ui, dot, 14.0);
            ui.label(egui::RichText::new(name).strong());
        });
        ui.indent(("seat-score", s), |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 6.0;
                for line in scene.scores.iter().filter(|l| l.seat == Some(s)) {
                    ui.label(
                        egui::RichText::new(line.label.get(lang.code()))
                            .small()
                            .color(widgets::MUTED),
                    );
                    ui.label(egui::RichText::new(format!("{}   ", line.value)).strong());
                }
            });
        });
    }
}

/// The seats' figures as a table: the kinds of figure across the top, a row per seat
/// headed by its colour and name.
fn seat_table(
    ui: &mut Ui,
    scene: &Scene,
    lang: Lang,
    figures: &Figures<'_>,
    columns: Columns,
    seat: &impl Fn(Seat) -> (String, Color32),
) {
    let code = lang.code();
    let Figures { seats, labels } = figures;
    let wrapped = columns.wrapped;
    egui::Grid::new("seat-scores")
        .num_columns(labels.len() + 1)
        .spacing(if wrapped { [10.0, 4.0] } else { [14.0, 6.0] })
        .show(ui, |ui| {
            ui.label("");
            for label in labels {
                let text = egui::RichText::new(label.get(code))
                    .small()
                    .color(widgets::MUTED);
                if wrapped {
                    ui.vertical(|ui| {
                        ui.set_max_width(columns.width);
                        ui.add(egui::Label::new(text).wrap());
                    });
                } else {
                    ui.label(text);
                }
            }
            ui.end_row();
            for &s in seats {
                let (name, dot) = seat(s);
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 6.0;
                    widgets::seat_dot(ui, dot, 14.0);
                    ui.label(name);
                });
                for label in labels {
                    let value = scene
                        .scores
                        .iter()
                        .find(|l| l.seat == Some(s) && &&l.label == label)
                        .map_or("", |l| l.value.as_str());
                    ui.label(egui::RichText::new(value).strong());
                }
                ui.end_row();
            }
        });
}
