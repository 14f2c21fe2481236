//! Typed reading of the JSON metadata documents (docs/format.md §6): every error names the file
//! and the field.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::metadata::{ColumnStats, DataFile, FileKind};
use crate::storage::Storage;

/// Reads the JSON object of a metadata file; checks `format-version`.
pub(crate) fn read_json(storage: &Storage, path: &Path) -> Result<Value> {
    let text = storage.read_to_string(path)?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| Error::metadata(path, format!("malformed JSON: {e}")))?;
    if !v.is_object() {
        return Err(Error::metadata(path, "not a JSON object"));
    }
    match v.get("format-version").and_then(Value::as_i64) {
        Some(1) => Ok(v),
        Some(other) => Err(Error::metadata(
            path,
            format!("unknown format-version {other} (this reader reads 1)"),
        )),
        None => Err(Error::metadata(path, "missing field 'format-version'")),
    }
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
