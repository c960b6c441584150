//! `gosolve cgt`: the canonical form and temperature of a combinatorial
//! game, a Go region or a sum of them, and a winning move for each player.

use crate::cgt::koh::Counting;
use crate::cgt::notation::{self, Style};
use crate::cgt::plot;
use crate::cgt::sum::{Part, Sum, Winning};
use crate::cgt::thermo::{self, Wall};
use crate::cgt::{Dyadic, Game};
use crate::engine::types::Color;
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

/// "wins with B2 in term 1 (eye:2), leaving 1" or "loses".
fn winning_text(sum: &Sum, w: &Option<Winning>) -> String {
    let Some(w) = w else {
        return "loses (no winning move)".into();
    };
    let term = &sum.terms[w.term];
    let how = match term.part {
        Part::Region(_) => format!("with {} in", w.play),
        Part::Game => format!("by moving to {} in", w.play),
    };
    format!(
        "wins {how} term {} ({}), leaving {}",
        w.term + 1,
        term.text,
        w.after
    )
}

fn winning_json(sum: &Sum, w: &Option<Winning>) -> serde_json::Value {
    match w {
        None => json!({"wins": false}),
        Some(w) => json!({"wins": true, "term": w.term + 1, "term_text": sum.terms[w.term].text,
                          "play": w.play, "after": notation::write(w.after, Style::Ascii)}),
    }
}

fn terms_json(sum: &Sum) -> serde_json::Value {
    let terms: Vec<serde_json::Value> = sum
        .terms
        .iter()
        .map(|t| match &t.part {
            Part::Region(v) => json!({"text": t.text, "kind": "region",
                                      "diagram": v.region().compact(),
                                      "value": notation::write(t.value, Style::Ascii)}),
            Part::Game => json!({"text": t.text, "kind": "game",
                                 "value": notation::write(t.value, Style::Ascii)}),
        })
        .collect();
    json!(terms)
}

/// Files to draw the result into besides the report.
pub struct Files<'a> {
    /// The thermograph as SVG.
    pub svg: Option<&'a Path>,
    /// One HTML page: the regions, the value and the thermograph.
    pub html: Option<&'a Path>,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One self-contained page in the style of `export --html`: each term
/// (a region as a diagram), then the facts as rows, then the thermograph.
fn page(expr: &str, sum: &Sum, facts: &[(&str, String)], svg: &str) -> String {
    let mut terms = String::new();
    for (i, t) in sum.terms.iter().enumerate() {
        terms += &format!(
            "<h2>term {}: {} = {}</h2>\n",
            i + 1,
            escape(&t.text),
            escape(&notation::write(t.value, Style::Unicode))
        );
        if let Part::Region(v) = &t.part {
            terms += &format!(
                "<pre class=\"region\">{}</pre>\n",
                escape(&v.region().render())
            );
        }
    }
    let rows: String = facts
        .iter()
        .map(|(k, v)| {
            format!(
                "<tr><th>{k}</th><td id=\"{}\">{}</td></tr>\n",
                k.replace(' ', "-"),
                escape(v)
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>gosolve cgt: {e}</title>\n<style>\n{}</style>\n</head>\n<body>\n<h1>{e}</h1>\n{terms}<table class=\"facts\">\n{rows}</table>\n<div id=\"thermograph\">\n{svg}</div>\n</body>\n</html>\n",
        crate::play::html::STYLE,
        e = escape(expr)
    )
}

/// Reads `expr` (games in standard notation and Go regions, added),
/// chills it and/or warms it (seed 003's f then ∫), and prints the
/// result's canonical form, outcome, stops, mean, temperature and
/// thermograph (walls and an ASCII picture; an SVG file or an HTML page
/// on request), and for the game as given a winning move for each player
/// moving first.
pub fn run(
    expr: &str,
    chill: bool,
    warm: bool,
    files: Files,
    json: bool,
    prisoners_only: bool,
) -> Result<(), String> {
    let counting = if prisoners_only {
        Counting::Prisoners
    } else {
        Counting::Territory
    };
    let mut sum = Sum::parse(expr, counting).map_err(|e| e.to_string())?;
    let input = sum.value();
    let black = sum.winning_move(Color::Black);
    let white = sum.winning_move(Color::White);
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
    if let Some(path) = files.svg {
        std::fs::write(path, plot::svg(&th, &text(g)))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = files.html {
        let facts = [
            ("value", text(g)),
            ("outcome", outcome(g).to_string()),
            ("black first", winning_text(&sum, &black)),
            ("white first", winning_text(&sum, &white)),
            ("stops", format!("left {ls}, right {rs}")),
            ("mean", th.mast.to_string()),
            ("temperature", th.temperature.to_string()),
            ("birthday", g.birthday().to_string()),
        ];
        let html = page(expr, &sum, &facts, &plot::svg(&th, &text(g)));
        crate::format::gsr::write_atomic(path, html.as_bytes()).map_err(|e| e.to_string())?;
    }
    let ascii = |x: Game| notation::write(x, Style::Ascii);
    if json {
        let d = |x: Dyadic| x.to_string();
        println!(
            "{}",
            json!({"input": ascii(input), "terms": terms_json(&sum),
                   "black_first": winning_json(&sum, &black),
                   "white_first": winning_json(&sum, &white),
                   "chilled": chill, "warmed": warm,
                   "value": ascii(g), "value_unicode": text(g), "outcome": outcome(g),
                   "birthday": g.birthday(), "left_stop": d(ls), "right_stop": d(rs),
                   "mean": d(th.mast), "temperature": d(th.temperature),
                   "left_wall": wall_json(&th.left), "right_wall": wall_json(&th.right)})
        );
        return Ok(());
    }
    if sum.terms.len() > 1 || sum.terms.iter().any(|t| matches!(t.part, Part::Region(_))) {
        for (i, t) in sum.terms.iter().enumerate() {
            println!(
                "term {}:{:>w$}{} = {}",
                i + 1,
                "",
                t.text,
                text(t.value),
                w = 7 - (i + 1).to_string().len().min(6)
            );
            if let Part::Region(v) = &t.part {
                for line in v.region().render().lines() {
                    println!("  {line}");
                }
            }
        }
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
    println!("black first: {}", winning_text(&sum, &black));
    println!("white first: {}", winning_text(&sum, &white));
    println!("stops:       left {ls}, right {rs}");
    println!("mean:        {}", th.mast);
    println!("temperature: {}", th.temperature);
    println!("birthday:    {}", g.birthday());
    println!("left wall:   {}", wall_text(&th.left));
    println!("right wall:  {}", wall_text(&th.right));
    print!("{}", plot::ascii(&th, 13));
    Ok(())
}
