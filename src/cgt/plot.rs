//! Thermograph pictures: SVG for files and ASCII for the terminal. Both
//! draw values decreasing to the right (Left's side is the left, as in
//! Berlekamp's pictures) and temperature upwards from t = −1.

use super::dyadic::Dyadic;
use super::thermo::{Thermograph, Wall};

fn f(x: Dyadic) -> f64 {
    x.num() as f64 / (1u64 << x.exp()) as f64
}

/// The value range (most Left, most Right) and the top temperature shown.
fn frame(th: &Thermograph) -> (f64, f64, f64) {
    let vals = th
        .left
        .points
        .iter()
        .chain(&th.right.points)
        .map(|p| f(p.1));
    let (hi, lo) = vals.fold((f64::MIN, f64::MAX), |(h, l), v| (h.max(v), l.min(v)));
    let top = f(th.temperature).max(0.0) + 1.0;
    (hi, lo, top)
}

/// The wall's points as plotted, up to the top (the mast above the last).
fn trace(w: &Wall, top: f64) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = w.points.iter().map(|&(t, x)| (f(t), f(x))).collect();
    let last = v.last().unwrap().1;
    v.push((top, last));
    v
}

/// An SVG drawing of the thermograph, with the mean and temperature.
pub fn svg(th: &Thermograph, title: &str) -> String {
    let (hi, lo, top) = frame(th);
    let (w, h, m) = (480.0, 360.0, 40.0);
    let span = (hi - lo).max(1.0);
    let x = |v: f64| m + (hi + 0.5 - v) / (span + 1.0) * (w - 2.0 * m);
    let y = |t: f64| h - m - (t + 1.0) / (top + 1.0) * (h - 2.0 * m);
    let line = |pts: Vec<(f64, f64)>| {
        let p: Vec<String> = pts
            .iter()
            .map(|&(t, v)| format!("{:.1},{:.1}", x(v), y(t)))
            .collect();
        format!(
            "<polyline fill=\"none\" stroke=\"black\" stroke-width=\"2\" points=\"{}\"/>\n",
            p.join(" ")
        )
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    // The t = 0 axis, dashed.
    s += &format!(
        "<line x1=\"{m}\" y1=\"{y0:.1}\" x2=\"{x2}\" y2=\"{y0:.1}\" stroke=\"gray\" stroke-dasharray=\"4\"/>\n",
        y0 = y(0.0),
        x2 = w - m
    );
    s += &line(trace(&th.left, top));
    s += &line(trace(&th.right, top));
    s += &format!(
        "<text x=\"{m}\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">{} — mean {}, temperature {}</text>\n</svg>\n",
        escape(title),
        th.mast,
        th.temperature
    );
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The wall's value at temperature t (its mast above the last point).
fn at(w: &Wall, t: f64) -> f64 {
    let pts = trace(w, f64::MAX);
    let i = pts.partition_point(|p| p.0 <= t).max(1);
    let (t0, v0) = pts[i - 1];
    match pts.get(i) {
        Some(&(t1, v1)) if t1 > t0 && t1 < f64::MAX => v0 + (v1 - v0) * (t - t0) / (t1 - t0),
        _ => v0,
    }
}

/// An ASCII drawing, `rows` lines high from t = −1 to above the
/// temperature; each line starts with its t.
pub fn ascii(th: &Thermograph, rows: usize) -> String {
    let (hi, lo, top) = frame(th);
    let cols = 41usize;
    let span = (hi - lo).max(1.0);
    let col = |v: f64| (((hi - v) / span) * (cols - 1) as f64).round() as usize;
    let mut out = String::new();
    for r in 0..rows {
        let t = top - (top + 1.0) * r as f64 / (rows - 1) as f64;
        let mut line = vec![' '; cols];
        let (l, rr) = (at(&th.left, t), at(&th.right, t));
        let mark = |w: &Wall, v: f64| {
            let below = at(w, t - 0.01);
            // Below-left to above-right is '/': the value falls as t rises.
            if (below - v).abs() < 1e-9 {
                '|'
            } else if below > v {
                '/'
            } else {
                '\\'
            }
        };
        line[col(l).min(cols - 1)] = mark(&th.left, l);
        line[col(rr).min(cols - 1)] = mark(&th.right, rr);
        out += &format!("{t:>7.2} {}\n", line.iter().collect::<String>().trim_end());
    }
    out += &format!("{:>7} {hi:<20}{lo:>21}\n", "value");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgt::notation::parse;
    use crate::cgt::thermo::thermograph;

    #[test]
    fn pictures_show_walls_and_mast() {
        let th = thermograph(parse("{3|-2}").unwrap());
        let s = svg(&th, "{3|-2}");
        assert_eq!(s.matches("<polyline").count(), 2);
        assert!(s.contains("mean 1/2, temperature 5/2"));
        let a = ascii(&th, 15);
        assert_eq!(a.lines().count(), 16);
        // The top line is the mast alone; the bottom one both sloped walls.
        assert_eq!(
            a.lines().next().unwrap().trim_start().matches('|').count(),
            1
        );
        let bottom = a.lines().nth(14).unwrap();
        assert!(bottom.contains('\\') && bottom.contains('/'), "{a}");
    }
}
