//! Typed errors: every error names the table or file it concerns, and corruption names the offset.

use std::path::PathBuf;

/// The result of every fallible operation of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// What went wrong reading a Weir table.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read (missing, no permission, ...).
    #[error("Cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file's bytes do not follow the format: damaged, truncated, or not a Weir file.
    #[error("Corrupt file {path} at offset {offset}: {message}")]
    Corrupt {
        path: PathBuf,
        offset: u64,
        message: String,
    },
    /// A metadata document (JSON) is malformed or lacks a field.
    #[error("Corrupt metadata file {path}: {message}")]
    CorruptMetadata { path: PathBuf, message: String },
    /// The location holds no Weir table.
    #[error("No Weir table at {0}: {1}")]
    NotATable(PathBuf, String),
    /// The requested snapshot or commit does not exist, or has expired.
    #[error("{0}")]
    SnapshotNotFound(String),
    /// A request the table cannot serve: an unknown column, an invalid filter, an unsupported
    /// feature.
    #[error("{0}")]
    Invalid(String),
    /// A file's column cannot be read as the read schema's column: its type was widened after
    /// the read schema, and values do not narrow (docs/format.md §6.9).
    #[error("{message}")]
    SchemaMismatch {
        path: PathBuf,
        column: String,
        message: String,
    },
    /// An error of the Parquet decoder, with the file it read.
    #[error("Cannot read Parquet file {path}: {message}")]
    Parquet { path: PathBuf, message: String },
    /// An Arrow error while assembling batches.
    #[error("Arrow error: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn corrupt(
        path: impl Into<PathBuf>,
        offset: u64,
        message: impl Into<String>,
    ) -> Self {
        Error::Corrupt {
            path: path.into(),
            offset,
            message: message.into(),
        }
    }

    pub(crate) fn metadata(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::CorruptMetadata {
            path: path.into(),
            message: message.into(),
        }
    }
}
