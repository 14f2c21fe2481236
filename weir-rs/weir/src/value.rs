//! Single values: parsed from canonical texts (docs/format.md §2.3), read from Arrow arrays, and
//! compared in Weir's order (§2.4).

use std::cmp::Ordering;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType as ArrowType, TimeUnit};

use crate::types::{DataType, TypeRoot};

/// A non-null value, in the representation of its Arrow array.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    /// Every integer type, DATE (days), TIME (millis) and TIMESTAMP (count of its Arrow unit).
    Int(i64),
    /// DECIMAL, unscaled, with the column's scale.
    Decimal(i128),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
}

/// Float order of docs/format.md §2.4: -0.0 = 0.0, NaN above everything and equal to itself.
pub fn float_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).expect("not NaN"),
    }
}

impl Value {
    /// Order of two values of one column (docs/format.md §2.4).
    pub fn weir_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Decimal(a), Value::Decimal(b)) => a.cmp(b),
            (Value::Float(a), Value::Float(b)) => float_cmp(*a, *b),
            (Value::Str(a), Value::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Value::Bytes(a), Value::Bytes(b)) => a.cmp(b),
            _ => return None,
        })
    }

    /// Parses a canonical text (docs/format.md §2.3) of a value of type `t`.
    pub fn from_text(text: &str, t: &DataType) -> Result<Value, String> {
        let bad = || format!("'{text}' is not a canonical {t} text");
        Ok(match t.root {
            TypeRoot::Boolean => match text {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(bad()),
            },
            TypeRoot::TinyInt | TypeRoot::SmallInt | TypeRoot::Int | TypeRoot::BigInt => {
                Value::Int(text.parse().map_err(|_| bad())?)
            }
            // A FLOAT's text reads back to the float (§2.3: the shortest, or an older writer's
            // longer digits), widened.
            TypeRoot::Float => Value::Float(text.parse::<f32>().map_err(|_| bad())? as f64),
            TypeRoot::Double => Value::Float(text.parse().map_err(|_| bad())?),
            TypeRoot::Decimal => Value::Decimal(parse_decimal(text, t.scale).ok_or_else(bad)?),
            TypeRoot::Char | TypeRoot::VarChar => Value::Str(text.to_string()),
            TypeRoot::Binary | TypeRoot::VarBinary => {
                Value::Bytes(base64_decode(text).ok_or_else(bad)?)
            }
            TypeRoot::Date => Value::Int(parse_date(text).ok_or_else(bad)?),
            TypeRoot::Time => Value::Int(parse_time(text).ok_or_else(bad)?),
            TypeRoot::Timestamp | TypeRoot::TimestampLtz => {
                let (m, n) = text.rsplit_once('.').ok_or_else(bad)?;
                let millis: i64 = m.parse().map_err(|_| bad())?;
                let nanos: i64 = n.parse().map_err(|_| bad())?;
                let count = match t.precision {
                    0..=3 => millis as i128,
                    4..=6 => millis as i128 * 1000 + (nanos / 1000) as i128,
                    _ => millis as i128 * 1_000_000 + nanos as i128,
                };
                Value::Int(i64::try_from(count).map_err(|_| bad())?)
            }
        })
    }

    /// The value at row `i` of `array`, or None for a null.
    pub fn at(array: &ArrayRef, i: usize) -> Option<Value> {
        if array.is_null(i) {
            return None;
        }
        Some(match array.data_type() {
            ArrowType::Boolean => Value::Bool(array.as_boolean().value(i)),
            ArrowType::Int8 => Value::Int(array.as_primitive::<Int8Type>().value(i) as i64),
            ArrowType::Int16 => Value::Int(array.as_primitive::<Int16Type>().value(i) as i64),
            ArrowType::Int32 => Value::Int(array.as_primitive::<Int32Type>().value(i) as i64),
            ArrowType::Int64 => Value::Int(array.as_primitive::<Int64Type>().value(i)),
            ArrowType::Date32 => Value::Int(array.as_primitive::<Date32Type>().value(i) as i64),
            ArrowType::Time32(_) => {
                Value::Int(array.as_primitive::<Time32MillisecondType>().value(i) as i64)
            }
            ArrowType::Float32 => Value::Float(array.as_primitive::<Float32Type>().value(i) as f64),
            ArrowType::Float64 => Value::Float(array.as_primitive::<Float64Type>().value(i)),
            ArrowType::Decimal128(_, _) => {
                Value::Decimal(array.as_primitive::<Decimal128Type>().value(i))
            }
            ArrowType::Timestamp(unit, _) => Value::Int(match unit {
                TimeUnit::Second => array.as_primitive::<TimestampSecondType>().value(i),
                TimeUnit::Millisecond => array.as_primitive::<TimestampMillisecondType>().value(i),
                TimeUnit::Microsecond => array.as_primitive::<TimestampMicrosecondType>().value(i),
                TimeUnit::Nanosecond => array.as_primitive::<TimestampNanosecondType>().value(i),
            }),
            ArrowType::Utf8 => Value::Str(array.as_string::<i32>().value(i).to_string()),
            ArrowType::Binary => Value::Bytes(array.as_binary::<i32>().value(i).to_vec()),
            other => unreachable!("Weir maps no column to {other}"),
        })
    }
}

/// Compares rows `i` and `j` of one array in Weir's order, nulls first (docs/format.md §2.4),
/// without allocating.
pub fn cmp_at(array: &ArrayRef, i: usize, j: usize) -> Ordering {
    cmp_between(array, i, array, j)
}

/// Compares row `i` of `a` with row `j` of `b`, arrays of one type, as `cmp_at` does.
pub fn cmp_between(a: &ArrayRef, i: usize, b: &ArrayRef, j: usize) -> Ordering {
    match (a.is_null(i), b.is_null(j)) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    macro_rules! prim {
        ($t:ty) => {{
            a.as_primitive::<$t>()
                .value(i)
                .cmp(&b.as_primitive::<$t>().value(j))
        }};
    }
    match a.data_type() {
        ArrowType::Boolean => a.as_boolean().value(i).cmp(&b.as_boolean().value(j)),
        ArrowType::Int8 => prim!(Int8Type),
        ArrowType::Int16 => prim!(Int16Type),
        ArrowType::Int32 => prim!(Int32Type),
        ArrowType::Int64 => prim!(Int64Type),
        ArrowType::Date32 => prim!(Date32Type),
        ArrowType::Time32(_) => prim!(Time32MillisecondType),
        ArrowType::Decimal128(_, _) => prim!(Decimal128Type),
        ArrowType::Timestamp(TimeUnit::Millisecond, _) => prim!(TimestampMillisecondType),
        ArrowType::Timestamp(TimeUnit::Microsecond, _) => prim!(TimestampMicrosecondType),
        ArrowType::Timestamp(_, _) => prim!(TimestampNanosecondType),
        ArrowType::Float32 => float_cmp(
            a.as_primitive::<Float32Type>().value(i) as f64,
            b.as_primitive::<Float32Type>().value(j) as f64,
        ),
        ArrowType::Float64 => float_cmp(
            a.as_primitive::<Float64Type>().value(i),
            b.as_primitive::<Float64Type>().value(j),
        ),
        ArrowType::Utf8 => a
            .as_string::<i32>()
            .value(i)
            .as_bytes()
            .cmp(b.as_string::<i32>().value(j).as_bytes()),
        ArrowType::Binary => a
            .as_binary::<i32>()
            .value(i)
            .cmp(b.as_binary::<i32>().value(j)),
        other => unreachable!("Weir maps no column to {other}"),
    }
}

fn parse_decimal(text: &str, scale: u32) -> Option<i128> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() || frac.len() > scale as usize {
        return None;
    }
    let mut v: i128 = 0;
    for c in int.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((c - b'0') as i128)?;
    }
    for _ in frac.len()..scale as usize {
        v = v.checked_mul(10)?;
    }
    Some(if neg { -v } else { v })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The (year, month, day) of a count of days since 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn parse_date(text: &str) -> Option<i64> {
    let (neg, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let mut parts = rest.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some(days_from_civil(if neg { -y } else { y }, m, d))
}

fn parse_time(text: &str) -> Option<i64> {
    let (hms, frac) = text.split_once('.').unwrap_or((text, ""));
    let mut parts = hms.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let s: i64 = parts.next().map(|s| s.parse().ok()).unwrap_or(Some(0))?;
    let mut millis = 0;
    for (k, c) in frac.bytes().take(3).enumerate() {
        if !c.is_ascii_digit() {
            return None;
        }
        millis += (c - b'0') as i64 * [100, 10, 1][k];
    }
    Some(((h * 60 + m) * 60 + s) * 1000 + millis)
}

fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let bytes = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut acc = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            acc |= val(c)? << (18 - 6 * k);
        }
        let n = chunk.len();
        if n < 2 {
            return None;
        }
        out.push((acc >> 16) as u8);
        if n > 2 {
            out.push((acc >> 8) as u8);
        }
        if n > 3 {
            out.push(acc as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(sql: &str) -> DataType {
        DataType::parse(sql).unwrap()
    }

    #[test]
    fn parses_the_documented_texts() {
        let cases: Vec<(&str, &str, Value)> = vec![
            ("BOOLEAN", "true", Value::Bool(true)),
            ("TINYINT", "-128", Value::Int(-128)),
            ("DOUBLE", "1.0E10", Value::Float(1e10)),
            ("FLOAT", "-0.0", Value::Float(-0.0)),
            ("DOUBLE", "-Infinity", Value::Float(f64::NEG_INFINITY)),
            ("DECIMAL(4, 2)", "-12.50", Value::Decimal(-1250)),
            (
                "DECIMAL(38, 0)",
                "99999999999999999999999999999999999999",
                Value::Decimal(10i128.pow(38) - 1),
            ),
            ("BYTES", "AAH/", Value::Bytes(vec![0, 1, 255])),
            ("DATE", "2024-11-20", Value::Int(20047)),
            ("DATE", "-0001-01-01", Value::Int(days_from_civil(-1, 1, 1))),
            (
                "DATE",
                "+10000-01-01",
                Value::Int(days_from_civil(10000, 1, 1)),
            ),
            ("TIME(0)", "12:30", Value::Int(45_000_000)),
            ("TIME(3)", "23:59:59.999", Value::Int(86_399_999)),
            ("TIMESTAMP(3)", "1732000123456.0", Value::Int(1732000123456)),
            ("TIMESTAMP(9)", "-1.999999", Value::Int(-1)),
            ("TIMESTAMP_LTZ(6)", "-1.999999", Value::Int(-1)),
        ];
        for (ty, text, v) in cases {
            assert_eq!(Value::from_text(text, &t(ty)).unwrap(), v, "{ty} {text}");
        }
        assert!(Value::from_text("1.234", &t("DECIMAL(4, 2)")).is_err());
        assert!(Value::from_text("maybe", &t("BOOLEAN")).is_err());
        assert!(
            Value::from_text("NaN", &t("DOUBLE"))
                .unwrap()
                .weir_cmp(&Value::Float(f64::INFINITY))
                == Some(Ordering::Greater)
        );
        assert_eq!(civil_from_days(20047), (2024, 11, 20));
    }
}
