//! The table's metadata under `_weir/` (docs/format.md §6): schema files, commits, checkpoints, the
//! LATEST hint and the expiry marker, and loading the state as of a commit (§6.6).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::json::{Fields, parse_files, read_json};
use crate::storage::Storage;

use crate::error::{Error, Result};
use crate::types::{Column, DataType};

/// The kind of a data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Base,
    Log,
}

/// Statistics of one column of a base file (docs/format.md §5.4).
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnStats {
    pub min: Option<String>,
    pub max: Option<String>,
    pub null_count: i64,
}

/// A data file entry (docs/format.md §6.2).
#[derive(Debug, Clone, PartialEq)]
pub struct DataFile {
    pub path: String,
    pub kind: FileKind,
    pub partition: Vec<Option<String>>,
    pub bucket: i32,
    pub record_count: i64,
    pub size_in_bytes: i64,
    pub sequence: i64,
    pub schema_id: i64,
    pub min_key: Vec<Option<String>>,
    pub max_key: Vec<Option<String>>,
    pub column_stats: HashMap<i32, ColumnStats>,
    /// The bucket count the file's rows are laid out by, when it differs from the `bucket` option
    /// of its schema version (docs/format.md §6.2); readers merge file groups as they are.
    pub total_buckets: Option<i32>,
}

/// A file group: (partition values, bucket).
pub type FileGroupId = (Vec<Option<String>>, i32);

/// The kind of a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitKind {
    Append,
    Compact,
    Overwrite,
    Clean,
    Rollback,
    /// A new schema version put in force; no files added or removed (docs/format.md §6.9).
    Schema,
}

/// One commit file.
#[derive(Debug, Clone)]
pub struct Commit {
    pub id: i64,
    pub timestamp_millis: i64,
    pub kind: CommitKind,
    pub schema_id: i64,
    pub base_commit_id: i64,
    pub added: Vec<DataFile>,
    pub removed: Vec<String>,
    /// Whether it is a rescale (the property `rescaled-buckets`, docs/format.md §6.3): it changes
    /// no row, but the file groups of the partitions it rescales.
    pub rescale: bool,
}

/// A table schema version with its options.
#[derive(Debug, Clone)]
pub struct TableSchema {
    pub schema_id: i64,
    pub created_millis: i64,
    pub columns: Vec<Column>,
    pub primary_key: Vec<String>,
    pub partition_keys: Vec<String>,
    pub options: BTreeMap<String, String>,
}

impl TableSchema {
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// Positions of the primary-key columns, in key order.
    pub fn key_positions(&self) -> Vec<usize> {
        self.primary_key
            .iter()
            .map(|k| self.index_of(k).expect("key column checked at load"))
            .collect()
    }
}

/// The state of the table as of a commit: its live files.
#[derive(Debug, Clone, Default)]
pub struct TableState {
    pub commit_id: i64,
    pub timestamp_millis: i64,
    pub schema_id: i64,
    pub files: Vec<DataFile>,
}

impl TableState {
    /// The live files by file group, each group in read order (docs/format.md §6.6).
    pub fn file_groups(&self) -> BTreeMap<FileGroupId, Vec<DataFile>> {
        let mut groups: BTreeMap<FileGroupId, Vec<DataFile>> = BTreeMap::new();
        for f in &self.files {
            groups
                .entry((f.partition.clone(), f.bucket))
                .or_default()
                .push(f.clone());
        }
        for files in groups.values_mut() {
            files.sort_by(|a, b| {
                (a.sequence, a.kind != FileKind::Base, &a.path).cmp(&(
                    b.sequence,
                    b.kind != FileKind::Base,
                    &b.path,
                ))
            });
        }
        groups
    }
}

/// The metadata files of one table location.
#[derive(Debug, Clone)]
pub struct MetadataDir {
    pub location: PathBuf,
    pub storage: Arc<Storage>,
    dir: PathBuf,
}

fn id_name(id: i64) -> String {
    format!("{id:020}.json")
}

impl MetadataDir {
    pub fn open(storage: Arc<Storage>, location: &Path) -> Result<Self> {
        let dir = location.join("_weir");
        if !storage.exists(&dir.join("schemas").join("0.json"))? {
            return Err(Error::NotATable(
                location.to_path_buf(),
                "_weir/schemas/0.json does not exist".into(),
            ));
        }
        Ok(MetadataDir {
            location: location.to_path_buf(),
            storage,
            dir,
        })
    }

    pub fn commit_path(&self, id: i64) -> PathBuf {
        self.dir.join("commits").join(id_name(id))
    }

    fn checkpoint_path(&self, id: i64) -> PathBuf {
        self.dir.join("checkpoints").join(id_name(id))
    }

    pub fn schema(&self, id: i64) -> Result<TableSchema> {
        let path = self.dir.join("schemas").join(format!("{id}.json"));
        let v = read_json(&self.storage, &path)?;
        let f = Fields::new(&path, "", &v);
        let schema = f.get("schema")?;
        let sf = Fields::new(&path, "schema.", schema);
        let mut columns = Vec::new();
        for (i, c) in sf.array("fields")?.iter().enumerate() {
            let cf = Fields::new(&path, format!("schema.fields[{i}]."), c);
            let type_text = cf.str("type")?;
            let data_type =
                DataType::parse(type_text).map_err(|e| cf.err("type", &format!(": {e}")))?;
            columns.push(Column {
                id: cf.i64("id")? as i32,
                name: cf.str("name")?.to_string(),
                data_type,
            });
        }
        let names = |field: &str| -> Result<Vec<String>> {
            let list = sf.texts(field)?;
            list.into_iter()
                .map(|n| n.ok_or_else(|| sf.err(field, "holds a null")))
                .collect()
        };
        let primary_key = names("primary-key")?;
        let partition_keys = names("partition-keys")?;
        for k in primary_key.iter().chain(partition_keys.iter()) {
            if !columns.iter().any(|c| &c.name == k) {
                return Err(sf.err(
                    "primary-key",
                    &format!("names column '{k}', which does not exist"),
                ));
            }
        }
        let mut options = BTreeMap::new();
        if let Some(Value::Object(o)) = v.get("options") {
            for (k, val) in o {
                if let Some(s) = val.as_str() {
                    options.insert(k.clone(), s.to_string());
                }
            }
        }
        Ok(TableSchema {
            schema_id: f.i64("schema-id")?,
            created_millis: f.i64_or("created-millis", 0)?,
            columns,
            primary_key,
            partition_keys,
            options,
        })
    }

    pub fn commit_exists(&self, id: i64) -> Result<bool> {
        self.storage.exists(&self.commit_path(id))
    }

    pub fn commit(&self, id: i64) -> Result<Commit> {
        let path = self.commit_path(id);
        if !self.storage.exists(&path)? {
            return Err(Error::SnapshotNotFound(format!(
                "Commit {id} of table {} does not exist ({} is missing)",
                self.location.display(),
                path.display()
            )));
        }
        let v = read_json(&self.storage, &path)?;
        let f = Fields::new(&path, "", &v);
        let cid = f.i64("commit-id")?;
        if cid != id {
            return Err(f.err("commit-id", &format!("is {cid}, the file name says {id}")));
        }
        let kind = match f.str("kind")? {
            "APPEND" => CommitKind::Append,
            "COMPACT" => CommitKind::Compact,
            "OVERWRITE" => CommitKind::Overwrite,
            "CLEAN" => CommitKind::Clean,
            "ROLLBACK" => CommitKind::Rollback,
            "SCHEMA" => CommitKind::Schema,
            other => return Err(f.err("kind", &format!("is '{other}', unknown"))),
        };
        let removed = f
            .array("removed")?
            .iter()
            .map(|p| {
                p.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| f.err("removed", "holds a value that is not a string"))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Commit {
            id,
            timestamp_millis: f.i64("timestamp-millis")?,
            kind,
            schema_id: f.i64("schema-id")?,
            base_commit_id: f.i64_or("base-commit-id", id - 1)?,
            added: parse_files(&path, "added", &v)?,
            removed,
            rescale: v
                .get("properties")
                .and_then(|p| p.get("rescaled-buckets"))
                .is_some(),
        })
    }

    fn checkpoint(&self, id: i64) -> Result<TableState> {
        let path = self.checkpoint_path(id);
        let v = read_json(&self.storage, &path)?;
        let f = Fields::new(&path, "", &v);
        Ok(TableState {
            commit_id: f.i64("commit-id")?,
            timestamp_millis: f.i64("timestamp-millis")?,
            schema_id: f.i64("schema-id")?,
            files: parse_files(&path, "files", &v)?,
        })
    }

    fn list_ids(&self, sub: &str) -> Result<Vec<i64>> {
        let dir = self.dir.join(sub);
        let mut ids = Vec::new();
        for name in self.storage.list(&dir)? {
            if let Some(stem) = name.strip_suffix(".json")
                && stem.len() == 20
                && stem.bytes().all(|b| b.is_ascii_digit())
            {
                ids.push(stem.parse().expect("20 digits"));
            }
        }
        ids.sort_unstable();
        Ok(ids)
    }

    /// The earliest retained commit `E` (docs/format.md §6.7).
    pub fn earliest_retained(&self) -> Result<i64> {
        let path = self.dir.join("expired.json");
        if !self.storage.exists(&path)? {
            return Ok(0);
        }
        let v = read_json(&self.storage, &path)?;
        Fields::new(&path, "", &v).i64("earliest-retained-commit")
    }

    /// The latest commit id (0 for a table without commits), as §6.6 finds it.
    pub fn latest_commit(&self) -> Result<i64> {
        let hint = self
            .storage
            .read_to_string(&self.dir.join("LATEST"))
            .ok()
            .and_then(|t| {
                let t = t.strip_suffix('\n').unwrap_or(&t);
                if (1..=19).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()) {
                    t.parse::<i64>().ok()
                } else {
                    None
                }
            });
        let mut n = match hint {
            Some(h) if self.commit_exists(h)? => h,
            _ => {
                let ids = self.list_ids("commits")?;
                let n = ids.last().copied().unwrap_or(0);
                let proven = hint
                    .into_iter()
                    .chain(self.list_ids("checkpoints")?.last().copied())
                    .chain(Some(self.earliest_retained()?))
                    .max()
                    .unwrap_or(0);
                if proven > n {
                    return Err(Error::metadata(
                        self.commit_path(n + 1),
                        format!("commit {} was made but its file is missing", n + 1),
                    ));
                }
                n
            }
        };
        while self.commit_exists(n + 1)? {
            n += 1;
        }
        Ok(n)
    }

    /// The state as of commit `t` (docs/format.md §6.6).
    pub fn state(&self, t: i64) -> Result<TableState> {
        let e = self.earliest_retained()?;
        if t < e {
            return Err(Error::SnapshotNotFound(format!(
                "Snapshot {t} of table {} has expired (the earliest retained commit is {e})",
                self.location.display()
            )));
        }
        if t == 0 {
            return Ok(TableState::default());
        }
        // The greatest readable checkpoint C with E <= C <= t.
        let mut start: Option<TableState> = None;
        for c in self.list_ids("checkpoints")?.into_iter().rev() {
            if c > t || c < e {
                continue;
            }
            match self.checkpoint(c) {
                Ok(s) => {
                    start = Some(s);
                    break;
                }
                Err(err) if c == e && e > 0 => return Err(err),
                Err(_) => continue,
            }
        }
        let c = start.as_ref().map(|s| s.commit_id).unwrap_or(0);
        if start.is_none() && e > 0 {
            return Err(Error::metadata(
                self.checkpoint_path(e),
                "the checkpoint at the earliest retained commit is missing",
            ));
        }
        // Commits t, t-1, ... down to c+1, stopping at a rollback.
        let mut commits = Vec::new();
        let mut id = t;
        while id > c {
            let commit = self.commit(id)?;
            let rollback = commit.kind == CommitKind::Rollback;
            commits.push(commit);
            if rollback {
                break;
            }
            id -= 1;
        }
        commits.reverse();
        let mut state = start.unwrap_or_default();
        let mut iter = commits.into_iter().peekable();
        if let Some(first) = iter.peek()
            && first.kind == CommitKind::Rollback
        {
            let r = iter.next().expect("peeked");
            state = match self.checkpoint(r.id) {
                Ok(s) => s,
                Err(_) => {
                    let mut s = self.state(r.base_commit_id)?;
                    s.commit_id = r.id;
                    s.timestamp_millis = r.timestamp_millis;
                    s.schema_id = r.schema_id;
                    s
                }
            };
        }
        for commit in iter {
            apply(&mut state, &commit, &self.commit_path(commit.id))?;
        }
        Ok(state)
    }

    /// The greatest commit at or before `millis` (docs/format.md §6.6).
    pub fn commit_at(&self, millis: i64, latest: i64) -> Result<i64> {
        let e = self.earliest_retained()?;
        let (mut lo, mut hi) = (e.max(1), latest);
        let mut found = None;
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            if self.commit(mid)?.timestamp_millis <= millis {
                found = Some(mid);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        match found {
            Some(id) => Ok(id),
            None if e == 0 && self.schema(0)?.created_millis <= millis => Ok(0),
            None => Err(Error::SnapshotNotFound(format!(
                "Table {} has no snapshot as of {millis} (its first retained commit is later)",
                self.location.display()
            ))),
        }
    }
}

fn apply(state: &mut TableState, commit: &Commit, path: &Path) -> Result<()> {
    let live: std::collections::HashSet<&str> =
        state.files.iter().map(|f| f.path.as_str()).collect();
    for removed in &commit.removed {
        if !live.contains(removed.as_str()) {
            return Err(Error::metadata(
                path,
                format!("removes {removed}, which is not live"),
            ));
        }
    }
    let removed: std::collections::HashSet<&str> =
        commit.removed.iter().map(String::as_str).collect();
    for f in &commit.added {
        if live.contains(f.path.as_str()) && !removed.contains(f.path.as_str()) {
            return Err(Error::metadata(
                path,
                format!("adds {}, which is live already", f.path),
            ));
        }
    }
    state.files.retain(|f| !removed.contains(f.path.as_str()));
    state.files.extend(commit.added.iter().cloned());
    state.commit_id = commit.id;
    state.timestamp_millis = commit.timestamp_millis;
    state.schema_id = commit.schema_id;
    Ok(())
}
