//! The guide table kept on disk between runs (issue 17, item 6: a long
//! solve that is interrupted, or run again under other options, keeps the
//! work it finished). A guide depends only on the board, the ruleset's
//! scoring, the suicide rule and whether the game has basic ko: komi is
//! applied when it is read, and positional, situational and no superko
//! share one. So 3x6's (45 s of a 70 s solve on 2 cores) or 4x5's (about
//! 9 minutes) is built once and read back in about a second a gigabyte by
//! every later solve of that board under those rules, a resumed one or a
//! batch's next job.
//!
//! Why a table read back cannot change a value: the guide only steers
//! (initial proof numbers, the first test of a class; module
//! [`guide`](crate::search::guide)), never decides a result, so a wrong
//! table could only slow the search. Still, each file names what it was
//! built for (ruleset, suicide, ko, the board's points and edges) and ends
//! with a CRC-32 of everything before it; one that does not match, is
//! cut short or holds a bracket out of range is built again and replaced.
//!
//! The file, little-endian: [`MAGIC`], the key's length (`u32`) and the
//! key, the build's statistics (sweeps `u32`, seconds as `f64` bits, then
//! states, ko states, open states and kept bytes, `u64` each), the entry
//! count (`u64`, 3^n), the entries (`u16` each: lo in the low byte, hi in
//! the high byte, as `i8` half points), then the CRC-32 (`u32`). It is
//! written to a temporary file and renamed, so a reader never sees half of
//! one, and two solves writing the same guide at once leave one whole.

use crate::engine::board::Board;
use crate::engine::rules::{Rules, Ruleset, Suicide};
use crate::format::gsr::{remove_stale_temporaries, write_atomic_with};
use crate::search::guide::{GUIDE_VERSION, Guide, GuideStats, unpack};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

/// The file's first bytes (and its format's version).
pub const MAGIC: &[u8; 8] = b"gsguide1";

/// Builds that took at least this many seconds are kept in the default
/// folder: 4x4's guide takes about 2 s and 86 MB, 3x6's 35-55 s and 775
/// MB, so only the boards where it pays are written.
pub const SAVE_AFTER: f64 = 10.0;

/// Entries read or written at a time.
const CHUNK: usize = 1 << 18;

/// Where guides are kept, and which.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuideCache {
    /// The folder.
    pub dir: &'static Path,
    /// Builds that took at least this many seconds are written there
    /// (0: every one).
    pub min_seconds: f64,
}

impl GuideCache {
    /// The cache in `dir`, keeping every guide built.
    pub fn every(dir: PathBuf) -> GuideCache {
        GuideCache {
            dir: Box::leak(dir.into_boxed_path()),
            min_seconds: 0.0,
        }
    }

    /// The default cache: `$GOSOLVE_GUIDE_CACHE` if set (`off`, `none` or
    /// empty: none; a relative folder is taken from the working folder),
    /// else `$XDG_CACHE_HOME/gosolve` (if absolute, as the XDG spec
    /// says), else `~/.cache/gosolve`; keeping the builds of
    /// [`SAVE_AFTER`] seconds or more.
    pub fn default_place() -> Option<GuideCache> {
        let off = |d: &std::ffi::OsStr| {
            d.is_empty() || d.eq_ignore_ascii_case("off") || d.eq_ignore_ascii_case("none")
        };
        let dir = match std::env::var_os("GOSOLVE_GUIDE_CACHE") {
            Some(d) if off(&d) => return None,
            Some(d) => PathBuf::from(d),
            None => match std::env::var_os("XDG_CACHE_HOME") {
                Some(d) if Path::new(&d).is_absolute() => Path::new(&d).join("gosolve"),
                _ => Path::new(&std::env::var_os("HOME")?)
                    .join(".cache")
                    .join("gosolve"),
            },
        };
        Some(GuideCache {
            dir: Box::leak(dir.into_boxed_path()),
            min_seconds: SAVE_AFTER,
        })
    }
}

/// What a guide is built for, as the file states it: the version of the
/// guide's definition ([`GUIDE_VERSION`]), the scoring (`tromp-taylor` and
/// `ggg` score alike: one tag), suicide, ko, the point count and the
/// edges. Nothing else of the rules changes a table: komi and the value
/// range are applied when it is read, superko is not part of its game,
/// and a start other than the empty board takes no guide.
fn key(board: &Board, rules: &Rules, ko: bool) -> Vec<u8> {
    let scoring: u8 = match rules.ruleset {
        Ruleset::TrompTaylor | Ruleset::Ggg => 1,
        _ => 0,
    };
    let edges = board.edges();
    let mut k = vec![
        GUIDE_VERSION,
        scoring,
        u8::from(rules.suicide == Suicide::Allowed),
        u8::from(ko),
    ];
    k.extend_from_slice(&(board.len() as u32).to_le_bytes());
    k.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    for (a, b) in edges {
        k.extend_from_slice(&[a, b]);
    }
    k
}

/// The file of the guide of `board` under `rules` (with basic ko if `ko`)
/// in `dir`: named by the board (characters other than letters, digits,
/// `x`, `-` and `_` replaced) and the rules, with a hash of the key so
/// that two graphs of one name do not share a file.
pub fn path(dir: &Path, board: &Board, rules: &Rules, ko: bool) -> PathBuf {
    let name: String = board
        .name()
        .chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let k = key(board, rules, ko);
    let hash = k.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let suicide = if rules.suicide == Suicide::Allowed {
        "suicide"
    } else {
        "no-suicide"
    };
    let ko = if ko { "ko" } else { "no-ko" };
    dir.join(format!("{name}-{suicide}-{ko}-{:08x}.guide", hash as u32))
}

/// The file's first bytes for the guide of `board` under `rules`: the
/// magic, the key's length and the key. The statistics and the entry
/// count follow.
fn prefix(board: &Board, rules: &Rules, ko: bool) -> Vec<u8> {
    let k = key(board, rules, ko);
    let mut p = MAGIC.to_vec();
    p.extend_from_slice(&(k.len() as u32).to_le_bytes());
    p.extend_from_slice(&k);
    p
}

/// The bytes of the header: [`prefix`], the statistics, the entry count.
fn head_bytes(board: &Board, rules: &Rules, ko: bool) -> usize {
    prefix(board, rules, ko).len() + STATS_BYTES + 8
}

/// The bytes of the file of the guide of `board` under `rules`.
fn file_bytes(board: &Board, rules: &Rules, ko: bool) -> u64 {
    head_bytes(board, rules, ko) as u64 + 2 * 3u64.pow(board.len() as u32) + 4
}

/// Writes `guide` (built for `board` and `rules`) to `path`; returns the
/// bytes written.
pub fn save(path: &Path, board: &Board, rules: &Rules, guide: &Guide) -> io::Result<u64> {
    let (table, stats) = guide.parts();
    let mut head = prefix(board, rules, guide.has_ko());
    head.extend_from_slice(&stats_bytes(&stats));
    head.extend_from_slice(&(table.len() as u64).to_le_bytes());
    let result = write_atomic_with(path, &mut |f| {
        let mut w = io::BufWriter::with_capacity(1 << 20, f);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        w.write_all(&head)?;
        let mut buf = Vec::with_capacity(2 * CHUNK);
        for chunk in table.chunks(CHUNK) {
            buf.clear();
            buf.extend(chunk.iter().flat_map(|e| e.load(Relaxed).to_le_bytes()));
            crc.update(&buf);
            w.write_all(&buf)?;
        }
        w.write_all(&crc.finalize().to_le_bytes())?;
        w.flush()
    });
    result.map_err(|e| io::Error::other(e.to_string()))?;
    Ok(file_bytes(board, rules, guide.has_ko()))
}

fn stats_bytes(s: &GuideStats) -> Vec<u8> {
    let mut b = s.sweeps.to_le_bytes().to_vec();
    for x in [
        s.seconds.to_bits(),
        s.states,
        s.ko_states,
        s.open,
        s.kept_bytes,
    ] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    b
}

/// The bytes of [`stats_bytes`].
const STATS_BYTES: usize = 4 + 5 * 8;

fn stats_from(b: &[u8]) -> GuideStats {
    let word = |i: usize| u64::from_le_bytes(b[4 + 8 * i..12 + 8 * i].try_into().unwrap());
    GuideStats {
        sweeps: u32::from_le_bytes(b[..4].try_into().unwrap()),
        seconds: f64::from_bits(word(0)),
        states: word(1),
        ko_states: word(2),
        open: word(3),
        kept_bytes: word(4),
    }
}

/// Reads the guide of `board` under `rules` (with basic ko if `ko`) from
/// `path`: `Ok(None)` where there is no such file, an error saying what is
/// wrong with one that is there but cannot be used.
pub fn load(path: &Path, board: &Board, rules: &Rules, ko: bool) -> Result<Option<Guide>, String> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("it cannot be opened ({e})")),
    };
    let size = file
        .metadata()
        .map_err(|e| format!("it cannot be read ({e})"))?
        .len();
    let entries = 3u64.pow(board.len() as u32);
    let head_len = head_bytes(board, rules, ko);
    let want = file_bytes(board, rules, ko);
    if size != want {
        return Err(format!(
            "it holds {size} bytes where the guide takes {want}"
        ));
    }
    let cut = |e: io::Error| format!("it cannot be read ({e})");
    let mut r = io::BufReader::with_capacity(1 << 20, file);
    let mut head = vec![0; head_len];
    r.read_exact(&mut head).map_err(cut)?;
    let expect = prefix(board, rules, ko);
    if head[..expect.len()] != expect[..] {
        return Err("it was written for another board, rules or version".into());
    }
    let stats = stats_from(&head[expect.len()..expect.len() + STATS_BYTES]);
    let count = u64::from_le_bytes(head[head_len - 8..].try_into().unwrap());
    if count != entries {
        return Err(format!(
            "it says {count} entries where the board has {entries}"
        ));
    }
    let endless = 2 * board.len() as i32 + 1;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    let mut table: Vec<AtomicU16> = Vec::new();
    table
        .try_reserve_exact(entries as usize)
        .map_err(|_| "its memory was refused".to_string())?;
    crate::search::tt::advise_huge(&mut table);
    let mut buf = vec![0u8; 2 * CHUNK];
    let mut left = entries as usize;
    while left > 0 {
        let n = left.min(CHUNK);
        let bytes = &mut buf[..2 * n];
        r.read_exact(bytes).map_err(cut)?;
        crc.update(bytes);
        for e in bytes.chunks_exact(2) {
            let v = u16::from_le_bytes([e[0], e[1]]);
            let (lo, hi) = unpack(v);
            if !(-endless <= lo && lo <= hi && hi <= endless) {
                return Err(format!("it holds a bracket out of range ({lo}, {hi})"));
            }
            table.push(AtomicU16::new(v));
        }
        left -= n;
    }
    let mut sum = [0u8; 4];
    r.read_exact(&mut sum).map_err(cut)?;
    if u32::from_le_bytes(sum) != crc.finalize() {
        return Err("its checksum does not match (a damaged file)".into());
    }
    Guide::from_parts(board, rules, ko, Arc::new(table), stats)
        .map(Some)
        .ok_or_else(|| "the rules take no guide".into())
}

/// The guide tables this process's solves hold, by [`key`], with their
/// build's statistics: the solves a batch runs at once share one table
/// where their games are the same.
type Live = Vec<(Vec<u8>, Weak<Vec<AtomicU16>>, GuideStats)>;
static LIVE: Mutex<Live> = Mutex::new(Vec::new());

/// [`obtain`] within the process: a guide on the table another solve of
/// this process holds, else one read or built while no other solve of
/// the process reads or builds one. A batch runs several jobs at once
/// (one a core, by default), and jobs on one board most often need the
/// same table (positional, situational and no superko share one; so do
/// komi, which each solve's guide applies as it reads): each built its
/// own at once, so a 3x6 batch of two jobs built 3x6's twice side by
/// side (two builds' memory at once, each on half the cores), and two
/// 4x5 jobs would have asked for two builds of about 15 GB. Now the
/// second waits for the first's and shares its table. Builds of
/// different guides wait for each other too, so the peak is one build's.
/// Whether a shared table is kept on disk is decided by the solve that
/// built it (`keep`), and whether it may be built at all by the solve
/// that would build it (`may_build`).
pub fn obtain_shared(
    board: &Board,
    rules: &Rules,
    ko: bool,
    cache: Option<GuideCache>,
    keep: impl Fn(&Guide) -> bool,
    may_build: &dyn Fn() -> bool,
) -> Option<Guide> {
    // A build that panicked left nothing half-made in the list.
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    live.retain(|(_, t, _)| t.strong_count() > 0);
    let k = key(board, rules, ko);
    for (x, table, stats) in live.iter() {
        if *x == k {
            if let Some(t) = table.upgrade() {
                return Guide::from_parts(board, rules, ko, t, *stats);
            }
        }
    }
    let g = obtain(board, rules, ko, cache, keep, may_build)?;
    let (table, stats) = g.parts();
    live.push((k, Arc::downgrade(table), stats));
    Some(g)
}

/// The guide of `board` under `rules` (with basic ko if `ko`): read from
/// `cache` where a usable file is there, else built (`None` where
/// [`Guide::build_with`] gives none) and written there if its build took
/// long enough and `keep` says so (a guide only built to learn that it is
/// mostly open is not worth gigabytes of disk). Each step that touches the
/// disk is said on stderr; a file that cannot be read is removed, and one
/// that cannot be written (no room, no folder) only costs the build.
///
/// `may_build` is asked only where a build is the way left, and a no
/// gives `None`: a build needs more memory than the table it leaves
/// (4x5: about 14 GB against 7), so a machine too small to build a
/// guide can still read one that a larger machine kept in a shared
/// cache.
pub fn obtain(
    board: &Board,
    rules: &Rules,
    ko: bool,
    cache: Option<GuideCache>,
    keep: impl Fn(&Guide) -> bool,
    may_build: &dyn Fn() -> bool,
) -> Option<Guide> {
    if let Some(g) = cache.and_then(|c| read_kept(c, board, rules, ko)) {
        return Some(g);
    }
    if !may_build() {
        return None;
    }
    let g = Guide::build_with(board, rules, ko)?;
    if let Some(c) = cache.filter(|c| g.stats().seconds >= c.min_seconds && keep(&g)) {
        write_kept(c, board, rules, ko, &g);
    }
    Some(g)
}

/// The guide [`obtain`] finds kept in `cache`, if a usable file is there;
/// one that cannot be read is said and removed.
fn read_kept(cache: GuideCache, board: &Board, rules: &Rules, ko: bool) -> Option<Guide> {
    let file = path(cache.dir, board, rules, ko);
    let start = Instant::now();
    match load(&file, board, rules, ko) {
        Ok(Some(g)) => {
            eprintln!(
                "note: guide table read from {} in {:.1} s (its build took {:.1} s)",
                file.display(),
                start.elapsed().as_secs_f64(),
                g.stats().seconds
            );
            Some(g)
        }
        Ok(None) => None,
        Err(why) => {
            eprintln!(
                "note: the guide table {} is not used: {why}; it is removed",
                file.display()
            );
            let _ = std::fs::remove_file(&file);
            None
        }
    }
}

/// Writes a guide [`obtain`] built into `cache`, where the disk has room,
/// saying each step.
fn write_kept(cache: GuideCache, board: &Board, rules: &Rules, ko: bool, g: &Guide) {
    let file = path(cache.dir, board, rules, ko);
    let bytes = file_bytes(board, rules, ko);
    let mb = bytes as f64 / 1e6;
    // A solve stopped while keeping a guide leaves a file as large.
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    remove_stale_temporaries(cache.dir, &name.unwrap_or_default());
    match free_bytes(cache.dir) {
        // Room for the file and as much again, up to a gigabyte.
        Some(free) if free < bytes + bytes.min(1 << 30) => eprintln!(
            "note: the guide table ({mb:.0} MB) is not kept in {}: {:.0} MB free there",
            cache.dir.display(),
            free as f64 / 1e6
        ),
        _ => {
            eprintln!(
                "note: keeping the guide table in {} ({mb:.0} MB) for later solves of this \
                 board and rules (--no-guide-cache, or GOSOLVE_GUIDE_CACHE=off: neither kept \
                 nor read)",
                file.display()
            );
            let start = Instant::now();
            match save(&file, board, rules, g) {
                Ok(_) => eprintln!(
                    "note: guide table kept in {:.1} s",
                    start.elapsed().as_secs_f64()
                ),
                Err(e) => eprintln!(
                    "note: the guide table could not be kept in {}: {e}",
                    file.display()
                ),
            }
        }
    }
}

/// The bytes free to an unprivileged writer in the file system of `dir`
/// (of its nearest existing ancestor), if they can be told.
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let there = dir.ancestors().find(|d| d.exists())?;
    let c = std::ffi::CString::new(there.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a valid NUL-terminated path and `s` a zeroed
    // `statvfs` the call fills; nothing is kept past the call.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return None;
    }
    Some(s.f_bavail as u64 * s.f_frsize as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{RuleOptions, Superko};

    fn rules(board: &Board, suicide: Suicide, superko: Superko) -> Rules {
        let opts = RuleOptions {
            suicide: Some(suicide),
            superko: Some(superko),
            ..RuleOptions::default()
        };
        Rules::build(Ruleset::TrompTaylor, &opts, board).unwrap()
    }

    fn entries(g: &Guide) -> Vec<u16> {
        g.parts().0.iter().map(|e| e.load(Relaxed)).collect()
    }

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gosolve-guide-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// A fresh folder, 2x3 under Tromp-Taylor, and its ko guide's file
    /// there.
    fn two_by_three(tag: &str) -> (PathBuf, Board, Rules, PathBuf) {
        let dir = temp(tag);
        let board = Board::parse("2x3").unwrap();
        let r = rules(&board, Suicide::Allowed, Superko::Positional);
        let file = path(&dir, &board, &r, true);
        (dir, board, r, file)
    }

    /// Sets a file's last four bytes to the CRC-32 of the others.
    fn fix_checksum(bytes: &mut [u8]) {
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
    }

    /// Two solves at once that need one guide get one table (the second
    /// waits for the first's build, rather than building its own), under
    /// any superko and komi, each reading it with its own komi; one of
    /// another game gets its own; and once no solve holds a table, it is
    /// gone from memory.
    #[test]
    fn solves_at_once_share_one_guide() {
        let board = Board::parse("2x5").unwrap();
        let positional = rules(&board, Suicide::Allowed, Superko::Positional);
        let mut none = rules(&board, Suicide::Allowed, Superko::None);
        none.komi = crate::engine::rules::Komi(5);
        let start = std::sync::Barrier::new(2);
        let get = |r: &Rules| {
            start.wait();
            obtain_shared(&board, r, true, None, |_| true, &|| true).unwrap()
        };
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| get(&positional));
            let b = s.spawn(|| get(&none));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert!(Arc::ptr_eq(a.parts().0, b.parts().0));
        assert_eq!(
            entries(&a),
            entries(&Guide::build_with(&board, &none, true).unwrap())
        );
        // Black to move on the empty board: 2.5 points (5 half points)
        // less for Black under komi 2.5.
        let empty = crate::engine::position::Position::default();
        let at = |g: &Guide| g.range(empty, crate::engine::types::Color::Black, 0, None);
        let ((alo, ahi), (blo, bhi)) = (at(&a), at(&b));
        assert_eq!((blo, bhi), (alo - 5, ahi - 5));
        let other = obtain_shared(&board, &positional, false, None, |_| true, &|| true).unwrap();
        assert!(!Arc::ptr_eq(a.parts().0, other.parts().0) && !other.has_ko());
        let gone = Arc::downgrade(a.parts().0);
        drop((a, b));
        assert!(gone.upgrade().is_none());
    }

    /// A guide written and read back is the one built: every entry and its
    /// statistics, read under another superko from the same file.
    #[test]
    fn a_guide_read_back_is_the_one_built() {
        let dir = temp("same");
        for (spec, suicide, ko) in [
            ("2x3", Suicide::Allowed, true),
            ("2x3", Suicide::Forbidden, false),
            ("1x6", Suicide::Allowed, false),
            ("cycle:5", Suicide::Forbidden, true),
        ] {
            let board = Board::parse(spec).unwrap();
            let r = rules(&board, suicide, Superko::Positional);
            let built = Guide::build_with(&board, &r, ko).unwrap();
            let file = path(&dir, &board, &r, ko);
            let bytes = save(&file, &board, &r, &built).unwrap();
            assert_eq!(bytes, std::fs::metadata(&file).unwrap().len(), "{spec}");
            // Another superko reads the same file.
            let other = rules(&board, suicide, Superko::None);
            assert_eq!(path(&dir, &board, &other, ko), file);
            let read = load(&file, &board, &other, ko).unwrap().unwrap();
            assert_eq!(entries(&read), entries(&built), "{spec}");
            assert_eq!(read.stats(), built.stats(), "{spec}");
            assert_eq!(read.has_ko(), ko);
            // Not the file of the other ko variant, suicide rule or board.
            assert_ne!(path(&dir, &board, &r, !ko), file);
            let flip = match suicide {
                Suicide::Allowed => Suicide::Forbidden,
                Suicide::Forbidden => Suicide::Allowed,
            };
            assert_ne!(
                path(&dir, &board, &rules(&board, flip, Superko::None), ko),
                file
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A missing file is `None`; a damaged, cut or foreign one an error
    /// that says so.
    #[test]
    fn a_damaged_guide_file_is_refused() {
        let (dir, board, r, file) = two_by_three("damaged");
        assert!(load(&file, &board, &r, true).unwrap().is_none());
        let g = Guide::build_with(&board, &r, true).unwrap();
        save(&file, &board, &r, &g).unwrap();
        let good = std::fs::read(&file).unwrap();
        let refused = |bytes: &[u8], why: &str| {
            std::fs::write(&file, bytes).unwrap();
            let e = load(&file, &board, &r, true).err().expect("refused");
            assert!(e.contains(why), "{e}");
        };
        // An entry in the middle of the table changed to another valid
        // bracket: only the checksum tells.
        let mut bad = good.clone();
        let entries = 3usize.pow(6);
        let at = good.len() - 4 - 2 * entries + 2 * (entries / 2);
        let open = [(-13i8) as u8, 13];
        let other = if bad[at..at + 2] == open {
            [0, 0]
        } else {
            open
        };
        bad[at..at + 2].copy_from_slice(&other);
        refused(&bad, "checksum");
        refused(&good[..good.len() - 1], "bytes");
        let mut more = good.clone();
        more.push(0);
        refused(&more, "bytes");
        let mut magic = good.clone();
        magic[0] = b'x';
        refused(&magic, "another board");
        // A bracket with lo > hi, checksum made to match.
        let mut wrong = good.clone();
        let at = good.len() - 4 - 2;
        wrong[at..at + 2].copy_from_slice(&[5, 0]);
        fix_checksum(&mut wrong);
        refused(&wrong, "out of range");
        // The file of 2x3 read as 3x2's key (same points, other edges).
        std::fs::write(&file, &good).unwrap();
        let tall = Board::parse("3x2").unwrap();
        let e = load(
            &file,
            &tall,
            &rules(&tall, Suicide::Allowed, Superko::Positional),
            true,
        );
        assert!(e.is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `obtain` writes a build of at least `min_seconds` and reads it back
    /// the next time, even where it may not build; one below it is not
    /// written.
    #[test]
    fn obtain_keeps_and_reads_back() {
        let (dir, board, r, file) = two_by_three("obtain");
        let never = GuideCache {
            dir: Box::leak(dir.clone().into_boxed_path()),
            min_seconds: f64::INFINITY,
        };
        // Where a build is the only way and may not be made: none.
        assert!(obtain(&board, &r, true, None, |_| true, &|| false).is_none());
        assert!(obtain(&board, &r, true, Some(never), |_| true, &|| false).is_none());
        let built = obtain(&board, &r, true, Some(never), |_| true, &|| true).unwrap();
        assert!(!file.exists());
        let every = GuideCache::every(dir.clone());
        obtain(&board, &r, true, Some(every), |_| false, &|| true).unwrap();
        assert!(!file.exists());
        // A stopped writer's temporary file is removed, a live one's kept.
        std::fs::create_dir_all(&dir).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let gone = dir.join(format!(".{name}.{}-0.tmp", i32::MAX));
        let quiet = std::time::SystemTime::now() - 2 * crate::format::gsr::STALE_AFTER;
        let live = dir.join(format!(".{name}.{}-0.tmp", std::process::id()));
        std::fs::File::create(&gone)
            .unwrap()
            .set_modified(quiet)
            .unwrap();
        std::fs::write(&live, b"x").unwrap();
        obtain(&board, &r, true, Some(every), |_| true, &|| true).unwrap();
        assert!(file.exists());
        assert!(!gone.exists() && live.exists());
        std::fs::remove_file(&live).unwrap();
        // Marked so that only a read, not a build, gives it.
        let mut marked = std::fs::read(&file).unwrap();
        let stats_at = prefix(&board, &r, true).len();
        marked[stats_at] ^= 0x40;
        fix_checksum(&mut marked);
        std::fs::write(&file, &marked).unwrap();
        // Read even where no build may be made (a smaller machine).
        let read = obtain(&board, &r, true, Some(every), |_| true, &|| false).unwrap();
        assert_eq!(read.stats().sweeps, built.stats().sweeps ^ 0x40);
        assert_eq!(entries(&read), entries(&built));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
