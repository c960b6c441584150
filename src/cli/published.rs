//! The table of published figures (`published.txt`, compiled in), each with
//! its source and the rules it assumes. These numbers are only ever compared
//! against what the program computes, never returned as results.

/// What a published figure counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Legal positions of a board.
    Legal,
    /// Complete games under the given rules.
    Games,
    /// The value (Black − White) with perfect play.
    Value,
    /// The value of the second- or third-best first move (2 or 3), as
    /// Drange's table gives them: first moves that a symmetry of the board
    /// maps onto each other count once, a pass counts as a first move, and
    /// tied moves each take a rank (1x7: B1 +2, D1 +2, C1 -2 make the
    /// second +2 and the third -2).
    Ranked(u8),
}

/// Each kind with its word in the table, for reading and for printing.
const KINDS: [(&str, Kind); 5] = [
    ("legal", Kind::Legal),
    ("games", Kind::Games),
    ("value", Kind::Value),
    ("second", Kind::Ranked(2)),
    ("third", Kind::Ranked(3)),
];

impl Kind {
    /// The kind's word in the table.
    pub fn word(self) -> &'static str {
        KINDS
            .iter()
            .find(|&&(_, k)| k == self)
            .map_or("?", |&(w, _)| w)
    }
}

/// One published figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// What it counts.
    pub kind: Kind,
    /// The board specification.
    pub board: String,
    /// Ruleset and options as command-line words (empty for rule-free figures).
    pub rules: Vec<String>,
    /// The figure, as an integer (values are whole points here).
    pub figure: i128,
    /// Where it was published.
    pub source: String,
}

/// The table shipped with the program.
pub const TABLE: &str = include_str!("published.txt");

/// Parses a table in the format of `published.txt`; errors name the line.
pub fn parse(text: &str) -> Result<Vec<Figure>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        let [kind, board, rules, figure, source] = cols[..] else {
            return Err(format!(
                "line {}: expected 5 fields separated by `|`",
                i + 1
            ));
        };
        let Some(&(_, kind)) = KINDS.iter().find(|&&(w, _)| w == kind) else {
            return Err(format!("line {}: unknown kind `{kind}`", i + 1));
        };
        let figure = figure
            .replace(',', "")
            .parse()
            .map_err(|_| format!("line {}: `{figure}` is not a whole number", i + 1))?;
        let rules = if rules == "-" {
            Vec::new()
        } else {
            rules.split_whitespace().map(String::from).collect()
        };
        out.push(Figure {
            kind,
            board: board.to_string(),
            rules,
            figure,
            source: source.to_string(),
        });
    }
    Ok(out)
}

/// The shipped table.
pub fn figures() -> Vec<Figure> {
    parse(TABLE).expect("the shipped table parses")
}
