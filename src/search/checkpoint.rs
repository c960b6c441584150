//! Table checkpoints (issue 17, item 6): the bounds the main table holds,
//! written while a long solve runs and read back by the next run of the
//! same solve, so that an interrupted test that ran for hours (a 5x5
//! class) starts again with the table it had, not an empty one.
//!
//! Why a bound from another run is sound: a stored bound is reused only
//! where the facts it carries hold on the new path (its owner's summary
//! and the history states it needs; see `solver`), and that argument does
//! not ask when or by which search the bound was stored. So a bound an
//! earlier run of the same program stored for the same board, rules and
//! symmetries is as good as one this run stored. The resume layer checks
//! the program and the solve; the body starts with the symmetry count, the
//! one thing of the key's frame a run's options change (`--no-symmetry`,
//! and `--no-save`, whose value-only search also swaps the colours).
//! Not kept: `open` marks (another run's iteration numbers would match
//! this run's), df-pn's proof numbers (they only steer), the set table of
//! boards of at most five points (they need no checkpoint) and the path
//! table (the proof's).
//!
//! The body, little-endian: [`MAGIC`], the symmetry count (`u32`), then
//! each entry after a 1 byte, then a 0 byte and the entry count (`u64`).
//! An entry is its key (colouring, aux, extra), a tag and bound for the
//! lower and the upper bound, its move and its work. [`check`] reads a
//! whole body before any of it is stored, refusing tags, colourings, moves
//! and counts out of range; the values and summaries it cannot check are
//! guarded by the file's zstd checksum (`store::table`). A table smaller
//! than the checkpoint keeps what its buckets hold, and its own next
//! checkpoint holds only that.

use crate::engine::position::Position;
use crate::engine::types::{PointSet, ToMove};
use crate::search::keys::key_hash;
use crate::search::solver::Shared;
use crate::search::tt::{Bound, NEEDS, Summary, TableKey};
use std::io::{self, Read, Write};

/// The body's first bytes.
pub const MAGIC: &[u8; 8] = b"gstable2";

/// One entry, as read back.
struct Stored {
    key: TableKey,
    lower: Option<Bound>,
    upper: Option<Bound>,
    best: u8,
    work: u8,
}

impl Shared<'_> {
    /// Writes the main table's bounds as a checkpoint body; returns the
    /// entries written. Searches may run meanwhile.
    pub fn write_table(&self, w: &mut dyn Write) -> io::Result<u64> {
        let mut w = io::BufWriter::with_capacity(1 << 20, w);
        w.write_all(MAGIC)?;
        w.write_all(&(self.syms.len() as u32).to_le_bytes())?;
        let mut n = 0u64;
        let mut err = Ok(());
        if let Some(t) = &self.table {
            t.each_bound(|e| {
                if err.is_ok() {
                    err = entry(&mut w, &e.key, e.lower, e.upper, e.best, e.work);
                    n += 1;
                }
            });
        }
        err?;
        w.write_all(&[0])?;
        w.write_all(&n.to_le_bytes())?;
        w.flush()?;
        Ok(n)
    }

    /// Reads a checkpoint body into the main table; returns the entries
    /// taken. An error (a damaged body, or one kept under other
    /// symmetries) before any entry is stored: the body is read whole and
    /// checked by [`check`] first, then again to store.
    pub fn read_table(
        &self,
        body: &mut dyn FnMut() -> io::Result<Box<dyn Read>>,
    ) -> Result<u64, String> {
        let unreadable = |e: io::Error| format!("it cannot be read ({e})");
        let n = check(
            &mut *body().map_err(unreadable)?,
            self.board.len(),
            self.syms.len(),
        )?;
        let Some(t) = &self.table else {
            return Ok(0);
        };
        let mut r = io::BufReader::with_capacity(1 << 20, body().map_err(unreadable)?);
        header(&mut r, self.syms.len())?;
        for _ in 0..n {
            let e = next(&mut r, self.board.len())?.ok_or("the entries end early")?;
            t.store(&e.key, key_hash(&e.key), e.lower, e.upper, e.best, e.work);
        }
        Ok(n)
    }
}

/// Reads a whole checkpoint body for a board of `points` points with
/// `syms` symmetries, checking every entry and the count at its end;
/// returns the entry count.
pub fn check(r: &mut dyn Read, points: usize, syms: usize) -> Result<u64, String> {
    let mut r = io::BufReader::with_capacity(1 << 20, r);
    header(&mut r, syms)?;
    let mut n = 0u64;
    while next(&mut r, points)?.is_some() {
        n += 1;
    }
    let count = u64::from_le_bytes(bytes(&mut r)?);
    if count != n {
        return Err(format!("it holds {n} entries but says {count}"));
    }
    // Counted, not kept: a damaged file may have gigabytes there.
    let rest = io::copy(&mut r, &mut io::sink()).map_err(damaged)?;
    if rest > 0 {
        return Err(format!("{rest} bytes follow its end"));
    }
    Ok(n)
}

fn damaged(e: io::Error) -> String {
    format!("it is damaged ({e})")
}

fn header(r: &mut impl Read, syms: usize) -> Result<(), String> {
    let magic: [u8; 8] = bytes(r)?;
    if &magic != MAGIC {
        return Err("it is not a gosolve table checkpoint".into());
    }
    let kept = u32::from_le_bytes(bytes(r)?) as usize;
    if kept != syms {
        return Err(format!(
            "it was kept with {kept} symmetries and this run uses {syms} (--no-symmetry \
             differs, and so does --no-save, whose keys also swap the colours)"
        ));
    }
    Ok(())
}

fn bytes<const N: usize>(r: &mut impl Read) -> Result<[u8; N], String> {
    let mut b = [0u8; N];
    r.read_exact(&mut b).map_err(damaged)?;
    Ok(b)
}

fn entry(
    w: &mut impl Write,
    key: &TableKey,
    lower: Option<Bound>,
    upper: Option<Bound>,
    best: u8,
    work: u8,
) -> io::Result<()> {
    w.write_all(&[1])?;
    pos(w, &key.pos)?;
    pos(w, &key.aux)?;
    w.write_all(&key.extra.to_le_bytes())?;
    for b in [lower, upper] {
        match b {
            None => w.write_all(&[0])?,
            Some(b) => {
                w.write_all(&[1])?;
                bound(w, &b)?;
            }
        }
    }
    w.write_all(&[best, work])
}

fn pos(w: &mut impl Write, p: &Position) -> io::Result<()> {
    w.write_all(&p.black.0.to_le_bytes())?;
    w.write_all(&p.white.0.to_le_bytes())
}

fn bound(w: &mut impl Write, b: &Bound) -> io::Result<()> {
    w.write_all(&b.value.to_le_bytes())?;
    let s = &b.summary;
    for set in [
        s.black,
        s.white,
        s.any_black,
        s.any_white,
        s.black_in,
        s.white_in,
    ] {
        w.write_all(&set.0.to_le_bytes())?;
    }
    w.write_all(&[s.min, s.max])?;
    w.write_all(&s.bloom[0].to_le_bytes())?;
    w.write_all(&s.bloom[1].to_le_bytes())?;
    for (p, m) in &b.need {
        pos(w, p)?;
        w.write_all(&[*m as u8])?;
    }
    w.write_all(&[b.needs])
}

/// The next entry, or `None` at the end mark.
fn next(r: &mut impl Read, points: usize) -> Result<Option<Stored>, String> {
    match bytes::<1>(r)?[0] {
        0 => return Ok(None),
        1 => {}
        t => return Err(format!("it is damaged (entry tag {t})")),
    }
    let key = TableKey {
        pos: read_pos(r, points)?,
        aux: read_pos(r, points)?,
        extra: u64::from_le_bytes(bytes(r)?),
    };
    let mut b = [None, None];
    for x in &mut b {
        *x = match bytes::<1>(r)?[0] {
            0 => None,
            1 => Some(read_bound(r, points)?),
            t => return Err(format!("it is damaged (bound tag {t})")),
        };
    }
    let [best, work] = bytes(r)?;
    if best as usize > points || b == [None, None] {
        return Err("it is damaged (an entry out of range)".into());
    }
    Ok(Some(Stored {
        key,
        lower: b[0],
        upper: b[1],
        best,
        work,
    }))
}

/// A colouring of at most `points` points, with no point both colours.
fn read_pos(r: &mut impl Read, points: usize) -> Result<Position, String> {
    let black = u64::from_le_bytes(bytes(r)?);
    let white = u64::from_le_bytes(bytes(r)?);
    let outside = if points >= 64 { 0 } else { !0u64 << points };
    if black & white != 0 || (black | white) & outside != 0 {
        return Err("it is damaged (a colouring off the board)".into());
    }
    Ok(Position {
        black: PointSet(black),
        white: PointSet(white),
    })
}

fn read_bound(r: &mut impl Read, points: usize) -> Result<Bound, String> {
    let value = i16::from_le_bytes(bytes(r)?);
    let mut sets = [PointSet(0); 6];
    for s in &mut sets {
        *s = PointSet(u64::from_le_bytes(bytes(r)?));
    }
    let [min, max] = bytes(r)?;
    let bloom = [u64::from_le_bytes(bytes(r)?), u64::from_le_bytes(bytes(r)?)];
    let mut need = [(Position::default(), ToMove::Either); NEEDS];
    for n in &mut need {
        let p = read_pos(r, points)?;
        let m = match bytes::<1>(r)?[0] {
            0 => ToMove::Black,
            1 => ToMove::White,
            2 => ToMove::Either,
            t => return Err(format!("it is damaged (player {t})")),
        };
        *n = (p, m);
    }
    let [needs] = bytes(r)?;
    if needs as usize > NEEDS {
        return Err("it is damaged (a bound needing too many states)".into());
    }
    Ok(Bound {
        value,
        summary: Summary {
            black: sets[0],
            white: sets[1],
            any_black: sets[2],
            any_white: sets[3],
            black_in: sets[4],
            white_in: sets[5],
            min,
            max,
            bloom,
        },
        need,
        needs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::engine::rules::{Rules, Ruleset};
    use crate::search::root::{Solution, solve};
    use crate::search::solver::Config;

    fn one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1);
        pool.build().unwrap().install(f)
    }

    fn values(s: &Solution) -> (i32, Vec<(Vec<crate::engine::types::Move>, i32)>) {
        let moves = s.moves.iter().map(|m| (m.class.clone(), m.value));
        (s.value, moves.collect())
    }

    /// A table written after a solve and read into a new one: the same
    /// values again, from a fraction of the nodes. A body cut short, with
    /// a damaged tag or kept under other symmetries is refused before any
    /// of it is stored.
    #[test]
    fn a_checkpoint_restores_the_table_and_refuses_a_damaged_one() {
        let board = Board::parse("2x4").unwrap();
        let rules = Rules::new(Ruleset::TrompTaylor);
        let config = Config {
            tt_mb: 16,
            ..Config::default()
        };
        let (first, body, n) = one_thread(|| {
            let sh = Shared::new(&board, &rules, config).unwrap();
            let sol = solve(&sh, &|_, _| {});
            let mut body = Vec::new();
            let n = sh.write_table(&mut body).unwrap();
            (sol, body, n)
        });
        assert!(n > 100, "{n} entries");
        let load = |body: Vec<u8>| {
            one_thread(|| {
                let sh = Shared::new(&board, &rules, config).unwrap();
                let open = &mut || Ok(Box::new(io::Cursor::new(body.clone())) as Box<dyn Read>);
                let r = sh.read_table(open);
                let stores = sh.table.as_ref().unwrap().counters().2;
                let sol = r.is_ok().then(|| solve(&sh, &|_, _| {}));
                (r, stores, sol)
            })
        };
        let (r, stores, again) = load(body.clone());
        assert_eq!((r, stores), (Ok(n), n));
        let again = again.unwrap();
        assert_eq!(values(&again), values(&first));
        assert!(
            again.nodes * 10 < first.nodes,
            "{} nodes after the checkpoint, {} before",
            again.nodes,
            first.nodes
        );
        let mut damaged = Vec::new();
        damaged.push(body[..body.len() - 1].to_vec());
        let mut tag = body.clone();
        tag[12] = 7;
        damaged.push(tag);
        let mut syms = body.clone();
        syms[8] ^= 1;
        damaged.push(syms);
        let mut count = body.clone();
        *count.last_mut().unwrap() ^= 1;
        damaged.push(count);
        for (i, d) in damaged.into_iter().enumerate() {
            let (r, stores, _) = load(d);
            assert!(r.is_err(), "damage {i}: {r:?}");
            assert_eq!(stores, 0, "damage {i}");
        }
    }
}
