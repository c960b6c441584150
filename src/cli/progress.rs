//! Progress bars on stderr for the library's progress reports.

use crate::search::run::{Progress, Searching};
use indicatif::{ProgressBar, ProgressStyle};

/// Bars for a solve: the first-move classes, then the proof's nodes.
pub struct Bars {
    bar: ProgressBar,
    shown: bool,
}

impl Bars {
    /// Bars on stderr when `shown`, else nothing drawn.
    pub fn new(shown: bool) -> Bars {
        let bar = if shown {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(style(
            "solving {bar:20} {pos}/{len} classes · {elapsed} · {wide_msg}",
        ));
        Bars { bar, shown }
    }

    /// Takes the bar off the screen (before a message of its own).
    pub fn clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// A count for people: `950`, `12.4 k`, `12.4 M`, `1.24 G`.
pub fn count(n: u64) -> String {
    let x = n as f64;
    match n {
        0..10_000 => n.to_string(),
        10_000..1_000_000 => format!("{:.1} k", x / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} M", x / 1e6),
        _ => format!("{:.2} G", x / 1e9),
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).expect("template")
}

impl Progress for Bars {
    fn classes(&self, done: usize, total: usize) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
    }

    fn searching(&self, now: &Searching) {
        self.bar.set_length(now.total as u64);
        self.bar.set_position(now.done as u64);
        let mut msg = format!("{} nodes", count(now.nodes));
        for t in &now.tests {
            msg += " · ";
            msg += t;
        }
        self.bar.set_message(msg);
    }

    fn preparing(&self, message: &str) {
        self.bar.set_message(format!("{message}…"));
    }

    fn proving(&self, message: &str) {
        if self.shown {
            eprintln!("{message}");
        }
        self.bar.reset();
        self.bar
            .set_style(style("proving {spinner} {pos} strategy nodes, {elapsed}"));
    }

    fn proof_nodes(&self, added: u64) {
        self.bar.inc(added);
    }

    fn phase_done(&self) {
        self.bar.finish_and_clear();
    }
}

/// A bar over `len` units of work (hidden unless `shown`) and the callback
/// that advances it by one.
pub fn counter(len: usize, shown: bool, what: &str) -> ProgressBar {
    if !shown {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(style(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} (eta {{eta}})"
    )));
    bar
}
