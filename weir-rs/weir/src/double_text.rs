//! The text of a DOUBLE (or a FLOAT, as the double it widens to) converted to STRING by schema
//! evolution (docs/format.md §6.9): the shortest decimal that rounds back to the value, as the
//! `Double.toString` of JDK 19 and later writes it. Rust's own `{:e}` formatting gives those
//! digits (the shortest, and of those the closest to the value); §6.9's rule for a one-digit
//! decimal and Java's layout are applied on top.

/// The text of `v` (docs/format.md §6.9): `1.0`, `0.001`, `9.99E-4`, `1.0E7`, `4.9E-324`, `NaN`.
pub(crate) fn double_text(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let m = v.abs();
    let mut sci = format!("{m:e}");
    if !sci.contains('.') {
        // One digit is the shortest, but the closest decimal of length 1 or 2 is taken: the value
        // correctly rounded to two digits (a one-digit decimal rounds back to `v` only where the
        // values nearby are so sparse that this one does too).
        sci = format!("{m:.1e}");
    }
    let (mut digits, mut e) = split(&sci);
    if digits.len() > 1 {
        (digits, e) = tie_to_even(m, digits, e);
    }
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
    }
    let mut out = String::with_capacity(26);
    if v < 0.0 {
        out.push('-');
    }
    layout(&mut out, &digits, e);
    out
}

/// The significant digits and the exponent of the leading one of a `{:e}` text.
fn split(sci: &str) -> (String, i32) {
    let (mantissa, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let digits = mantissa.chars().filter(|c| *c != '.').collect();
    (digits, exp.parse().expect("{:e} exponent"))
}

/// `m` exactly as `N × 10^x` (`N` not a multiple of 10), if `N` has at most 18 digits (as a tie
/// between two candidates of at most 17 digits needs); `None` for most values.
fn short_exact(m: f64) -> Option<(u128, i32)> {
    let bits = m.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let mant = if biased == 0 {
        fraction
    } else {
        fraction | 1 << 52
    };
    let zeros = mant.trailing_zeros();
    // m = mant × 2^q with mant odd.
    let mut mant = (mant >> zeros) as u128;
    let q = biased.max(1) - 1075 + zeros as i32;
    let limit = 10u128.pow(18);
    if q < 0 {
        // mant × 5^-q × 10^q, and mant × 5^-q is odd.
        let n = 5u128.checked_pow((-q) as u32)?.checked_mul(mant)?;
        (n < limit).then_some((n, q))
    } else {
        // An integer: its trailing zeros are its factors 5 (of mant) paired with factors 2.
        let mut x = 0;
        while x < q && mant.is_multiple_of(5) {
            mant /= 5;
            x += 1;
        }
        let n = mant
            .checked_shl((q - x) as u32)
            .filter(|n| n >> (q - x) == mant)?;
        (n < limit).then_some((n, x))
    }
}

/// The shortest `digits` (of `m`, exponent `e`), or the other candidate of their length if `m` is
/// exactly halfway between the two, both round back to `m` and the other one is even: §6.9 takes
/// the even one, Rust's `{:e}` the upper one.
fn tie_to_even(m: f64, digits: String, e: i32) -> (String, i32) {
    let n = digits.len();
    // Halfway: `m` is exactly the n digits of the lower candidate followed by a 5.
    let Some((exact, x)) = short_exact(m) else {
        return (digits, e);
    };
    let all = exact.to_string();
    if all.len() != n + 1 || !all.ends_with('5') {
        return (digits, e);
    }
    let (lower, le) = (all[..n].to_string(), x + n as i32);
    let (upper, ue) = increment(&lower, le);
    let rounds_back =
        |d: &str, x: i32| format!("{d}e{}", x - d.len() as i32 + 1).parse::<f64>() == Ok(m);
    if !(rounds_back(&lower, le) && rounds_back(&upper, ue)) {
        return (digits, e);
    }
    if (lower.as_bytes()[n - 1] - b'0').is_multiple_of(2) {
        (lower, le)
    } else {
        (upper, ue)
    }
}

/// `digits` (leading exponent `e`) plus one unit in its last digit, as many digits: `998` → `999`,
/// `999` → `100` with `e + 1`.
fn increment(digits: &str, e: i32) -> (String, i32) {
    let mut d = digits.as_bytes().to_vec();
    let mut i = d.len();
    while i > 0 {
        i -= 1;
        if d[i] == b'9' {
            d[i] = b'0';
        } else {
            d[i] += 1;
            return (String::from_utf8(d).expect("ASCII"), e);
        }
    }
    d.insert(0, b'1');
    d.pop();
    (String::from_utf8(d).expect("ASCII"), e + 1)
}

/// Appends the decimal `0.d1d2…dn × 10^(e + 1)` as §6.9 lays it out: plain for `-3 <= e < 7`,
/// else computerized scientific notation; at least one digit after the point.
fn layout(out: &mut String, digits: &str, e: i32) {
    let n = digits.len() as i32;
    if (-3..0).contains(&e) {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-e - 1) as usize));
        out.push_str(digits);
    } else if (0..7).contains(&e) {
        if e + 1 >= n {
            out.push_str(digits);
            out.extend(std::iter::repeat_n('0', (e + 1 - n) as usize));
            out.push_str(".0");
        } else {
            let point = (e + 1) as usize;
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        out.push_str(if n == 1 { "0" } else { &digits[1..] });
        out.push('E');
        out.push_str(&e.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::double_text;

    #[test]
    fn layout_and_the_one_digit_rule() {
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
            (2.0e-3, "0.002"),
            (-123.456, "-123.456"),
            (123_456_789.0, "1.23456789E8"),
            (4.9e-324, "4.9E-324"),
            (1.0e23, "1.0E23"),
            (-0.0, "-0.0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(double_text(v), want, "{v:e}");
        }
    }

    /// Every value of the texts a JDK 25's `Double.toString` writes (weir-core's test resource,
    /// from weir-core/src/test/oracle/DoubleTextsOracle.java): subnormals, powers of two and ten
    /// and their neighbours, the layout's edges, random bit patterns, floats widened to double.
    #[test]
    fn matches_jdk25() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../weir-core/src/test/resources/io/weir/data/double-texts.txt"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut bad = Vec::new();
        let mut n = 0;
        for line in text.lines() {
            let (bits, want) = line.split_once(' ').unwrap();
            let v = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
            n += 1;
            let got = double_text(v);
            if got != want {
                bad.push(format!("{bits} java {want} rust {got}"));
            }
        }
        assert!(n > 50_000, "{n} values");
        assert!(
            bad.is_empty(),
            "{} of {n} differ: {:?}",
            bad.len(),
            &bad[..bad.len().min(20)]
        );
    }
}
