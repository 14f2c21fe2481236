//! Reads Weir tables (docs/format.md) without Flink: snapshots and changes as Arrow record batches.
//!
//! ```no_run
//! let table = weir::Table::open("/data/orders").unwrap();
//! for batch in table.scan(None, None, weir::SnapshotSpec::Latest).unwrap() {
//!     println!("{} rows", batch.unwrap().num_rows());
//! }
//! ```

pub mod base;
mod changes;
mod double_text;
pub mod engine;
pub mod error;
mod evolve;
pub mod expr;
mod fold;
mod json;
mod kmerge;
pub mod lease;
pub mod log;
pub mod merge;
pub mod metadata;
pub mod row;
mod runs;
pub mod scan;
pub mod storage;
pub mod table;
pub mod types;
pub mod value;

pub use error::{Error, Result};
pub use expr::{Expr, Literal, Op};
pub use lease::LeaseOptions;
pub use scan::Scan;
pub use table::{ROW_KIND_COLUMN, SnapshotInfo, SnapshotSpec, Table};
