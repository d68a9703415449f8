//! New game: players (name, and human, phone or bot per seat), the game's options, house rules, seed.

use std::collections::{BTreeMap, BTreeSet};

use egui::{RichText, Ui};
use veillee_sdk::{OptionKind, OptionValue, Seat, Setup};

use super::i18n::{Lang, S};
use super::lab::{Balance, LabNote, LabState};
use super::library::LibraryScreen;
use super::play::PlayScreen;
use super::screen::{Nav, Screen, Shared, Target};
use super::widgets::{self, colour, ACCENT, MUTED};
use super::worker::{GameInfo, Preparation, Reply, Request, VariantInfo};
use veillee_runtime::store::limits;
use veillee_runtime::store::model::{BotLevel, SeatPlayer};
use veillee_runtime::variants::ScriptInfo;

/// The new-game screen for one game.
#[derive(Default)]
pub struct SetupScreen {
    /// The game's id.
    pub game: String,
    players: u8,
    names: Vec<String>,
    /// Each seat's bot level; `None`: a human.
    bots: Vec<Option<BotLevel>>,
    /// Seats whose player holds their hand on their phone (human seats).
    phones: Vec<bool>,
    options: BTreeMap<String, OptionValue>,
    variants: BTreeSet<usize>,
    seed: String,
    /// "Test this rule": each tested rule's state, by file name.
    tests: BTreeMap<String, LabState>,
}

/// A seed from the clock (not for the game's randomness: that is always the seed shown).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_000)
}

impl SetupScreen {
    /// Defaults for a game, with the names remembered from the last game.
    pub fn new(game: &GameInfo, remembered: &[String], lang: super::i18n::Lang) -> SetupScreen {
        let m = &game.manifest;
        let max = m.max_players as usize;
        let names = (0..max)
            .map(|i| {
                remembered
                    .get(i)
                    .filter(|n| !n.trim().is_empty() && limits::check_name(i, n).is_ok())
                    .cloned()
                    .unwrap_or_else(|| {
                        m.seats
                            .get(i)
                            .map(|s| limits::fit_name(s.name.get(lang.code())))
                            .unwrap_or_else(|| lang.f(S::Seat, &[&(i + 1).to_string()]))
                    })
            })
            .collect();
        let options = m
            .options
            .iter()
            .map(|o| {
                let value = match &o.kind {
                    OptionKind::Bool { default } => OptionValue::Bool(*default),
                    OptionKind::Choice { default, .. } => OptionValue::Choice(default.clone()),
                    OptionKind::Integer { default, .. } => OptionValue::Integer(*default),
                };
                (o.id.clone(), value)
            })
            .collect();
        SetupScreen {
            game: m.id.clone(),
            players: m.min_players,
            names,
            bots: vec![None; max],
            phones: vec![false; max],
            options,
            variants: BTreeSet::new(),
            seed: clock_seed().to_string(),
            tests: BTreeMap::new(),
        }
    }

    /// News of a house rule's test.
    pub fn on_rule_test(&mut self, note: LabNote) {
        self.tests.insert(note.rule, note.state);
    }

    fn start(&self, shared: &mut Shared, game: &GameInfo, seed: u64) -> Nav {
        let n = self.players as usize;
        let seats: Vec<SeatPlayer> = (0..n)
            .map(|i| {
                let name = self.names[i].trim().to_string();
                match self.bots[i] {
                    None => SeatPlayer::human(name),
                    Some(level) => SeatPlayer::bot(name, level),
                }
            })
            .collect();
        shared.seat_names = self.names.clone();
        let setup = Setup {
            players: self.players,
            options: self.options.clone(),
            seed,
        };
        let variants = self
            .variants
            .iter()
            .filter_map(|&i| game.variants.get(i).map(|v| v.source.clone()))
            .collect();
        let phones = (0..n as Seat)
            .filter(|&s| self.phones[s as usize])
            .collect();
        shared.worker.send(Request::Start {
            game: self.game.clone(),
            seats,
            setup,
            variants,
            phones,
        });
        Nav::to::<PlayScreen>()
    }
}

impl Screen for SetupScreen {
    fn open(&mut self, shared: &mut Shared, target: Target) -> bool {
        let Target::Game(id) = target else {
            return false;
        };
        let Some(game) = shared.games.iter().find(|g| g.manifest.id == id) else {
            return false;
        };
        // Its plugin compiles next, while the players sit down.
        if game.preparation != Preparation::Ready {
            shared.worker.send(Request::Prepare(id.clone()));
        }
        *self = SetupScreen::new(game, &shared.seat_names, shared.lang);
        true
    }

    fn reply(&mut self, _shared: &mut Shared, reply: Reply) -> Option<Reply> {
        match reply {
            Reply::RuleTest(note) => self.on_rule_test(note),
            other => return Some(other),
        }
        None
    }

    /// Draws the screen: the start bar, then the seats, the options, the house rules and
    /// the seed. Returns where to go (the play screen once started).
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        let Some(game) = shared
            .games
            .iter()
            .find(|g| g.manifest.id == self.game)
            .cloned()
        else {
            return Some(Nav::to::<LibraryScreen>());
        };
        let seed = self.seed.trim().parse::<u64>().ok();
        let refused = self.refused_name();
        let names_ok = refused.is_none() && self.names_given();
        let nav = self.start_bar(ui, shared, &game, seed.filter(|_| names_ok));
        ui.add_space(8.0);
        egui::ScrollArea::vertical().show(ui, |ui| {
            self.seats_card(ui, &game.manifest, lang, refused);
            ui.add_space(10.0);
            options_card(ui, &game.manifest, lang, &mut self.options);
            ui.add_space(10.0);
            if !game.variants.is_empty() {
                self.house_rules_card(ui, shared, &game, seed);
                ui.add_space(10.0);
            }
            seed_card(ui, lang, &mut self.seed);
        });
        nav
    }
}

/// The new-game screen's parts, top to bottom: the start bar, the seats table, the options,
/// the house rules checklist, the seed.
impl SetupScreen {
    /// The first seated player whose name the store would refuse.
    fn refused_name(&self) -> Option<usize> {
        self.names[..self.players as usize]
            .iter()
            .enumerate()
            .find_map(|(seat, n)| limits::check_name(seat, n.trim()).err().map(|_| seat))
    }

    /// Whether every seated player has a name.
    fn names_given(&self) -> bool {
        self.names[..self.players as usize]
            .iter()
            .all(|n| !n.trim().is_empty())
    }

    /// Back, the title, and the start button (on the right, always in sight however long
    /// the form); `ready` is the seed to start with once the form can start a game.
    fn start_bar(
        &self,
        ui: &mut Ui,
        shared: &mut Shared,
        game: &GameInfo,
        ready: Option<u64>,
    ) -> Option<Nav> {
        let lang = shared.lang;
        let mut nav = None;
        ui.horizontal(|ui| {
            if widgets::button(ui, lang.t(S::Back)).clicked() {
                nav = Some(Nav::to::<LibraryScreen>());
            }
            widgets::title(
                ui,
                &format!(
                    "{} — {}",
                    lang.t(S::NewGame),
                    game.manifest.name.get(lang.code())
                ),
            );
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.add_enabled_ui(ready.is_some(), |ui| {
                    if widgets::primary(ui, &format!("▶  {}", lang.t(S::Start))).clicked() {
                        if let Some(seed) = ready {
                            nav = Some(self.start(shared, game, seed));
                        }
                    }
                });
            });
        });
        nav
    }

    /// How many play (when the game allows a choice), then one row per seat: its colour and
    /// role, the player's name, and who plays it.
    fn seats_card(
        &mut self,
        ui: &mut Ui,
        m: &veillee_sdk::Manifest,
        lang: Lang,
        refused: Option<usize>,
    ) {
        widgets::card(ui, |ui| {
            ui.set_width(ui.available_width());
            if m.min_players != m.max_players {
                ui.horizontal(|ui| {
                    ui.label(lang.t(S::PlayerCount));
                    for n in m.min_players..=m.max_players {
                        ui.selectable_value(&mut self.players, n, n.to_string());
                    }
                });
            }
            egui::Grid::new("seats")
                .num_columns(4)
                .spacing([16.0, 10.0])
                .show(ui, |ui| {
                    for seat in 0..self.players as usize {
                        self.seat_row(ui, m, lang, seat, refused);
                        ui.end_row();
                    }
                });
        });
    }

    /// One seat of the table: colour and role, why a name is refused (if one is), the name
    /// field (named by the role), human, phone or bot.
    fn seat_row(
        &mut self,
        ui: &mut Ui,
        m: &veillee_sdk::Manifest,
        lang: Lang,
        seat: usize,
        refused: Option<usize>,
    ) {
        let (dot, role) = match m.seats.get(seat) {
            Some(s) => (colour(s.colour), s.name.get(lang.code()).to_string()),
            None => (MUTED, lang.f(S::Seat, &[&(seat + 1).to_string()])),
        };
        let role = ui.horizontal(|ui| {
            widgets::seat_dot(ui, dot, 22.0);
            ui.label(RichText::new(role).strong())
        });
        if let Some(refused) = refused {
            let limit = limits::NAME_CHARS.to_string();
            let message = lang.f(S::NameRefused, &[&(refused + 1).to_string(), &limit]);
            ui.label(RichText::new(message).color(widgets::DANGER));
        }
        ui.add(
            egui::TextEdit::singleline(&mut self.names[seat])
                .char_limit(limits::NAME_CHARS)
                .min_size(egui::vec2(260.0, 0.0))
                .desired_width(260.0),
        )
        .labelled_by(role.inner.id);
        ui.horizontal(|ui| {
            let (bot, phone) = (&mut self.bots[seat], &mut self.phones[seat]);
            seat_kind(ui, bot, phone, seat, lang);
        });
    }

    /// The house rules checklist: each rule that loads with its description, what it
    /// changes and its test; each that does not, with why.
    fn house_rules_card(
        &mut self,
        ui: &mut Ui,
        shared: &mut Shared,
        game: &GameInfo,
        seed: Option<u64>,
    ) {
        let lang = shared.lang;
        widgets::card(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(lang.t(S::Variants)).strong().color(ACCENT));
            for (i, variant) in game.variants.iter().enumerate() {
                match &variant.info {
                    Ok(info) => {
                        let mut on = self.variants.contains(&i);
                        if ui
                            .checkbox(&mut on, RichText::new(info.name.get(lang.code())).strong())
                            .changed()
                        {
                            if on {
                                self.variants.insert(i);
                            } else {
                                self.variants.remove(&i);
                            }
                        }
                        ui.indent(("variant", i), |ui| {
                            rule_details(ui, lang, info);
                            self.rule_test(ui, shared, &game.manifest, variant, seed);
                        });
                    }
                    Err(e) => {
                        ui.label(
                            RichText::new(format!(
                                "{} — {}",
                                variant.source.file,
                                lang.f(S::BrokenVariant, &[e])
                            ))
                            .color(widgets::DANGER),
                        );
                    }
                }
            }
        });
    }

    /// "Test this rule" (not while its test runs, nor without a seed), and how the last
    /// test went.
    fn rule_test(
        &self,
        ui: &mut Ui,
        shared: &mut Shared,
        m: &veillee_sdk::Manifest,
        variant: &VariantInfo,
        seed: Option<u64>,
    ) {
        let lang = shared.lang;
        let file = &variant.source.file;
        let running = matches!(self.tests.get(file), Some(LabState::Running(..)));
        let test = ui.add_enabled(
            !running && seed.is_some(),
            egui::Button::new(lang.t(S::TestRule)),
        );
        if test.clicked() {
            if let Some(seed) = seed {
                let setup = Setup {
                    players: self.players,
                    options: self.options.clone(),
                    seed,
                };
                shared.worker.send(Request::TestRule {
                    game: self.game.clone(),
                    rule: variant.source.clone(),
                    setup,
                });
            }
        }
        if let Some(state) = self.tests.get(file) {
            ui.label(lab_text(state, m, lang));
        }
    }
}

/// The game's options: a checkbox, a slider or a row of choices each (or that it has none).
fn options_card(
    ui: &mut Ui,
    m: &veillee_sdk::Manifest,
    lang: Lang,
    options: &mut BTreeMap<String, OptionValue>,
) {
    widgets::card(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(lang.t(S::Options)).strong().color(ACCENT));
        if m.options.is_empty() {
            ui.label(RichText::new(lang.t(S::NoOptions)).color(MUTED));
        }
        for option in &m.options {
            if let Some(value) = options.get_mut(&option.id) {
                option_control(ui, lang, option, value);
            }
        }
    });
}

/// One option's control, by its kind (a value of another kind is not shown).
fn option_control(
    ui: &mut Ui,
    lang: Lang,
    option: &veillee_sdk::OptionSpec,
    value: &mut OptionValue,
) {
    let code = lang.code();
    let label = option.label.get(code);
    match (&option.kind, value) {
        (OptionKind::Bool { .. }, OptionValue::Bool(b)) => {
            ui.checkbox(b, label);
        }
        (OptionKind::Integer { min, max, .. }, OptionValue::Integer(n)) => {
            ui.add(egui::Slider::new(n, *min..=*max).text(label));
        }
        (OptionKind::Choice { choices, .. }, OptionValue::Choice(c)) => {
            ui.horizontal(|ui| {
                ui.label(label);
                for choice in choices {
                    ui.selectable_value(c, choice.id.clone(), choice.label.get(code));
                }
            });
        }
        _ => {}
    }
}

/// A house rule's words: that it changes the game's own rules (a modified copy of a rule
/// that is part of the game), its description, and the list of what it changes.
fn rule_details(ui: &mut Ui, lang: Lang, info: &ScriptInfo) {
    let code = lang.code();
    if info.part_of_game {
        ui.label(RichText::new(lang.t(S::ModifiedRules)).color(widgets::DANGER));
    }
    ui.label(info.description.get(code));
    if !info.changes.is_empty() {
        ui.label(RichText::new(lang.t(S::Changes)).color(MUTED));
        for change in &info.changes {
            ui.label(format!("• {}", change.get(code)));
        }
    }
}

/// The seed field, and a button for a new one from the clock.
fn seed_card(ui: &mut Ui, lang: Lang, seed: &mut String) {
    widgets::card(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            widgets::text_field(ui, lang.t(S::SeedLabel), seed, 220.0);
            if widgets::button(ui, lang.t(S::NewSeed)).clicked() {
                *seed = clock_seed().to_string();
            }
        });
    });
}

/// A seat's player: a human at this screen, a human on their phone (who holds the seat's
/// hand there), or a bot and its level (a bot starts at `normal`).
fn seat_kind(
    ui: &mut Ui,
    bot: &mut Option<BotLevel>,
    phone: &mut bool,
    seat: usize,
    lang: super::i18n::Lang,
) {
    let human = bot.is_none();
    if ui
        .selectable_label(human && !*phone, lang.t(S::Human))
        .clicked()
    {
        (*bot, *phone) = (None, false);
    }
    if ui
        .selectable_label(human && *phone, lang.t(S::Phone))
        .clicked()
    {
        (*bot, *phone) = (None, true);
    }
    if ui.selectable_label(!human, lang.t(S::Bot)).clicked() && human {
        (*bot, *phone) = (Some(BotLevel::Normal), false);
    }
    let Some(level) = bot else {
        return;
    };
    let name = |l: BotLevel| match l {
        BotLevel::Easy => lang.t(S::LevelEasy),
        BotLevel::Normal => lang.t(S::LevelNormal),
        BotLevel::Strong => lang.t(S::LevelStrong),
        BotLevel::Random => lang.t(S::LevelRandom),
    };
    let label = lang.f(S::BotLevel, &[&(seat + 1).to_string()]);
    egui::ComboBox::from_id_salt(("bot-level", seat))
        .selected_text(name(*level))
        .show_ui(ui, |ui| {
            for l in [
                BotLevel::Easy,
                BotLevel::Normal,
                BotLevel::Strong,
                BotLevel::Random,
            ] {
                ui.selectable_value(level, l, name(l));
            }
        })
        .response
        .on_hover_text(label);
}

/// A rule's test in words: its progress, or the balance of the plain game beside the game
/// with the rule (wins per seat, draws).
fn lab_text(state: &LabState, manifest: &veillee_sdk::Manifest, lang: super::i18n::Lang) -> String {
    match state {
        LabState::Running(done, total) => {
            lang.f(S::RuleTesting, &[&done.to_string(), &total.to_string()])
        }
        LabState::Failed(why) => lang.f(S::RuleTestFailed, &[why.get(lang.code())]),
        LabState::Done(plain, ruled) => {
            let side = |b: &Balance| {
                let percent =
                    |n: u32| format!("{:.0}", 100.0 * f64::from(n) / f64::from(b.games.max(1)));
                let mut parts: Vec<String> = b
                    .wins
                    .iter()
                    .enumerate()
                    .map(|(seat, &w)| {
                        let name = manifest
                            .seats
                            .get(seat)
                            .map(|s| s.name.get(lang.code()).to_string())
                            .unwrap_or_else(|| (seat + 1).to_string());
                        lang.f(S::RuleWins, &[&name, &percent(w)])
                    })
                    .collect();
                parts.push(lang.f(S::RuleDraws, &[&percent(b.draws)]));
                parts.join(", ")
            };
            lang.f(
                S::RuleBalance,
                &[&plain.games.to_string(), &side(plain), &side(ruled)],
            )
        }
    }
}
