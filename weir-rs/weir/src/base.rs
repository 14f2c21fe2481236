//! Base files (docs/format.md §5): Parquet read with the arrow-rs `parquet` crate.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};

use crate::error::{Error, Result};
use crate::storage::Storage;
use crate::types::Column;

/// Rows per batch read from Parquet.
pub const BATCH_SIZE: usize = 64 * 1024;

fn parquet_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Parquet {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Reads the columns at `positions` of a base file written with `columns`, as batches whose
/// schema is `schema` (the Arrow fields of those columns).
pub fn read_base(
    storage: &Storage,
    path: &Path,
    columns: &[Column],
    positions: &[usize],
    schema: &SchemaRef,
) -> Result<Vec<RecordBatch>> {
    open_base(storage, path, columns, positions, schema)?.collect()
}

/// The batches of a base file, decoded as they are pulled (one row group's pages at a time).
pub struct BaseBatches {
    path: PathBuf,
    reader: ParquetRecordBatchReader,
    order: Vec<usize>,
    schema: SchemaRef,
    /// What each batch goes through before it is returned (a file of another schema version).
    map: Option<BatchMap>,
}

/// A conversion of each batch of a base file.
pub type BatchMap = Box<dyn Fn(RecordBatch) -> Result<RecordBatch> + Send + Sync>;

impl BaseBatches {
    /// These batches, each converted by `map`.
    pub fn mapped(mut self, map: BatchMap) -> BaseBatches {
        self.map = Some(map);
        self
    }
}

impl Iterator for BaseBatches {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        let batch = match self.reader.next()? {
            Ok(b) => b,
            Err(e) => return Some(Err(parquet_error(&self.path, e))),
        };
        let arrays = self
            .order
            .iter()
            .map(|&i| batch.column(i).clone())
            .collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays).map_err(Error::from);
        Some(match &self.map {
            Some(map) => batch.and_then(map),
            None => batch,
        })
    }
}

/// Opens a base file for reading the columns at `positions`; checks its footer first.
pub fn open_base(
    storage: &Storage,
    path: &Path,
    columns: &[Column],
    positions: &[usize],
    schema: &SchemaRef,
) -> Result<BaseBatches> {
    match storage {
        // Local files are read where they are; objects are fetched whole (one file at a time).
        Storage::Local => {
            let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
            open_parquet(file, path, columns, positions, schema)
        }
        _ => open_parquet(storage.read(path)?, path, columns, positions, schema),
    }
}

fn open_parquet<R: parquet::file::reader::ChunkReader + 'static>(
    file: R,
    path: &Path,
    columns: &[Column],
    positions: &[usize],
    schema: &SchemaRef,
) -> Result<BaseBatches> {
    let full = Arc::new(Schema::new(
        columns.iter().map(|c| c.arrow_field()).collect::<Vec<_>>(),
    ));
    let options = ArrowReaderOptions::new()
        .with_schema(full)
        .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Skip);
    let builder = ParquetRecordBatchReaderBuilder::try_new_with_options(file, options)
        .map_err(|e| parquet_error(path, e))?;
    verify_footer(path, builder.parquet_schema(), columns)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), positions.iter().copied());
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH_SIZE)
        .build()
        .map_err(|e| parquet_error(path, e))?;
    // The projection yields columns in file order; put them in the requested order.
    let mut sorted: Vec<usize> = positions.to_vec();
    sorted.sort_unstable();
    let order = positions
        .iter()
        .map(|p| sorted.binary_search(p).expect("present"))
        .collect();
    Ok(BaseBatches {
        path: path.to_path_buf(),
        reader,
        order,
        schema: schema.clone(),
        map: None,
    })
}

/// The footer's columns must be the table's, by name and field id (docs/format.md §5.1).
fn verify_footer(
    path: &Path,
    descr: &parquet::schema::types::SchemaDescriptor,
    columns: &[Column],
) -> Result<()> {
    let stored = descr.columns();
    if stored.len() != columns.len() {
        return Err(Error::corrupt(
            path,
            0,
            format!(
                "the footer has {} columns, the schema {}",
                stored.len(),
                columns.len()
            ),
        ));
    }
    for (c, s) in columns.iter().zip(stored) {
        let info = s.self_type().get_basic_info();
        let id = info.has_id().then(|| info.id());
        if s.name() != c.name || (id.is_some() && id != Some(c.id)) {
            return Err(Error::corrupt(
                path,
                0,
                format!(
                    "column '{}' (field id {}) expected in the footer, found '{}' (field id {:?})",
                    c.name,
                    c.id,
                    s.name(),
                    id
                ),
            ));
        }
    }
    Ok(())
}
