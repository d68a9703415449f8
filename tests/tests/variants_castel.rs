//! Castel's cards as a Lua script (`variants/castel/cards.lua`, id « cartes ») over the real
//! plugin core (the native build, and the wasm plugin where said), with real Luau: the card
//! table pushed into the core and dealt from, every scripted arrival effect where it applies
//! and where it cannot (CA-T3: ignored, the card stays placed), protection (CA-T6), the
//! simultaneous Bouffon and Fou, editing the script, the « Dragon apprivoisé » house rule and
//! many random games.
//!
//! Core rules already tested in `plugins/castel/src/tests.rs` are not repeated here, only
//! checked once more with the script's table where the table feeds them:
//! `ca_t2_conditions_of_the_table` (the Prince standing in for the Roi, every condition),
//! `heraut_forces_the_roi_on_his_holders_turn`, `ca_t7_fourth_soldier_returns_the_engine_facing_it`,
//! `ca_t7_fourth_engine_returns_soldiers_but_the_captain_protects_his`,
//! `ca_t4_guetteur_soldier_onto_last_rampart_square_returns_the_engine` (the move command),
//! `ca_t6_protection_knight_priest_captain_ambassador`, `ca_t2_fantome_returns_the_card_whose_place_it_takes`.

use serde_json::{json, Value};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::library;
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};
use veillee_sdk::{Event, GameRng, Handle, Seat, Setup, Status};
use veillee_tests::{builtin_plugin, runtime};

const PAWNS: [&str; 5] = ["black", "beige", "red", "green", "purple"];

fn builtin_text(file: &str) -> String {
    library::builtin(Some("castel"))
        .into_iter()
        .find(|s| s.file == file)
        .unwrap_or_else(|| panic!("{file} is built in"))
        .text
}

fn script(file: &str, text: &str) -> Script {
    Script::load(file, text, VariantLimits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn cards() -> Script {
    script("cards.lua", &builtin_text("cards.lua"))
}

fn tamed() -> Script {
    script(
        "dragon-apprivoise.lua",
        &builtin_text("dragon-apprivoise.lua"),
    )
}

fn native(scripts: Vec<Script>) -> VariantEngine {
    let base = native_engine("castel").expect("castel has a native build");
    VariantEngine::new(base, scripts).unwrap_or_else(|e| panic!("{e}"))
}

/// A game of Castel with scripts, and the helpers to set up positions with the core's
/// operations and to play through the variant engine.
struct T {
    e: VariantEngine,
    g: Handle,
    events: Vec<Event>,
}

impl T {
    fn new(players: u8) -> T {
        T::with(vec![cards()], players, 7)
    }

    fn with(scripts: Vec<Script>, players: u8, seed: u64) -> T {
        let mut e = native(scripts);
        let g = e.create(&Setup::new(players, seed)).unwrap();
        T {
            e,
            g,
            events: Vec::new(),
        }
    }

    fn q(&mut self, name: &str, args: Value) -> Value {
        self.e
            .operation(self.g, name, &args)
            .unwrap_or_else(|e| panic!("{name} {args}: {e}"))
    }

    fn cmd(&mut self, name: &str, args: Value) -> Value {
        self.q(name, args)
    }

    fn players(&mut self) -> u8 {
        self.q("turn", json!(null))["players"].as_u64().unwrap() as u8
    }

    /// The seat whose turn it is in the core.
    fn seat(&mut self) -> Seat {
        self.q("turn", json!(null))["seat"].as_u64().unwrap() as Seat
    }

    fn other(&mut self, n: u8) -> Seat {
        let players = self.players();
        (self.seat() + n) % players
    }

    fn at(&mut self, card: &str) -> Value {
        self.q("card", json!({ "card": card }))["at"].clone()
    }

    fn pawn(&mut self, card: &str) -> Value {
        self.q("card", json!({ "card": card }))["pawn"].clone()
    }

    fn hand(&mut self, seat: Seat) -> Vec<String> {
        let v = self.q("hand", json!({ "seat": seat }));
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    }

    fn exchange(&mut self) -> Vec<String> {
        let v = self.q("exchange", json!(null));
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    }

    /// Puts a card into play for the set-up (no placement condition, no effect).
    fn put(&mut self, card: &str, to: &str, pawn: Option<Seat>) {
        self.cmd(
            "put_into_play",
            json!({ "card": card, "to": to, "seat": pawn, "check": false }),
        );
    }

    /// Takes a card out of the game (through play: outside, then removed; the
    /// Ambassadeur, always protected, stays outside).
    fn bin(&mut self, card: &str) {
        self.put(card, "outside", None);
        if card != "ambassadeur" {
            self.cmd("remove_card", json!({ "card": card }));
        }
    }

    /// Empties a seat's hand (out of the game), but for the cards of `keep`, which go to
    /// the next seat's hand if they are in this one.
    fn empty_hand(&mut self, seat: Seat, keep: &[&str]) {
        let next = (seat + 1) % self.players();
        for card in self.hand(seat) {
            if keep.contains(&card.as_str()) {
                self.cmd("give_card", json!({ "card": card, "seat": next }));
            } else {
                self.bin(&card);
            }
        }
    }

    /// Empties the exchange (out of the game).
    fn empty_exchange(&mut self) {
        for card in self.exchange() {
            self.bin(&card);
        }
    }

    /// Adds a card to the exchange.
    fn add_to_exchange(&mut self, card: &str) {
        self.put(card, "outside", None);
        self.cmd("return_card", json!({ "card": card }));
    }

    /// Gives a card to the seat to act (identical cards of its hand go to the next seat, so
    /// that the action names this copy) and places it there: the scripts run.
    fn place(&mut self, card: &str, spot: &str) {
        let seat = self.seat();
        let next = self.other(1);
        let kind = kind(card);
        for other in self.hand(seat) {
            if other != card && kind_of(&other) == kind {
                self.cmd("give_card", json!({ "card": other, "seat": next }));
            }
        }
        if !self.hand(seat).iter().any(|c| c == card) {
            self.cmd("give_card", json!({ "card": card, "seat": seat }));
        }
        self.play(&format!("place-{card}-{spot}"));
    }

    fn play(&mut self, id: &str) {
        let seat = self.seat_to_act();
        let events = self
            .e
            .apply(self.g, seat, id)
            .unwrap_or_else(|e| panic!("{id}: {e} (legal: {:?})", self.ids(seat)));
        self.events.extend(events);
        self.assert_running_scripts();
    }

    fn seat_to_act(&mut self) -> Seat {
        match self.e.status(self.g).unwrap() {
            Status::ToAct { seats } => seats[0],
            Status::Finished { .. } => panic!("the game is over"),
        }
    }

    fn ids(&mut self, seat: Seat) -> Vec<String> {
        self.e
            .legal_actions(self.g, seat)
            .unwrap()
            .into_iter()
            .map(|a| a.id)
            .collect()
    }

    /// Whether a script waits for a choice.
    fn asking(&self) -> bool {
        self.e.pending_choice(self.g).is_some()
    }

    /// The options of the pending choice (English labels) and who decides.
    fn options(&mut self) -> (Seat, Vec<String>) {
        let request = self
            .e
            .pending_choice(self.g)
            .expect("a pending choice")
            .clone();
        let seat = request.seat;
        let labels = self
            .e
            .legal_actions(self.g, seat)
            .unwrap()
            .into_iter()
            .map(|a| a.label_for(seat, Some(seat)).en.clone())
            .collect();
        (seat, labels)
    }

    /// Answers the pending choice with the option whose English label contains `needle`.
    fn choose(&mut self, needle: &str) {
        let (seat, labels) = self.options();
        let i = labels
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no option with {needle:?} among {labels:?}"));
        let events = self.e.apply(self.g, seat, &format!("choose:{i}")).unwrap();
        self.events.extend(events);
        self.assert_running_scripts();
    }

    fn assert_running_scripts(&self) {
        assert!(
            self.e.disabled(self.g).is_empty(),
            "{:?}",
            self.e.disabled(self.g)
        );
    }

    fn pending_effect(&mut self) -> Value {
        self.q("turn", json!(null))["pending"].clone()
    }

    /// No question left and the effect closed.
    fn settled(&mut self) {
        assert!(!self.asking(), "still asking: {:?}", self.options());
        assert_eq!(self.pending_effect(), Value::Null);
    }

    fn in_hand_of(&mut self, card: &str) -> Option<Seat> {
        let at = self.at(card);
        (at["in"] == "hand").then(|| at["seat"].as_u64().unwrap() as Seat)
    }
}

fn kind_of(card: &str) -> &str {
    match card.rsplit_once('-') {
        Some((base, n)) if n.chars().all(|c| c.is_ascii_digit()) => base,
        _ => card,
    }
}

fn kind(card: &str) -> String {
    kind_of(card).to_string()
}

fn square(at: &Value) -> &str {
    at["square"].as_str().unwrap_or("")
}

// ---- the table and the deal (CA-S) ----

#[test]
fn the_script_is_built_in_for_castel_with_its_texts() {
    let s = cards();
    let info = s.info();
    assert_eq!(info.id, "cartes");
    assert_eq!(info.game, "castel");
    assert_eq!(info.name.fr, "Les cartes de Castel");
    assert_eq!(info.name.en, "Castel's cards");
    assert!(!info.description.fr.is_empty() && !info.changes.is_empty());
    assert_eq!(info.hooks, ["setup", "after_action"]);
    assert!(builtin_text("cards.lua").contains("part_of_game = true"));
    let d = tamed();
    assert_eq!(d.info().id, "dragon-apprivoise");
    assert!(!builtin_text("dragon-apprivoise.lua").contains("part_of_game"));
}

#[test]
fn cards_lua_pushes_its_table_into_the_core() {
    let mut t = T::new(3);
    let defs = t.q("definitions", json!(null));
    let defs = defs.as_array().unwrap();
    assert_eq!(defs.len(), 37);
    let total: u64 = defs.iter().map(|d| d["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 56);
    let def = |k: &str| defs.iter().find(|d| d["kind"] == k).unwrap().clone();
    // Continuous and core cards leave no pending effect; the others are the script's.
    for k in [
        "ambassadeur",
        "prince",
        "pretre",
        "engin",
        "heraut",
        "capitaine",
        "soldat",
        "fantome",
        "chevalier",
    ] {
        assert_eq!(def(k)["effect"], json!(false), "{k}");
    }
    for k in [
        "assassin",
        "baladin",
        "bouffon",
        "chevalier-noir",
        "conseiller",
        "courtisan",
        "courtisane",
        "dame",
        "espion",
        "favorite",
        "fou",
        "intrigant",
        "marchand",
        "prince-charmant",
        "princesse",
        "reine",
        "roi",
        "voleur",
        "barbare",
        "dragon",
        "enchanteur",
        "fee",
        "traitre",
        "alchimiste",
        "archer",
        "guetteur",
        "magicien",
        "sorciere",
    ] {
        assert_eq!(def(k)["effect"], json!(true), "{k}");
    }
    assert_eq!(def("traitre")["soldier"], json!(true));
    assert_eq!(def("soldat")["count"], json!(13));
    assert_eq!(
        def("conseiller")["condition"],
        json!({"type": "next_to", "kinds": ["roi"]})
    );
    assert_eq!(
        def("fou")["condition"],
        json!({"type": "min_players", "players": 3})
    );
}

/// The deal sizes of CA-S for 2 to 5 players, with the counts of the Lua table (Fou and
/// Bouffon out with 2 players by their condition), through the native and the wasm builds.
#[test]
fn ca_s_deals_for_2_to_5_players_from_the_lua_table() {
    let runtime = runtime();
    for wasm in [false, true] {
        for (players, hand, pile, exchange) in [
            (2u8, 9, 13, 10),
            (3, 7, 8, 11),
            (4, 5, 6, 12),
            (5, 5, 4, 11),
        ] {
            for seed in 0..3 {
                let base: Box<dyn GameEngine> = if wasm {
                    Box::new(builtin_plugin(&runtime, "castel"))
                } else {
                    native_engine("castel").unwrap()
                };
                let mut e = VariantEngine::new(base, vec![cards()]).unwrap();
                let g = e.create(&Setup::new(players, seed)).unwrap();
                assert!(e.disabled(g).is_empty(), "{:?}", e.disabled(g));
                let counts = e.operation(g, "counts", &json!(null)).unwrap();
                for c in counts.as_array().unwrap() {
                    assert_eq!(
                        (c["hand"].as_u64(), c["pile"].as_u64()),
                        (Some(hand), Some(pile))
                    );
                }
                let x = e.operation(g, "exchange", &json!(null)).unwrap();
                assert_eq!(x.as_array().unwrap().len(), exchange as usize);
                for k in ["fou", "bouffon"] {
                    let at = e.operation(g, "card", &json!({ "card": k })).unwrap();
                    assert_eq!(at["at"]["in"] == "removed", players == 2, "{players}p {k}");
                }
            }
        }
    }
}

#[test]
fn editing_a_count_in_the_script_changes_the_deal() {
    let text = builtin_text("cards.lua");
    let needle = r#"{ kind = "soldat", name = { fr = "Soldat", en = "Soldier" }, count = 13,"#;
    assert!(text.contains(needle));
    let edited = text.replace(
        needle,
        r#"{ kind = "soldat", name = { fr = "Soldat", en = "Soldier" }, count = 9,"#,
    );
    let mut t = T::with(vec![script("cards.lua", &edited)], 3, 7);
    // 52 cards: hands 7 and the exchange 11 as in CA-S; the piles share the other 20 (6
    // each) and the last two cards join the exchange.
    let counts = t.q("counts", json!(null));
    for c in counts.as_array().unwrap() {
        assert_eq!((c["hand"].as_u64(), c["pile"].as_u64()), (Some(7), Some(6)));
    }
    assert_eq!(t.exchange().len(), 13);
    for n in 10..=13 {
        assert_eq!(t.at(&format!("soldat-{n}"))["in"], "removed");
    }
    assert_eq!(
        t.q("definitions", json!(null))[28]["count"],
        json!(9),
        "the soldiers' line"
    );
}

// ---- CA-T3: every scripted effect, where it applies and where it cannot ----

#[test]
fn ca_t3_assassin_removes_a_neighbour() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(1));
    t.put("courtisan", "c5", Some(1));
    t.put("espion", "e4", Some(2));
    t.place("assassin", "d4");
    // Two targets: the Roi is never one.
    let (seat, options) = t.options();
    assert_eq!(seat, t.seat());
    assert_eq!(options.len(), 2, "{options:?}");
    assert!(options.iter().all(|o| !o.contains("King")), "{options:?}");
    assert!(options.contains(&"Remove from the game the Spy (e4)".to_string()));
    t.choose("Spy");
    t.settled();
    assert_eq!(t.at("espion")["in"], "removed");
    assert_eq!(square(&t.at("courtisan")), "c5");
    assert_eq!(square(&t.at("assassin")), "d4");
}

#[test]
fn ca_t3_assassin_with_one_target_does_not_ask() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(1));
    t.put("courtisan", "c5", Some(1));
    t.place("assassin", "d4");
    t.settled();
    assert_eq!(t.at("courtisan")["in"], "removed");
    assert_eq!(square(&t.at("roi")), "c4");
}

#[test]
fn ca_t3_assassin_ignored_when_no_neighbour() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(1)); // the only neighbour is the Roi
    t.place("assassin", "d4");
    t.settled();
    assert_eq!(square(&t.at("assassin")), "d4");
    assert_eq!(square(&t.at("roi")), "c4");
}

#[test]
fn ca_t3_baladin_swaps_two_neighbouring_courtyard_cards() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.put("espion", "d5", Some(2));
    t.put("soldat-1", "b6", Some(2)); // a rampart neighbour: not swappable
    t.place("baladin", "c4");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "d5");
    assert_eq!(square(&t.at("espion")), "c5");
    assert_eq!(square(&t.at("baladin")), "c4");
}

#[test]
fn ca_t3_baladin_ignored_with_one_neighbour() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.place("baladin", "c4");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "c5");
}

#[test]
fn ca_t3_chevalier_noir_returns_a_neighbouring_knight() {
    let mut t = T::new(3);
    t.put("roi", "d5", Some(1));
    t.put("chevalier-1", "on-roi", Some(2));
    t.place("chevalier-noir", "c4");
    t.settled();
    assert_eq!(t.in_hand_of("chevalier-1"), Some(2));
    assert_eq!(square(&t.at("roi")), "d5");
}

#[test]
fn ca_t3_chevalier_noir_ignored_without_knight() {
    let mut t = T::new(3);
    t.put("roi", "d5", Some(1));
    t.put("chevalier-1", "on-roi", Some(2));
    t.place("chevalier-noir", "b5"); // not next to d5
    t.settled();
    assert_eq!(t.at("chevalier-1")["in"], "on_card");
}

#[test]
fn ca_t3_conseiller_plays_an_exchange_card_without_a_pawn_and_it_acts() {
    let mut t = T::new(3);
    let seat = t.seat();
    t.put("roi", "c4", Some(1));
    t.add_to_exchange("courtisan");
    t.place("conseiller", "c5");
    t.choose("Put into play the Courtier");
    t.choose("Put the Courtier on b4");
    // The Courtisan acts normally, the Conseiller's player choosing: the Roi or the
    // Conseiller (its neighbours).
    let (chooser, options) = t.options();
    assert_eq!(chooser, seat);
    assert_eq!(options.len(), 2, "{options:?}");
    t.choose("Return the King (c4)");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "b4");
    assert_eq!(t.pawn("courtisan"), Value::Null);
    assert_eq!(t.in_hand_of("roi"), Some(1));
    // Without a pawn, a returned card goes to the exchange (CA-T5).
    t.cmd("return_card", json!({ "card": "courtisan" }));
    assert!(t.exchange().contains(&"courtisan".to_string()));
}

#[test]
fn ca_t3_conseiller_ignored_with_an_empty_exchange() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(1));
    t.empty_exchange();
    t.place("conseiller", "c5");
    t.settled();
    assert_eq!(square(&t.at("conseiller")), "c5");
}

#[test]
fn ca_t2_prince_stands_in_for_the_roi_with_the_lua_table() {
    // The condition comes from the script's table; the Prince rule is the core's
    // (`ca_t2_conditions_of_the_table`).
    let mut t = T::new(3);
    t.put("prince", "b5", Some(1));
    let spots = t.q("spots", json!({ "card": "conseiller" }));
    assert_eq!(spots, json!(["c5", "b4", "c4"]));
    t.put("roi", "e2", Some(1));
    let spots = t.q("spots", json!({ "card": "conseiller" }));
    assert_eq!(spots, json!(["d3", "e3", "d2"]));
}

#[test]
fn heraut_forces_the_roi_with_the_lua_table() {
    // The core's rule (`heraut_forces_the_roi_on_his_holders_turn`) with the script's
    // table: the Héraut has no scripted effect.
    let mut t = T::new(3);
    let seat = t.seat();
    t.cmd("give_card", json!({ "card": "roi", "seat": seat }));
    t.place("heraut", "outside");
    t.settled();
    let ids = t.ids(seat);
    assert!(ids.iter().all(|i| i.starts_with("place-roi-")), "{ids:?}");
}

#[test]
fn ca_t3_courtisan_returns_a_neighbour() {
    let mut t = T::new(3);
    t.put("espion", "d4", Some(2));
    t.place("courtisan", "c4");
    t.settled();
    assert_eq!(t.in_hand_of("espion"), Some(2));
}

#[test]
fn ca_t3_courtisan_ignored_when_no_neighbour() {
    let mut t = T::new(3);
    t.put("espion", "e2", Some(2));
    t.place("courtisan", "b5");
    t.settled();
    assert_eq!(square(&t.at("espion")), "e2");
    assert_eq!(square(&t.at("courtisan")), "b5");
}

#[test]
fn ca_t6_protection_blocks_returns_moves_and_the_assassin() {
    // Returns: the Espion under a knight and the Ambassadeur are never offered.
    let mut t = T::new(3);
    t.put("espion", "d4", Some(2));
    t.put("chevalier-1", "on-espion", Some(1));
    t.put("ambassadeur", "c3", Some(2));
    t.place("courtisan", "c4");
    t.settled(); // one target only: the knight
    assert_eq!(t.in_hand_of("chevalier-1"), Some(1));
    assert_eq!(square(&t.at("espion")), "d4");
    assert_eq!(square(&t.at("ambassadeur")), "c3");
    // The Assassin: the Prêtre protects the neighbouring character with his colour.
    let mut t = T::new(3);
    t.put("pretre", "e5", Some(2));
    t.put("espion", "d4", Some(2));
    t.put("voleur", "c3", Some(1));
    t.put("courtisan", "b4", Some(1));
    t.place("assassin", "c4");
    let (_, options) = t.options();
    assert!(options.iter().all(|o| !o.contains("Spy")), "{options:?}");
    t.choose("Thief");
    t.settled();
    assert_eq!(t.at("voleur")["in"], "removed");
    assert_eq!(square(&t.at("espion")), "d4");
    // Moves: the Capitaine's soldiers are not offered to the Guetteur; he is.
    let mut t = T::new(3);
    t.put("capitaine", "b6", Some(1));
    t.put("soldat-1", "c6", Some(1));
    t.place("guetteur", "a1");
    let (_, options) = t.options();
    assert!(options.iter().all(|o| o.contains("Captain")), "{options:?}");
    t.choose("to b1");
    t.settled();
    assert_eq!(square(&t.at("capitaine")), "b1");
    assert_eq!(square(&t.at("soldat-1")), "c6");
}

#[test]
fn ca_t3_courtisane_swaps_a_hand_card_with_a_random_one() {
    let mut t = T::new(3);
    let seat = t.seat();
    let other = t.other(1);
    let mine_before = t.hand(seat).iter().filter(|c| *c != "courtisane").count();
    let theirs_before = t.hand(other).iter().filter(|c| *c != "courtisane").count();
    t.cmd("give_card", json!({ "card": "courtisane", "seat": seat }));
    t.place("courtisane", "c4");
    // The placer's own cards (one option per kind), then the player.
    let mine = t.hand(seat);
    let mut kinds: Vec<String> = mine.iter().map(|c| kind(c)).collect();
    kinds.dedup();
    let (chooser, options) = t.options();
    assert_eq!(chooser, seat);
    assert_eq!(options.len(), kinds.len(), "{options:?}");
    assert!(
        options.iter().all(|o| o.starts_with("Give the ")),
        "{options:?}"
    );
    let give = mine[0].clone();
    let events = t.e.apply(t.g, seat, "choose:0").unwrap();
    t.events.extend(events);
    t.choose(&format!("{} pawns", PAWNS[other as usize]));
    t.settled();
    assert_eq!(t.in_hand_of(&give), Some(other));
    assert_eq!(t.hand(seat).len(), mine_before);
    assert_eq!(t.hand(other).len(), theirs_before);
}

#[test]
fn ca_t3_courtisane_ignored_when_the_others_have_no_card() {
    let mut t = T::new(3);
    let (a, b) = (t.other(1), t.other(2));
    t.empty_hand(a, &["courtisane"]);
    t.empty_hand(b, &["courtisane"]);
    let seat = t.seat();
    let before = t.hand(seat).iter().filter(|c| *c != "courtisane").count();
    t.place("courtisane", "c4");
    t.settled();
    assert_eq!(t.hand(seat).len(), before); // the Courtisane given then placed
    assert!(t.hand(a).is_empty() && t.hand(b).is_empty());
}

#[test]
fn ca_t3_dame_returns_a_neighbouring_male_courtyard_character() {
    let mut t = T::new(3);
    t.put("reine", "d5", Some(1));
    t.put("courtisan", "c5", Some(2));
    t.put("courtisane", "e5", Some(2));
    t.place("dame", "d4");
    t.settled();
    assert_eq!(t.in_hand_of("courtisan"), Some(2));
    assert_eq!(square(&t.at("courtisane")), "e5");
}

#[test]
fn ca_t3_dame_ignored_without_a_male_neighbour() {
    let mut t = T::new(3);
    t.put("reine", "d5", Some(1));
    t.put("courtisane", "e5", Some(2));
    t.place("dame", "d4");
    t.settled();
    assert_eq!(square(&t.at("reine")), "d5");
    assert_eq!(square(&t.at("courtisane")), "e5");
}

#[test]
fn ca_t3_espion_rearranges_the_neighbours_pawns() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.put("reine", "d5", Some(2));
    t.place("espion", "d4");
    let (_, options) = t.options();
    assert_eq!(
        options,
        [
            "On the Courtier (c5): beige pawn (current)",
            "On the Courtier (c5): red pawn"
        ]
    );
    t.choose("red pawn");
    t.settled(); // the last pawn goes on the Reine without a question
    assert_eq!(t.pawn("courtisan"), json!(2));
    assert_eq!(t.pawn("reine"), json!(1));
}

#[test]
fn ca_t3_espion_ignored_with_one_neighbour() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.place("espion", "d4");
    t.settled();
    assert_eq!(t.pawn("courtisan"), json!(1));
}

#[test]
fn ca_t3_favorite_moves_the_roi_and_a_knight() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(0));
    t.put("courtisan", "e2", Some(1));
    t.put("chevalier-1", "on-courtisan", Some(1));
    t.place("favorite", "b2");
    t.choose("Move the King (c4) to e5");
    // One knight: not asked which; where to: onto another stack.
    let (_, options) = t.options();
    assert!(
        options.iter().all(|o| !o.contains("onto the Knight 1")),
        "{options:?}"
    );
    t.choose("onto the King (e5)");
    t.settled();
    assert_eq!(square(&t.at("roi")), "e5");
    assert_eq!(t.at("chevalier-1"), json!({"in": "on_card", "on": "roi"}));
}

#[test]
fn ca_t3_favorite_ignored_without_roi_nor_knight() {
    let mut t = T::new(3);
    t.put("courtisan", "e2", Some(1));
    t.place("favorite", "b2");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "e2");
}

#[test]
fn ca_t3_intrigant_swaps_the_pawns_of_two_other_cards() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.put("espion", "e2", Some(2));
    t.place("intrigant", "b3");
    t.choose("Swap the pawn of the Courtier (c5)");
    t.settled(); // one card with another pawn: no second question
    assert_eq!(t.pawn("courtisan"), json!(2));
    assert_eq!(t.pawn("espion"), json!(1));
}

#[test]
fn ca_t3_intrigant_ignored_when_all_pawns_are_alike() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.put("espion", "e2", Some(1));
    t.place("intrigant", "b3");
    t.settled();
    assert_eq!(
        (t.pawn("courtisan"), t.pawn("espion")),
        (json!(1), json!(1))
    );
}

#[test]
fn ca_t3_marchand_gives_a_third_action_and_takes_three_pawns() {
    let mut t = T::new(3);
    let seat = t.seat();
    let (a, b) = (t.other(1), t.other(2));
    t.put("courtisan", "c5", Some(a));
    t.put("espion", "e2", Some(b));
    t.put("roi", "c3", Some(a));
    t.put("archer", "a1", Some(seat));
    t.play("draw");
    t.place("marchand", "e5"); // the turn's second action: it opens again for one more
    t.settled(); // exactly three other pawns: no question
    for card in ["courtisan", "espion", "roi", "archer", "marchand"] {
        assert_eq!(t.pawn(card), json!(seat), "{card}");
    }
    assert_eq!(t.seat(), seat);
    t.play("draw");
    assert_eq!(t.seat(), a);
}

#[test]
fn ca_t3_marchand_without_other_pawns_still_gives_the_action() {
    let mut t = T::new(3);
    let seat = t.seat();
    t.put("courtisan", "c5", Some(seat));
    t.place("marchand", "e5");
    t.settled();
    let turn = t.q("turn", json!(null));
    assert_eq!(
        (turn["seat"].as_u64(), turn["actions_left"].as_u64()),
        (Some(seat as u64), Some(2))
    );
}

#[test]
fn ca_t3_marchand_asks_when_more_than_three_pawns_could_go() {
    let mut t = T::new(3);
    let (a, b) = (t.other(1), t.other(2));
    for (card, sq, p) in [
        ("courtisan", "c5", a),
        ("espion", "e2", b),
        ("roi", "c3", a),
        ("reine", "d3", b),
    ] {
        t.put(card, sq, Some(p));
    }
    t.place("marchand", "e5");
    t.choose("Put your pawn on the King (c3)");
    t.choose("Put your pawn on the Queen (d3)");
    t.choose("Put your pawn on the Spy (e2)");
    t.settled();
    assert_eq!(t.pawn("courtisan"), json!(a));
}

#[test]
fn ca_t3_prince_charmant_moves_a_female_character() {
    let mut t = T::new(3);
    t.put("reine", "e2", Some(1));
    t.put("sorciere", "a6", Some(1));
    t.put("chevalier-1", "on-sorciere", Some(1)); // protected: not offered
    t.place("prince-charmant", "c4");
    t.choose("Move the Queen (e2) to b5");
    t.settled();
    assert_eq!(square(&t.at("reine")), "b5");
}

#[test]
fn ca_t3_prince_charmant_ignored_without_a_woman_to_move() {
    let mut t = T::new(3);
    t.put("courtisan", "e2", Some(1));
    t.place("prince-charmant", "c4");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "e2");
}

#[test]
fn ca_t3_princesse_moves_a_knight() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(0));
    t.put("chevalier-1", "on-roi", Some(1));
    t.put("courtisan", "e2", Some(1));
    t.place("princesse", "b5");
    let (_, options) = t.options();
    assert_eq!(options.len(), 2, "{options:?}"); // onto the Courtisan or the Princesse
    t.choose("onto the Courtier (e2)");
    t.settled();
    assert_eq!(
        t.at("chevalier-1"),
        json!({"in": "on_card", "on": "courtisan"})
    );
}

#[test]
fn ca_t3_princesse_ignored_without_knight() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(0));
    t.place("princesse", "b5");
    t.settled();
    assert_eq!(square(&t.at("roi")), "c4");
}

#[test]
fn ca_t3_reine_returns_another_courtyard_card() {
    let mut t = T::new(3);
    t.put("roi", "c4", Some(1));
    t.put("courtisan", "e5", Some(2));
    t.put("soldat-1", "b6", Some(2)); // not in the courtyard
    t.place("reine", "d4");
    let (_, options) = t.options();
    assert_eq!(
        options,
        ["Return the Courtier (e5)", "Return the King (c4)"]
    );
    t.choose("King");
    t.settled();
    assert_eq!(t.in_hand_of("roi"), Some(1));
}

#[test]
fn ca_t3_reine_ignored_alone_in_the_courtyard() {
    let mut t = T::new(3);
    t.put("soldat-1", "b6", Some(2));
    t.place("reine", "d4");
    t.settled();
    assert_eq!(square(&t.at("soldat-1")), "b6");
}

#[test]
fn ca_t3_roi_returns_a_castle_card_and_the_favorites_owner_one_too() {
    let mut t = T::new(3);
    let owner = t.other(1);
    t.put("courtisan", "c5", Some(2));
    t.put("soldat-1", "b6", Some(2));
    t.put("barbare", "outside", Some(2)); // outside the castle: never offered
    t.put("favorite", "b3", Some(owner));
    t.place("roi", "e2");
    let (seat, options) = t.options();
    assert_eq!(seat, t.seat());
    assert!(
        options.iter().all(|o| !o.contains("Barbarian")),
        "{options:?}"
    );
    assert_eq!(options.len(), 3, "{options:?}");
    t.choose("Courtier");
    let (seat, options) = t.options();
    assert_eq!(seat, owner, "the Favourite's owner chooses");
    assert!(options.iter().all(|o| !o.contains("King")), "{options:?}");
    t.choose("Soldier 1");
    t.settled();
    assert_eq!(t.in_hand_of("courtisan"), Some(2));
    assert_eq!(t.in_hand_of("soldat-1"), Some(2));
    assert_eq!(square(&t.at("barbare")), "");
}

/// CA-T3, the Roi with the Favorite in play, decided: « Le roi renvois du château n'importe
/// quelle autre carte. Si la favorite est à la cour, le joueur ayant un pion sur la favorite
/// renvoie également une carte de son choix. » The Roi's own return names the castle; the
/// Favorite owner's « carte de son choix » names no place, so it may be any card in play,
/// outside the walls included (the Roi excepted).
#[test]
fn ca_t3_roi_favorites_owner_returns_a_card_of_their_choice_even_outside() {
    let mut t = T::new(3);
    let owner = t.other(1);
    t.put("courtisan", "c5", Some(2));
    t.put("barbare", "outside", Some(2));
    t.put("favorite", "b3", Some(owner));
    t.place("roi", "e2");
    t.choose("Courtier");
    let (seat, options) = t.options();
    assert_eq!(seat, owner, "the Favourite's owner chooses");
    assert!(
        options.iter().any(|o| o.contains("Barbarian")),
        "{options:?}"
    );
    assert!(options.iter().all(|o| !o.contains("King")), "{options:?}");
    t.choose("Barbarian");
    t.settled();
    assert_eq!(t.in_hand_of("barbare"), Some(2));
    assert_eq!(square(&t.at("roi")), "e2");
}

#[test]
fn ca_t3_roi_ignored_with_an_empty_castle() {
    let mut t = T::new(3);
    t.put("barbare", "outside", Some(2));
    t.place("roi", "e2");
    t.settled();
    assert_eq!(t.at("barbare")["in"], "outside");
}

#[test]
fn ca_t3_voleur_removes_a_neighbours_pawn_and_it_later_returns_to_the_exchange() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", Some(1));
    t.place("voleur", "c4");
    t.settled();
    assert_eq!(t.pawn("courtisan"), Value::Null);
    t.cmd("return_card", json!({ "card": "courtisan" }));
    assert!(t.exchange().contains(&"courtisan".to_string()));
}

#[test]
fn ca_t3_voleur_ignored_without_a_pawn_nearby() {
    let mut t = T::new(3);
    t.put("courtisan", "c5", None);
    t.place("voleur", "c4");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "c5");
}

#[test]
fn ca_t3_barbare_returns_a_tower_or_rampart_card() {
    let mut t = T::new(3);
    t.put("soldat-1", "b6", Some(1));
    t.put("archer", "a1", Some(2));
    t.put("courtisan", "c4", Some(2));
    t.place("barbare", "outside");
    let (_, options) = t.options();
    assert_eq!(
        options,
        ["Return the Soldier 1 (b6)", "Return the Archer (a1)"]
    );
    t.choose("Archer");
    t.settled();
    assert_eq!(t.in_hand_of("archer"), Some(2));
}

#[test]
fn ca_t3_barbare_ignored_with_empty_towers_and_ramparts() {
    let mut t = T::new(3);
    t.put("courtisan", "c4", Some(2));
    t.place("barbare", "outside");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "c4");
}

#[test]
fn ca_t3_dragon_returns_a_card_outside_and_one_on_the_walls() {
    let mut t = T::new(3);
    t.put("engin-1", "engine-n", Some(1));
    t.put("soldat-1", "b6", Some(2));
    t.place("dragon", "outside");
    t.settled(); // one target of each kind, the Dragon himself not one
    assert_eq!(t.in_hand_of("engin-1"), Some(1));
    assert_eq!(t.in_hand_of("soldat-1"), Some(2));
    assert_eq!(t.at("dragon")["in"], "outside");
}

#[test]
fn ca_t3_dragon_ignored_when_nothing_outside_nor_on_the_walls() {
    let mut t = T::new(3);
    t.put("courtisan", "c4", Some(2));
    t.place("dragon", "outside");
    t.settled();
    assert_eq!(t.at("dragon")["in"], "outside");
}

#[test]
fn ca_t3_enchanteur_returns_the_card_placed_before_him() {
    let mut t = T::new(3);
    let seat = t.seat();
    t.place("courtisan", "b2");
    t.place("enchanteur", "outside");
    t.settled();
    assert_eq!(t.in_hand_of("courtisan"), Some(seat));
    assert_eq!(t.at("enchanteur")["in"], "outside");
}

#[test]
fn ca_t3_enchanteur_ignored_as_the_first_card_or_when_the_last_is_protected() {
    let mut t = T::new(3);
    t.place("enchanteur", "outside");
    t.settled();
    assert_eq!(t.at("enchanteur")["in"], "outside");
    // The card placed before him is protected by the Prêtre (same pawn colour).
    let mut t = T::new(3);
    let seat = t.seat();
    t.put("pretre", "c3", Some(seat));
    t.place("prince", "c2");
    t.place("enchanteur", "outside");
    t.settled();
    assert_eq!(square(&t.at("prince")), "c2");
}

#[test]
fn ca_t3_fee_lures_a_character_outside() {
    let mut t = T::new(3);
    t.put("courtisan", "c4", Some(1));
    t.put("fantome", "a1", Some(1)); // not a character
    t.place("fee", "outside");
    t.settled();
    assert_eq!(t.at("courtisan")["in"], "outside");
    assert_eq!(t.pawn("courtisan"), json!(1));
    assert_eq!(square(&t.at("fantome")), "a1");
}

/// CA-T4, the Fée decided: « La fée attire hors des murs l'un des personnages se trouvant
/// dans le château. » A Chevalier standing on a card of the castle is one of them, and
/// outside it then protects nothing.
#[test]
fn ca_t4_fee_lures_a_chevalier_of_the_castle_outside() {
    let mut t = T::new(3);
    t.put("fantome", "a1", Some(1)); // not a character itself
    t.put("chevalier-1", "on-fantome", Some(2));
    t.place("fee", "outside");
    t.settled();
    assert_eq!(t.at("chevalier-1")["in"], "outside");
    assert_eq!(t.pawn("chevalier-1"), json!(2));
    assert_eq!(square(&t.at("fantome")), "a1");
}

#[test]
fn ca_t3_fee_ignored_without_a_character_in_the_castle() {
    let mut t = T::new(3);
    t.put("fantome", "a1", Some(1));
    t.place("fee", "outside");
    t.settled();
    assert_eq!(square(&t.at("fantome")), "a1");
}

#[test]
fn ca_t3_traitre_returns_a_neighbouring_courtyard_card() {
    let mut t = T::new(3);
    t.put("courtisan", "b5", Some(1));
    t.put("archer", "a6", Some(1)); // a tower neighbour: not a target
    t.place("traitre", "b6");
    t.settled();
    assert_eq!(t.in_hand_of("courtisan"), Some(1));
    assert_eq!(square(&t.at("archer")), "a6");
}

#[test]
fn ca_t3_traitre_ignored_without_a_courtyard_neighbour() {
    let mut t = T::new(3);
    t.put("archer", "a6", Some(1));
    t.place("traitre", "b6");
    t.settled();
    assert_eq!(square(&t.at("archer")), "a6");
}

#[test]
fn ca_t3_alchimiste_exchanges_two_hand_cards_with_the_exchange() {
    let mut t = T::new(3);
    let seat = t.seat();
    let next = t.other(1);
    for card in t.hand(seat) {
        t.cmd("give_card", json!({ "card": card, "seat": next }));
    }
    t.cmd("give_card", json!({ "card": "courtisan", "seat": seat }));
    t.cmd("give_card", json!({ "card": "espion", "seat": seat }));
    t.empty_exchange();
    t.add_to_exchange("reine");
    t.add_to_exchange("roi");
    t.place("alchimiste", "a6");
    t.choose("Give the Courtier");
    t.choose("Take the King");
    // The second swap has one card each side: the player's own card is asked all the same
    // (whether they are asked must not tell the table what their hand holds), the other not.
    t.choose("Give the Spy");
    t.settled();
    let mut hand = t.hand(seat);
    hand.sort();
    assert_eq!(hand, ["reine", "roi"]);
    assert_eq!(t.exchange(), ["espion", "courtisan"]);
}

#[test]
fn ca_t3_alchimiste_ignored_with_an_empty_exchange() {
    let mut t = T::new(3);
    let seat = t.seat();
    t.empty_exchange();
    t.place("alchimiste", "a6");
    t.settled();
    assert!(!t.hand(seat).is_empty());
}

#[test]
fn ca_t3_archer_returns_a_card_outside() {
    let mut t = T::new(3);
    t.put("engin-1", "engine-n", Some(1));
    t.put("chevalier-1", "on-engin-1", Some(2)); // on an engine: outside too
    t.place("archer", "a6");
    t.settled(); // the engine is protected: the knight is the only target
    assert_eq!(t.in_hand_of("chevalier-1"), Some(2));
    assert_eq!(t.at("engin-1")["in"], "engine");
}

#[test]
fn ca_t3_archer_ignored_with_nothing_outside() {
    let mut t = T::new(3);
    t.put("courtisan", "c4", Some(2));
    t.place("archer", "a6");
    t.settled();
    assert_eq!(square(&t.at("courtisan")), "c4");
}

#[test]
fn ca_t4_guetteur_exception_soldier_onto_the_last_rampart_square_returns_the_engine() {
    for (to, returned) in [("e6", true), ("f5", false)] {
        let mut t = T::new(3);
        for (s, sq) in [
            ("soldat-1", "b6"),
            ("soldat-2", "c6"),
            ("soldat-3", "d6"),
            ("soldat-4", "b1"),
        ] {
            t.put(s, sq, Some(1));
        }
        t.put("engin-1", "engine-n", Some(2));
        t.place("guetteur", "a1");
        t.choose("Move the Soldier 4 (b1)");
        t.choose(&format!("to {to}"));
        t.settled();
        assert_eq!(square(&t.at("soldat-4")), to);
        assert_eq!(t.in_hand_of("engin-1") == Some(2), returned, "{to}");
    }
}

#[test]
fn ca_t3_guetteur_ignored_without_soldier() {
    let mut t = T::new(3);
    t.put("archer", "a6", Some(1));
    t.place("guetteur", "a1");
    t.settled();
    assert_eq!(square(&t.at("archer")), "a6");
}

#[test]
fn ca_t3_magicien_returns_a_card_to_the_exchange() {
    let mut t = T::new(3);
    t.put("courtisan", "c4", Some(1));
    t.place("magicien", "a6");
    t.settled();
    assert_eq!(t.at("courtisan")["in"], "exchange");
}

#[test]
fn ca_t3_magicien_ignored_alone_in_play() {
    let mut t = T::new(3);
    t.place("magicien", "a6");
    t.settled();
    assert_eq!(square(&t.at("magicien")), "a6");
}

#[test]
fn ca_t3_sorciere_sends_an_exchange_card_to_a_chosen_hand() {
    let mut t = T::new(3);
    let target = t.other(2);
    t.empty_exchange();
    t.add_to_exchange("roi");
    t.place("sorciere", "a6");
    let (_, options) = t.options();
    assert_eq!(options.len(), 3, "{options:?}");
    t.choose(&format!("{} pawns", PAWNS[target as usize]));
    t.settled();
    assert_eq!(t.in_hand_of("roi"), Some(target));
}

#[test]
fn ca_t3_sorciere_ignored_with_an_empty_exchange() {
    let mut t = T::new(3);
    t.empty_exchange();
    t.place("sorciere", "a6");
    t.settled();
    assert!(t.exchange().is_empty());
}

// ---- the Bouffon and the Fou: every player at once ----

/// The English name the core gives a card ("Soldier 3"), as the script's options use it.
fn name_en(t: &mut T, card: &str) -> String {
    t.q("card", json!({ "card": card }))["name"]["en"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The first card of each kind of a hand (the script offers identical cards once).
fn first_of_kinds(hand: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in hand {
        if !out.iter().any(|o| kind_of(o) == kind_of(c)) {
            out.push(c.clone());
        }
    }
    out
}

#[test]
fn ca_t3_bouffon_every_player_chooses_at_once_privately_then_all_pass_left() {
    let mut t = T::new(4);
    let placer = t.seat();
    t.place("bouffon", "c4");
    let Status::ToAct { seats } = t.e.status(t.g).unwrap() else {
        panic!("the game goes on")
    };
    let mut seats = seats.clone();
    seats.sort_unstable();
    assert_eq!(seats, [0, 1, 2, 3], "everybody decides at once");
    let mut offered = Vec::new();
    for s in 0..4u8 {
        // Each seat's legal actions are its own options: one per kind of its own hand.
        let cards = first_of_kinds(&t.hand(s));
        let labels: Vec<String> =
            t.e.legal_actions(t.g, s)
                .unwrap()
                .into_iter()
                .map(|a| a.label_for(s, Some(s)).en.clone())
                .collect();
        let expected: Vec<String> = cards
            .iter()
            .map(|c| format!("Pass the {}", name_en(&mut t, c)))
            .collect();
        assert_eq!(labels, expected, "seat {s}");
        offered.push(cards);
    }
    // What seat A answers changes nothing seat B sees or may do, nor the prompt.
    let (a, b) = (placer, (placer + 1) % 4);
    for (x, y) in [(a, b), (b, a)] {
        let one = t.e.clone_game(t.g).unwrap();
        let two = t.e.clone_game(t.g).unwrap();
        assert!(t.e.apply(one, x, "choose:0").unwrap().is_empty());
        assert!(t.e.apply(two, x, "choose:1").unwrap().is_empty());
        assert_eq!(
            t.e.view(one, Some(y)).unwrap(),
            t.e.view(two, Some(y)).unwrap()
        );
        assert_eq!(
            t.e.legal_actions(one, y).unwrap(),
            t.e.legal_actions(two, y).unwrap()
        );
        assert_eq!(t.e.view(one, None).unwrap(), t.e.view(two, None).unwrap());
        // A seat that has answered is not asked again.
        assert!(t.e.legal_actions(one, x).unwrap().is_empty());
        t.e.drop_game(one);
        t.e.drop_game(two);
    }
    let sizes: Vec<usize> = (0..4).map(|s| t.hand(s).len()).collect();
    for s in 0..4u8 {
        let events = t.e.apply(t.g, s, "choose:1").unwrap();
        t.events.extend(events);
    }
    t.settled();
    t.assert_running_scripts();
    for s in 0..4u8 {
        assert_eq!(
            t.in_hand_of(&offered[s as usize][1]),
            Some((s + 1) % 4),
            "seat {s}"
        );
        assert_eq!(t.hand(s).len(), sizes[s as usize]);
    }
}

/// Every hand holding a card is asked, even with a single kind: whether a player is asked
/// must not tell the table what their hand holds (the leak checks found it).
#[test]
fn ca_t3_bouffon_asks_every_hand_even_with_one_kind_then_passes_the_only_cards() {
    let mut t = T::new(3);
    let placer = t.seat();
    for s in 0..3u8 {
        t.empty_hand(s, &["bouffon", "roi", "reine"]);
    }
    for s in 0..3u8 {
        for card in t.hand(s) {
            t.cmd("give_card", json!({ "card": card, "seat": placer }));
        }
    }
    t.cmd(
        "give_card",
        json!({ "card": "roi", "seat": (placer + 1) % 3 }),
    );
    t.cmd(
        "give_card",
        json!({ "card": "reine", "seat": (placer + 2) % 3 }),
    );
    t.place("bouffon", "c4"); // the placer's hand is empty now: only two are asked
    let (_, one) = t.options();
    assert_eq!(one.len(), 1, "a single option: {one:?}");
    t.choose("Pass the");
    t.choose("Pass the");
    t.settled();
    assert_eq!(t.in_hand_of("roi"), Some((placer + 2) % 3));
    assert_eq!(t.in_hand_of("reine"), Some(placer));
}

#[test]
fn ca_t3_bouffon_ignored_when_every_hand_is_empty() {
    let mut t = T::new(5);
    for s in 0..5u8 {
        t.empty_hand(s, &["bouffon"]);
    }
    t.place("bouffon", "c4");
    t.settled();
    assert_eq!(square(&t.at("bouffon")), "c4");
}

#[test]
fn ca_t3_fou_every_player_draws_a_random_card_from_the_right_neighbour_without_choosing() {
    let mut t = T::new(3);
    let placer = t.seat();
    t.cmd("give_card", json!({ "card": "fou", "seat": placer }));
    let before: Vec<Vec<String>> = (0..3u8)
        .map(|s| {
            t.hand(s)
                .into_iter()
                .filter(|c| c != "fou")
                .collect::<Vec<String>>()
        })
        .collect();
    t.play("place-fou-c4");
    t.settled(); // random, so nobody is asked anything
    for s in 0..3usize {
        let after = t.hand(s as u8);
        let new: Vec<&String> = after.iter().filter(|c| !before[s].contains(c)).collect();
        assert_eq!(new.len(), 1, "seat {s} drew one card");
        let right = (s + 2) % 3;
        assert!(before[right].contains(new[0]), "from the right neighbour");
        assert_eq!(after.len(), before[s].len());
    }
    // Seeded: the same game draws the same cards.
    let mut again = T::new(3);
    again.cmd("give_card", json!({ "card": "fou", "seat": placer }));
    again.play("place-fou-c4");
    for s in 0..3u8 {
        assert_eq!(again.hand(s), t.hand(s));
    }
}

#[test]
fn ca_t3_fou_ignored_when_every_hand_is_empty() {
    let mut t = T::new(3);
    for s in 0..3u8 {
        t.empty_hand(s, &["fou"]);
    }
    t.place("fou", "c4");
    t.settled();
    for s in 0..3u8 {
        assert!(t.hand(s).is_empty());
    }
}

// ---- core rules fed by the script's table (CA-T7) ----

#[test]
fn ca_t7_fourth_soldier_and_fourth_engine_with_and_without_the_capitaine() {
    // The fourth soldier on a rampart returns the engine facing it.
    let mut t = T::new(3);
    for (s, sq) in [("soldat-1", "b6"), ("soldat-2", "c6"), ("traitre", "d6")] {
        t.put(s, sq, Some(1));
    }
    t.put("engin-1", "engine-n", Some(2));
    t.place("soldat-4", "e6");
    t.settled();
    assert_eq!(t.in_hand_of("engin-1"), Some(2));
    // The fourth engine returns every soldier; the Capitaine's stay and he goes.
    for captain in [false, true] {
        let mut t = T::new(3);
        t.put("soldat-1", "b6", Some(1));
        t.put("soldat-2", "b1", Some(1));
        if captain {
            t.put("capitaine", "c6", Some(2));
        }
        for (e, at) in [
            ("engin-1", "engine-n"),
            ("engin-2", "engine-e"),
            ("engin-3", "engine-s"),
        ] {
            t.put(e, at, Some(0));
        }
        t.place("engin-4", "engine-w");
        t.settled();
        assert_eq!(t.in_hand_of("soldat-2"), Some(1));
        if captain {
            assert_eq!(square(&t.at("soldat-1")), "b6");
            assert_eq!(t.in_hand_of("capitaine"), Some(2));
        } else {
            assert_eq!(t.in_hand_of("soldat-1"), Some(1));
        }
    }
}

// ---- editing the script ----

#[test]
fn editing_one_effect_in_the_script_text_changes_the_game() {
    let text = builtin_text("cards.lua");
    // The Courtisan now returns any card in play instead of a neighbouring one.
    let needle =
        "local cards = filter(neighbours(ctx, a.card), free)\n  return_one(ctx, \"courtisan\"";
    assert!(text.contains(needle));
    let edited = text.replace(
        needle,
        "local cards = filter(all_in_play(ctx), function(e) return free(e) and e.id ~= a.card end)\n  return_one(ctx, \"courtisan\"",
    );
    for (source, far_returned) in [(text.clone(), false), (edited, true)] {
        let mut t = T::with(vec![script("cards.lua", &source)], 3, 7);
        t.put("espion", "e2", Some(2));
        t.place("courtisan", "b5");
        t.settled();
        assert_eq!(t.in_hand_of("espion") == Some(2), far_returned);
    }
}

// ---- « Dragon apprivoisé » ----

#[test]
fn dragon_apprivoise_returns_only_one_card() {
    let mut t = T::with(vec![cards(), tamed()], 3, 7);
    t.put("engin-1", "engine-n", Some(1));
    t.put("soldat-1", "b6", Some(2));
    t.put("courtisan", "c4", Some(2)); // courtyard: not a target
    t.place("dragon", "outside");
    let (seat, options) = t.options();
    assert_eq!(seat, t.seat());
    assert_eq!(options.len(), 2, "{options:?}");
    t.choose("Soldier 1");
    t.settled();
    assert_eq!(t.in_hand_of("soldat-1"), Some(2));
    assert_eq!(t.at("engin-1")["in"], "engine", "only one card returned");
    // One target: no question; none: ignored.
    let mut t = T::with(vec![cards(), tamed()], 3, 7);
    t.put("archer", "a6", Some(1));
    t.place("dragon", "outside");
    t.settled();
    assert_eq!(t.in_hand_of("archer"), Some(1));
    let mut t = T::with(vec![cards(), tamed()], 3, 7);
    t.place("dragon", "outside");
    t.settled();
    assert_eq!(t.at("dragon")["in"], "outside");
}

// ---- « Pioche double » ----

fn double_draw() -> Script {
    script("pioche-double.lua", &builtin_text("pioche-double.lua"))
}

/// (hand, pile) of a seat.
fn counts(t: &mut T, seat: Seat) -> (u64, u64) {
    let all = t.q("counts", json!(null));
    let row = &all[seat as usize];
    (row["hand"].as_u64().unwrap(), row["pile"].as_u64().unwrap())
}

#[test]
fn pioche_double_a_draw_takes_the_top_two_cards_of_the_pile_ca_t1() {
    let mut t = T::with(vec![cards(), double_draw()], 2, 7);
    let seat = t.seat();
    let (hand, pile) = counts(&mut t, seat);
    assert!(pile >= 3, "a fresh 2-player pile holds 13 cards");
    let seen_before = t.e.view(t.g, Some(1 - seat)).unwrap();
    t.play("draw");
    assert_eq!(counts(&mut t, seat), (hand + 2, pile - 2));
    // The log says a second card was drawn, never which: the other seat reads the same
    // line, and its view of the castle and the exchange did not change.
    let line = t
        .events
        .iter()
        .find(|e| e.text.en.starts_with("Double draw"))
        .unwrap_or_else(|| panic!("{:?}", t.events))
        .text
        .clone();
    for card in t.hand(seat) {
        let name = name_en(&mut t, &card);
        assert!(!line.en.contains(&name), "{}", line.en);
    }
    let seen_after = t.e.view(t.g, Some(1 - seat)).unwrap();
    assert_eq!(seen_before.boards, seen_after.boards);
    // Still one action left this turn (CA-T1): the double draw is one action.
    assert_eq!(t.seat(), seat);
    assert_eq!(t.q("turn", json!(null))["actions_left"], 1);
}

#[test]
fn pioche_double_with_one_card_left_draws_it_alone() {
    let mut t = T::with(vec![cards(), double_draw()], 2, 7);
    let seat = t.seat();
    // Move every card of the pile but one to the other seat's hand.
    let other = 1 - seat;
    while counts(&mut t, seat).1 > 1 {
        t.cmd("draw_card", json!({ "seat": seat }));
        let card = t.hand(seat)[0].clone();
        t.cmd("give_card", json!({ "card": card, "seat": other }));
    }
    let (hand, _) = counts(&mut t, seat);
    t.events.clear();
    t.play("draw");
    assert_eq!(counts(&mut t, seat), (hand + 1, 0));
    assert!(!t
        .events
        .iter()
        .any(|e| e.text.en.starts_with("Double draw")));
}

#[test]
fn pioche_double_random_games_end_without_a_script_error_and_pass_the_kit() {
    for players in 2..=5 {
        random_games(|| vec![cards(), double_draw()], players, 5);
    }
    let runtime = runtime();
    let mut wasm = VariantEngine::new(
        Box::new(builtin_plugin(&runtime, "castel")),
        vec![cards(), double_draw()],
    )
    .unwrap();
    let mut reference = native(vec![cards(), double_draw()]);
    let config = veillee_runtime::conformance::CheckConfig {
        games: 1,
        players: Some(3),
        deep_steps: 20,
        ..veillee_runtime::conformance::CheckConfig::default()
    };
    let report = veillee_runtime::conformance::check(&mut wasm, Some(&mut reference), &config);
    assert!(report.passed(), "{}", report.failures.join("\n"));
}

// ---- random games ----

fn random_games(scripts: impl Fn() -> Vec<Script>, players: u8, games: u64) {
    let mut e = native(scripts());
    for seed in 0..games {
        let g = e.create(&Setup::new(players, seed)).unwrap();
        let mut rng = GameRng::new(seed ^ 0xca57e1);
        let mut moves = 0;
        loop {
            let seat = match e.status(g).unwrap() {
                Status::Finished { outcome } => {
                    assert!(!outcome.winners.is_empty());
                    break;
                }
                Status::ToAct { seats } => seats[0],
            };
            let actions = e.legal_actions(g, seat).unwrap();
            assert!(!actions.is_empty(), "{players}p seed {seed}: no action");
            let id = actions[rng.below(actions.len())].id.clone();
            let events = e
                .apply(g, seat, &id)
                .unwrap_or_else(|err| panic!("{players}p seed {seed}: {id}: {err}"));
            for ev in &events {
                assert!(
                    !ev.text.en.contains("switched off"),
                    "{players}p seed {seed}: {}",
                    ev.text.en
                );
            }
            assert!(
                e.disabled(g).is_empty(),
                "{players}p seed {seed}: {:?}",
                e.disabled(g)
            );
            moves += 1;
            assert!(moves < 20_000, "{players}p seed {seed}: does not end");
        }
        e.drop_game(g);
    }
}

#[test]
fn random_games_with_cards_lua_end_without_a_script_error_2_players() {
    random_games(|| vec![cards()], 2, 100);
}

#[test]
fn random_games_with_cards_lua_end_without_a_script_error_3_players() {
    random_games(|| vec![cards()], 3, 100);
}

#[test]
fn random_games_with_cards_lua_end_without_a_script_error_4_players() {
    random_games(|| vec![cards()], 4, 100);
}

#[test]
fn random_games_with_cards_lua_end_without_a_script_error_5_players() {
    random_games(|| vec![cards()], 5, 100);
}

#[test]
fn random_games_with_the_tamed_dragon_end_without_a_script_error() {
    for players in 2..=5 {
        random_games(|| vec![cards(), tamed()], players, 10);
    }
}
