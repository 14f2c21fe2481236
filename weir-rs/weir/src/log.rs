//! Log files (docs/format.md §4): every check of §4.4, then the rows' bytes.

use std::path::{Path, PathBuf};

use bytes::Bytes;

use crate::storage::Storage;

use crate::error::{Error, Result};

const FILE_MAGIC: &[u8; 4] = b"WLOG";
const BLOCK_MAGIC: &[u8; 4] = b"WBLK";
const FOOTER_MAGIC: &[u8; 4] = b"WEND";
const MAX_RAW_SIZE: u32 = 1 << 30;

/// The smallest row of `n` fields: header, null bits and slots (docs/format.md §4.1).
pub fn min_row_size(n: u32) -> u64 {
    ((n as u64 + 63 + 8) / 64) * 8 + 8 * n as u64
}

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

/// One verified, decompressed block of a log file.
#[derive(Debug)]
pub struct LogBlock {
    pub raw: Vec<u8>,
    /// The block's file offset, for errors about its rows.
    pub offset: u64,
    /// (offset of the row in `raw`, row length), in stored order.
    pub rows: Vec<(u32, u32)>,
}

impl LogBlock {
    #[inline]
    pub fn row(&self, i: usize) -> &[u8] {
        let (off, len) = self.rows[i];
        &self.raw[off as usize..(off + len) as usize]
    }
}

impl crate::row::RowSource for LogBlock {
    fn len(&self) -> usize {
        self.rows.len()
    }
    fn row(&self, i: usize) -> &[u8] {
        LogBlock::row(self, i)
    }
    fn offset_of(&self, _i: usize) -> u64 {
        self.offset
    }
}

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
        match codec {
            0 => {
                if payload.len() != raw_size as usize {
                    return Err(corrupt(
                        off + 24,
                        "codec NONE but stored size differs from raw size".into(),
                    ));
                }
                raw.clear();
                raw.extend_from_slice(payload);
            }
            1 => {
                // Every byte is written or the block is rejected, so a recycled buffer's old
                // bytes need no zeroing.
                raw.truncate(raw_size as usize);
                raw.resize(raw_size as usize, 0);
                let n = lz4_flex::block::decompress_into(payload, &mut raw).map_err(|e| {
                    corrupt(off + 28, format!("LZ4 payload does not decompress: {e}"))
                })?;
                raw.truncate(n);
            }
            2 => {
                raw.clear();
                let mut decoder = zstd::stream::read::Decoder::with_buffer(payload)
                    .map_err(|e| corrupt(off + 28, format!("ZSTD payload: {e}")))?
                    .single_frame();
                std::io::Read::read_to_end(
                    &mut std::io::Read::take(&mut decoder, raw_size as u64 + 1),
                    &mut raw,
                )
                .map_err(|e| corrupt(off + 28, format!("ZSTD payload does not decompress: {e}")))?;
            }
            other => {
                return Err(corrupt(
                    off + 20,
                    format!("unknown codec {other} (allowed: 0, 1, 2)"),
                ));
            }
        }
        if raw.len() != raw_size as usize {
            return Err(corrupt(
                off + 28,
                format!(
                    "payload decompresses to {} bytes, the header says {raw_size}",
                    raw.len()
                ),
            ));
        }
        let mut pos = 0usize;
        let mut rows = Vec::with_capacity(count as usize);
        for r in 0..count {
            if raw.len() - pos < 4 {
                return Err(corrupt(
                    off + 28,
                    format!("record {r} of the block runs past its raw size"),
                ));
            }
            let row_len = u32_at(&raw, pos) as usize;
            if (row_len as u64) < self.min_row || pos + 4 + row_len > raw.len() {
                return Err(corrupt(
                    off + 28,
                    format!(
                        "record {r} of the block has length {row_len}, outside [{}, rest of block]",
                        self.min_row
                    ),
                ));
            }
            let kind = raw[pos + 4];
            if kind > 3 {
                return Err(corrupt(
                    off + 28,
                    format!("record {r} of the block has row kind byte {kind}"),
                ));
            }
            rows.push(((pos + 4) as u32, row_len as u32));
            pos += 4 + row_len;
        }
        if pos != raw.len() {
            return Err(corrupt(
                off + 28,
                "the block's records end before its raw size".into(),
            ));
        }
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
