//! `gosolve cgt`: a combinatorial game's canonical form and temperature.

use gosolve::cgt::notation::{self, Style};
use gosolve::cgt::plot;
use gosolve::cgt::thermo::{self, Wall};
use gosolve::cgt::{Dyadic, Game};
use serde_json::json;
use std::cmp::Ordering;
use std::path::Path;

/// Who wins G: L (Left, either way), R, P (the second player), N (the first).
fn outcome(g: Game) -> &'static str {
    match g.outcome() {
        Some(Ordering::Greater) => "L",
        Some(Ordering::Less) => "R",
        Some(Ordering::Equal) => "P",
        None => "N",
    }
}

fn wall_text(w: &Wall) -> String {
    let pts: Vec<String> = w
        .points
        .iter()
        .map(|(t, v)| format!("({t}, {v})"))
        .collect();
    pts.join(" ")
}

fn wall_json(w: &Wall) -> serde_json::Value {
    let pts: Vec<[String; 2]> = w
        .points
        .iter()
        .map(|(t, v)| [t.to_string(), v.to_string()])
        .collect();
    json!(pts)
}

/// Parses `expr`, chills it and/or warms it (seed 003's f then ∫), and
/// prints the result's canonical form, outcome, stops, mean, temperature
/// and thermograph (walls and an ASCII picture; an SVG file on request).
pub fn run(
    expr: &str,
    chill: bool,
    warm: bool,
    svg: Option<&Path>,
    json: bool,
) -> Result<(), String> {
    let input = notation::parse(expr)?;
    let mut g = input;
    if chill {
        g = thermo::chill(g);
    }
    if warm {
        g = thermo::warm(g);
    }
    let th = thermo::thermograph(g);
    let (ls, rs) = (thermo::left_stop(g), thermo::right_stop(g));
    let text = |x: Game| notation::write(x, Style::Unicode);
    if let Some(path) = svg {
        std::fs::write(path, plot::svg(&th, &text(g)))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let ascii = |x: Game| notation::write(x, Style::Ascii);
    if json {
        let d = |x: Dyadic| x.to_string();
        println!(
            "{}",
            json!({"input": ascii(input), "chilled": chill, "warmed": warm,
                   "value": ascii(g), "value_unicode": text(g), "outcome": outcome(g),
                   "birthday": g.birthday(), "left_stop": d(ls), "right_stop": d(rs),
                   "mean": d(th.mast), "temperature": d(th.temperature),
                   "left_wall": wall_json(&th.left), "right_wall": wall_json(&th.right)})
        );
        return Ok(());
    }
    println!("game:        {}", text(input));
    if chill || warm {
        let what = match (chill, warm) {
            (true, true) => "warmed chilled",
            (true, false) => "chilled",
            _ => "warmed",
        };
        println!(
            "{what}:{:>w$}{}",
            "",
            text(g),
            w = 13usize.saturating_sub(what.len() + 1)
        );
    }
    println!("ascii:       {}", ascii(g));
    println!("outcome:     {}", outcome(g));
    println!("stops:       left {ls}, right {rs}");
    println!("mean:        {}", th.mast);
    println!("temperature: {}", th.temperature);
    println!("birthday:    {}", g.birthday());
    println!("left wall:   {}", wall_text(&th.left));
    println!("right wall:  {}", wall_text(&th.right));
    print!("{}", plot::ascii(&th, 13));
    Ok(())
}
