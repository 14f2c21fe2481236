//! Typed reading of the JSON metadata documents (docs/format.md §6): every error names the file
//! and the field.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::metadata::{ColumnStats, DataFile, FileKind};
use crate::storage::Storage;

/// The bytes a checksummed metadata document starts with, up to the 8 hex digits of its CRC
/// (docs/format.md §6, "Checksum").
const CHECKSUM_START: &[u8] = b"{\n  \"checksum\" : \"crc32c:";
/// The CRC covers the bytes from here on (after the checksum member's closing quote).
const CHECKSUM_COVERED_FROM: usize = CHECKSUM_START.len() + 9;

/// Checks the checksum of a document that starts with one; returns whether it has one.
fn verify_checksum(path: &Path, bytes: &[u8]) -> Result<bool> {
    if !bytes.starts_with(CHECKSUM_START) {
        return Ok(false);
    }
    let at = CHECKSUM_START.len();
    let digits = bytes.get(at..at + 8).unwrap_or_default();
    let stated = std::str::from_utf8(digits)
        .ok()
        .filter(|d| d.len() == 8 && d.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .and_then(|d| u32::from_str_radix(d, 16).ok());
    let stated = match (stated, bytes.get(at + 8)) {
        (Some(crc), Some(b'"')) => crc,
        _ => {
            return Err(Error::corrupt(
                path,
                at as u64,
                "damaged checksum member: expected 8 lowercase hex digits and '\"' after '\"checksum\" : \"crc32c:'",
            ));
        }
    };
    let actual = crc32c::crc32c(&bytes[CHECKSUM_COVERED_FROM..]);
    if actual != stated {
        return Err(Error::corrupt(
            path,
            at as u64,
            format!(
                "checksum mismatch: the file says crc32c:{stated:08x}, its bytes from offset {CHECKSUM_COVERED_FROM} on give crc32c:{actual:08x}"
            ),
        ));
    }
    Ok(true)
}

/// Whether a document without a checksum starts with `format-version`, as every document
/// written before checksums did (anything else is a damaged checksum member).
fn format_version_first(text: &str) -> bool {
    text.trim_start()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with("\"format-version\""))
}

/// Reads the JSON object of a metadata file; checks its checksum and `format-version`.
pub(crate) fn read_json(storage: &Storage, path: &Path) -> Result<Value> {
    parse_json(path, &storage.read(path)?)
}

/// Parses the bytes of a metadata file (see [`read_json`]).
pub(crate) fn parse_json(path: &Path, bytes: &[u8]) -> Result<Value> {
    let checked = verify_checksum(path, bytes)?;
    let text =
        std::str::from_utf8(bytes).map_err(|e| Error::metadata(path, format!("not UTF-8: {e}")))?;
    let v: Value = serde_json::from_str(text)
        .map_err(|e| Error::metadata(path, format!("malformed JSON: {e}")))?;
    if !v.is_object() {
        return Err(Error::metadata(path, "not a JSON object"));
    }
    match v.get("format-version").and_then(Value::as_i64) {
        Some(1) if checked || format_version_first(text) => Ok(v),
        Some(1) => Err(Error::metadata(
            path,
            "the first member is neither a checksum in the layout Weir writes nor format-version (damaged)",
        )),
        Some(other) => Err(Error::metadata(
            path,
            format!("unknown format-version {other} (this reader reads 1)"),
        )),
        None => Err(Error::metadata(path, "missing field 'format-version'")),
    }
}

/// Adds the checksum member to a document that starts with `{` and `format-version` in Weir's
/// layout (two spaces of indentation, `\n` line ends).
pub(crate) fn with_checksum(document: &str) -> String {
    debug_assert!(document.starts_with("{\n  \"format-version\""));
    let rest = format!(",{}", &document[1..]);
    format!(
        "{{\n  \"checksum\" : \"crc32c:{:08x}\"{rest}",
        crc32c::crc32c(rest.as_bytes())
    )
}

/// Typed access to fields, naming the field in errors.
pub(crate) struct Fields<'a> {
    path: &'a Path,
    prefix: String,
    v: &'a Value,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(path: &'a Path, prefix: impl Into<String>, v: &'a Value) -> Self {
        Fields {
            path,
            prefix: prefix.into(),
            v,
        }
    }
    pub(crate) fn err(&self, field: &str, what: &str) -> Error {
        Error::metadata(
            self.path,
            format!("field '{}{}' {}", self.prefix, field, what),
        )
    }
    pub(crate) fn get(&self, field: &str) -> Result<&'a Value> {
        self.v
            .get(field)
            .ok_or_else(|| self.err(field, "is missing"))
    }
    pub(crate) fn i64(&self, field: &str) -> Result<i64> {
        self.get(field)?
            .as_i64()
            .ok_or_else(|| self.err(field, "is not an integer"))
    }
    pub(crate) fn i64_or(&self, field: &str, default: i64) -> Result<i64> {
        match self.v.get(field) {
            None | Some(Value::Null) => Ok(default),
            Some(_) => self.i64(field),
        }
    }
    pub(crate) fn str(&self, field: &str) -> Result<&'a str> {
        self.get(field)?
            .as_str()
            .ok_or_else(|| self.err(field, "is not a string"))
    }
    pub(crate) fn array(&self, field: &str) -> Result<&'a Vec<Value>> {
        self.get(field)?
            .as_array()
            .ok_or_else(|| self.err(field, "is not an array"))
    }
    pub(crate) fn texts(&self, field: &str) -> Result<Vec<Option<String>>> {
        match self.v.get(field) {
            None => Ok(Vec::new()),
            Some(_) => self
                .array(field)?
                .iter()
                .map(|t| match t {
                    Value::Null => Ok(None),
                    Value::String(s) => Ok(Some(s.clone())),
                    _ => Err(self.err(field, "holds a value that is neither a string nor null")),
                })
                .collect(),
        }
    }
}

fn parse_data_file(path: &Path, prefix: String, v: &Value) -> Result<DataFile> {
    let f = Fields::new(path, prefix.clone(), v);
    let kind = match f.str("kind")? {
        "BASE" => FileKind::Base,
        "LOG" => FileKind::Log,
        other => return Err(f.err("kind", &format!("is '{other}' (allowed: BASE, LOG)"))),
    };
    let mut column_stats = HashMap::new();
    if let Some(stats) = v.get("column-stats") {
        let obj = stats
            .as_object()
            .ok_or_else(|| f.err("column-stats", "is not an object"))?;
        for (id, s) in obj {
            let fid: i32 = id.parse().map_err(|_| {
                f.err(
                    "column-stats",
                    &format!("has a key '{id}' that is no field id"),
                )
            })?;
            let sf = Fields::new(path, format!("{prefix}column-stats.{id}."), s);
            let text = |name: &str| -> Result<Option<String>> {
                match s.get(name) {
                    None | Some(Value::Null) => Ok(None),
                    Some(_) => Ok(Some(sf.str(name)?.to_string())),
                }
            };
            column_stats.insert(
                fid,
                ColumnStats {
                    min: text("min")?,
                    max: text("max")?,
                    null_count: sf.i64("null-count")?,
                },
            );
        }
    }
    Ok(DataFile {
        path: f.str("path")?.to_string(),
        kind,
        partition: f.texts("partition")?,
        bucket: f.i64("bucket")? as i32,
        record_count: f.i64("record-count")?,
        size_in_bytes: f.i64("size-in-bytes")?,
        sequence: f.i64("sequence")?,
        schema_id: f.i64("schema-id")?,
        min_key: f.texts("min-key")?,
        max_key: f.texts("max-key")?,
        column_stats,
        total_buckets: match v.get("total-buckets") {
            None => None,
            Some(_) => {
                let n = f.i64("total-buckets")?;
                if !(1..=32768).contains(&n) {
                    return Err(f.err("total-buckets", &format!("is {n}, not 1 to 32768")));
                }
                Some(n as i32)
            }
        },
    })
}

pub(crate) fn parse_files(path: &Path, field: &str, v: &Value) -> Result<Vec<DataFile>> {
    let f = Fields::new(path, "", v);
    f.array(field)?
        .iter()
        .enumerate()
        .map(|(i, d)| parse_data_file(path, format!("{field}[{i}]."), d))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON examples of docs/format.md: their checksums are what weir-core writes (its
    /// FormatDocJsonExamplesTest checks them), so this reader agrees with the writer.
    fn doc_examples() -> Vec<String> {
        let doc = include_str!("../../../docs/format.md");
        doc.split("```json\n")
            .skip(1)
            .map(|b| format!("{}\n", b.split("```").next().unwrap().trim_end()))
            .collect()
    }

    fn err(bytes: &[u8]) -> String {
        parse_json(Path::new("/t/x.json"), bytes)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_the_checksummed_examples_and_finds_every_flipped_bit() {
        let examples = doc_examples();
        assert_eq!(examples.len(), 9);
        for ex in &examples {
            assert!(ex.starts_with("{\n  \"checksum\" : \"crc32c:"));
            parse_json(Path::new("/t/x.json"), ex.as_bytes()).unwrap();
            for i in 0..ex.len() {
                for bit in 0..8 {
                    let mut bad = ex.as_bytes().to_vec();
                    bad[i] ^= 1 << bit;
                    let e = parse_json(Path::new("/t/x.json"), &bad)
                        .expect_err(&format!("bit {bit} of byte {i} flipped"));
                    assert!(e.to_string().starts_with("Corrupt "), "{e}");
                }
            }
        }
    }

    #[test]
    fn a_flipped_digit_in_a_value_is_a_checksum_mismatch() {
        let ex = &doc_examples()[1]; // the APPEND commit
        let stated = &ex[25..33];
        let bad = ex.replace("\"record-count\" : 1200", "\"record-count\" : 1300");
        assert_eq!(
            err(bad.as_bytes()),
            format!(
                "Corrupt file /t/x.json at offset 25: checksum mismatch: the file says crc32c:{stated}, its bytes from offset 34 on give crc32c:{:08x}",
                crc32c::crc32c(&bad.as_bytes()[34..])
            )
        );
    }

    #[test]
    fn documents_without_a_checksum_read_unchecked() {
        for ex in doc_examples() {
            let old = format!("{{{}", &ex[35..]);
            assert!(old.starts_with("{\n  \"format-version\" : 1,"));
            let mut checked = parse_json(Path::new("/t/x.json"), ex.as_bytes()).unwrap();
            checked.as_object_mut().unwrap().remove("checksum");
            assert_eq!(
                parse_json(Path::new("/t/x.json"), old.as_bytes()).unwrap(),
                checked
            );
            // The writer of reader leases adds exactly the checksum weir-core writes.
            assert_eq!(with_checksum(&old), ex);
        }
        assert_eq!(
            err(b"{\"checksun\" : \"crc32c:00000000\", \"format-version\" : 1}"),
            "Corrupt metadata file /t/x.json: the first member is neither a checksum in the layout Weir writes nor format-version (damaged)"
        );
        assert_eq!(
            err(b"{\n  \"checksum\" : \"crc32c:0000000g\",\n  \"format-version\" : 1\n}\n"),
            "Corrupt file /t/x.json at offset 25: damaged checksum member: expected 8 lowercase hex digits and '\"' after '\"checksum\" : \"crc32c:'"
        );
    }
}
