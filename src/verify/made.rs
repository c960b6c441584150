//! The colourings a subtree produced, as the links' test 1 reads them
//! (module doc of [`crate::verify`]), and where the checker keeps them for
//! the owner nodes a later link may name.
//!
//! A node's set holds its descendants' sets, so keeping each one whole
//! stores every colouring once per ancestor: 145 hashes a node on 3×6's
//! largest strategy, over 30 GB on 4×5's. Instead the checker numbers the
//! colourings' hashes as it meets them and keeps whole only the *roots*,
//! the highest nodes whose set is exact (their parents' went over
//! [`MADE_LIMIT`]), as the gaps between their sorted numbers (a byte or
//! two each, since a subtree mostly meets colourings numbered close
//! together); every node below a root is kept as the positions of its
//! colourings in the root's set: a bit map, or a list of positions where
//! that is smaller. A node's root is known once its nearest ancestor over
//! the limit (or the walk) finishes; until then its set stays whole.
//!
//! The numbers only shorten what is stored: a colouring is in a set exactly
//! when its hash's number is, and the limit counts distinct hashes, as the
//! extractor's does.

use crate::format::gsr::{MADE_LIMIT, colouring_hash};
use crate::verify::walk::sets;
use hashbrown::HashMap;

// Positions in a root's set fit in 16 bits.
const _: () = assert!(MADE_LIMIT < u16::MAX as usize);

/// The numbers of a subtree's produced colourings, sorted and without
/// repeats, while there are at most [`MADE_LIMIT`]; `None` beyond.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Made(pub(super) Option<Vec<u32>>);

impl Made {
    pub(super) fn empty() -> Made {
        Made(Some(Vec::new()))
    }

    pub(super) fn insert(&mut self, id: u32) {
        if let Some(v) = &mut self.0 {
            if let Err(i) = v.binary_search(&id) {
                v.insert(i, id);
            }
            if v.len() > MADE_LIMIT {
                self.0 = None;
            }
        }
    }

    pub(super) fn merge(&mut self, o: &Made) {
        let (Some(v), Some(w)) = (&mut self.0, &o.0) else {
            self.0 = None;
            return;
        };
        if w.is_empty() {
            return;
        }
        // Both sorted: one pass, not a sort (a tenth of verify's time).
        let mut out = Vec::with_capacity(v.len() + w.len());
        let (mut i, mut j) = (0, 0);
        while i < v.len() && j < w.len() {
            let (x, y) = (v[i], w[j]);
            out.push(x.min(y));
            i += usize::from(x <= y);
            j += usize::from(y <= x);
        }
        out.extend_from_slice(&v[i..]);
        out.extend_from_slice(&w[j..]);
        self.0 = (out.len() <= MADE_LIMIT).then_some(out);
    }

    /// Whether the set holds colouring number `id`; `None` when it went
    /// over the limit.
    pub(super) fn holds(&self, id: Option<u32>) -> Option<bool> {
        let v = self.0.as_ref()?;
        Some(id.is_some_and(|i| v.binary_search(&i).is_ok()))
    }
}

/// How one finished node's set is kept.
enum Set {
    /// Not finished yet.
    Open,
    /// Over the limit: the links' test reads the summary instead.
    Over,
    /// The sorted numbers as gaps ([`pack`]): a root, or a node whose root
    /// is not known yet.
    Whole(Box<[u8]>),
    /// Bit `i` set: the root's `i`-th colouring is in the set.
    Bits { root: u32, bits: Box<[u64]> },
    /// The positions, ascending, of the set's colourings in the root's set.
    List { root: u32, at: Box<[u16]> },
}

/// The sets of a strategy's owner nodes, by node number (numbered as the
/// walk meets them, so a subtree's nodes follow its top's number).
pub(super) struct Kept {
    /// A number for each colouring hash met, in the order met.
    numbers: HashMap<u64, u32>,
    sets: Vec<Set>,
    /// Finished nodes kept whole whose root is not known yet, in the order
    /// they finished (a subtree's nodes before its top).
    waiting: Vec<u32>,
}

impl Kept {
    pub(super) fn new() -> Kept {
        Kept {
            numbers: HashMap::new(),
            sets: Vec::new(),
            waiting: Vec::new(),
        }
    }

    /// The number of colouring `col`, given it if it has none.
    pub(super) fn number(&mut self, col: &[u8]) -> u32 {
        let (b, w) = sets(col);
        let next = self.numbers.len() as u32;
        *self.numbers.entry(colouring_hash(b, w)).or_insert(next)
    }

    /// The number of colouring `col`, if any set has met it.
    pub(super) fn number_of(&self, col: &[u8]) -> Option<u32> {
        let (b, w) = sets(col);
        self.numbers.get(&colouring_hash(b, w)).copied()
    }

    /// Node `id`, the next number, begins.
    pub(super) fn open(&mut self, id: usize) {
        debug_assert_eq!(id, self.sets.len());
        self.sets.push(Set::Open);
    }

    /// Whether node `id` has not finished (or not begun).
    pub(super) fn is_open(&self, id: usize) -> bool {
        self.sets.get(id).is_none_or(|s| matches!(s, Set::Open))
    }

    /// Node `id` finished with set `made`.
    pub(super) fn finish(&mut self, id: usize, made: &Made) {
        match &made.0 {
            Some(v) => {
                self.sets[id] = Set::Whole(pack(v));
                self.waiting.push(id as u32);
            }
            None => {
                self.sets[id] = Set::Over;
                self.settle_below(id);
            }
        }
    }

    /// Node `id` went over the limit, so each waiting node of its subtree
    /// that has no waiting ancestor there is a root: the nodes waiting below
    /// it are stored as positions in its set.
    fn settle_below(&mut self, id: usize) {
        while let Some(&r) = self.waiting.last() {
            if r as usize <= id {
                break;
            }
            self.waiting.pop();
            let root = self.whole(r);
            while let Some(&c) = self.waiting.last() {
                if c <= r {
                    break;
                }
                self.waiting.pop();
                let v = self.whole(c);
                self.sets[c as usize] = within(&root, &v, r);
            }
        }
    }

    /// A set kept whole, unpacked.
    fn whole(&self, id: u32) -> Vec<u32> {
        match &self.sets[id as usize] {
            Set::Whole(p) => unpack(p),
            _ => unreachable!("roots and waiting nodes are kept whole"),
        }
    }

    /// Node `id`'s set, whole.
    pub(super) fn made(&self, id: usize) -> Made {
        let root_set = |root: &u32| match &self.sets[*root as usize] {
            Set::Whole(p) => packed(p),
            _ => unreachable!("a root is kept whole"),
        };
        Made(match &self.sets[id] {
            Set::Open => unreachable!("a link names only finished nodes"),
            Set::Over => None,
            Set::Whole(p) => Some(unpack(p)),
            Set::Bits { root, bits } => Some(
                root_set(root)
                    .enumerate()
                    .filter(|(i, _)| bits[i / 64] >> (i % 64) & 1 == 1)
                    .map(|(_, n)| n)
                    .collect(),
            ),
            Set::List { root, at } => {
                let mut r = root_set(root).enumerate();
                Some(
                    at.iter()
                        .map(|&i| {
                            r.find(|&(k, _)| k == i as usize)
                                .expect("a position within the root's set")
                                .1
                        })
                        .collect(),
                )
            }
        })
    }
}

/// Sorted numbers as the gaps between them (the first from 0), seven bits
/// a byte, the high bit saying another byte follows.
fn pack(v: &[u32]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(v.len() + v.len() / 2);
    let mut last = 0u32;
    for &n in v {
        let mut gap = n - last;
        last = n;
        while gap >= 0x80 {
            out.push(gap as u8 | 0x80);
            gap >>= 7;
        }
        out.push(gap as u8);
    }
    out.into_boxed_slice()
}

fn unpack(p: &[u8]) -> Vec<u32> {
    packed(p).collect()
}

/// The numbers [`pack`] stored, in order.
fn packed(p: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let (mut last, mut gap, mut shift) = (0u32, 0u32, 0);
    p.iter().filter_map(move |&b| {
        gap |= u32::from(b & 0x7F) << shift;
        shift += 7;
        if b & 0x80 != 0 {
            return None;
        }
        last += gap;
        (gap, shift) = (0, 0);
        Some(last)
    })
}

/// `v`, a subset of root `r`'s set `root`, as positions in it: a bit map or
/// a list, whichever is smaller (or whole, were it not a subset).
fn within(root: &[u32], v: &[u32], r: u32) -> Set {
    let mut at = Vec::with_capacity(v.len());
    let mut i = 0;
    for &n in v {
        while i < root.len() && root[i] < n {
            i += 1;
        }
        if i == root.len() || root[i] != n {
            return Set::Whole(pack(v));
        }
        at.push(i as u16);
    }
    let words = root.len().div_ceil(64);
    if 2 * at.len() < 8 * words {
        return Set::List {
            root: r,
            at: at.into_boxed_slice(),
        };
    }
    let mut bits = vec![0u64; words];
    for &i in &at {
        bits[i as usize / 64] |= 1 << (i % 64);
    }
    Set::Bits {
        root: r,
        bits: bits.into_boxed_slice(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Kept, Made};
    use crate::format::gsr::MADE_LIMIT;
    use crate::search::proof;
    use proptest::prelude::*;

    fn col(k: u64) -> Vec<u8> {
        // Point i black when bit i of k is set, white when bit i+20 is.
        (0..20u64)
            .map(|i| {
                if k >> i & 1 == 1 {
                    1
                } else if k >> (i + 20) & 1 == 1 {
                    2
                } else {
                    0
                }
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The extractor writes a link only where the checker accepts it,
        /// so their produced-colouring sets must give up (turn `None`) at
        /// the same size: about `MADE_LIMIT` distinct hashes, then a few
        /// more, some of them repeats, merged in.
        #[test]
        fn extractor_and_checker_sets_agree_at_the_limit(
            a in prop::collection::vec(any::<u64>(), 1015..1035),
            b in prop::collection::vec((any::<bool>(), any::<u64>()), 0..20),
        ) {
            let b: Vec<u64> = b
                .into_iter()
                .map(|(old, h)| if old { a[h as usize % a.len()] } else { h })
                .collect();
            let distinct = |s: &[&[u64]]| {
                let mut v: Vec<u64> = s.iter().flat_map(|x| x.iter().copied()).collect();
                v.sort_unstable();
                v.dedup();
                v.len()
            };
            // The checker's sets hold numbers, given to hashes as met.
            let mut numbers = std::collections::HashMap::new();
            let mut number = |h: u64| {
                let next = numbers.len() as u32;
                *numbers.entry(h).or_insert(next)
            };
            let na: Vec<u32> = a.iter().map(|&h| number(h)).collect();
            let nb: Vec<u32> = b.iter().map(|&h| number(h)).collect();
            let as_numbers = |p: &Option<Vec<u64>>, numbers: &std::collections::HashMap<u64, u32>| {
                p.as_ref().map(|v| {
                    let mut n: Vec<u32> = v.iter().map(|h| numbers[h]).collect();
                    n.sort_unstable();
                    n
                })
            };
            let (mut pa, mut pb) = (Some(Vec::new()), Some(Vec::new()));
            let (mut va, mut vb) = (Made::empty(), Made::empty());
            for (k, &h) in a.iter().enumerate() {
                proof::made_insert(&mut pa, h);
                va.insert(na[k]);
                prop_assert_eq!(as_numbers(&pa, &numbers), va.0.clone());
                prop_assert_eq!(pa.is_some(), distinct(&[&a[..=k]]) <= MADE_LIMIT);
            }
            for (k, &h) in b.iter().enumerate() {
                proof::made_insert(&mut pb, h);
                vb.insert(nb[k]);
            }
            prop_assert_eq!(as_numbers(&pb, &numbers), vb.0.clone());
            proof::made_merge(&mut pa, &pb);
            va.merge(&vb);
            prop_assert_eq!(as_numbers(&pa, &numbers), va.0.clone());
            let kept = distinct(&[&a]) <= MADE_LIMIT && distinct(&[&a, &b]) <= MADE_LIMIT;
            prop_assert_eq!(pa.is_some(), kept);
        }

        /// Kept however it is stored, every node's set answers as the set
        /// it finished with: a random tree walked as the checker walks one,
        /// each node producing a few colourings (one of 3000, so that sets
        /// overlap and some go over the limit), its set its own with its
        /// children's, asked of random colourings and of its own.
        #[test]
        fn kept_sets_answer_as_whole_sets(
            shape in prop::collection::vec((0usize..4, prop::collection::vec(0u64..3000, 0..40)), 1..200),
            probes in prop::collection::vec(0u64..3000, 20),
        ) {
            // Node i's parent is the last node before it with room for a
            // child (shape[p].0 children at most), or none: a forest.
            let n = shape.len();
            let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
            let mut tops = Vec::new();
            let mut stack: Vec<usize> = Vec::new();
            for i in 0..n {
                while let Some(&p) = stack.last() {
                    if children[p].len() < shape[p].0 {
                        break;
                    }
                    stack.pop();
                }
                match stack.last() {
                    Some(&p) => children[p].push(i),
                    None => tops.push(i),
                }
                stack.push(i);
            }
            let mut kept = Kept::new();
            let mut whole: Vec<Made> = vec![Made::empty(); n];
            fn walk(
                i: usize,
                shape: &[(usize, Vec<u64>)],
                children: &[Vec<usize>],
                kept: &mut Kept,
                whole: &mut [Made],
            ) -> Made {
                kept.open(i);
                let mut m = Made::empty();
                for &c in &children[i] {
                    let sub = walk(c, shape, children, kept, whole);
                    m.merge(&sub);
                }
                for &k in &shape[i].1 {
                    m.insert(kept.number(&col(k)));
                }
                kept.finish(i, &m);
                whole[i] = m.clone();
                m
            }
            fn has(i: usize, k: u64, shape: &[(usize, Vec<u64>)], children: &[Vec<usize>]) -> bool {
                shape[i].1.contains(&k) || children[i].iter().any(|&c| has(c, k, shape, children))
            }
            for &t in &tops {
                walk(t, &shape, &children, &mut kept, &mut whole);
                for i in 0..n {
                    if kept.is_open(i) {
                        continue;
                    }
                    prop_assert_eq!(&kept.made(i).0, &whole[i].0);
                    for &k in probes.iter().chain(&shape[i].1) {
                        let here = kept.made(i).holds(kept.number_of(&col(k)));
                        let expect = whole[i].0.as_ref().map(|_| has(i, k, &shape, &children));
                        prop_assert_eq!(here, expect);
                    }
                }
            }
        }
    }
}
