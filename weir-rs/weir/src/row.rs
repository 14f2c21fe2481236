//! Decoding `BinaryRow`s (docs/format.md §2) straight into Arrow arrays, one column at a time.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, BooleanBufferBuilder, StringBuilder};
use arrow_array::types::*;
use arrow_array::{ArrayRef, BooleanArray, PrimitiveArray};
use arrow_buffer::{NullBuffer, ScalarBuffer};

use crate::error::{Error, Result};
use crate::types::{DataType, TypeRoot};

/// A view of one row's bytes.
#[derive(Clone, Copy)]
pub struct Row<'a> {
    pub bytes: &'a [u8],
    null_bits: usize,
}

impl<'a> Row<'a> {
    pub fn new(bytes: &'a [u8], arity: usize) -> Self {
        Row {
            bytes,
            null_bits: ((arity + 63 + 8) / 64) * 8,
        }
    }

    pub fn kind(&self) -> u8 {
        self.bytes[0]
    }

    pub fn is_null(&self, pos: usize) -> bool {
        let bit = pos + 8;
        self.bytes[bit >> 3] & (1 << (bit & 7)) != 0
    }

    fn slot_offset(&self, pos: usize) -> usize {
        self.null_bits + (pos << 3)
    }

    pub fn word(&self, pos: usize) -> u64 {
        let o = self.slot_offset(pos);
        u64::from_le_bytes(self.bytes[o..o + 8].try_into().expect("8 bytes"))
    }

    /// The data of a string or binary field (inlined or in the variable part), or None when the
    /// slot points outside the row.
    pub fn var_data(&self, pos: usize) -> Option<&'a [u8]> {
        let w = self.word(pos);
        if w & (1 << 63) != 0 {
            let len = ((w >> 56) & 0x7f) as usize;
            let o = self.slot_offset(pos);
            if len > 7 {
                return None;
            }
            Some(&self.bytes[o..o + len])
        } else {
            self.var_region(w)
        }
    }

    fn var_region(&self, w: u64) -> Option<&'a [u8]> {
        let off = (w >> 32) as usize;
        let len = (w & 0xffff_ffff) as usize;
        self.bytes.get(off..off.checked_add(len)?)
    }

    /// A DECIMAL(p > 18) unscaled value.
    pub fn big_decimal(&self, pos: usize) -> Option<i128> {
        let w = self.word(pos);
        let data = self.var_region(w)?;
        if data.is_empty() || data.len() > 16 {
            return None;
        }
        let mut buf = if data[0] & 0x80 != 0 {
            [0xffu8; 16]
        } else {
            [0u8; 16]
        };
        buf[16 - data.len()..].copy_from_slice(data);
        Some(i128::from_be_bytes(buf))
    }

    /// A TIMESTAMP(p > 3): (epoch millis, nano of millisecond).
    pub fn big_timestamp(&self, pos: usize) -> Option<(i64, u32)> {
        let w = self.word(pos);
        let off = (w >> 32) as usize;
        let nanos = (w & 0xffff_ffff) as u32;
        let millis = self.bytes.get(off..off.checked_add(8)?)?;
        if nanos > 999_999 {
            return None;
        }
        Some((i64::from_le_bytes(millis.try_into().ok()?), nanos))
    }

    /// A timestamp as a count of its Arrow unit (floored), for a type of any precision.
    pub fn timestamp_count(&self, pos: usize, t: &DataType) -> Option<i64> {
        let (millis, nanos) = if t.is_compact() {
            (self.word(pos) as i64, 0)
        } else {
            self.big_timestamp(pos)?
        };
        // In 128 bits: millis × 10^6 overflows at the low end of the range, the sum does not.
        let count = match t.precision {
            0..=3 => millis as i128,
            4..=6 => millis as i128 * 1000 + (nanos / 1000) as i128,
            _ => millis as i128 * 1_000_000 + nanos as i128,
        };
        i64::try_from(count).ok()
    }
}

/// Rows of one file, viewed through `Row`.
pub trait RowSource {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn row(&self, i: usize) -> &[u8];
    /// The file offset to name in an error about row `i`.
    fn offset_of(&self, i: usize) -> u64;
    /// The file of row `i`, where rows come from several files.
    fn path_of(&self, _i: usize) -> Option<&Path> {
        None
    }
}

/// Rows gathered from log blocks of one or more files: each row's bytes, file and block offset.
#[derive(Default)]
pub struct RowRefs<'a> {
    pub rows: Vec<(&'a [u8], &'a Path, u64)>,
}

impl RowSource for RowRefs<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.rows.len()
    }
    #[inline]
    fn row(&self, i: usize) -> &[u8] {
        self.rows[i].0
    }
    fn offset_of(&self, i: usize) -> u64 {
        self.rows[i].2
    }
    fn path_of(&self, i: usize) -> Option<&Path> {
        Some(self.rows[i].1)
    }
}

impl RowSource for crate::log::LogRecords {
    fn len(&self) -> usize {
        self.rows.len()
    }
    fn row(&self, i: usize) -> &[u8] {
        crate::log::LogRecords::row(self, i)
    }
    fn offset_of(&self, i: usize) -> u64 {
        self.block_offsets[self.rows[i].0 as usize]
    }
}

/// One pass over the rows: each row's bytes are touched once per column, validity and value
/// together (the rows of a merge chunk are scattered over many blocks).
fn primitive<T: ArrowPrimitiveType, S: RowSource + ?Sized>(
    src: &S,
    arity: usize,
    pos: usize,
    f: impl Fn(&Row) -> Option<T::Native>,
) -> std::result::Result<ArrayRef, usize> {
    let n = src.len();
    let mut valid = BooleanBufferBuilder::new(n);
    let mut any_null = false;
    let mut values = Vec::with_capacity(n);
    for i in 0..n {
        let row = Row::new(src.row(i), arity);
        if row.is_null(pos) {
            any_null = true;
            valid.append(false);
            values.push(T::Native::default());
        } else {
            valid.append(true);
            values.push(f(&row).ok_or(i)?);
        }
    }
    let nulls = any_null.then(|| NullBuffer::new(valid.finish()));
    Ok(Arc::new(PrimitiveArray::<T>::new(
        ScalarBuffer::from(values),
        nulls,
    )))
}

/// Decodes field `pos` (of type `t`) of every row of `src` into an Arrow array of
/// `t.arrow_type()`. A slot that points outside its row is corruption of `path`.
pub fn decode_column<S: RowSource + ?Sized>(
    path: &Path,
    src: &S,
    arity: usize,
    pos: usize,
    t: &DataType,
    name: &str,
) -> Result<ArrayRef> {
    let bad = |i: usize| {
        Error::corrupt(
            src.path_of(i).unwrap_or(path),
            src.offset_of(i),
            format!("a record of the block: field {pos} ('{name}', {t}) points outside its row"),
        )
    };
    let w = |r: &Row| r.word(pos);
    let out: std::result::Result<ArrayRef, usize> = match t.root {
        TypeRoot::Boolean => {
            let values: Vec<Option<bool>> = (0..src.len())
                .map(|i| {
                    let r = Row::new(src.row(i), arity);
                    (!r.is_null(pos)).then(|| w(&r) & 0xff != 0)
                })
                .collect();
            Ok(Arc::new(BooleanArray::from(values)))
        }
        TypeRoot::TinyInt => primitive::<Int8Type, S>(src, arity, pos, |r| Some(w(r) as i8)),
        TypeRoot::SmallInt => primitive::<Int16Type, S>(src, arity, pos, |r| Some(w(r) as i16)),
        TypeRoot::Int => primitive::<Int32Type, S>(src, arity, pos, |r| Some(w(r) as i32)),
        TypeRoot::Date => primitive::<Date32Type, S>(src, arity, pos, |r| Some(w(r) as i32)),
        TypeRoot::Time => {
            primitive::<Time32MillisecondType, S>(src, arity, pos, |r| Some(w(r) as i32))
        }
        TypeRoot::BigInt => primitive::<Int64Type, S>(src, arity, pos, |r| Some(w(r) as i64)),
        TypeRoot::Float => {
            primitive::<Float32Type, S>(src, arity, pos, |r| Some(f32::from_bits(w(r) as u32)))
        }
        TypeRoot::Double => {
            primitive::<Float64Type, S>(src, arity, pos, |r| Some(f64::from_bits(w(r))))
        }
        TypeRoot::Decimal => {
            let a = if t.is_compact() {
                primitive::<Decimal128Type, S>(src, arity, pos, |r| Some(w(r) as i64 as i128))
            } else {
                primitive::<Decimal128Type, S>(src, arity, pos, |r| r.big_decimal(pos))
            };
            a.map(|a| {
                Arc::new(
                    a.as_any()
                        .downcast_ref::<PrimitiveArray<Decimal128Type>>()
                        .expect("decimal")
                        .clone()
                        .with_precision_and_scale(t.precision as u8, t.scale as i8)
                        .expect("valid precision"),
                ) as ArrayRef
            })
        }
        TypeRoot::Timestamp | TypeRoot::TimestampLtz => {
            let tz: Option<Arc<str>> = (t.root == TypeRoot::TimestampLtz).then(|| "UTC".into());
            let count = |r: &Row| r.timestamp_count(pos, t);
            match t.time_unit() {
                arrow_schema::TimeUnit::Millisecond => {
                    primitive::<TimestampMillisecondType, S>(src, arity, pos, count)
                        .map(|a| with_tz::<TimestampMillisecondType>(a, tz))
                }
                arrow_schema::TimeUnit::Microsecond => {
                    primitive::<TimestampMicrosecondType, S>(src, arity, pos, count)
                        .map(|a| with_tz::<TimestampMicrosecondType>(a, tz))
                }
                _ => primitive::<TimestampNanosecondType, S>(src, arity, pos, count)
                    .map(|a| with_tz::<TimestampNanosecondType>(a, tz)),
            }
        }
        TypeRoot::Char | TypeRoot::VarChar => {
            let mut b = StringBuilder::with_capacity(src.len(), src.len() * 8);
            let mut failed = None;
            for i in 0..src.len() {
                let r = Row::new(src.row(i), arity);
                if r.is_null(pos) {
                    b.append_null();
                    continue;
                }
                match r.var_data(pos).and_then(|d| std::str::from_utf8(d).ok()) {
                    Some(s) => b.append_value(s),
                    None => {
                        failed = Some(i);
                        break;
                    }
                }
            }
            match failed {
                Some(i) => Err(i),
                None => Ok(Arc::new(b.finish()) as ArrayRef),
            }
        }
        TypeRoot::Binary | TypeRoot::VarBinary => {
            let mut b = BinaryBuilder::with_capacity(src.len(), src.len() * 8);
            let mut failed = None;
            for i in 0..src.len() {
                let r = Row::new(src.row(i), arity);
                if r.is_null(pos) {
                    b.append_null();
                    continue;
                }
                match r.var_data(pos) {
                    Some(d) => b.append_value(d),
                    None => {
                        failed = Some(i);
                        break;
                    }
                }
            }
            match failed {
                Some(i) => Err(i),
                None => Ok(Arc::new(b.finish()) as ArrayRef),
            }
        }
    };
    out.map_err(bad)
}

fn with_tz<T: ArrowTimestampType>(a: ArrayRef, tz: Option<Arc<str>>) -> ArrayRef {
    let a = a
        .as_any()
        .downcast_ref::<PrimitiveArray<T>>()
        .expect("timestamp")
        .clone();
    Arc::new(a.with_timezone_opt(tz))
}
