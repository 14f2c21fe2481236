//! The sorted runs of a file group's merge (docs/format.md §4, §5.2, §7.1): each data file's
//! records in key order, pulled a window at a time (a base file's batch, a log file's block), with
//! each window's keys made comparable across the runs of one merge.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_row::{RowConverter, Rows, SortField};
use arrow_schema::{DataType as ArrowType, SchemaRef, TimeUnit};
use arrow_select::interleave::interleave_record_batch;

use crate::base::BaseBatches;
use crate::error::{Error, Result};
use crate::evolve::Mapping;
use crate::log::{LogBlock, LogBlocks, LogBytes};
use crate::merge::canonical_floats;
use crate::metadata::TableSchema;
use crate::row::{RowRefs, RowSource, decode_column};

/// The keys of one window's rows. A single integral key (the common case) compares as `i64`
/// without any encoding; any other key as arrow-row bytes (-0.0 and NaN made canonical first), so
/// that comparing keys is comparing bytes, in the order of §2.4.
pub(crate) enum Keys {
    Int(Vec<i64>),
    Rows(Rows),
}

/// One key, borrowed from a window or from `OwnedKey`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Key<'a> {
    Int(i64),
    Bytes(&'a [u8]),
}

impl Keys {
    pub(crate) fn get(&self, i: usize) -> Key<'_> {
        match self {
            Keys::Int(v) => Key::Int(v[i]),
            Keys::Rows(r) => Key::Bytes(r.row(i).data()),
        }
    }
}

/// A copy of a key that outlives its window.
#[derive(Default)]
pub(crate) struct OwnedKey {
    int: i64,
    bytes: Vec<u8>,
    is_int: bool,
}

impl OwnedKey {
    pub(crate) fn set(&mut self, k: Key) {
        match k {
            Key::Int(v) => {
                self.int = v;
                self.is_int = true;
            }
            Key::Bytes(b) => {
                self.bytes.clear();
                self.bytes.extend_from_slice(b);
                self.is_int = false;
            }
        }
    }

    pub(crate) fn get(&self) -> Key<'_> {
        if self.is_int {
            Key::Int(self.int)
        } else {
            Key::Bytes(&self.bytes)
        }
    }
}

/// How the key columns of a merge become `Keys`: one converter for every window of every run,
/// so that their bytes compare.
pub(crate) struct KeyCodec {
    converter: Option<RowConverter>,
}

/// Whether values of this type order as their `i64` value.
fn integral(t: &ArrowType) -> bool {
    matches!(
        t,
        ArrowType::Int8
            | ArrowType::Int16
            | ArrowType::Int32
            | ArrowType::Int64
            | ArrowType::Date32
            | ArrowType::Time32(_)
            | ArrowType::Timestamp(_, _)
    )
}

impl KeyCodec {
    /// The codec of keys of these (read) types.
    pub(crate) fn new(types: &[ArrowType]) -> Result<KeyCodec> {
        if let [t] = types
            && integral(t)
        {
            return Ok(KeyCodec { converter: None });
        }
        let fields = types.iter().map(|t| SortField::new(t.clone())).collect();
        Ok(KeyCodec {
            converter: Some(RowConverter::new(fields)?),
        })
    }

    /// Whether keys are `Keys::Int`.
    pub(crate) fn integral(&self) -> bool {
        self.converter.is_none()
    }

    /// The keys of rows whose key columns are `columns`. Key columns are NOT NULL.
    pub(crate) fn keys(&self, columns: &[ArrayRef]) -> Result<Keys> {
        match &self.converter {
            None => {
                let a = &columns[0];
                macro_rules! ints {
                    ($t:ty) => {
                        a.as_primitive::<$t>()
                            .values()
                            .iter()
                            .map(|&v| v as i64)
                            .collect()
                    };
                }
                Ok(Keys::Int(match a.data_type() {
                    ArrowType::Int8 => ints!(Int8Type),
                    ArrowType::Int16 => ints!(Int16Type),
                    ArrowType::Int32 => ints!(Int32Type),
                    ArrowType::Int64 => ints!(Int64Type),
                    ArrowType::Date32 => ints!(Date32Type),
                    ArrowType::Time32(_) => ints!(Time32MillisecondType),
                    ArrowType::Timestamp(TimeUnit::Millisecond, _) => {
                        ints!(TimestampMillisecondType)
                    }
                    ArrowType::Timestamp(TimeUnit::Microsecond, _) => {
                        ints!(TimestampMicrosecondType)
                    }
                    ArrowType::Timestamp(_, _) => ints!(TimestampNanosecondType),
                    other => unreachable!("not an integral key type: {other}"),
                }))
            }
            Some(c) => {
                let arrays: Vec<ArrayRef> = columns.iter().map(canonical_floats).collect();
                Ok(Keys::Rows(c.convert_columns(&arrays)?))
            }
        }
    }
}

/// A run's rows held for the merge: a batch of the needed columns, or a log block's raw rows,
/// decoded only for the records the merge picks.
pub(crate) enum WindowData {
    Batch(RecordBatch),
    Block(LogBlock),
}

/// Consecutive rows of a run, with their keys and row kinds.
pub(crate) struct Window {
    pub(crate) keys: Keys,
    /// The sequence column (`Columns::seq`), decoded ahead of the rest.
    pub(crate) seq: Option<ArrayRef>,
    pub(crate) kinds: Vec<u8>,
    pub(crate) data: WindowData,
}

impl Window {
    pub(crate) fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Row `i` of a log block, of the file `path`.
    #[inline]
    pub(crate) fn row_ref<'a>(
        &'a self,
        i: usize,
        path: &'a std::path::Path,
    ) -> (&'a [u8], &'a std::path::Path, u64) {
        match &self.data {
            WindowData::Block(b) => (b.row(i), path, b.offset),
            WindowData::Batch(_) => unreachable!("a log run holds blocks"),
        }
    }

    /// The file offset to name in an error about one of its rows: a log block's, or 0 for a batch.
    fn offset(&self) -> u64 {
        match &self.data {
            WindowData::Block(b) => b.offset,
            WindowData::Batch(_) => 0,
        }
    }
}

/// How a log file's rows become the read schema's columns: decoded with the schema the file was
/// written with, then mapped by field id (§6.9) when that is another version.
pub(crate) struct RowDecoder {
    pub(crate) path: PathBuf,
    pub(crate) read: TableSchema,
    pub(crate) mapping: Option<Arc<Mapping>>,
}

impl RowDecoder {
    /// The read columns `positions` (Arrow schema `schema`) of the rows of `src`.
    pub(crate) fn decode<S: RowSource + ?Sized>(
        &self,
        src: &S,
        positions: &[usize],
        schema: &SchemaRef,
    ) -> Result<RecordBatch> {
        let written = self.mapping.as_ref().map_or(&self.read, |m| &m.written);
        let sources = match &self.mapping {
            None => positions.to_vec(),
            Some(m) => m.sources(positions),
        };
        let arity = written.columns.len();
        let columns = sources
            .iter()
            .map(|&p| {
                let c = &written.columns[p];
                decode_column(&self.path, src, arity, p, &c.data_type, &c.name)
            })
            .collect::<Result<Vec<ArrayRef>>>()?;
        let options = RecordBatchOptions::new().with_row_count(Some(src.len()));
        match &self.mapping {
            None => Ok(RecordBatch::try_new_with_options(
                schema.clone(),
                columns,
                &options,
            )?),
            Some(m) => {
                let fields: Vec<_> = sources
                    .iter()
                    .map(|&p| written.columns[p].arrow_field())
                    .collect();
                let batch = RecordBatch::try_new_with_options(
                    Arc::new(arrow_schema::Schema::new(fields)),
                    columns,
                    &options,
                )?;
                m.map(&self.read, positions, &sources, &batch, schema)
            }
        }
    }

    fn arity(&self) -> u32 {
        let written = self.mapping.as_ref().map_or(&self.read, |m| &m.written);
        written.columns.len() as u32
    }
}

/// Where a run's windows come from.
pub(crate) enum Source {
    /// A base file's batches (of the needed columns), every row an `+I`.
    Base(BaseBatches),
    /// A log file's blocks.
    Log(LogBlocks, RowDecoder),
    /// Batches given with their row kinds (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Batches(VecDeque<(RecordBatch, Vec<u8>)>),
}

/// One file's records in key order.
pub(crate) struct Run {
    pub(crate) path: PathBuf,
    pub(crate) source: Source,
}

/// What a merge decodes: the needed columns, of which `key` (indices) are the key.
pub(crate) struct Columns {
    /// The read schema's positions of the needed columns.
    pub(crate) needed: Vec<usize>,
    /// Their Arrow schema.
    pub(crate) schema: SchemaRef,
    /// The key columns' indices in `needed`.
    pub(crate) key: Vec<usize>,
    /// The sequence column's index in `needed`, where the merge chooses winners by it before
    /// decoding (`deduplicate` with `sequence.field`).
    pub(crate) seq: Option<usize>,
    /// The columns a log block decodes ahead, for the merge: the key, then the sequence column
    /// (indices in `needed`), and their Arrow schema.
    pub(crate) ahead: Vec<usize>,
    pub(crate) ahead_schema: SchemaRef,
}

impl Run {
    /// A log file's run: its blocks, decoded by `decoder`.
    pub(crate) fn log(bytes: LogBytes, decoder: RowDecoder) -> Result<Run> {
        let blocks = LogBlocks::open(&decoder.path, bytes, decoder.arity())?;
        Ok(Run {
            path: decoder.path.clone(),
            source: Source::Log(blocks, decoder),
        })
    }

    /// The next window that has rows, or None at the end.
    pub(crate) fn next_window(
        &mut self,
        codec: &KeyCodec,
        cols: &Columns,
    ) -> Result<Option<Window>> {
        loop {
            let window = match &mut self.source {
                Source::Base(batches) => match batches.next().transpose()? {
                    None => return Ok(None),
                    Some(batch) => {
                        let kinds = vec![0u8; batch.num_rows()];
                        batch_window(batch, kinds, codec, cols)?
                    }
                },
                Source::Batches(queue) => match queue.pop_front() {
                    None => return Ok(None),
                    Some((batch, kinds)) => batch_window(batch, kinds, codec, cols)?,
                },
                Source::Log(blocks, decoder) => match blocks.next_block()? {
                    None => return Ok(None),
                    Some(block) => {
                        let positions: Vec<usize> =
                            cols.ahead.iter().map(|&i| cols.needed[i]).collect();
                        let decoded = decoder.decode(&block, &positions, &cols.ahead_schema)?;
                        let keys = codec.keys(&decoded.columns()[..cols.key.len()])?;
                        let seq = cols.seq.map(|_| decoded.column(cols.key.len()).clone());
                        let kinds = (0..block.rows.len()).map(|i| block.row(i)[0]).collect();
                        Window {
                            keys,
                            seq,
                            kinds,
                            data: WindowData::Block(block),
                        }
                    }
                },
            };
            if window.len() > 0 {
                return Ok(Some(window));
            }
        }
    }

    /// The needed columns of the rows `picks` ((window, row) of `windows`, this run's windows).
    pub(crate) fn decode(
        &self,
        windows: &[Window],
        picks: &[(u32, u32)],
        cols: &Columns,
    ) -> Result<RecordBatch> {
        match &self.source {
            Source::Log(_, decoder) => {
                let mut src = RowRefs::default();
                src.rows.reserve(picks.len());
                for &(w, r) in picks {
                    src.rows
                        .push(windows[w as usize].row_ref(r as usize, &self.path));
                }
                decoder.decode(&src, &cols.needed, &cols.schema)
            }
            _ => {
                let batches: Vec<&RecordBatch> = windows
                    .iter()
                    .map(|w| match &w.data {
                        WindowData::Batch(b) => b,
                        WindowData::Block(_) => unreachable!("a batch run holds batches"),
                    })
                    .collect();
                let indices: Vec<(usize, usize)> = picks
                    .iter()
                    .map(|&(w, r)| (w as usize, r as usize))
                    .collect();
                Ok(interleave_record_batch(&batches, &indices)?)
            }
        }
    }

    /// The decoder of a log file of the read schema's version: such files' picked rows decode
    /// together, in one pass.
    pub(crate) fn unmapped_log(&self) -> Option<&RowDecoder> {
        match &self.source {
            Source::Log(_, d) if d.mapping.is_none() => Some(d),
            _ => None,
        }
    }

    /// Lets go of a window the merge is done with.
    pub(crate) fn recycle(&mut self, window: Window) {
        if let (Source::Log(blocks, _), WindowData::Block(b)) = (&mut self.source, window.data) {
            blocks.recycle(b);
        }
    }

    /// The error for a record whose key is below the previous record's: the run is not sorted,
    /// which §4 and §5.2 require of every data file.
    pub(crate) fn out_of_order(&self, window: &Window, row: usize) -> Error {
        let what = match window.data {
            WindowData::Block(_) => format!("record {row} of the block"),
            WindowData::Batch(_) => "a row".to_string(),
        };
        Error::corrupt(
            &self.path,
            window.offset(),
            format!(
                "{what} has a primary key below the record before it: the file's records are not in key order (docs/format.md §4, §5.2)"
            ),
        )
    }
}

fn batch_window(
    batch: RecordBatch,
    kinds: Vec<u8>,
    codec: &KeyCodec,
    cols: &Columns,
) -> Result<Window> {
    let key_columns: Vec<ArrayRef> = cols.key.iter().map(|&i| batch.column(i).clone()).collect();
    Ok(Window {
        keys: codec.keys(&key_columns)?,
        seq: cols.seq.map(|i| batch.column(i).clone()),
        kinds,
        data: WindowData::Batch(batch),
    })
}
