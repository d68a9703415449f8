//! The card table: what the core needs of each card (count, zone, sex, placement
//! condition, whether it is a soldier, whether it has an arrival effect). A script may
//! override one kind's definition per game with the `define_card` command (see `ops.rs`).

use serde::{Deserialize, Serialize};

/// Where a card arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    /// The 4×4 courtyard.
    Courtyard,
    /// The 16 rampart squares.
    Rampart,
    /// The 4 corner towers.
    Tower,
    /// Outside the walls, anywhere.
    Outside,
    /// Outside the walls facing a rampart without an engine (siege engines, CA-B3).
    Engine,
    /// On top of any card in play (knights).
    OnCard,
}

/// A card's sex (Dame de compagnie, Prince charmant, Fée, Prêtre).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sex {
    /// A male character.
    Male,
    /// A female character.
    Female,
    /// Not a character (engines, creatures).
    None,
}

/// Kind index meaning "no kind" in a [`Condition`].
pub const NO_KIND: u8 = u8::MAX;

/// A placement condition (CA-T2), besides the card's zone and a free square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Condition {
    /// Any free square of the zone.
    None,
    /// Only on the last free square of its zone (Ambassadeur).
    LastFree,
    /// On a square neighbouring a card of one of these kinds ([`NO_KIND`] = unused). When
    /// the Roi is one of them and is absent from the courtyard, the Prince stands in.
    NextTo {
        /// Up to two kinds.
        kinds: [u8; 2],
    },
    /// Next to a card of this kind if that card is in the courtyard (Reine, Prince charmant).
    NextToIfInCourtyard {
        /// The kind.
        kind: u8,
    },
    /// Not while a card of this kind is in the courtyard (Favorite).
    NotWhileInCourtyard {
        /// The kind.
        kind: u8,
    },
    /// Only onto an occupied tower whose card can be returned; that card is returned
    /// as the card takes its place (Fantôme).
    OccupiedTower,
    /// Only with at least this many players (Fou, Bouffon).
    MinPlayers {
        /// Fewest players.
        players: u8,
    },
}

/// The per-game definition of a card kind (overridable by scripts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    /// Where it arrives.
    pub zone: Zone,
    /// Its sex.
    pub sex: Sex,
    /// Its placement condition.
    pub condition: Condition,
    /// Whether it is a soldier (CA-T7).
    pub soldier: bool,
    /// Whether it has an arrival effect a script resolves (CA-T3).
    pub effect: bool,
}

/// One line of the printed card table.
pub struct Kind {
    /// Stable id (`roi`, `soldat`).
    pub slug: &'static str,
    /// French name.
    pub fr: &'static str,
    /// English name.
    pub en: &'static str,
    /// Short label drawn on the board.
    pub short: &'static str,
    /// Copies in the game.
    pub count: u8,
    /// Default definition.
    pub def: Def,
}

use Condition as C;
use Sex::{Female as F, Male as M, None as N};
use Zone::*;

const fn d(zone: Zone, sex: Sex, condition: Condition) -> Def {
    Def {
        zone,
        sex,
        condition,
        soldier: false,
        effect: true,
    }
}

const fn k(
    slug: &'static str,
    fr: &'static str,
    en: &'static str,
    short: &'static str,
    count: u8,
    def: Def,
) -> Kind {
    Kind {
        slug,
        fr,
        en,
        short,
        count,
        def,
    }
}

/// Kind indices the core refers to.
pub const AMBASSADEUR: u8 = 0;
/// Bouffon.
pub const BOUFFON: u8 = 3;
/// Fou.
pub const FOU: u8 = 11;
/// Prince.
pub const PRINCE: u8 = 14;
/// Prêtre.
pub const PRETRE: u8 = 15;
/// Princesse.
pub const PRINCESSE: u8 = 17;
/// Reine.
pub const REINE: u8 = 18;
/// Roi.
pub const ROI: u8 = 19;
/// Engin de siège.
pub const ENGIN: u8 = 24;
/// Héraut.
pub const HERAUT: u8 = 26;
/// Capitaine.
pub const CAPITAINE: u8 = 27;
/// Chevalier.
pub const CHEVALIER: u8 = 36;

const fn soldier(sex: Sex, effect: bool) -> Def {
    Def {
        zone: Rampart,
        sex,
        condition: C::None,
        soldier: true,
        effect,
    }
}

const fn plain(zone: Zone, sex: Sex, condition: Condition) -> Def {
    Def {
        zone,
        sex,
        condition,
        soldier: false,
        effect: false,
    }
}

/// The 37 kinds of the 56 cards, in id order.
pub const KINDS: [Kind; 37] = [
    k(
        "ambassadeur",
        "Ambassadeur",
        "Ambassador",
        "Amb",
        1,
        plain(Courtyard, M, C::LastFree),
    ),
    k(
        "assassin",
        "Assassin",
        "Assassin",
        "Ass",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "baladin",
        "Baladin",
        "Minstrel",
        "Bal",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "bouffon",
        "Bouffon",
        "Jester",
        "Bou",
        1,
        d(Courtyard, M, C::MinPlayers { players: 3 }),
    ),
    k(
        "chevalier-noir",
        "Chevalier noir",
        "Black Knight",
        "ChN",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "conseiller",
        "Conseiller du roi",
        "King's Counsellor",
        "Con",
        1,
        d(
            Courtyard,
            M,
            C::NextTo {
                kinds: [ROI, NO_KIND],
            },
        ),
    ),
    k(
        "courtisan",
        "Courtisan",
        "Courtier",
        "Crt",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "courtisane",
        "Courtisane",
        "Courtesan",
        "Cne",
        1,
        d(Courtyard, F, C::None),
    ),
    k(
        "dame",
        "Dame de compagnie",
        "Lady-in-waiting",
        "Dam",
        1,
        d(
            Courtyard,
            F,
            C::NextTo {
                kinds: [REINE, PRINCESSE],
            },
        ),
    ),
    k(
        "espion",
        "Espion",
        "Spy",
        "Esp",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "favorite",
        "Favorite",
        "Favourite",
        "Fav",
        1,
        d(Courtyard, F, C::NotWhileInCourtyard { kind: REINE }),
    ),
    k(
        "fou",
        "Fou",
        "Fool",
        "Fou",
        1,
        d(Courtyard, M, C::MinPlayers { players: 3 }),
    ),
    k(
        "intrigant",
        "Intrigant",
        "Schemer",
        "Int",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "marchand",
        "Marchand",
        "Merchant",
        "Mar",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "prince",
        "Prince",
        "Prince",
        "Pce",
        1,
        plain(Courtyard, M, C::None),
    ),
    k(
        "pretre",
        "Prêtre",
        "Priest",
        "Prê",
        1,
        plain(Courtyard, M, C::None),
    ),
    k(
        "prince-charmant",
        "Prince charmant",
        "Prince Charming",
        "PCh",
        1,
        d(Courtyard, M, C::NextToIfInCourtyard { kind: PRINCESSE }),
    ),
    k(
        "princesse",
        "Princesse",
        "Princess",
        "Pss",
        1,
        d(Courtyard, F, C::None),
    ),
    k(
        "reine",
        "Reine",
        "Queen",
        "Rne",
        1,
        d(Courtyard, F, C::NextToIfInCourtyard { kind: ROI }),
    ),
    k("roi", "Roi", "King", "Roi", 1, d(Courtyard, M, C::None)),
    k(
        "voleur",
        "Voleur",
        "Thief",
        "Vol",
        1,
        d(Courtyard, M, C::None),
    ),
    k(
        "barbare",
        "Barbare",
        "Barbarian",
        "Bar",
        1,
        d(Outside, M, C::None),
    ),
    k(
        "dragon",
        "Dragon",
        "Dragon",
        "Dra",
        1,
        d(Outside, N, C::None),
    ),
    k(
        "enchanteur",
        "Enchanteur",
        "Enchanter",
        "Enc",
        1,
        d(Outside, M, C::None),
    ),
    k(
        "engin",
        "Engin de siège",
        "Siege engine",
        "Eng",
        5,
        plain(Engine, N, C::None),
    ),
    k("fee", "Fée", "Fairy", "Fée", 1, d(Outside, F, C::None)),
    k(
        "heraut",
        "Héraut",
        "Herald",
        "Hér",
        1,
        plain(Outside, M, C::None),
    ),
    k(
        "capitaine",
        "Capitaine",
        "Captain",
        "Cap",
        1,
        soldier(M, false),
    ),
    k("soldat", "Soldat", "Soldier", "Sol", 13, soldier(M, false)),
    k("traitre", "Traître", "Traitor", "Tra", 1, soldier(M, true)),
    k(
        "alchimiste",
        "Alchimiste",
        "Alchemist",
        "Alc",
        1,
        d(Tower, M, C::None),
    ),
    k("archer", "Archer", "Archer", "Arc", 1, d(Tower, M, C::None)),
    k(
        "fantome",
        "Fantôme",
        "Ghost",
        "Fan",
        1,
        plain(Tower, N, C::OccupiedTower),
    ),
    k(
        "guetteur",
        "Guetteur",
        "Lookout",
        "Gue",
        1,
        d(Tower, M, C::None),
    ),
    k(
        "magicien",
        "Magicien",
        "Magician",
        "Mag",
        1,
        d(Tower, M, C::None),
    ),
    k(
        "sorciere",
        "Sorcière",
        "Witch",
        "Sor",
        1,
        d(Tower, F, C::None),
    ),
    k(
        "chevalier",
        "Chevalier",
        "Knight",
        "Chv",
        4,
        plain(OnCard, M, C::None),
    ),
];

/// Number of cards.
pub const CARDS: usize = 56;

const fn build() -> ([u8; CARDS], [u8; CARDS]) {
    let mut kind = [0u8; CARDS];
    let mut num = [0u8; CARDS];
    let mut i = 0;
    let mut k = 0;
    while k < KINDS.len() {
        let mut n = 0;
        while n < KINDS[k].count {
            kind[i] = k as u8;
            num[i] = n + 1;
            i += 1;
            n += 1;
        }
        k += 1;
    }
    assert!(i == CARDS);
    (kind, num)
}

const TABLE: ([u8; CARDS], [u8; CARDS]) = build();
/// The kind of each card.
pub const CARD_KIND: [u8; CARDS] = TABLE.0;
/// The copy number of each card (1-based).
pub const CARD_NUM: [u8; CARDS] = TABLE.1;

/// A card's kind.
pub fn kind(card: u8) -> u8 {
    CARD_KIND[card as usize]
}

/// A card's stable id: `roi`, `soldat-7`.
pub fn card_id(card: u8) -> String {
    let k = &KINDS[kind(card) as usize];
    if k.count > 1 {
        format!("{}-{}", k.slug, CARD_NUM[card as usize])
    } else {
        k.slug.to_string()
    }
}

/// The card with this id.
pub fn parse_card(id: &str) -> Option<u8> {
    (0..CARDS as u8).find(|&c| card_id(c) == id)
}

/// The kind with this slug.
pub fn parse_kind(slug: &str) -> Option<u8> {
    KINDS.iter().position(|k| k.slug == slug).map(|k| k as u8)
}

/// A card's name, French and English (with its copy number for multiples).
pub fn card_name(card: u8) -> (String, String) {
    let k = &KINDS[kind(card) as usize];
    if k.count > 1 {
        let n = CARD_NUM[card as usize];
        (format!("{} {n}", k.fr), format!("{} {n}", k.en))
    } else {
        (k.fr.to_string(), k.en.to_string())
    }
}
