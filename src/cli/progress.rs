//! Progress bars on stderr for the library's progress reports.

use crate::search::run::Progress;
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
            "solving {bar:30} {pos}/{len} first-move classes, {elapsed}",
        ));
        Bars { bar, shown }
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
