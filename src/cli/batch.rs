//! Batches of solves: a jobs file (TOML), run over all cores, each job's
//! verified result file written as soon as it finishes, resumable and
//! shardable.
//!
//! ```toml
//! # Every field may be one value or a list; a list makes one job per value
//! # (the product over all listed fields), in the order written.
//! [[job]]
//! board = ["2x2", "2x3", "3x3"]
//! rules = "tromp-taylor"
//! superko = ["positional", "situational"]
//!
//! [[job]]
//! board = "cycle:6"
//! rules = ["conway", "tromp-taylor"]
//! tt_mb = 64
//! ```
//!
//! Fields: `board`, `rules`, `superko`, `suicide`, `komi` (number), `start`
//! (a diagram), `tt_mb` (default: as `solve` picks for the board, within
//! the job's share of the memory when jobs run at once),
//! `search` (`auto`, `alphabeta` or `proof-number`, as `--search`),
//! `guide` (`false`: as `--no-guide`) and `first_moves` (`exact` or
//! `bounds`, as `--first-moves`; a bounds job's file is named as `solve`
//! names it, `-bounds` added). Unknown fields are errors; options a
//! ruleset does not take (komi under `conway`) fail that job, as on the
//! command line.

use crate::cli::interrupt;
use crate::cli::{FirstMovesArg, SearchMethod};
use crate::engine::board::Board;
use crate::engine::rules::value_text;
use crate::engine::rules::{Komi, RuleOptions, Rules, Ruleset};
use crate::format::gsr;
use crate::search::guide_file::GuideCache;
use crate::search::run::{self, Quiet, Run};
use crate::search::solver::Config;
use crate::store::resume::{self, Resume};
use crate::store::save;
use crate::verify;
use clap::ValueEnum;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A field that takes one value or a list of them.
#[derive(Clone, Debug)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

/// By hand rather than `#[serde(untagged)]`, whose error for `komi = "abc"`
/// was "data did not match any variant of untagged enum OneOrMany".
impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = toml::Value::deserialize(d)?;
        let shown = v.to_string();
        let r = match v {
            toml::Value::Array(a) => a
                .into_iter()
                .map(T::deserialize)
                .collect::<Result<_, _>>()
                .map(OneOrMany::Many),
            v => T::deserialize(v).map(OneOrMany::One),
        };
        r.map_err(|e| {
            let why = e.message().replace("expected f64", "expected a number");
            D::Error::custom(format!("{shown}: {why}"))
        })
    }
}

impl<T: Clone> OneOrMany<T> {
    fn values(&self) -> Vec<T> {
        match self {
            OneOrMany::One(x) => vec![x.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Spec {
    board: OneOrMany<String>,
    rules: Option<OneOrMany<String>>,
    superko: Option<OneOrMany<String>>,
    suicide: Option<OneOrMany<String>>,
    komi: Option<OneOrMany<f64>>,
    start: Option<String>,
    tt_mb: Option<usize>,
    search: Option<String>,
    guide: Option<bool>,
    first_moves: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct JobsFile {
    job: Vec<Spec>,
}

/// One solve of a batch, as given (checked when it runs).
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// Position in the expanded list (0-based): decides the shard.
    pub index: usize,
    /// Board spec.
    pub board: String,
    /// Ruleset name.
    pub rules: String,
    /// Superko name, if given.
    pub superko: Option<String>,
    /// Suicide name, if given.
    pub suicide: Option<String>,
    /// Komi, if given.
    pub komi: Option<f64>,
    /// Start diagram, if given.
    pub start: Option<String>,
    /// Table size, if the jobs file gives one (see [`Job::table_mb`]).
    pub tt_mb: Option<usize>,
    /// How each zero-width test is decided (`--search`).
    pub search: SearchMethod,
    /// Whether the history-free guide is built (false: `--no-guide`).
    pub guide: bool,
    /// Which first moves get their exact value (`--first-moves`).
    pub first_moves: FirstMovesArg,
}

impl Job {
    /// The job in command-line words.
    pub fn label(&self) -> String {
        let mut s = format!("{} --rules {}", self.board, self.rules);
        if let Some(x) = &self.superko {
            s += &format!(" --superko {x}");
        }
        if let Some(x) = &self.suicide {
            s += &format!(" --suicide {x}");
        }
        if let Some(k) = self.komi {
            s += &format!(" --komi {k}");
        }
        if let Some(x) = &self.start {
            s += &format!(" --start \"{x}\"");
        }
        if self.search != SearchMethod::Auto {
            s += &format!(" --search {}", self.search.name());
        }
        if !self.guide {
            s += " --no-guide";
        }
        if self.first_moves == FirstMovesArg::Bounds {
            s += " --first-moves bounds";
        }
        s
    }

    /// The table size: the jobs file's, or as `solve` picks for the board
    /// within one `at_once`-th of the memory (the jobs that run at once).
    pub fn table_mb(&self, at_once: usize) -> usize {
        self.tt_mb.unwrap_or_else(|| {
            Board::parse(&self.board).map_or(super::DEFAULT_TT_MB, |b| {
                super::shared_tt_mb(b.len(), at_once)
            })
        })
    }

    /// The board and rules, checked.
    pub fn settle(&self) -> Result<(Board, Rules), String> {
        let board = Board::parse(&self.board).map_err(|e| e.to_string())?;
        let ruleset: Ruleset = self.rules.parse().map_err(|e| format!("{e}"))?;
        let komi = match self.komi {
            Some(k) => Some(k.to_string().parse::<Komi>().map_err(|e| e.to_string())?),
            None => None,
        };
        let opts = RuleOptions {
            superko: match &self.superko {
                Some(s) => Some(s.parse().map_err(|e| format!("{e}"))?),
                None => None,
            },
            suicide: match &self.suicide {
                Some(s) => Some(s.parse().map_err(|e| format!("{e}"))?),
                None => None,
            },
            komi,
            start: self.start.clone(),
        };
        let rules = Rules::build(ruleset, &opts, &board).map_err(|e| e.to_string())?;
        Ok((board, rules))
    }
}

/// Reads a jobs file's text into the expanded list of jobs. Errors name the
/// line (syntax) or the job (content).
pub fn parse(text: &str) -> Result<Vec<Job>, String> {
    let file: JobsFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        match line {
            Some(l) => format!("line {l}: {}", e.message()),
            None => e.message().to_string(),
        }
    })?;
    let mut jobs = Vec::new();
    for (k, spec) in file.job.iter().enumerate() {
        let many = |o: &Option<OneOrMany<String>>| -> Vec<Option<String>> {
            match o {
                None => vec![None],
                Some(v) => v.values().into_iter().map(Some).collect(),
            }
        };
        let search = choice(k, "search", &spec.search, SearchMethod::Auto)?;
        let first_moves = choice(k, "first_moves", &spec.first_moves, FirstMovesArg::Exact)?;
        let komis: Vec<Option<f64>> = match &spec.komi {
            None => vec![None],
            Some(v) => v.values().into_iter().map(Some).collect(),
        };
        let rules: Vec<String> = match &spec.rules {
            None => vec!["tromp-taylor".into()],
            Some(v) => v.values(),
        };
        let boards = spec.board.values();
        if boards.is_empty() || rules.is_empty() || komis.is_empty() {
            return Err(format!("job {}: an empty list", k + 1));
        }
        for b in &boards {
            for r in &rules {
                for sk in many(&spec.superko) {
                    for su in many(&spec.suicide) {
                        for &km in &komis {
                            jobs.push(Job {
                                index: jobs.len(),
                                board: b.clone(),
                                rules: r.clone(),
                                superko: sk.clone(),
                                suicide: su.clone(),
                                komi: km,
                                start: spec.start.clone(),
                                tt_mb: spec.tt_mb,
                                search,
                                guide: spec.guide.unwrap_or(true),
                                first_moves,
                            });
                        }
                    }
                }
            }
        }
    }
    if jobs.is_empty() {
        return Err("the jobs file has no [[job]]".into());
    }
    Ok(jobs)
}

/// Job `k`'s `field`, one of a command-line option's values (`default`
/// where the job does not give it).
fn choice<E: ValueEnum>(
    k: usize,
    field: &str,
    given: &Option<String>,
    default: E,
) -> Result<E, String> {
    let Some(x) = given.as_deref() else {
        return Ok(default);
    };
    E::from_str(x, false).map_err(|_| {
        let names: Vec<String> = E::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        format!(
            "job {}: {field} = \"{x}\": one of {}",
            k + 1,
            names.join(", ")
        )
    })
}

/// Parses `I/N` (1 ≤ I ≤ N).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad shard `{s}`: expected I/N with 1 <= I <= N, e.g. 2/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The jobs of shard `i` of `n` (1-based): every n-th job from the i-th.
pub fn shard(jobs: Vec<Job>, i: usize, n: usize) -> Vec<Job> {
    jobs.into_iter().filter(|j| j.index % n == i - 1).collect()
}

/// How a job ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Solved now; whether its file verified.
    Solved {
        /// The checker passed.
        verified: bool,
    },
    /// A verified file of the same board and rules was already there.
    Done,
    /// It failed: why.
    Failed(String),
}

/// A job's summary row.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The job.
    pub job: Job,
    /// How it ended.
    pub status: Status,
    /// The result file.
    pub file: Option<PathBuf>,
    /// Rules description, value text, nodes, seconds (from the file).
    pub rules: String,
    /// The value, in words.
    pub value: String,
    /// Nodes.
    pub nodes: u64,
    /// Seconds of the solve.
    pub seconds: f64,
}

/// The file of a job in `dir`.
pub fn job_path(dir: &Path, board: &Board, rules: &Rules, first_moves: FirstMovesArg) -> PathBuf {
    let name = save::result_path(board, rules, first_moves.into());
    dir.join(name.file_name().expect("a file name"))
}

/// Refuses a batch in which two jobs would write one result file (the
/// same board and rules twice, or under two spellings): the second would
/// overwrite the first, or be skipped as done. Jobs that do not settle
/// fail on their own when they run.
pub fn one_path_each(jobs: &[Job], dir: &Path) -> Result<(), String> {
    let mut seen: std::collections::HashMap<PathBuf, &Job> = std::collections::HashMap::new();
    for job in jobs {
        let Ok((board, rules)) = job.settle() else {
            continue;
        };
        let path = job_path(dir, &board, &rules, job.first_moves);
        if let Some(first) = seen.get(&path) {
            return Err(format!(
                "jobs {} ({}) and {} ({}) would both write {}",
                first.index + 1,
                first.label(),
                job.index + 1,
                job.label(),
                path.display()
            ));
        }
        seen.insert(path, job);
    }
    Ok(())
}

/// Whether `path` already holds a verified result of exactly this job.
fn already_done(path: &Path, board: &Board, rules: &Rules) -> Option<gsr::ResultFile> {
    let f = gsr::read(path).ok()?;
    let same = f.board.name == board.name() && f.rules.description == rules.describe() && {
        let (b, r) = crate::format::check::settle(&f).ok()?;
        b.edges() == board.edges() && r == *rules
    };
    (same && verify::verify(&f, &|_| {}).is_ok()).then_some(f)
}

/// Runs one job: skips it if its verified file exists, else solves,
/// writes and verifies. `stage` is told what it is doing.
/// `watch` (the batch's signal handling) is told the job is in flight
/// while it solves; `say` is given a line to print (what the job resumes
/// from, as `solve` says it).
pub fn run_job(
    job: &Job,
    dir: &Path,
    threads: usize,
    stage: &dyn Fn(&str),
    say: &dyn Fn(&str),
    watch: Option<&interrupt::Batch>,
) -> Outcome {
    let mut out = Outcome {
        job: job.clone(),
        status: Status::Failed(String::new()),
        file: None,
        rules: job.label(),
        value: String::new(),
        nodes: 0,
        seconds: 0.0,
    };
    let (board, rules) = match job.settle() {
        Ok(x) => x,
        Err(e) => {
            out.status = Status::Failed(e);
            return out;
        }
    };
    out.rules = rules.describe();
    let path = job_path(dir, &board, &rules, job.first_moves);
    out.file = Some(path.clone());
    stage("checking for a finished file");
    if let Some(f) = already_done(&path, &board, &rules) {
        // A run killed after writing the file may have left its resume file.
        let _ = resume::discard(&resume::path_for(&path));
        out.status = Status::Done;
        out.value = value_text(f.rules.scored(), f.value);
        out.nodes = f.run.nodes;
        out.seconds = f.run.seconds;
        return out;
    }
    stage("solving and proving");
    let config = Config {
        tt_mb: job.table_mb(1),
        method: job.search.into(),
        guide: job.guide,
        first_moves: job.first_moves.into(),
        // As `solve`: slow guides kept in the user's cache folder, so a
        // later job on the same board reads it; jobs running at once share
        // one (`guide_file::obtain_shared`). `GOSOLVE_GUIDE_CACHE=off`
        // turns the folder off.
        guide_cache: GuideCache::default_place(),
        ..Config::default()
    };
    let run = Run {
        prove: true,
        threads,
    };
    let resume = match Resume::open(&resume::path_for(&path), &board, &rules) {
        Ok(r) => std::sync::Arc::new(r),
        Err(e) => {
            out.status = Status::Failed(e.to_string());
            return out;
        }
    };
    if let Some(line) = crate::cli::resuming(&resume) {
        say(&format!("job {} ({}): {line}", job.index + 1, job.label()));
    }
    let _in_flight = watch.map(|w| w.enter(job.index + 1, job.label(), resume.clone()));
    let solve = || run::run_solve_logged(&board, &rules, config, run, &*resume, &Quiet);
    let r = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(solve)) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            out.status = Status::Failed(e.to_string());
            return out;
        }
        Err(_) => {
            out.status = Status::Failed("the solver panicked".into());
            return out;
        }
    };
    let f = save::result_file(&board, &rules, &r, &config);
    out.value = value_text(rules.ruleset.has_score(), f.value);
    out.nodes = f.run.nodes;
    out.seconds = f.run.seconds;
    stage("writing");
    if let Err(e) = gsr::write(&path, &f) {
        out.status = Status::Failed(e.to_string());
        return out;
    }
    resume.finish();
    stage("verifying");
    out.status = Status::Solved {
        verified: verify::verify(&f, &|_| {}).is_ok(),
    };
    out
}

/// The summary as CSV.
pub fn csv(rows: &[Outcome]) -> String {
    let mut s = String::from("job,board,rules,value,nodes,seconds,status,verified,file\n");
    for o in rows {
        let (status, verified) = match &o.status {
            Status::Solved { verified } => ("solved".to_string(), *verified),
            Status::Done => ("already done".to_string(), true),
            Status::Failed(e) => (format!("failed: {e}"), false),
        };
        let q = |x: &str| format!("\"{}\"", x.replace('"', "\"\""));
        s += &format!(
            "{},{},{},{},{},{:.3},{},{},{}\n",
            o.job.index + 1,
            q(&o.job.board),
            q(&o.rules),
            q(&o.value),
            o.nodes,
            o.seconds,
            q(&status),
            verified,
            q(&o.file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default())
        );
    }
    s
}
