//! Exact dyadic rationals m / 2^k: the numbers of short games.

use super::ParseError;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// The number `num / 2^exp`, normalised (`exp == 0` or `num` odd), so equal
/// values have equal fields. Arithmetic panics on i64 overflow: short games
/// of any size this crate builds stay far from it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    /// `num / 2^exp`, normalised.
    pub fn new(num: i64, exp: u32) -> Dyadic {
        let mut d = Dyadic { num, exp };
        if num == 0 {
            d.exp = 0;
        }
        while d.exp > 0 && d.num % 2 == 0 {
            d.num /= 2;
            d.exp -= 1;
        }
        d
    }

    /// The integer `n`.
    pub fn int(n: i64) -> Dyadic {
        Dyadic { num: n, exp: 0 }
    }

    /// The numerator of the normalised fraction.
    pub fn num(self) -> i64 {
        self.num
    }

    /// The exponent `k` of the denominator 2^k.
    pub fn exp(self) -> u32 {
        self.exp
    }

    /// Whether this is an integer.
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// Half of this number.
    pub fn half(self) -> Dyadic {
        Dyadic::new(self.num, self.exp + 1)
    }

    /// This number times the integer k.
    pub fn mul_int(self, k: i64) -> Dyadic {
        Dyadic::new(self.num.checked_mul(k).expect("dyadic overflow"), self.exp)
    }

    /// This number divided by k = ±2^j. Panics for other k: the quotient
    /// would not be dyadic.
    pub fn div_pow2(self, k: i64) -> Dyadic {
        assert!(
            k != 0 && k.unsigned_abs().is_power_of_two(),
            "dyadic division by {k}"
        );
        let q = Dyadic::new(self.num, self.exp + k.unsigned_abs().trailing_zeros());
        if k < 0 { -q } else { q }
    }

    /// self / o when the quotient is an integer (panics otherwise).
    pub fn div_exact(self, o: Dyadic) -> i64 {
        let (a, b, _) = self.align(o);
        assert!(b != 0 && a % b == 0, "{self} / {o} is not an integer");
        a / b
    }

    /// The largest integer not above this number.
    pub fn floor(self) -> i64 {
        self.num >> self.exp
    }

    /// The smallest integer not below this number.
    pub fn ceil(self) -> i64 {
        -((-self.num) >> self.exp)
    }

    /// Both numbers over the common denominator 2^max(exp).
    fn align(self, o: Dyadic) -> (i64, i64, u32) {
        let e = self.exp.max(o.exp);
        let a = self.num.checked_shl(e - self.exp).expect("dyadic overflow");
        let b = o.num.checked_shl(e - o.exp).expect("dyadic overflow");
        assert!(
            a >> (e - self.exp) == self.num && b >> (e - o.exp) == o.num,
            "dyadic overflow"
        );
        (a, b, e)
    }

    /// The simplest number strictly between `lo` and `hi` (either bound may
    /// be absent): the value of `{lo | hi}` by the simplicity theorem.
    /// Panics unless `lo < hi`.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Dyadic {
        if let (Some(l), Some(h)) = (lo, hi) {
            assert!(l < h, "simplest_between needs lo < hi");
        }
        // The integers strictly inside, as a closed range.
        let first = lo.map(|l| l.floor() + 1);
        let last = hi.map(|h| h.ceil() - 1);
        match (first, last) {
            (None, None) => return Dyadic::ZERO,
            (Some(a), None) => return Dyadic::int(a.max(0)),
            (None, Some(b)) => return Dyadic::int(b.min(0)),
            (Some(a), Some(b)) if a <= b => {
                return Dyadic::int(if a > 0 {
                    a
                } else if b < 0 {
                    b
                } else {
                    0
                });
            }
            _ => {}
        }
        // No integer inside: the fraction with the smallest denominator.
        let (l, h) = (lo.unwrap(), hi.unwrap());
        let mut k = 1;
        loop {
            // The smallest multiple of 1/2^k above l.
            let m = l.shifted_floor(k) + 1;
            let x = Dyadic::new(m, k);
            if x < h {
                return x;
            }
            k += 1;
        }
    }

    /// floor(self * 2^k).
    fn shifted_floor(self, k: u32) -> i64 {
        if k >= self.exp {
            self.num.checked_shl(k - self.exp).expect("dyadic overflow")
        } else {
            self.num >> (self.exp - k)
        }
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, o: Dyadic) -> Dyadic {
        let (a, b, e) = self.align(o);
        Dyadic::new(a.checked_add(b).expect("dyadic overflow"), e)
    }
}

impl Sub for Dyadic {
    type Output = Dyadic;
    fn sub(self, o: Dyadic) -> Dyadic {
        self + (-o)
    }
}

impl Neg for Dyadic {
    type Output = Dyadic;
    fn neg(self) -> Dyadic {
        Dyadic {
            num: -self.num,
            exp: self.exp,
        }
    }
}

impl Ord for Dyadic {
    fn cmp(&self, o: &Dyadic) -> Ordering {
        let (a, b, _) = self.align(*o);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, o: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Dyadic {
    /// `3`, `-1/2`, `3/4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}

impl std::str::FromStr for Dyadic {
    type Err = ParseError;
    /// An integer or `a/b` with `b` a power of two.
    fn from_str(s: &str) -> Result<Dyadic, ParseError> {
        let bad = |why: String| ParseError(why);
        let s = s.trim();
        let (a, b) = match s.split_once('/') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (s, "1"),
        };
        let num: i64 = a.parse().map_err(|_| bad(format!("bad number '{s}'")))?;
        let den: u64 = b.parse().map_err(|_| bad(format!("bad number '{s}'")))?;
        if den == 0 || !den.is_power_of_two() || den > 1 << 62 {
            return Err(bad(format!(
                "'{s}': the denominator must be a power of two"
            )));
        }
        Ok(Dyadic::new(num, den.trailing_zeros()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dyadic {
        s.parse().unwrap()
    }

    #[test]
    fn arithmetic_is_exact_and_normalised() {
        assert_eq!(d("1/2") + d("1/2"), d("1"));
        assert_eq!(d("3/4") - d("1/4"), d("2/4"));
        assert_eq!(d("2/4").to_string(), "1/2");
        assert_eq!(d("-3/8").floor(), -1);
        assert_eq!(d("-3/8").ceil(), 0);
        assert!(d("-1/2") < d("-1/4"));
        assert!("1/3".parse::<Dyadic>().is_err());
    }

    #[test]
    fn simplest_numbers() {
        let s = |l: Option<&str>, h: Option<&str>| {
            Dyadic::simplest_between(l.map(d), h.map(d)).to_string()
        };
        assert_eq!(s(None, None), "0");
        assert_eq!(s(Some("0"), None), "1");
        assert_eq!(s(Some("-5"), Some("3")), "0");
        assert_eq!(s(Some("0"), Some("1")), "1/2");
        assert_eq!(s(Some("1/2"), Some("1")), "3/4");
        assert_eq!(s(Some("-7/8"), Some("-1/2")), "-3/4");
        assert_eq!(s(Some("1"), Some("5/2")), "2");
        assert_eq!(s(None, Some("-2")), "-3");
    }
}
