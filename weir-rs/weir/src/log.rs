//! Log files (docs/format.md §4): every check of §4.4, then the rows' bytes. The file's framing is
//! read in `log_blocks.rs`, each block's payload and records in `log_records.rs`.

use std::path::Path;

use bytes::Bytes;

use crate::storage::Storage;

use crate::error::{Error, Result};

#[path = "log_blocks.rs"]
mod blocks;
#[path = "log_records.rs"]
mod records;

pub use blocks::LogBlocks;
pub use records::{LogBlock, min_row_size};

/// The records of a log file: decompressed blocks and where each row lies in them.
#[derive(Debug, Default)]
pub struct LogRecords {
    pub blocks: Vec<Vec<u8>>,
    /// The file offset of each block, for errors about its rows.
    pub block_offsets: Vec<u64>,
    /// (block, offset of the row in the block, row length), in file order.
    pub rows: Vec<(u32, u32, u32)>,
}

impl LogRecords {
    pub fn row(&self, i: usize) -> &[u8] {
        let (b, off, len) = self.rows[i];
        &self.blocks[b as usize][off as usize..(off + len) as usize]
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(b[off..off + 4].try_into().expect("4 bytes"))
}

/// Reads and verifies a whole log file whose rows have `field_count` fields.
pub fn read_log(storage: &Storage, path: &Path, field_count: u32) -> Result<LogRecords> {
    collect(LogBlocks::open(
        path,
        LogBytes::open(storage, path)?,
        field_count,
    )?)
}

/// Verifies `bytes`, the content of the log file `path`, and returns its records.
pub fn parse_log(path: &Path, bytes: &[u8], field_count: u32) -> Result<LogRecords> {
    collect(LogBlocks::open(
        path,
        LogBytes::Memory(Bytes::copy_from_slice(bytes)),
        field_count,
    )?)
}

fn collect(mut blocks: LogBlocks) -> Result<LogRecords> {
    let mut records = LogRecords::default();
    while let Some(block) = blocks.next_block()? {
        let b = records.blocks.len() as u32;
        records
            .rows
            .extend(block.rows.iter().map(|&(off, len)| (b, off, len)));
        records.blocks.push(block.raw);
        records.block_offsets.push(block.offset);
    }
    Ok(records)
}

/// Where a log file's bytes come from: memory (an object fetched whole), or a local file read
/// block by block, so that a reader holds a block's bytes rather than the file's.
pub enum LogBytes {
    Memory(Bytes),
    File(std::fs::File),
}

impl LogBytes {
    /// The log file `path` of `storage`.
    pub fn open(storage: &Storage, path: &Path) -> Result<LogBytes> {
        Ok(match storage {
            Storage::Local => {
                LogBytes::File(std::fs::File::open(path).map_err(|e| Error::io(path, e))?)
            }
            _ => LogBytes::Memory(storage.read(path)?),
        })
    }

    fn len(&self, path: &Path) -> Result<usize> {
        match self {
            LogBytes::Memory(b) => Ok(b.len()),
            LogBytes::File(f) => Ok(f.metadata().map_err(|e| Error::io(path, e))?.len() as usize),
        }
    }

    /// `len` bytes from `off` (which the caller has checked lie in the file), in `buf` if they
    /// must be read.
    fn read<'a>(
        &'a self,
        path: &Path,
        off: usize,
        len: usize,
        buf: &'a mut Vec<u8>,
    ) -> Result<&'a [u8]> {
        match self {
            LogBytes::Memory(b) => Ok(&b[off..off + len]),
            LogBytes::File(f) => {
                use std::os::unix::fs::FileExt;
                // Grown, never shrunk: a read overwrites what it returns, so nothing is zeroed twice.
                if buf.len() < len {
                    buf.resize(len, 0);
                }
                f.read_exact_at(&mut buf[..len], off as u64)
                    .map_err(|e| Error::io(path, e))?;
                Ok(&buf[..len])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of docs/format.md §4.6, parsed from the document itself.
    fn doc_example() -> Vec<u8> {
        let doc =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/format.md"))
                .unwrap();
        let start = doc.find("<!-- begin log example").unwrap();
        let end = doc.find("<!-- end log example").unwrap();
        let mut bytes = Vec::new();
        for line in doc[start..end].lines() {
            let Some((off, rest)) = line.split_once("  ") else {
                continue;
            };
            if off.len() != 6 || !off.bytes().all(|b| b.is_ascii_hexdigit()) {
                continue;
            }
            assert_eq!(
                usize::from_str_radix(off, 16).unwrap(),
                bytes.len(),
                "{line}"
            );
            let hex = rest.split("  ").next().unwrap();
            for h in hex.split(' ') {
                bytes.push(u8::from_str_radix(h, 16).unwrap());
            }
        }
        bytes
    }

    #[test]
    fn reads_the_documented_example() {
        let bytes = doc_example();
        assert_eq!(bytes.len(), 116);
        let recs = parse_log(Path::new("example.wlog"), &bytes, 2).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs.row(0)[0], 0);
        assert_eq!(recs.row(1)[0], 3);
        assert_eq!(recs.row(0).len(), 24);
    }

    #[test]
    fn every_flipped_bit_and_truncation_is_an_error_naming_file_and_offset() {
        let bytes = doc_example();
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                let err = parse_log(Path::new("x.wlog"), &b, 2)
                    .expect_err(&format!("byte {i} bit {bit}"));
                assert!(matches!(err, Error::Corrupt { .. }), "{err}");
                assert!(err.to_string().contains("x.wlog"));
            }
            let err = parse_log(Path::new("x.wlog"), &bytes[..i], 2).unwrap_err();
            assert!(matches!(err, Error::Corrupt { .. }), "{err}");
        }
        let mut appended = bytes.clone();
        appended.extend_from_slice(&bytes[bytes.len() - 20..]);
        assert!(parse_log(Path::new("x.wlog"), &appended, 2).is_err());
        let err = parse_log(Path::new("x.wlog"), &bytes, 3).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Corrupt file x.wlog at offset 20: block has 2 fields per row, the schema has 3"
        );
    }
}
