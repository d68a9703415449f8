//! Every text of the launcher in French and English.
//!
//! Screens ask for a [`S`] key through [`Lang::t`]; texts with a value use `{}` and
//! [`Lang::f`]. Game texts come from the plugins as [`veillee_sdk::Text`] and are picked with
//! [`Lang::code`].

/// The launcher's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// Français.
    Fr,
    /// English.
    En,
}

impl Lang {
    /// `fr` → French, anything else → English.
    pub fn from_code(code: &str) -> Lang {
        if code.starts_with("fr") {
            Lang::Fr
        } else {
            Lang::En
        }
    }

    /// The system's language (French locales → French, else English).
    pub fn system() -> Lang {
        Lang::from_code(&veillee_runtime::locale::system_lang())
    }

    /// `"fr"` or `"en"`, as [`veillee_sdk::Text::get`] wants it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }

    /// A launcher text.
    pub fn t(self, key: S) -> &'static str {
        let (fr, en) = key.texts();
        match self {
            Lang::Fr => fr,
            Lang::En => en,
        }
    }

    /// A launcher text with its `{}` replaced by `args`, in order.
    pub fn f(self, key: S, args: &[&str]) -> String {
        let mut out = String::new();
        let mut args = args.iter();
        let mut parts = self.t(key).split("{}");
        if let Some(first) = parts.next() {
            out.push_str(first);
        }
        for part in parts {
            out.push_str(args.next().copied().unwrap_or(""));
            out.push_str(part);
        }
        out
    }
}

macro_rules! strings {
    ($($key:ident => $fr:literal, $en:literal;)*) => {
        /// The keys of the launcher's texts.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum S { $($key),* }

        impl S {
            /// (French, English).
            pub fn texts(self) -> (&'static str, &'static str) {
                match self { $(S::$key => ($fr, $en)),* }
            }

            /// Every key (for the completeness test).
            pub const ALL: &'static [S] = &[$(S::$key),*];
        }
    };
}

strings! {
    AppTitle => "Veillée", "Veillée";
    Tagline => "Jeux de société entre amis", "Board games with friends";
    Library => "Ludothèque", "Library";
    SavedGames => "Parties sauvegardées", "Saved games";
    Settings => "Réglages", "Settings";
    Loading => "Chargement des jeux…", "Loading the games…";
    Working => "Un instant…", "One moment…";
    Players => "Joueurs : {}", "Players: {}";
    PlayTime => "{}\u{a0}min", "{}\u{a0}min";
    DieFaces => "Faces : {}", "Faces: {}";
    Version => "Version {}", "Version {}";
    Builtin => "Intégré", "Built-in";
    Installed => "Installé", "Installed";
    VariantsCount => "{} variante(s)", "{} house rule(s)";
    NoVariants => "Pas de variante", "No house rules";
    PrepWaiting => "Préparation du jeu en attente…", "Waiting to be prepared…";
    PrepCompiling => "Préparation du jeu…", "Preparing the game…";
    PrepReady => "Prêt", "Ready";
    PrepFailed => "Ce jeu ne peut pas être chargé", "This game cannot be loaded";
    NewGame => "Nouvelle partie", "New game";
    Rules => "Règles", "Rules";
    Uninstall => "Désinstaller", "Uninstall";
    ConfirmUninstall => "Désinstaller {} ? Les parties sauvegardées restent, mais ne pourront pas reprendre sans le jeu.", "Uninstall {}? Saved games stay, but cannot be resumed without the game.";
    Cancel => "Annuler", "Cancel";
    Confirm => "Confirmer", "Confirm";
    InstallGame => "Installer un jeu…", "Install a game…";
    InstallHint => "Un jeu est un fichier .wasm : choisissez-le, déposez-le sur la fenêtre, ou tapez son chemin.", "A game is a .wasm file: choose it, drop it on the window, or type its path.";
    PluginPath => "Fichier du jeu", "Game file";
    PluginPathHint => "/chemin/vers/jeu.wasm", "/path/to/game.wasm";
    Install => "Installer", "Install";
    Installing => "Vérification et installation de {}…", "Checking and installing {}…";
    InstallFailed => "Le jeu n'a pas pu être installé", "The game could not be installed";
    InstallDone => "{} est installé.", "{} is installed.";
    UninstallDone => "{} est désinstallé.", "{} was uninstalled.";
    Problems => "Problèmes au chargement des jeux :", "Problems while loading the games:";
    Dismiss => "Fermer", "Dismiss";
    DialogUnavailable => "La fenêtre de choix de fichier n'est pas disponible : tapez le chemin ci-dessous.", "The file chooser is not available: type the path below.";
    PlayerCount => "Nombre de joueurs", "Number of players";
    Seat => "Place {}", "Seat {}";
    NameOf => "Nom de la place {}", "Name of seat {}";
    Human => "Humain", "Human";
    Bot => "Robot", "Bot";
    BotLevel => "Niveau du robot de la place {}", "Bot level of seat {}";
    LevelEasy => "facile", "easy";
    LevelNormal => "normal", "normal";
    LevelStrong => "fort", "strong";
    LevelRandom => "au hasard", "random";
    TestRule => "Tester cette règle", "Test this rule";
    RuleTesting => "Des robots jouent… {} parties sur {}", "Bots playing… {} of {} games";
    RuleBalance => "Parties de robots « normal » ({} de chaque) — sans la règle : {} ; avec : {}", "Games of normal bots ({} each) — plain game: {}; with this rule: {}";
    RuleWins => "{} gagne {} %", "{} wins {} %";
    RuleDraws => "nulles {} %", "draws {} %";
    RuleTestFailed => "Le test n'a pas pu se faire : {}", "The test could not run: {}";
    Options => "Options", "Options";
    NoOptions => "Ce jeu n'a pas d'option.", "This game has no options.";
    Variants => "Variantes (règles maison)", "House rules";
    Changes => "Ce qui change :", "What changes:";
    BrokenVariant => "Ne se charge pas : {}", "Does not load: {}";
    ModifiedRules => "Règles modifiées : votre copie d'un script du jeu, jouée à sa place si vous la cochez", "Modified rules: your copy of one of the game's own scripts, played instead of it if you tick it";
    SeedLabel => "Graine (pour rejouer une partie identique)", "Seed (to replay an identical game)";
    NewSeed => "Nouvelle graine", "New seed";
    Start => "Commencer la partie", "Start the game";
    Back => "← Retour", "← Back";
    BackToLibrary => "Retour à la ludothèque", "Back to library";
    Undo => "Annuler le coup", "Undo";
    Redo => "Rétablir", "Redo";
    Log => "Journal", "Log";
    ToAct => "À {} de jouer", "{} to play";
    BotThinking => "{} réfléchit…", "{} is thinking…";
    OtherActions => "Autres actions", "Other actions";
    ChooseAmong => "Plusieurs coups possibles, choisissez :", "Several moves possible, choose:";
    ClearSelection => "Désélectionner", "Clear selection";
    PassTo => "Passez l'appareil à {}", "Pass to {}";
    ClickWhenReady => "Cliquez quand vous êtes prêt·e", "Click when ready";
    HiddenNote => "Le plateau est caché : ce jeu a des informations secrètes.", "The board is hidden: this game has secret information.";
    RevealTitle => "Annuler ce qui a été révélé ?", "Take back what was revealed?";
    RevealBody => "Annuler reprendrait ce qui a déjà été révélé à la table :", "Undoing takes back what the table has already seen:";
    RevealAsk => "Tout le monde est d'accord ?", "Does everyone agree?";
    Agree => "Tout le monde est d'accord", "Everyone agrees";
    GameOver => "Partie terminée", "Game over";
    Winner => "Victoire : {}", "Winner: {}";
    Draw => "Match nul", "Draw";
    PlayAgain => "Rejouer", "Play again";
    Scores => "Scores", "Scores";
    GameFailed => "Le jeu a rencontré un problème", "The game ran into a problem";
    SessionKept => "La partie reste sauvegardée jusqu'au dernier coup joué.", "The game stays saved up to the last move played.";
    Saved => "Sauvegardée (partie n° {})", "Saved (game #{})";
    NoSaved => "Aucune partie sauvegardée pour l'instant.", "No saved games yet.";
    Resume => "Reprendre", "Resume";
    Delete => "Supprimer", "Delete";
    ConfirmDelete => "Supprimer la partie n° {} ({}) pour de bon ?", "Delete game #{} ({}) for good?";
    Export => "Exporter…", "Export…";
    Import => "Importer une partie…", "Import a game…";
    StartingPosition => "{} : la position de départ", "{}: the starting position";
    ContinueGame => "Continuer : {} (partie n° {})", "Continue: {} (game #{})";
    ImportThis => "Importer ce fichier", "Import this file";
    SessionPath => "Fichier de partie", "Saved-game file";
    Exported => "Partie exportée dans {}", "Game exported to {}";
    Imported => "Partie importée (n° {})", "Game imported (#{})";
    ConfirmImportScripts => "Ce fichier apporte des scripts qui ne sont pas installés ici. Ils s'exécutent dès l'import, puis à chaque partie :\n{}\nLes exécuter ?", "This file brings scripts that are not installed here. They run as soon as it is imported, and each time the game is played:\n{}\nRun them?";
    ImportAndRun => "Importer et les exécuter", "Import and run them";
    NotImported => "Fichier non importé : ses scripts n'ont pas été acceptés.", "File not imported: its scripts were not accepted.";
    Deleted => "Partie supprimée.", "Game deleted.";
    MovesCount => "{} coups", "{} moves";
    LastPlayed => "Jouée le {}", "Last played {}";
    InProgress => "En cours", "In progress";
    Finished => "Terminée", "Finished";
    Language => "Langue", "Language";
    Scale => "Taille de l'interface", "Interface size";
    ScaleHint => "Agrandissez pour jouer sur une télévision.", "Make it bigger to play on a TV.";
    DataDir => "Dossier des données", "Data directory";
    AlreadyRunning => "Veillée est déjà ouverte", "Veillée is already open";
    AlreadyRunningBody => "Une autre fenêtre de Veillée utilise déjà ces données ({}). Fermez-la, puis relancez Veillée.", "Another Veillée window is already using this data ({}). Close it, then start Veillée again.";
    CannotOpen => "Les données de Veillée n'ont pas pu être ouvertes", "Veillée's data could not be opened";
    Quit => "Quitter", "Quit";
    Recovered => "Les parties sauvegardées ont été réparées", "The saved games were repaired";
    SetAsideTitle => "Une base de parties a été mise de côté", "A saved-games database was set aside";
    SetAsideBody => "Le {}, une base de parties abîmée (ou prise pour telle) a été mise de côté dans {}. Veillée peut en récupérer toutes les parties encore lisibles ; celles déjà présentes ne sont pas dupliquées.", "On {}, a damaged saved-games database (or one taken for damaged) was set aside in {}. Veillée can bring back every game in it that can still be read; games already here are not duplicated.";
    RestoreSetAside => "Récupérer ses parties", "Bring its games back";
    RestoredGames => "{} partie(s) récupérée(s), {} déjà présente(s), {} encore illisible(s).", "{} game(s) brought back, {} already here, {} still unreadable.";
    NameRefused => "Le nom de la place {} n'est pas accepté : {} caractères au plus, sans caractère de contrôle.", "The name of seat {} is refused: at most {} characters, and no control characters.";
    NoRules => "Les règles complètes de ce jeu ne sont pas encore fournies par le jeu. En voici la présentation :", "This game does not ship its full rules yet. Here is its description:";
    Resumed => "Partie reprise au coup {}", "Game resumed at move {}";
    Started => "Nouvelle partie, graine {}", "New game, seed {}";
    Undone => "Coup(s) annulé(s) : {}", "Move(s) taken back: {}";
    Redone => "Coup(s) rétabli(s)", "Move(s) redone";
    Spectator => "Spectateur", "Spectator";
    YourTurn => "{}, à vous !", "{}, your turn!";
    HouseRules => "Règles maison : {}", "House rules: {}";
    Contents => "Sommaire", "Contents";
    InVeillee => "Dans Veillée : places, options et variantes", "In Veillée: seats, options and house rules";
    ExportTo => "Exporter la partie n° {} dans le fichier", "Export game #{} to the file";
    ExportHint => "Choisissez le fichier dans la fenêtre qui s'ouvre, ou tapez son chemin ici.", "Choose the file in the window that opens, or type its path here.";
    ExportHere => "Exporter ici", "Export here";
    ExportSecrets => "La partie n° {} n'est pas finie et comporte des informations cachées : le fichier complet contiendra les secrets de tous les joueurs (les mains, les choix secrets), lisibles par quiconque l'ouvre. Exporter plutôt ce qu'un seul joueur a vu (sans les secrets des autres), ou tout quand même ?", "Game #{} is not over and has hidden information: the whole file will hold every player's secrets (hands, secret choices), readable by anyone who opens it. Export only what one player saw (nobody else's secrets), or everything anyway?";
    ExportAsSeat => "Seulement ce qu'a vu {}", "Only what {} saw";
    ExportAnyway => "Exporter quand même", "Export anyway";
    FileFailed => "L'opération sur le fichier a échoué", "The file operation failed";
    Assist => "Mode assisté (par défaut pour chaque partie)", "Assisted mode (default for every game)";
    AssistShort => "Aide", "Help";
    ShowTargets => "Montrer les coups possibles", "Show the possible moves";
    ShowTargetsHint => "Les pièces jouables et, une fois l'une choisie, ses destinations s'allument.", "Playable pieces and, once one is picked, where it can go light up.";
    ShowLastMove => "Montrer le dernier coup", "Show the last move";
    ConfirmMoves => "Demander confirmation avant chaque coup", "Ask before playing each move";
    PlayThis => "Jouer : {} ?", "Play: {}?";
    PlayIt => "Jouer ce coup", "Play it";
    LogLine => "{} : {}", "{}: {}";
    Chime => "Un carillon quand vient le tour de quelqu'un", "A chime when someone's turn comes";
    AnimationLabel => "Suivre les coups :", "Follow the moves:";
    AnimationOff => "sans animation", "no animation";
    AnimationSlow => "lentement", "slowly";
    AnimationNormal => "normalement", "normally";
    AnimationFast => "vite", "quickly";
    ResultFor => "{} : voici où en est la partie", "{}: here is where the game stands";
    NextIs => "Ensuite, l'écran passe à {}.", "Next, the screen goes to {}.";
    Done => "Terminé", "Done";
    UndoTheirs => "Annuler reprend le dernier coup de {}. Cette personne est-elle d'accord ?", "Undo takes back {}'s last move. Do they agree?";
    WatchReplay => "Revoir la partie", "Watch the replay";
    Replay => "Revoir", "Replay";
    ReplayOf => "{} — partie n° {}", "{} — game #{}";
    WatchAs => "Vue de :", "Seen by:";
    AsSeenBy => "Vue de {}", "As seen by {}";
    ReplayLoading => "La partie est rejouée coup par coup…", "Playing the game again move by move…";
    ReplayFailed => "La partie n'a pas pu être rejouée", "The game could not be played again";
    ReplayFirst => "Début", "First";
    ReplayBack => "Reculer", "Back";
    ReplayForward => "Avancer", "Forward";
    ReplayLast => "Fin", "Last";
    Autoplay => "Lecture", "Play";
    Pause => "Pause", "Pause";
    Speed => "Vitesse", "Speed";
    MoveOf => "Coup {} sur {}", "Move {} of {}";
    Phone => "Téléphone", "Phone";
    PhonesJoin => "Les joueurs rejoignent avec leur téléphone", "Players join with their phones";
    SameNetwork => "Sur le même réseau (Wi-Fi) que cet ordinateur : scannez le code de votre place ou ouvrez son lien ({}).", "On the same network (Wi-Fi) as this computer: scan your seat's code or open its link ({}).";
    PhoneHere => "— téléphone connecté", "— phone connected";
    PhoneAway => "— téléphone parti, il revient tout seul", "— phone away, it comes back by itself";
    PhoneNotYet => "— en attente d'un téléphone", "— waiting for a phone";
    HandOver => "Confier à un autre téléphone", "Hand to another phone";
    WaitingForPhones => "En attente de {} (sur leur téléphone)…", "Waiting for {} (on their phones)…";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_exists_in_both_languages_with_the_same_placeholders() {
        for key in S::ALL {
            let (fr, en) = key.texts();
            assert!(!fr.is_empty() && !en.is_empty(), "{key:?}");
            assert_eq!(
                fr.matches("{}").count(),
                en.matches("{}").count(),
                "{key:?}"
            );
        }
    }

    #[test]
    fn placeholders_are_filled_in_order() {
        assert_eq!(Lang::En.f(S::Players, &["2–4"]), "Players: 2–4");
        assert_eq!(Lang::Fr.f(S::PassTo, &["Ana"]), "Passez l'appareil à Ana");
    }
}
