//! Go regions generated systematically, for the region tests and benches:
//! every polyomino of empty points with its neighbouring cells coloured.
#![allow(dead_code)]

use std::collections::BTreeSet;

/// A polyomino: its cells (row, column), translated to start at (0, 0).
pub type Shape = BTreeSet<(i32, i32)>;

fn normalised(cells: impl IntoIterator<Item = (i32, i32)>) -> Shape {
    let v: Vec<(i32, i32)> = cells.into_iter().collect();
    let r0 = v.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = v.iter().map(|c| c.1).min().unwrap_or(0);
    v.into_iter().map(|(r, c)| (r - r0, c - c0)).collect()
}

/// The least of a shape's 8 images under rotations and reflections.
fn free_form(s: &Shape) -> Shape {
    // Transpose or not, then negate rows and/or columns.
    let image = |t: u8, (r, c): (i32, i32)| {
        let (a, b) = if t & 4 != 0 { (c, r) } else { (r, c) };
        (
            if t & 1 != 0 { -a } else { a },
            if t & 2 != 0 { -b } else { b },
        )
    };
    (0..8)
        .map(|t| normalised(s.iter().map(|&p| image(t, p))))
        .min()
        .unwrap()
}

fn neighbours((r, c): (i32, i32)) -> [(i32, i32); 4] {
    [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
}

/// Every free polyomino (up to rotation and reflection) of each size
/// 1..=max: `out[n - 1]` holds those of n cells.
pub fn polyominoes(max: usize) -> Vec<Vec<Shape>> {
    let mut out: Vec<Vec<Shape>> = Vec::new();
    let mut level: BTreeSet<Shape> = [normalised([(0, 0)])].into();
    for _ in 0..max {
        out.push(level.iter().cloned().collect());
        let mut next = BTreeSet::new();
        for s in &level {
            for &cell in s {
                for n in neighbours(cell) {
                    if !s.contains(&n) {
                        let mut t = s.clone();
                        t.insert(n);
                        next.insert(free_form(&normalised(t)));
                    }
                }
            }
        }
        level = next;
    }
    out
}

/// The cells next to the shape and not in it, in row-major order.
pub fn boundary(s: &Shape) -> Vec<(i32, i32)> {
    let b: BTreeSet<(i32, i32)> = s
        .iter()
        .flat_map(|&c| neighbours(c))
        .filter(|n| !s.contains(n))
        .collect();
    b.into_iter().collect()
}

/// The diagram of a shape whose cells hold `inside` (`.`, `X` or `O`, in
/// the shape's order) and whose boundary cells hold `border` (`B`, `W`,
/// `X` or `O`, in [`boundary`] order); every other cell is `#`.
pub fn diagram(s: &Shape, inside: &[char], border: &[char]) -> String {
    let b = boundary(s);
    let rows = s.iter().map(|c| c.0).max().unwrap() + 3;
    let cols = s.iter().map(|c| c.1).max().unwrap() + 3;
    let mut grid = vec![vec!['#'; cols as usize]; rows as usize];
    for (&(r, c), &ch) in s.iter().zip(inside) {
        grid[(r + 1) as usize][(c + 1) as usize] = ch;
    }
    for (&(r, c), &ch) in b.iter().zip(border) {
        grid[(r + 1) as usize][(c + 1) as usize] = ch;
    }
    let rows: Vec<String> = grid.into_iter().map(|r| r.into_iter().collect()).collect();
    rows.join("/")
}

/// Every colouring of `n` cells from `alphabet`, as char vectors.
pub fn colourings(n: usize, alphabet: &[char]) -> Vec<Vec<char>> {
    let k = alphabet.len();
    (0..k.pow(n as u32))
        .map(|mut i| {
            (0..n)
                .map(|_| {
                    let ch = alphabet[i % k];
                    i /= k;
                    ch
                })
                .collect()
        })
        .collect()
}

/// Border colourings with at most `whites` white stones among black ones.
pub fn few_whites(n: usize, whites: usize) -> Vec<Vec<char>> {
    colourings(n, &['B', 'W'])
        .into_iter()
        .filter(|c| c.iter().filter(|&&x| x == 'W').count() <= whites)
        .collect()
}
