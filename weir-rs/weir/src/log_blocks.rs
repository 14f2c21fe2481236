//! The framing of a log file (docs/format.md §4.4): its header and footer, each block's header,
//! length and checksum, and the footer's counts against the blocks read.

use std::path::{Path, PathBuf};

use super::records::{self, LogBlock, min_row_size};
use super::{LogBytes, u32_at};
use crate::error::{Error, Result};

const FILE_MAGIC: &[u8; 4] = b"WLOG";
const BLOCK_MAGIC: &[u8; 4] = b"WBLK";
const FOOTER_MAGIC: &[u8; 4] = b"WEND";
const MAX_RAW_SIZE: u32 = 1 << 30;

/// The blocks of a log file, each verified and decompressed when it is pulled, so that a reader
/// holds one block's rows at a time rather than the whole file's (the stored bytes stay whole).
/// The header and footer are checked on open, the footer's counts after the last block.
pub struct LogBlocks {
    path: PathBuf,
    src: LogBytes,
    /// The stored bytes of the block being read, when they come from a file.
    buf: Vec<u8>,
    /// Buffers of blocks given back, for the next blocks' rows.
    pool: Vec<Vec<u8>>,
    field_count: u32,
    min_row: u64,
    off: usize,
    footer: usize,
    block_count: u64,
    total_records: u64,
    schema_id: Option<u32>,
    blocks_read: u64,
    records_read: u64,
}

impl LogBlocks {
    /// Checks the header and footer of `src`, the content of the log file `path`.
    pub fn open(path: &Path, src: LogBytes, field_count: u32) -> Result<LogBlocks> {
        let corrupt = |off: usize, msg: String| Error::corrupt(path, off as u64, msg);
        let len = src.len(path)?;
        let mut buf = Vec::new();
        let bytes = src.read(path, 0, len.min(8), &mut buf)?;
        if len < 8 {
            return Err(corrupt(
                0,
                format!("truncated: {len} bytes, a log file has at least 28"),
            ));
        }
        if &bytes[0..4] != FILE_MAGIC {
            return Err(corrupt(
                0,
                "not a Weir log file: the magic is not WLOG".into(),
            ));
        }
        let version = u32_at(bytes, 4);
        if version != 1 {
            return Err(corrupt(
                4,
                format!("unknown log format version {version} (this reader reads 1)"),
            ));
        }
        if len < 28 {
            return Err(corrupt(
                len,
                format!("truncated: {len} bytes, a log file has at least 28"),
            ));
        }
        let footer = len - 20;
        let tail = src.read(path, footer, 20, &mut buf)?;
        if &tail[..4] != FOOTER_MAGIC {
            return Err(corrupt(
                footer,
                "no footer: the file is truncated, torn or has bytes appended".into(),
            ));
        }
        let footer_crc = u32_at(tail, 16);
        if crc32c::crc32c(&tail[..16]) != footer_crc {
            return Err(corrupt(footer, "footer checksum mismatch".into()));
        }
        let block_count = u32_at(tail, 4) as u64;
        let total_records = u64::from_le_bytes(tail[8..16].try_into().expect("8"));
        let counts_fit = if len == 28 {
            block_count == 0 && total_records == 0
        } else {
            total_records >= block_count && (len as u64 - 28) >= 32 * block_count && block_count > 0
        };
        if !counts_fit {
            return Err(corrupt(
                footer,
                format!(
                    "footer counts ({block_count} blocks, {total_records} records) do not fit a file of {len} bytes"
                ),
            ));
        }
        Ok(LogBlocks {
            path: path.to_path_buf(),
            src,
            buf: Vec::new(),
            pool: Vec::new(),
            field_count,
            min_row: min_row_size(field_count),
            off: 8,
            footer,
            block_count,
            total_records,
            schema_id: None,
            blocks_read: 0,
            records_read: 0,
        })
    }

    /// Takes back the buffer of a block the reader is done with, for a later block's rows.
    pub fn recycle(&mut self, block: LogBlock) {
        if self.pool.len() < 64 {
            self.pool.push(block.raw);
        }
    }

    /// The next block, verified and decompressed; None after the last, once the footer's counts
    /// are checked against the blocks read.
    pub fn next_block(&mut self) -> Result<Option<LogBlock>> {
        let path = self.path.as_path();
        let corrupt = |off: usize, msg: String| Error::corrupt(path, off as u64, msg);
        let (off, footer) = (self.off, self.footer);
        if off >= footer {
            if self.blocks_read != self.block_count || self.records_read != self.total_records {
                return Err(corrupt(
                    footer,
                    format!(
                        "footer counts {} blocks and {} records, the file holds {} and {}",
                        self.block_count, self.total_records, self.blocks_read, self.records_read
                    ),
                ));
            }
            return Ok(None);
        }
        if footer - off < 32 {
            return Err(corrupt(
                off,
                "bytes before the footer are too few to form a block".into(),
            ));
        }
        let mut head = [0u8; 8];
        head.copy_from_slice(self.src.read(path, off, 8, &mut self.buf)?);
        let head = &head[..];
        if &head[..4] != BLOCK_MAGIC {
            return Err(corrupt(off, "block magic WBLK expected".into()));
        }
        let block_length = u32_at(head, 4) as usize;
        if block_length < 20 || off + 8 + block_length + 4 > footer {
            return Err(corrupt(
                off + 4,
                format!("block length {block_length} runs past the footer at offset {footer}"),
            ));
        }
        let end = off + 8 + block_length;
        // The block's bytes, from its magic through its CRC; offsets below are from `off`.
        let blk = self
            .src
            .read(path, off, 8 + block_length + 4, &mut self.buf)?;
        let crc = u32_at(blk, end - off);
        if crc32c::crc32c(&blk[..end - off]) != crc {
            return Err(corrupt(off, "block checksum mismatch".into()));
        }
        let sid = u32_at(blk, 8);
        let fields = u32_at(blk, 12);
        let count = u32_at(blk, 16);
        let codec = blk[20];
        let raw_size = u32_at(blk, 24);
        if blk[21..24] != [0, 0, 0] {
            return Err(corrupt(
                off + 21,
                "reserved block header bytes are not zero".into(),
            ));
        }
        if fields != self.field_count {
            return Err(corrupt(
                off + 12,
                format!(
                    "block has {fields} fields per row, the schema has {}",
                    self.field_count
                ),
            ));
        }
        if *self.schema_id.get_or_insert(sid) != sid {
            return Err(corrupt(
                off + 8,
                format!("block schema id {sid} differs from the first block's"),
            ));
        }
        if count < 1 {
            return Err(corrupt(off + 16, "block with no records".into()));
        }
        if raw_size > MAX_RAW_SIZE {
            return Err(corrupt(
                off + 24,
                format!("raw size {raw_size} exceeds 2^30"),
            ));
        }
        let payload = &blk[28..end - off];
        // A buffer of a block the reader is done with (`recycle`): its pages are mapped already.
        let mut raw = self.pool.pop().unwrap_or_default();
        records::decompress(path, off, codec, payload, raw_size, &mut raw)?;
        let rows = records::split_records(path, off, &raw, count, self.min_row)?;
        self.off = end + 4;
        self.blocks_read += 1;
        self.records_read += rows.len() as u64;
        Ok(Some(LogBlock {
            raw,
            offset: off as u64,
            rows,
        }))
    }
}
