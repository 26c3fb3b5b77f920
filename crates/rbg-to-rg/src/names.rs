//! Names of the translation: the RBG game's own names (vertices, pieces,
//! players), which become RG symbols (unchanged, except the few that RG
//! reserves: `player`, `goals`, `visible`, the keywords, and players named
//! `keeper` or `random`, which get a `_` appended), and the translation's
//! declarations, chosen so that they never equal a symbol (RG resolves a name
//! in an expression as a constant, then a variable, then a symbol).

use std::collections::{HashMap, HashSet};

use crate::TranslateError;

/// Names that RG reserves or declares itself.
const RESERVED: &[&str] = &[
    "const",
    "type",
    "var",
    "begin",
    "end",
    "keeper",
    "random",
    "player",
    "goals",
    "visible",
    "Player",
    "Score",
    "Bool",
    "Goals",
    "Visibility",
    "PlayerOrSystem",
];

/// Names RG would not read as the symbol itself.
const NOT_SYMBOLS: &[&str] = &["const", "type", "var", "player", "goals", "visible"];

/// Hands out fresh names.
pub struct Names {
    taken: HashSet<String>,
    renamed: HashMap<String, String>,
}

impl Names {
    /// Checks the game's names and reserves them (renaming those RG
    /// reserves).
    pub fn new(game: &rbg_lang::Game) -> Result<Names, TranslateError> {
        let mut names = Names {
            taken: RESERVED.iter().map(|s| s.to_string()).collect(),
            renamed: HashMap::new(),
        };
        let mut own = Vec::new();
        own.extend(game.players.iter().map(|p| ("player", &p.name)));
        own.extend(game.pieces.iter().map(|p| ("piece", p)));
        own.extend(game.board.vertices.iter().map(|v| ("vertex", &v.name)));
        for (what, name) in &own {
            if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Err(TranslateError(format!(
                    "the {what} name `{name}` cannot be an RG symbol"
                )));
            }
            names.taken.insert(name.to_string());
        }
        for (what, name) in own {
            let reserved = NOT_SYMBOLS.contains(&name.as_str())
                || (what == "player" && ["keeper", "random"].contains(&name.as_str()));
            if reserved && !names.renamed.contains_key(name) {
                let new = names.fresh(&format!("{name}_"));
                names.renamed.insert(name.clone(), new);
            }
        }
        Ok(names)
    }

    /// The RG symbol of an RBG name.
    pub fn symbol(&self, name: &str) -> String {
        self.renamed
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// Whether `name` is taken.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }

    /// Reserves a symbol the translation uses (numbers, tags).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    /// `base`, or `base` and a number, not taken (and takes it).
    pub fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.taken.contains(&name) {
            name = format!("{base}{k}");
            k += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}
