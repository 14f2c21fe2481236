//! The column folds of the `partial-update` and `aggregation` engines (docs/format.md §7.1.1) on
//! decoded Arrow columns: each key's records, in read order, folded column by column. A fold that
//! picks one record's value is a `take`; sums, products, counts, `bool_and`/`bool_or` and
//! `listagg` are computed.

use std::cmp::Ordering;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BooleanArray, PrimitiveArray, RecordBatch, StringArray,
    UInt32Array,
};
use arrow_buffer::i256;
use arrow_schema::DataType as ArrowType;
use arrow_select::take::take;

use crate::engine::{AggFn, ColumnFold};
use crate::error::{Error, Result};
use crate::value::cmp_at;

/// The records of each key: `ranges` of `order` (row indices of `batch` in key order, a key's
/// records in read order).
pub struct Keys<'a> {
    pub order: &'a [u32],
    pub ranges: &'a [(usize, usize)],
}

impl Keys<'_> {
    fn rows(&self, k: usize) -> impl DoubleEndedIterator<Item = usize> + '_ {
        let (s, e) = self.ranges[k];
        self.order[s..e].iter().map(|&i| i as usize)
    }
}

fn is_retraction(kind: u8) -> bool {
    kind & 1 == 1
}

/// One row per key, every column folded by its rule.
pub fn fold_columns(
    batch: &RecordBatch,
    kinds: &[u8],
    keys: &Keys,
    columns: &[ColumnFold],
    groups: &[Vec<usize>],
) -> Result<RecordBatch> {
    // Each group's taker per key: the last record whose sequence fields are not all null and
    // compare at least equal to the previous taker's, with whether it is a retraction.
    let takers: Vec<Vec<Option<(u32, bool)>>> = groups
        .iter()
        .map(|seq| {
            let cols: Vec<&ArrayRef> = seq.iter().map(|&c| batch.column(c)).collect();
            (0..keys.ranges.len())
                .map(|k| {
                    let mut taker: Option<usize> = None;
                    for i in keys.rows(k) {
                        if cols.iter().all(|c| c.is_null(i)) {
                            continue;
                        }
                        let takes = match taker {
                            None => true,
                            Some(t) => cols
                                .iter()
                                .map(|c| cmp_at(c, i, t))
                                .find(|o| *o != Ordering::Equal)
                                .unwrap_or(Ordering::Equal)
                                .is_ge(),
                        };
                        if takes {
                            taker = Some(i);
                        }
                    }
                    taker.map(|t| (t as u32, is_retraction(kinds[t])))
                })
                .collect()
        })
        .collect();
    let n = keys.ranges.len();
    let out = columns
        .iter()
        .enumerate()
        .map(|(c, fold)| {
            let col = batch.column(c);
            let pick = |f: &dyn Fn(usize) -> Option<usize>| -> Result<ArrayRef> {
                let idx: UInt32Array = (0..n).map(|k| f(k).map(|i| i as u32)).collect();
                Ok(take(col, &idx, None)?)
            };
            match fold {
                ColumnFold::Last => pick(&|k| keys.rows(k).next_back()),
                ColumnFold::LastNonNullInsert => pick(&|k| {
                    keys.rows(k)
                        .rev()
                        .find(|&i| !is_retraction(kinds[i]) && col.is_valid(i))
                }),
                ColumnFold::Group { group, sequence } => pick(&|k| match takers[*group][k] {
                    Some((_, true)) if !sequence => None,
                    t => t.map(|(i, _)| i as usize),
                }),
                ColumnFold::Agg(f, delimiter) => aggregate(*f, delimiter, col, keys),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(RecordBatch::try_new(batch.schema(), out)?)
}

/// One aggregate per key. On read every record is a folded row (docs/format.md §7.1.1): row kinds
/// play no part, and `count` adds the stored counts.
fn aggregate(f: AggFn, delimiter: &str, col: &ArrayRef, keys: &Keys) -> Result<ArrayRef> {
    let n = keys.ranges.len();
    let pick = |g: &dyn Fn(usize) -> Option<usize>| -> Result<ArrayRef> {
        let idx: UInt32Array = (0..n).map(|k| g(k).map(|i| i as u32)).collect();
        Ok(take(col, &idx, None)?)
    };
    let extreme = |want: Ordering| {
        move |k: usize| {
            keys.rows(k)
                .filter(|&i| col.is_valid(i))
                .fold(None, |best, i| match best {
                    Some(b) if cmp_at(col, i, b) != want => Some(b),
                    _ => Some(i),
                })
        }
    };
    match f {
        AggFn::LastValue => pick(&|k| keys.rows(k).next_back()),
        AggFn::LastNonNullValue => pick(&|k| keys.rows(k).rev().find(|&i| col.is_valid(i))),
        AggFn::FirstValue => pick(&|k| keys.rows(k).next()),
        AggFn::FirstNonNullValue => pick(&|k| keys.rows(k).find(|&i| col.is_valid(i))),
        AggFn::Min => pick(&extreme(Ordering::Less)),
        AggFn::Max => pick(&extreme(Ordering::Greater)),
        AggFn::Sum | AggFn::Product => arithmetic(f == AggFn::Sum, col, keys),
        AggFn::Count => match col.data_type() {
            ArrowType::Int32 => Ok(count::<Int32Type>(col, keys, |v| v as i32)),
            _ => Ok(count::<Int64Type>(col, keys, |v| v)),
        },
        AggFn::BoolAnd | AggFn::BoolOr => {
            let a = col.as_boolean();
            let and = f == AggFn::BoolAnd;
            let out: BooleanArray = (0..n)
                .map(|k| {
                    keys.rows(k)
                        .filter(|&i| a.is_valid(i))
                        .map(|i| a.value(i))
                        .reduce(|x, y| if and { x && y } else { x || y })
                })
                .collect();
            Ok(Arc::new(out))
        }
        AggFn::Listagg => {
            let a = col.as_string::<i32>();
            let out: StringArray = (0..n)
                .map(|k| {
                    let mut parts = keys.rows(k).filter(|&i| a.is_valid(i)).peekable();
                    parts.peek()?;
                    Some(
                        parts
                            .map(|i| a.value(i))
                            .collect::<Vec<_>>()
                            .join(delimiter),
                    )
                })
                .collect();
            Ok(Arc::new(out))
        }
    }
}

/// Folds the non-null values of each key with `step(accumulator or None, value)`; the result is
/// null for a key without one, or where `step` gave None.
fn fold_primitive<T: ArrowPrimitiveType>(
    col: &ArrayRef,
    keys: &Keys,
    step: impl Fn(Option<T::Native>, T::Native) -> Option<T::Native>,
) -> ArrayRef {
    let a = col.as_primitive::<T>();
    let out: PrimitiveArray<T> = (0..keys.ranges.len())
        .map(|k| {
            keys.rows(k)
                .filter(|&i| a.is_valid(i))
                .fold(None, |acc, i| step(acc, a.value(i)))
        })
        .collect();
    Arc::new(out.with_data_type(col.data_type().clone()))
}

/// `count` on read: 0 plus each record's stored count (a null adds 0), wrapped to the width.
fn count<T: ArrowPrimitiveType>(col: &ArrayRef, keys: &Keys, cast: fn(i64) -> T::Native) -> ArrayRef
where
    T::Native: Into<i64>,
{
    let a = col.as_primitive::<T>();
    let out: PrimitiveArray<T> = (0..keys.ranges.len())
        .map(|k| {
            let total = keys
                .rows(k)
                .filter(|&i| a.is_valid(i))
                .fold(0i64, |acc, i| acc.wrapping_add(a.value(i).into()));
            Some(cast(total))
        })
        .collect();
    Arc::new(out)
}

/// `sum` or `product`. Integers wrap at the column's width; FLOAT is computed in double and
/// rounded to float at every step; a DECIMAL result beyond the precision is null (and a later
/// value starts the fold again).
fn arithmetic(sum: bool, col: &ArrayRef, keys: &Keys) -> Result<ArrayRef> {
    macro_rules! int {
        ($t:ty) => {
            fold_primitive::<$t>(col, keys, |acc, v| {
                Some(match acc {
                    None => v,
                    Some(x) if sum => x.wrapping_add(v),
                    Some(x) => x.wrapping_mul(v),
                })
            })
        };
    }
    Ok(match col.data_type() {
        ArrowType::Int8 => int!(Int8Type),
        ArrowType::Int16 => int!(Int16Type),
        ArrowType::Int32 => int!(Int32Type),
        ArrowType::Int64 => int!(Int64Type),
        // A sum starts from 0.0, so a first -0.0 sums to 0.0. A NaN result is the canonical NaN,
        // as Java writes every NaN (Float.floatToIntBits, Double.doubleToLongBits).
        ArrowType::Float32 => fold_primitive::<Float32Type>(col, keys, |acc, v| {
            let r = match acc {
                None if sum => (0.0 + v as f64) as f32,
                None => v,
                Some(x) if sum => (x as f64 + v as f64) as f32,
                Some(x) => (x as f64 * v as f64) as f32,
            };
            Some(if r.is_nan() { f32::NAN } else { r })
        }),
        ArrowType::Float64 => fold_primitive::<Float64Type>(col, keys, |acc, v| {
            let r = match acc {
                None if sum => 0.0 + v,
                None => v,
                Some(x) if sum => x + v,
                Some(x) => x * v,
            };
            Some(if r.is_nan() { f64::NAN } else { r })
        }),
        ArrowType::Decimal128(p, s) => {
            let bound = i256::from_i128(10).wrapping_pow(*p as u32);
            let unit = i256::from_i128(10).wrapping_pow(*s as u32);
            let fits = move |v: i256| -> Option<i128> {
                if v > -bound && v < bound {
                    v.to_i128()
                } else {
                    None
                }
            };
            fold_primitive::<Decimal128Type>(col, keys, move |acc, v| match acc {
                None => Some(v),
                Some(x) if sum => fits(i256::from_i128(x) + i256::from_i128(v)),
                Some(x) => fits(rescale_half_up(
                    i256::from_i128(x) * i256::from_i128(v),
                    unit,
                )),
            })
        }
        other => {
            return Err(Error::Invalid(format!(
                "Cannot aggregate a column of Arrow type {other} with sum or product"
            )));
        }
    })
}

/// `v / unit` rounded half away from zero (Java's `RoundingMode.HALF_UP`): a product of two
/// values of scale s back at scale s.
fn rescale_half_up(v: i256, unit: i256) -> i256 {
    let q = v / unit;
    let r = v % unit;
    let twice = if r < i256::ZERO { -r } else { r } * i256::from_i128(2);
    if twice >= unit {
        if v < i256::ZERO {
            q - i256::ONE
        } else {
            q + i256::ONE
        }
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_away_from_zero() {
        let unit = i256::from_i128(100);
        let r = |v: i128| rescale_half_up(i256::from_i128(v), unit).to_i128().unwrap();
        assert_eq!(r(1250), 13);
        assert_eq!(r(1249), 12);
        assert_eq!(r(-1250), -13);
        assert_eq!(r(-1249), -12);
        assert_eq!(r(0), 0);
    }
}
