//! A log block's payload (docs/format.md §4): decompressed by its codec, then cut into records,
//! each checked against the smallest row of the schema and the row kinds.

use std::path::Path;

use super::u32_at;
use crate::error::{Error, Result};

/// The smallest row of `n` fields: header, null bits and slots (docs/format.md §4.1).
pub fn min_row_size(n: u32) -> u64 {
    ((n as u64 + 63 + 8) / 64) * 8 + 8 * n as u64
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

/// Decompresses `payload`, the stored records of the block at `off` of the log file `path`, into
/// `raw`, which then holds exactly `raw_size` bytes.
pub(super) fn decompress(
    path: &Path,
    off: usize,
    codec: u8,
    payload: &[u8],
    raw_size: u32,
    raw: &mut Vec<u8>,
) -> Result<()> {
    let corrupt = |off: usize, msg: String| Error::corrupt(path, off as u64, msg);
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
            let n = lz4_flex::block::decompress_into(payload, raw)
                .map_err(|e| corrupt(off + 28, format!("LZ4 payload does not decompress: {e}")))?;
            raw.truncate(n);
        }
        2 => {
            raw.clear();
            let mut decoder = zstd::stream::read::Decoder::with_buffer(payload)
                .map_err(|e| corrupt(off + 28, format!("ZSTD payload: {e}")))?
                .single_frame();
            std::io::Read::read_to_end(
                &mut std::io::Read::take(&mut decoder, raw_size as u64 + 1),
                raw,
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
    Ok(())
}

/// The `count` records of `raw`, the decompressed block at `off` of the log file `path`: (offset
/// of the row in `raw`, row length), in stored order.
pub(super) fn split_records(
    path: &Path,
    off: usize,
    raw: &[u8],
    count: u32,
    min_row: u64,
) -> Result<Vec<(u32, u32)>> {
    let corrupt = |off: usize, msg: String| Error::corrupt(path, off as u64, msg);
    let mut pos = 0usize;
    let mut rows = Vec::with_capacity(count as usize);
    for r in 0..count {
        if raw.len() - pos < 4 {
            return Err(corrupt(
                off + 28,
                format!("record {r} of the block runs past its raw size"),
            ));
        }
        let row_len = u32_at(raw, pos) as usize;
        if (row_len as u64) < min_row || pos + 4 + row_len > raw.len() {
            return Err(corrupt(
                off + 28,
                format!(
                    "record {r} of the block has length {row_len}, outside [{min_row}, rest of block]"
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
    Ok(rows)
}
