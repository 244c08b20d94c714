//! The bit-set types the Connect Four bitboards are generic over.
//!
//! A board of W × H cells needs W·(H+1) bits (one spare bit on top of each column keeps the
//! column arithmetic free of carries between columns). `u64` covers 7×6 and anything up to
//! 64 bits, `u128` covers boards such as 12×6 (84 bits), and [`Wide`] (320 bits) covers the
//! largest board the mode accepts (16 × 17 = 272 bits). One trait lets the solver, the beam
//! search and the players be written once and monomorphised per width, so the common 7×6 case
//! pays nothing for the generality. Shifts saturate to zero instead of panicking, because the
//! generic k-in-a-row code shifts by multiples of the column stride that may exceed the width.

use std::fmt::Debug;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A fixed-width set of bits with the operations the bitboard code needs.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Number of bits available.
    const CAPACITY: usize;
    const ZERO: Self;
    /// The set holding only bit `i` (`i < CAPACITY`).
    fn bit(i: usize) -> Self;
    /// Left shift that yields zero when `n >= CAPACITY`.
    fn shl(self, n: usize) -> Self;
    /// Right shift that yields zero when `n >= CAPACITY`.
    fn shr(self, n: usize) -> Self;
    /// Addition modulo 2^CAPACITY (the carry trick that finds each column's landing cell).
    fn wrapping_add(self, other: Self) -> Self;
    /// Subtraction modulo 2^CAPACITY.
    fn wrapping_sub(self, other: Self) -> Self;
    fn count_ones(self) -> u32;
    /// A 64-bit digest of the set for the transposition table; the identity on `u64`.
    fn digest(self) -> u64;

    #[inline]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    /// Whether more than one bit is set.
    #[inline]
    fn has_several(self) -> bool {
        !(self & self.wrapping_sub(Self::bit(0))).is_zero()
    }
}

/// Mixes 64 bits so that nearby keys land far apart (the splitmix64 finaliser).
pub use crate::rng::mix64;

impl Bits for u64 {
    const CAPACITY: usize = 64;
    const ZERO: Self = 0;
    #[inline]
    fn bit(i: usize) -> Self {
        1u64 << i
    }
    #[inline]
    fn shl(self, n: usize) -> Self {
        u32::try_from(n)
            .ok()
            .and_then(|n| self.checked_shl(n))
            .unwrap_or(0)
    }
    #[inline]
    fn shr(self, n: usize) -> Self {
        u32::try_from(n)
            .ok()
            .and_then(|n| self.checked_shr(n))
            .unwrap_or(0)
    }
    #[inline]
    fn wrapping_add(self, other: Self) -> Self {
        u64::wrapping_add(self, other)
    }
    #[inline]
    fn wrapping_sub(self, other: Self) -> Self {
        u64::wrapping_sub(self, other)
    }
    #[inline]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline]
    fn digest(self) -> u64 {
        self
    }
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    const ZERO: Self = 0;
    #[inline]
    fn bit(i: usize) -> Self {
        1u128 << i
    }
    #[inline]
    fn shl(self, n: usize) -> Self {
        u32::try_from(n)
            .ok()
            .and_then(|n| self.checked_shl(n))
            .unwrap_or(0)
    }
    #[inline]
    fn shr(self, n: usize) -> Self {
        u32::try_from(n)
            .ok()
            .and_then(|n| self.checked_shr(n))
            .unwrap_or(0)
    }
    #[inline]
    fn wrapping_add(self, other: Self) -> Self {
        u128::wrapping_add(self, other)
    }
    #[inline]
    fn wrapping_sub(self, other: Self) -> Self {
        u128::wrapping_sub(self, other)
    }
    #[inline]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline]
    fn digest(self) -> u64 {
        mix64(self as u64 ^ mix64((self >> 64) as u64))
    }
}

const WIDE_WORDS: usize = 5;

/// 320 bits as five little-endian words, for boards larger than 128 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Wide([u64; WIDE_WORDS]);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline]
    fn bitand(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline]
    fn bitor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl BitXor for Wide {
    type Output = Wide;
    #[inline]
    fn bitxor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

impl Bits for Wide {
    const CAPACITY: usize = 64 * WIDE_WORDS;
    const ZERO: Self = Wide([0; WIDE_WORDS]);
    fn bit(i: usize) -> Self {
        let mut w = [0; WIDE_WORDS];
        w[i / 64] = 1u64 << (i % 64);
        Wide(w)
    }
    fn shl(self, n: usize) -> Self {
        if n >= Self::CAPACITY {
            return Self::ZERO;
        }
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; WIDE_WORDS];
        for i in (words..WIDE_WORDS).rev() {
            let src = i - words;
            out[i] = self.0[src] << bits;
            if bits > 0 && src > 0 {
                out[i] |= self.0[src - 1] >> (64 - bits);
            }
        }
        Wide(out)
    }
    fn shr(self, n: usize) -> Self {
        if n >= Self::CAPACITY {
            return Self::ZERO;
        }
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; WIDE_WORDS];
        for (i, slot) in out.iter_mut().enumerate().take(WIDE_WORDS - words) {
            let src = i + words;
            *slot = self.0[src] >> bits;
            if bits > 0 && src + 1 < WIDE_WORDS {
                *slot |= self.0[src + 1] << (64 - bits);
            }
        }
        Wide(out)
    }
    fn wrapping_add(self, o: Self) -> Self {
        let mut out = [0u64; WIDE_WORDS];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *slot = s2;
            carry = c1 || c2;
        }
        Wide(out)
    }
    fn wrapping_sub(self, o: Self) -> Self {
        let mut out = [0u64; WIDE_WORDS];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *slot = d2;
            borrow = b1 || b2;
        }
        Wide(out)
    }
    fn count_ones(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn digest(self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| mix64(h ^ w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wide must agree with u128 on everything that fits in 128 bits.
    #[test]
    fn wide_matches_u128() {
        let to_wide = |x: u128| Wide([x as u64, (x >> 64) as u64, 0, 0, 0]);
        let samples: [u128; 4] = [
            0x8000_0000_0000_0001_ffff_0000_1234_5678,
            1,
            u64::MAX as u128,
            0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f,
        ];
        for &a in &samples {
            for &b in &samples {
                let (wa, wb) = (to_wide(a), to_wide(b));
                let sum = to_wide(a.wrapping_add(b));
                // u128 wraps at 2^128, Wide carries into word 2: compare the low words only.
                assert_eq!(wa.wrapping_add(wb).0[..2], sum.0[..2]);
                if a >= b {
                    assert_eq!(wa.wrapping_sub(wb), to_wide(a - b));
                }
                assert_eq!(wa.count_ones(), a.count_ones());
            }
            for n in [0, 1, 7, 63, 64, 65, 100, 127] {
                assert_eq!(wa_shr(a, n), to_wide(a >> n));
                assert_eq!(to_wide(a).shl(n).0[..2], to_wide(a << n).0[..2]);
            }
        }
        fn wa_shr(a: u128, n: usize) -> Wide {
            Wide([a as u64, (a >> 64) as u64, 0, 0, 0]).shr(n)
        }
    }

    #[test]
    fn shifts_saturate_instead_of_panicking() {
        assert_eq!(Bits::shl(1u64, 64), 0);
        assert_eq!(Bits::shr(u128::MAX, 200), 0);
        assert_eq!(Wide::bit(3).shl(400), Wide::ZERO);
        assert_eq!(Wide::bit(300).shr(299), Wide::bit(1));
        assert_eq!(Wide::bit(10).shl(290), Wide::bit(300));
    }

    #[test]
    fn several_bits() {
        assert!(!0b1000u64.has_several());
        assert!(0b1010u64.has_several());
        assert!(!Wide::bit(200).has_several());
        assert!((Wide::bit(200) | Wide::bit(3)).has_several());
    }
}
