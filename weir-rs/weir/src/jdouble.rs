//! Java's `Double.toString` as the JDK 17 that writes Weir's expected texts computes it
//! (docs/format.md §6.9: a FLOAT or DOUBLE converted to STRING). JDK 17's digits are not always
//! the shortest that read back (JDK 19 changed that): its digit generation is a free-format
//! Steele & White loop with a symmetric stopping test, different comparisons in its 32/64-bit and
//! big-number variants, and integer values below 2^63 printed from their exact digits. This is
//! the same computation, so that every text is the one Java gives.

use std::cmp::Ordering;

const EXP_SHIFT: i32 = 52;
const FRACT_HOB: u64 = 1 << EXP_SHIFT;
const SIGNIF_MASK: u64 = FRACT_HOB - 1;
const EXP_ONE: u64 = 1023 << EXP_SHIFT;

/// Approximately ceil(log2(5^i)), as Java's table has it (for choosing the arithmetic width).
const N_5_BITS: [i32; 27] = [
    0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54, 56,
    59, 61,
];

/// The number of decimal digits of 2^i that carry no information (below 2^i's magnitude).
const INSIGNIFICANT_FOR_POW2: [u32; 64] = [
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9,
    9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16,
    16, 17, 17, 17, 18, 18, 18, 19,
];

/// Java's `Double.toString(v)`.
pub fn java_double(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let bits = v.to_bits();
    let negative = bits >> 63 != 0;
    let sign = if negative { "-" } else { "" };
    let mut fract = bits & SIGNIF_MASK;
    let mut bin_exp = ((bits >> EXP_SHIFT) & 0x7ff) as i32;
    if bin_exp == 0 && fract == 0 {
        return format!("{sign}0.0");
    }
    let significant_bits;
    if bin_exp == 0 {
        let leading = fract.leading_zeros() as i32;
        let shift = leading - (63 - EXP_SHIFT);
        fract <<= shift;
        bin_exp = 1 - shift;
        significant_bits = 64 - leading;
    } else {
        fract |= FRACT_HOB;
        significant_bits = EXP_SHIFT + 1;
    }
    let (digits, dec_exponent) = digits(bin_exp - 1023, fract, significant_bits);
    format!("{sign}{}", layout(&digits, dec_exponent))
}

/// Digits `d1 d2 ...` and exponent `e` of the value `0.d1d2... * 10^e`.
fn digits(bin_exp: i32, fract: u64, significant_bits: i32) -> (Vec<u8>, i32) {
    let tail_zeros = fract.trailing_zeros() as i32;
    let fract_bits = EXP_SHIFT + 1 - tail_zeros;
    let tiny_bits = (fract_bits - bin_exp - 1).max(0);
    if (-21..=62).contains(&bin_exp) && tiny_bits == 0 {
        // An integer below 2^63: its exact digits, less those below the value's precision.
        let insignificant = if bin_exp > significant_bits {
            let p = (bin_exp - significant_bits - 1) as usize;
            if p > 1 && p < INSIGNIFICANT_FOR_POW2.len() {
                INSIGNIFICANT_FOR_POW2[p]
            } else {
                0
            }
        } else {
            0
        };
        let value = if bin_exp >= EXP_SHIFT {
            fract << (bin_exp - EXP_SHIFT)
        } else {
            fract >> (EXP_SHIFT - bin_exp)
        };
        return long_digits(value, insignificant);
    }
    let mut dec_exp = estimate_dec_exp(fract, bin_exp);
    let b5 = (-dec_exp).max(0);
    let mut b2 = b5 + tiny_bits + bin_exp;
    let s5 = dec_exp.max(0);
    let mut s2 = s5 + tiny_bits;
    let m5 = b5;
    let mut m2 = b2 - significant_bits;
    let fract = fract >> tail_zeros;
    b2 -= fract_bits - 1;
    let common = b2.min(s2);
    b2 -= common;
    s2 -= common;
    m2 -= common;
    if fract_bits == 1 {
        // A power of two: Java halves the margin (on both sides).
        m2 -= 1;
    }
    if m2 < 0 {
        b2 -= m2;
        s2 -= m2;
        m2 = 0;
    }
    let n5 = |k: i32| {
        if (k as usize) < N_5_BITS.len() {
            N_5_BITS[k as usize]
        } else {
            k * 3
        }
    };
    let b_bits = fract_bits + b2 + n5(b5);
    let ten_s_bits = s2 + 1 + n5(s5 + 1);
    let mut out: Vec<u8> = Vec::with_capacity(20);
    let (low, high, low_digit_difference);
    if b_bits < 64 && ten_s_bits < 64 {
        // Java's int and long variants: wrapping arithmetic, `b + m > tens`.
        macro_rules! small {
            ($t:ty) => {{
                let pow5 = |k: i32| (5 as $t).wrapping_pow(k as u32);
                let mut b = (fract as $t).wrapping_mul(pow5(b5)) << b2;
                let s = pow5(s5) << s2;
                let mut m = pow5(m5) << m2;
                let tens = s.wrapping_mul(10);
                let mut q = b / s;
                b = (b % s).wrapping_mul(10);
                m = m.wrapping_mul(10);
                let mut lo = b < m;
                let mut hi = b.wrapping_add(m) > tens;
                if q == 0 && !hi {
                    dec_exp -= 1;
                } else {
                    out.push(q as u8);
                }
                if !(-3..8).contains(&dec_exp) {
                    lo = false;
                    hi = false;
                }
                while !lo && !hi {
                    q = b / s;
                    b = (b % s).wrapping_mul(10);
                    m = m.wrapping_mul(10);
                    if m > 0 {
                        lo = b < m;
                        hi = b.wrapping_add(m) > tens;
                    } else {
                        lo = true;
                        hi = true;
                    }
                    out.push(q as u8);
                }
                (lo, hi, ((b << 1).wrapping_sub(tens) as i64).signum())
            }};
        }
        (low, high, low_digit_difference) = if b_bits < 32 && ten_s_bits < 32 {
            small!(i32)
        } else {
            small!(i64)
        };
    } else {
        // Java's big-number variant: `b + m >= tens`.
        let s = Big::pow52(s5, s2);
        let mut b = Big::from(fract).mul_pow5(b5).shl(b2);
        let mut m = Big::pow52(m5 + 1, m2 + 1);
        let tens = Big::pow52(s5 + 1, s2 + 1);
        let mut q = b.quo_rem_times_ten(&s);
        let mut lo = b.cmp(&m) == Ordering::Less;
        let mut hi = b.add(&m).cmp(&tens) != Ordering::Less;
        if q == 0 && !hi {
            dec_exp -= 1;
        } else {
            out.push(q);
        }
        if !(-3..8).contains(&dec_exp) {
            lo = false;
            hi = false;
        }
        while !lo && !hi {
            q = b.quo_rem_times_ten(&s);
            m = m.mul_small(10);
            lo = b.cmp(&m) == Ordering::Less;
            hi = b.add(&m).cmp(&tens) != Ordering::Less;
            out.push(q);
        }
        let ldd = if hi && lo {
            match b.shl(1).cmp(&tens) {
                Ordering::Less => -1,
                Ordering::Equal => 0,
                Ordering::Greater => 1,
            }
        } else {
            0
        };
        (low, high, low_digit_difference) = (lo, hi, ldd);
    }
    let mut dec_exponent = dec_exp + 1;
    let round_up = high
        && (!low
            || low_digit_difference > 0
            || (low_digit_difference == 0 && out.last().is_some_and(|d| d & 1 == 1)));
    if round_up {
        // Java keeps the digit count on a carry out of the first digit ("99" -> "10").
        let mut i = out.len() - 1;
        while out[i] == 9 && i > 0 {
            out[i] = 0;
            i -= 1;
        }
        if out[i] == 9 {
            out[0] = 1;
            dec_exponent += 1;
        } else {
            out[i] += 1;
        }
    }
    (out, dec_exponent)
}

/// The digits of an integer, less `insignificant` low digits (rounded half up), without
/// trailing zeros.
fn long_digits(mut value: u64, insignificant: u32) -> (Vec<u8>, i32) {
    let mut dec_exp = 0i32;
    if insignificant != 0 {
        let pow10 = 10u64.pow(insignificant);
        let residue = value % pow10;
        value /= pow10;
        dec_exp += insignificant as i32;
        if residue >= pow10 / 2 {
            value += 1;
        }
    }
    while value.is_multiple_of(10) {
        value /= 10;
        dec_exp += 1;
    }
    let digits: Vec<u8> = value.to_string().bytes().map(|c| c - b'0').collect();
    let n = digits.len() as i32;
    (digits, dec_exp + n)
}

/// floor(log10(value)), estimated as Java does (it may be one too high; the digit loop corrects).
// Java's constants, not the exact log10(2): the estimate must be Java's.
#[allow(clippy::approx_constant)]
fn estimate_dec_exp(fract: u64, bin_exp: i32) -> i32 {
    let d2 = f64::from_bits(EXP_ONE | (fract & SIGNIF_MASK));
    let d = (d2 - 1.5) * 0.289529654 + 0.176091259 + bin_exp as f64 * 0.301029995663981;
    d.floor() as i32
}

/// Plain notation from 10^-3 up to 10^7, else `d.ddd E exponent`; always a fraction digit.
fn layout(digits: &[u8], e: i32) -> String {
    let text = |ds: &[u8]| ds.iter().map(|d| (b'0' + d) as char).collect::<String>();
    let n = digits.len() as i32;
    if e > 0 && e < 8 {
        let int_len = n.min(e) as usize;
        let mut s = text(&digits[..int_len]);
        if (int_len as i32) < e {
            s.push_str(&"0".repeat((e - int_len as i32) as usize));
            s.push_str(".0");
        } else {
            s.push('.');
            if int_len < digits.len() {
                s.push_str(&text(&digits[int_len..]));
            } else {
                s.push('0');
            }
        }
        s
    } else if e <= 0 && e > -3 {
        format!("0.{}{}", "0".repeat((-e) as usize), text(digits))
    } else {
        let frac = if digits.len() > 1 {
            text(&digits[1..])
        } else {
            "0".into()
        };
        format!("{}.{}E{}", digits[0], frac, e - 1)
    }
}

/// A non-negative integer for the big-number variant, 32-bit limbs, least significant first.
#[derive(Clone, Debug)]
struct Big(Vec<u32>);

impl From<u64> for Big {
    fn from(v: u64) -> Big {
        Big(vec![v as u32, (v >> 32) as u32]).trimmed()
    }
}

impl Big {
    fn trimmed(mut self) -> Big {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn pow52(p5: i32, p2: i32) -> Big {
        Big::from(1).mul_pow5(p5).shl(p2)
    }

    fn mul_small(&self, k: u32) -> Big {
        let mut carry = 0u64;
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for &l in &self.0 {
            let v = l as u64 * k as u64 + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        out.push(carry as u32);
        Big(out).trimmed()
    }

    fn mul_pow5(self, mut k: i32) -> Big {
        let mut b = self;
        while k >= 13 {
            b = b.mul_small(1_220_703_125); // 5^13
            k -= 13;
        }
        if k > 0 {
            b.mul_small(5u32.pow(k as u32))
        } else {
            b
        }
    }

    fn shl(&self, k: i32) -> Big {
        let (words, bits) = ((k / 32) as usize, (k % 32) as u32);
        let mut out = vec![0u32; words];
        let mut carry = 0u32;
        for &l in &self.0 {
            out.push(if bits == 0 { l } else { (l << bits) | carry });
            carry = if bits == 0 { 0 } else { l >> (32 - bits) };
        }
        out.push(carry);
        Big(out).trimmed()
    }

    fn add(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(o.0.len()) {
            let v = *self.0.get(i).unwrap_or(&0) as u64 + *o.0.get(i).unwrap_or(&0) as u64 + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        out.push(carry as u32);
        Big(out).trimmed()
    }

    /// `self - o`, with `self >= o`.
    fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut v = self.0[i] as i64 - *o.0.get(i).unwrap_or(&0) as i64 - borrow;
            borrow = 0;
            if v < 0 {
                v += 1 << 32;
                borrow = 1;
            }
            out.push(v as u32);
        }
        Big(out).trimmed()
    }

    fn cmp(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    /// The quotient `self / s` (a digit), then `self` becomes `10 * (self % s)`.
    fn quo_rem_times_ten(&mut self, s: &Big) -> u8 {
        let mut q = 0;
        while self.cmp(s) != Ordering::Less {
            *self = self.sub(s);
            q += 1;
        }
        *self = self.mul_small(10);
        q
    }
}

#[cfg(test)]
mod tests {
    use super::java_double;

    #[test]
    fn doubles_as_jdk17_writes_them() {
        for (v, want) in [
            (0.1f32 as f64, "0.10000000149011612"),
            (1.0e-5, "1.0E-5"),
            (0.125, "0.125"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (1.0e7, "1.0E7"),
            (9_999_999.0, "9999999.0"),
            (0.001, "0.001"),
            (0.000_999, "9.99E-4"),
            (-123.456, "-123.456"),
            (f64::MIN_POSITIVE, "2.2250738585072014E-308"),
            (4.9e-324, "4.9E-324"),
            (f64::MAX, "1.7976931348623157E308"),
            (-0.0, "-0.0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1.0e23, "9.999999999999999E22"),
            (2.0e23, "1.9999999999999998E23"),
            (123_456_789.0, "1.23456789E8"),
            (f32::MAX as f64, "3.4028234663852886E38"),
            // JDK 17 differs from the shortest text in these (texts checked against a JDK 17).
            (f64::from_bits(0x408216a120000000), "578.8286743164062"),
            (f64::from_bits(0x43bddf3b60000000), "2.15250443040928563E18"),
            (2.0e-3, "0.002"),
        ] {
            assert_eq!(java_double(v), want, "{v:e}");
        }
    }

    /// Compares with a file of `<bits hex> <Double.toString>` lines written by a JVM
    /// (`WEIR_JAVA_DOUBLES`).
    #[test]
    #[ignore]
    fn matches_a_jvm() {
        let path = std::env::var("WEIR_JAVA_DOUBLES").expect("WEIR_JAVA_DOUBLES");
        let text = std::fs::read_to_string(path).unwrap();
        let mut bad = Vec::new();
        let mut n = 0;
        for line in text.lines() {
            let (bits, want) = line.split_once(' ').unwrap();
            let v = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
            n += 1;
            let got = java_double(v);
            if got != want {
                bad.push(format!("{bits} java {want} rust {got}"));
            }
        }
        assert!(
            bad.is_empty(),
            "{} of {n} differ: {:?}",
            bad.len(),
            &bad[..bad.len().min(20)]
        );
    }
}
