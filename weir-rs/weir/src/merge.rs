//! Whole data files decoded into Arrow (reads without a merge: append-only tables, §7.2, and
//! base-only groups), and the fold of a keyed group's records in key order (§7.1, `fold_sorted`),
//! which the streaming merge (`kmerge`) applies chunk by chunk.

use std::cmp::Ordering;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type};
use arrow_array::{Array, ArrayRef, RecordBatch, UInt32Array};
use arrow_row::{RowConverter, SortField};
use arrow_schema::{DataType as ArrowType, Field, Schema, SchemaRef};
use arrow_select::concat::concat_batches;
use arrow_select::take::take_record_batch;

use crate::base::read_base;
use crate::engine::Fold;
use crate::error::Result;
use crate::fold::{Keys, fold_columns};
use crate::log::read_log;
use crate::metadata::{DataFile, FileKind, TableSchema};
use crate::row::decode_column;
use crate::storage::Storage;
use crate::value::cmp_at;

/// Decoded rows of some files: the columns at `positions` of the table, and each row's kind byte.
pub struct Decoded {
    pub batch: RecordBatch,
    pub kinds: Vec<u8>,
}

/// The Arrow schema of the table columns at `positions`.
pub fn schema_of(schema: &TableSchema, positions: &[usize]) -> SchemaRef {
    Arc::new(Schema::new(
        positions
            .iter()
            .map(|&p| schema.columns[p].arrow_field())
            .collect::<Vec<Field>>(),
    ))
}

/// Reads one data file's columns at `positions`.
pub fn read_file(
    storage: &Storage,
    location: &Path,
    schema: &TableSchema,
    file: &DataFile,
    positions: &[usize],
) -> Result<Decoded> {
    let path = location.join(&file.path);
    let arrow_schema = schema_of(schema, positions);
    match file.kind {
        FileKind::Base => {
            let batches = read_base(storage, &path, &schema.columns, positions, &arrow_schema)?;
            let batch = concat_batches(&arrow_schema, &batches)?;
            let kinds = vec![0u8; batch.num_rows()];
            Ok(Decoded { batch, kinds })
        }
        FileKind::Log => {
            let arity = schema.columns.len();
            let records = read_log(storage, &path, arity as u32)?;
            let columns = positions
                .iter()
                .map(|&p| {
                    let c = &schema.columns[p];
                    decode_column(&path, &records, arity, p, &c.data_type, &c.name)
                })
                .collect::<Result<Vec<ArrayRef>>>()?;
            let kinds = (0..records.len()).map(|i| records.row(i)[0]).collect();
            let batch = RecordBatch::try_new_with_options(
                arrow_schema,
                columns,
                &arrow_array::RecordBatchOptions::new().with_row_count(Some(records.len())),
            )?;
            Ok(Decoded { batch, kinds })
        }
    }
}

/// Concatenates decoded files, in order.
pub fn concat(schema: &SchemaRef, parts: Vec<Decoded>) -> Result<Decoded> {
    let batches: Vec<RecordBatch> = parts.iter().map(|d| d.batch.clone()).collect();
    let batch = concat_batches(schema, &batches)?;
    let kinds = parts.into_iter().flat_map(|d| d.kinds).collect();
    Ok(Decoded { batch, kinds })
}

/// -0.0 as 0.0 and every NaN as one NaN, so that key bytes are equal iff keys are (§2.4).
pub(crate) fn canonical_floats(a: &ArrayRef) -> ArrayRef {
    match a.data_type() {
        ArrowType::Float32 => Arc::new(a.as_primitive::<Float32Type>().unary::<_, Float32Type>(
            |v| {
                if v.is_nan() {
                    f32::NAN
                } else if v == 0.0 {
                    0.0
                } else {
                    v
                }
            },
        )),
        ArrowType::Float64 => Arc::new(a.as_primitive::<Float64Type>().unary::<_, Float64Type>(
            |v| {
                if v.is_nan() {
                    f64::NAN
                } else if v == 0.0 {
                    0.0
                } else {
                    v
                }
            },
        )),
        _ => a.clone(),
    }
}

/// Byte-comparable keys of the given columns of `batch`.
pub fn key_rows(batch: &RecordBatch, key_columns: &[usize]) -> Result<arrow_row::Rows> {
    let fields = key_columns
        .iter()
        .map(|&i| SortField::new(batch.column(i).data_type().clone()))
        .collect();
    let converter = RowConverter::new(fields)?;
    let arrays: Vec<ArrayRef> = key_columns
        .iter()
        .map(|&i| canonical_floats(batch.column(i)))
        .collect();
    Ok(converter.convert_columns(&arrays)?)
}

/// The live rows of records of a keyed file group in key order, one row per key, folded by the
/// engine (docs/format.md §7.1): `deduplicate` keeps the winner (the last record, or the greatest
/// sequence field, ties to the last) and `first-row` the first record, each iff it is +I or +U;
/// `partial-update` and `aggregation` fold every column and keep every key. `ranges` are each
/// key's records, consecutive rows of `batch` in read order; `kinds` their row kinds. The fold's
/// columns are column indices of `batch`.
pub fn fold_sorted(
    batch: &RecordBatch,
    kinds: &[u8],
    ranges: &[(usize, usize)],
    fold: &Fold,
) -> Result<RecordBatch> {
    let winner = |seq: Option<&ArrayRef>, (s, e): (usize, usize)| -> u32 {
        match seq {
            None => (e - 1) as u32,
            Some(seq) => (s + 1..e).fold(s, |best, c| {
                if cmp_at(seq, c, best) != Ordering::Less {
                    c
                } else {
                    best
                }
            }) as u32,
        }
    };
    let winners: Vec<u32> = match fold {
        Fold::Winner(seq) => {
            let seq = seq.map(|s| batch.column(s));
            ranges.iter().map(|&r| winner(seq, r)).collect()
        }
        Fold::First => ranges.iter().map(|&(s, _)| s as u32).collect(),
        Fold::Columns { columns, groups } => {
            let order: Vec<u32> = (0..batch.num_rows() as u32).collect();
            let keys = Keys {
                order: &order,
                ranges,
            };
            return fold_columns(batch, kinds, &keys, columns, groups);
        }
    };
    let live: Vec<u32> = winners
        .into_iter()
        .filter(|&w| kinds[w as usize] & 1 == 0)
        .collect();
    // Where every record is a live winner (a chunk of only the records the fold reads), the
    // batch is the result as it is.
    if live.len() == batch.num_rows() {
        return Ok(batch.clone());
    }
    Ok(take_record_batch(batch, &UInt32Array::from(live))?)
}

/// Rows where `keep` is true, by index.
pub fn take_rows(batch: &RecordBatch, rows: Vec<u32>) -> Result<RecordBatch> {
    Ok(take_record_batch(batch, &UInt32Array::from(rows))?)
}

/// Whether rows `i` of `a` and `j` of `b` are equal in every column, comparing bytes (as Java
/// compares canonical rows): -0.0 differs from 0.0.
pub fn rows_equal(a: &RecordBatch, i: usize, b: &RecordBatch, j: usize) -> bool {
    (0..a.num_columns()).all(|c| {
        let (x, y) = (a.column(c), b.column(c));
        match (x.is_null(i), y.is_null(j)) {
            (true, true) => true,
            (false, false) => {
                let xs = x.slice(i, 1);
                let ys = y.slice(j, 1);
                match x.data_type() {
                    ArrowType::Float32 => {
                        xs.as_primitive::<Float32Type>().value(0).to_bits()
                            == ys.as_primitive::<Float32Type>().value(0).to_bits()
                    }
                    ArrowType::Float64 => {
                        xs.as_primitive::<Float64Type>().value(0).to_bits()
                            == ys.as_primitive::<Float64Type>().value(0).to_bits()
                    }
                    _ => xs.to_data() == ys.to_data(),
                }
            }
            _ => false,
        }
    })
}
