//! Schema evolution on read (docs/format.md §6.9): a file written with schema version `w` is
//! decoded with `w`'s row type, then its columns are matched to the read version's by field id.
//! A field the file lacks is null, a field the read version lacks is skipped, a widened type is
//! converted, and a narrowed one is an error naming the file and the column.

use std::collections::HashSet;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchOptions, StringArray, new_null_array};
use arrow_schema::{DataType as ArrowType, SchemaRef, TimeUnit};

use crate::double_text::double_text;
use crate::error::{Error, Result};
use crate::metadata::TableSchema;
use crate::types::{DataType, TypeRoot};
use crate::value::civil_from_days;

const MAX_LENGTH: u32 = i32::MAX as u32;

/// How the columns of one schema version read as those of another.
#[derive(Debug)]
pub(crate) struct Mapping {
    /// The version the files were written with.
    pub(crate) written: TableSchema,
    /// For each column of the read version: its position in `written`, if the file has it.
    sources: Vec<Option<usize>>,
    /// Field ids (of the read version) whose statistics in a file of `written` are sound.
    sound_stats: HashSet<i32>,
}

fn is_integer(r: TypeRoot) -> bool {
    matches!(
        r,
        TypeRoot::TinyInt | TypeRoot::SmallInt | TypeRoot::Int | TypeRoot::BigInt
    )
}

fn same(a: &DataType, b: &DataType) -> bool {
    a.root == b.root && a.precision == b.precision && a.scale == b.scale
}

/// Whether a value of `from` reads as a value of `to` (nullability aside).
pub(crate) fn widens(from: &DataType, to: &DataType) -> bool {
    if same(from, to) || (to.root == TypeRoot::VarChar && to.precision == MAX_LENGTH) {
        return true;
    }
    let rank = |r: TypeRoot| match r {
        TypeRoot::TinyInt => 0,
        TypeRoot::SmallInt => 1,
        TypeRoot::Int => 2,
        _ => 3,
    };
    match from.root {
        r if is_integer(r) && r != TypeRoot::BigInt => {
            is_integer(to.root) && rank(to.root) > rank(r)
        }
        TypeRoot::Float => to.root == TypeRoot::Double,
        TypeRoot::Decimal => {
            to.root == TypeRoot::Decimal && to.scale == from.scale && to.precision > from.precision
        }
        TypeRoot::VarChar | TypeRoot::VarBinary => {
            to.root == from.root && to.precision > from.precision
        }
        _ => false,
    }
}

/// Whether statistics of `from` values prune reads of them as `to` values: their order and
/// texts are kept (same type, integer widening, DECIMAL precision, VARCHAR/VARBINARY length).
fn keeps_statistics(from: &DataType, to: &DataType) -> bool {
    if same(from, to) {
        return true;
    }
    match from.root {
        TypeRoot::TinyInt | TypeRoot::SmallInt | TypeRoot::Int => {
            widens(from, to) && is_integer(to.root)
        }
        TypeRoot::Decimal => to.root == TypeRoot::Decimal && to.scale == from.scale,
        TypeRoot::VarChar | TypeRoot::VarBinary | TypeRoot::Char => to.root == from.root,
        _ => false,
    }
}

impl Mapping {
    /// The mapping of `written`'s rows onto `read`'s; `file` (of `table`) names the first file
    /// of that version in errors.
    pub(crate) fn between(
        written: TableSchema,
        read: &TableSchema,
        file: &str,
        table: &str,
    ) -> Result<Mapping> {
        let mut sources = Vec::with_capacity(read.columns.len());
        let mut sound_stats = HashSet::new();
        for target in &read.columns {
            let source = written.columns.iter().position(|c| c.id == target.id);
            if let Some(s) = source {
                let from = &written.columns[s];
                if !widens(&from.data_type, &target.data_type) {
                    return Err(Error::SchemaMismatch {
                        path: file.into(),
                        column: target.name.clone(),
                        message: format!(
                            "Cannot read file {file} of table {table}: its column '{}' is {}, which cannot be read as {} (column '{}' of schema {}); the file was written with schema {}, after the column's type was widened: read it with a newer schema",
                            from.name,
                            from.data_type,
                            target.data_type,
                            target.name,
                            read.schema_id,
                            written.schema_id
                        ),
                    });
                }
                if keeps_statistics(&from.data_type, &target.data_type) {
                    sound_stats.insert(target.id);
                }
            }
            sources.push(source);
        }
        Ok(Mapping {
            written,
            sources,
            sound_stats,
        })
    }

    /// Whether a file's statistics of the read field `id` may prune.
    pub(crate) fn stats_sound(&self, id: i32) -> bool {
        self.sound_stats.contains(&id)
    }

    /// The positions in `written` to decode for the read columns `needed`, each once, ascending.
    pub(crate) fn sources(&self, needed: &[usize]) -> Vec<usize> {
        let mut s: Vec<usize> = needed.iter().filter_map(|&p| self.sources[p]).collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// The read columns `needed` (with Arrow schema `schema`) of a batch of `written`'s columns
    /// at `decoded` (as `sources(needed)` gives them).
    pub(crate) fn map(
        &self,
        read: &TableSchema,
        needed: &[usize],
        decoded: &[usize],
        batch: &RecordBatch,
        schema: &SchemaRef,
    ) -> Result<RecordBatch> {
        let n = batch.num_rows();
        let columns = needed
            .iter()
            .map(|&p| {
                let target = &read.columns[p].data_type;
                match self.sources[p] {
                    None => Ok(new_null_array(&target.arrow_type(), n)),
                    Some(s) => {
                        let i = decoded.binary_search(&s).expect("decoded");
                        convert(batch.column(i), &self.written.columns[s].data_type, target)
                    }
                }
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(RecordBatch::try_new_with_options(
            schema.clone(),
            columns,
            &RecordBatchOptions::new().with_row_count(Some(n)),
        )?)
    }
}

/// A column of `from` values as `to` values (`from` widens to `to`).
pub(crate) fn convert(a: &ArrayRef, from: &DataType, to: &DataType) -> Result<ArrayRef> {
    let target = to.arrow_type();
    if a.data_type() == &target && (from.root == to.root || from.root == TypeRoot::Char) {
        return Ok(a.clone());
    }
    macro_rules! widen {
        ($f:ty, $t:ty) => {
            Arc::new(a.as_primitive::<$f>().unary::<_, $t>(|v| v.into())) as ArrayRef
        };
    }
    Ok(match (a.data_type(), &target) {
        (ArrowType::Int8, ArrowType::Int16) => widen!(Int8Type, Int16Type),
        (ArrowType::Int8, ArrowType::Int32) => widen!(Int8Type, Int32Type),
        (ArrowType::Int8, ArrowType::Int64) => widen!(Int8Type, Int64Type),
        (ArrowType::Int16, ArrowType::Int32) => widen!(Int16Type, Int32Type),
        (ArrowType::Int16, ArrowType::Int64) => widen!(Int16Type, Int64Type),
        (ArrowType::Int32, ArrowType::Int64) => widen!(Int32Type, Int64Type),
        (ArrowType::Float32, ArrowType::Float64) => widen!(Float32Type, Float64Type),
        (ArrowType::Decimal128(_, _), ArrowType::Decimal128(p, s)) => Arc::new(
            a.as_primitive::<Decimal128Type>()
                .clone()
                .with_precision_and_scale(*p, *s)?,
        ),
        (_, ArrowType::Utf8) => texts(a, from),
        (f, t) => {
            return Err(Error::Invalid(format!(
                "No conversion of {from} ({f}) to {to} ({t})"
            )));
        }
    })
}

/// Values as the texts of docs/format.md §6.9 (SQL's `CAST(x AS STRING)`).
fn texts(a: &ArrayRef, from: &DataType) -> ArrayRef {
    if let ArrowType::Binary = a.data_type() {
        let b = a.as_binary::<i32>();
        return Arc::new(
            b.iter()
                .map(|v| v.map(|v| String::from_utf8_lossy(v).into_owned()))
                .collect::<StringArray>(),
        );
    }
    let p = from.precision;
    let out: StringArray = (0..a.len())
        .map(|i| {
            if a.is_null(i) {
                return None;
            }
            Some(match a.data_type() {
                ArrowType::Boolean => a.as_boolean().value(i).to_string(),
                ArrowType::Int8 => a.as_primitive::<Int8Type>().value(i).to_string(),
                ArrowType::Int16 => a.as_primitive::<Int16Type>().value(i).to_string(),
                ArrowType::Int32 => a.as_primitive::<Int32Type>().value(i).to_string(),
                ArrowType::Int64 => a.as_primitive::<Int64Type>().value(i).to_string(),
                ArrowType::Float32 => double_text(a.as_primitive::<Float32Type>().value(i) as f64),
                ArrowType::Float64 => double_text(a.as_primitive::<Float64Type>().value(i)),
                ArrowType::Decimal128(_, s) => {
                    plain_decimal(a.as_primitive::<Decimal128Type>().value(i), *s as u32)
                }
                ArrowType::Date32 => java_date(a.as_primitive::<Date32Type>().value(i) as i64),
                ArrowType::Time32(_) => {
                    let ms = a.as_primitive::<Time32MillisecondType>().value(i) as i64;
                    java_time(ms * 1_000_000, p)
                }
                ArrowType::Timestamp(unit, _) => {
                    let (v, per_second) = match unit {
                        TimeUnit::Second => (a.as_primitive::<TimestampSecondType>().value(i), 1),
                        TimeUnit::Millisecond => {
                            (a.as_primitive::<TimestampMillisecondType>().value(i), 1_000)
                        }
                        TimeUnit::Microsecond => (
                            a.as_primitive::<TimestampMicrosecondType>().value(i),
                            1_000_000,
                        ),
                        TimeUnit::Nanosecond => (
                            a.as_primitive::<TimestampNanosecondType>().value(i),
                            1_000_000_000,
                        ),
                    };
                    let seconds = v.div_euclid(per_second);
                    let nanos = v.rem_euclid(per_second) * (1_000_000_000 / per_second);
                    format!(
                        "{} {}",
                        java_date(seconds.div_euclid(86_400)),
                        java_time(seconds.rem_euclid(86_400) * 1_000_000_000 + nanos, p)
                    )
                }
                ArrowType::Utf8 => a.as_string::<i32>().value(i).to_string(),
                other => unreachable!("Weir maps no column to {other}"),
            })
        })
        .collect();
    Arc::new(out)
}

/// A DECIMAL's plain text with exactly its scale's digits of fraction (`-123.45`).
pub(crate) fn plain_decimal(v: i128, scale: u32) -> String {
    let digits = v.unsigned_abs().to_string();
    let s = scale as usize;
    let body = if s == 0 {
        digits
    } else {
        let padded = format!("{digits:0>width$}", width = s + 1);
        let cut = padded.len() - s;
        format!("{}.{}", &padded[..cut], &padded[cut..])
    };
    if v < 0 { format!("-{body}") } else { body }
}

/// Java's `LocalDate.toString`: `yyyy-MM-dd`, a year beyond 9999 with `+`, one before 0 with `-`
/// and at least 4 digits.
pub(crate) fn java_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    let year = if y.abs() < 1000 {
        if y < 0 {
            format!("-{:04}", -y)
        } else {
            format!("{y:04}")
        }
    } else if y > 9999 {
        format!("+{y}")
    } else {
        y.to_string()
    };
    format!("{year}-{m:02}-{d:02}")
}

/// `HH:mm:ss` of a time of day in nanoseconds, then a dot and `precision` digits of fraction if
/// `precision > 0`.
pub(crate) fn java_time(nanos_of_day: i64, precision: u32) -> String {
    let secs = nanos_of_day / 1_000_000_000;
    let text = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if precision == 0 {
        return text;
    }
    let frac = format!("{:09}", nanos_of_day % 1_000_000_000);
    format!("{text}.{}", &frac[..precision as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_as_java_writes_them() {
        assert_eq!(java_date(0), "1970-01-01");
        assert_eq!(java_date(-719162), "0001-01-01");
        assert_eq!(java_date(2932896), "9999-12-31");
        assert_eq!(java_time(0, 0), "00:00:00");
        assert_eq!(java_time(86_399_999_000_000, 3), "23:59:59.999");
        assert_eq!(java_time(1_000, 9), "00:00:00.000001000");
        assert_eq!(plain_decimal(-12345, 2), "-123.45");
        assert_eq!(plain_decimal(5, 3), "0.005");
    }

    /// BINARY and VARBINARY to STRING: each maximal ill-formed part of the bytes as U+FFFD
    /// (docs/format.md §6.9), as weir-core's `utf8-replacement.txt` has them for the Java reader.
    #[test]
    fn bytes_as_text() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../weir-core/src/test/resources/io/weir/read/utf8-replacement.txt"
        );
        let hex = |h: &str| -> Vec<u8> {
            if h == "-" {
                return vec![];
            }
            (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                .collect()
        };
        let cases: Vec<(Vec<u8>, Vec<u8>)> = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let (a, b) = l.split_once(' ').unwrap();
                (hex(a), hex(b))
            })
            .collect();
        assert!(cases.len() > 2000);
        let input: ArrayRef = Arc::new(arrow_array::BinaryArray::from_iter_values(
            cases.iter().map(|(a, _)| a.as_slice()),
        ));
        let out = texts(&input, &DataType::parse("BYTES").unwrap());
        let out = out.as_string::<i32>();
        for (i, (a, want)) in cases.iter().enumerate() {
            assert_eq!(out.value(i).as_bytes(), want.as_slice(), "{a:x?}");
        }
    }

    #[test]
    fn widening_rules() {
        let t = |s: &str| DataType::parse(s).unwrap();
        assert!(widens(&t("INT"), &t("BIGINT NOT NULL")));
        assert!(widens(&t("TINYINT"), &t("INT")));
        assert!(!widens(&t("BIGINT"), &t("INT")));
        assert!(widens(&t("DECIMAL(5, 2)"), &t("DECIMAL(9, 2)")));
        assert!(!widens(&t("DECIMAL(5, 2)"), &t("DECIMAL(9, 3)")));
        assert!(!widens(&t("STRING"), &t("INT")));
        assert!(widens(&t("TIMESTAMP(3)"), &t("STRING")));
        assert!(!widens(&t("DOUBLE"), &t("FLOAT")));
        assert!(keeps_statistics(&t("INT"), &t("BIGINT")));
        assert!(!keeps_statistics(&t("FLOAT"), &t("DOUBLE")));
        assert!(!keeps_statistics(&t("INT"), &t("STRING")));
        assert!(keeps_statistics(&t("VARCHAR(3)"), &t("STRING")));
    }

    fn schema(id: i64, columns: &[(i32, &str, &str)]) -> TableSchema {
        TableSchema {
            schema_id: id,
            created_millis: 0,
            columns: columns
                .iter()
                .map(|&(id, name, t)| crate::types::Column {
                    id,
                    name: name.into(),
                    data_type: DataType::parse(t).unwrap(),
                })
                .collect(),
            primary_key: vec![],
            partition_keys: vec![],
            options: Default::default(),
        }
    }

    #[test]
    fn maps_by_field_id_and_refuses_narrowing() {
        let old = schema(0, &[(0, "a", "INT"), (1, "b", "FLOAT"), (2, "gone", "INT")]);
        let new = schema(
            1,
            &[(3, "added", "INT"), (1, "b2", "DOUBLE"), (0, "a", "STRING")],
        );
        let m = Mapping::between(old.clone(), &new, "bucket-0/f.wlog", "/t").unwrap();
        assert_eq!(m.sources(&[0, 1, 2]), vec![0, 1]);
        assert!(!m.stats_sound(0) && !m.stats_sound(1) && !m.stats_sound(3));
        let a: ArrayRef = Arc::new(arrow_array::Int32Array::from(vec![Some(-7), None]));
        let b: ArrayRef = Arc::new(arrow_array::Float32Array::from(vec![Some(0.1), Some(1e-5)]));
        let batch = RecordBatch::try_from_iter([("a", a), ("b", b)]).unwrap();
        let out_schema = crate::merge::schema_of(&new, &[0, 1, 2]);
        let out = m
            .map(&new, &[0, 1, 2], &[0, 1], &batch, &out_schema)
            .unwrap();
        assert_eq!(out.column(0).null_count(), 2);
        let d = out.column(1).as_primitive::<Float64Type>();
        assert_eq!(d.value(0), 0.1f32 as f64);
        let s = out.column(2).as_string::<i32>();
        assert_eq!((s.value(0), s.is_null(1)), ("-7", true));
        // A file written after the widening, read with the version before it.
        let err = Mapping::between(new, &old, "bucket-0/f.wlog", "/t").unwrap_err();
        assert!(matches!(&err, Error::SchemaMismatch { column, .. } if column == "a"));
        assert_eq!(
            err.to_string(),
            "Cannot read file bucket-0/f.wlog of table /t: its column 'a' is STRING, which cannot be read as INT (column 'a' of schema 0); the file was written with schema 1, after the column's type was widened: read it with a newer schema"
        );
    }
}
