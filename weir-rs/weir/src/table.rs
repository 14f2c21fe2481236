//! A Weir table: its snapshots, its schema, scans of a snapshot and reads of changes.

use std::collections::BTreeMap;
use std::collections::{HashSet, VecDeque};
use std::path::Path;
use std::sync::Arc;

use crate::lease::{Lease, LeaseOptions};
use crate::storage::Storage;

use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::metadata::{CommitKind, DataFile, MetadataDir, TableSchema};
use crate::scan::{Plan, Scan, Task};

/// The name of the row-kind column of change reads: `+I`, `-U`, `+U` or `-D`.
pub const ROW_KIND_COLUMN: &str = "_row_kind";

/// One commit of the table's retained history.
#[derive(Debug, Clone)]
pub struct SnapshotInfo {
    pub commit_id: i64,
    pub timestamp_millis: i64,
    pub kind: CommitKind,
    pub schema_id: i64,
}

/// Which snapshot a scan reads.
#[derive(Debug, Clone, Copy, Default)]
pub enum SnapshotSpec {
    #[default]
    Latest,
    Id(i64),
    /// The latest commit at or before this time (epoch millis).
    AsOf(i64),
}

/// A Weir table at a local path or in S3.
#[derive(Debug, Clone)]
pub struct Table {
    meta: MetadataDir,
    leases: LeaseOptions,
}

impl Table {
    /// The table at a local path.
    pub fn open(location: impl AsRef<Path>) -> Result<Table> {
        Ok(Table {
            meta: MetadataDir::open(Arc::new(Storage::Local), location.as_ref())?,
            leases: LeaseOptions::default(),
        })
    }

    /// The table at a local path or `s3://bucket/path` (also `s3a://`), with storage options
    /// (`s3.endpoint`, `s3.region`, `s3.path-style-access`, `s3.access-key`, `s3.secret-key`,
    /// `s3.max-connections`, `s3.max-retries`; docs/readers.md).
    pub fn open_with_options(location: &str, options: &BTreeMap<String, String>) -> Result<Table> {
        let (storage, path) = Storage::open(location, options)?;
        Ok(Table {
            meta: MetadataDir::open(Arc::new(storage), &path)?,
            leases: LeaseOptions::default(),
        })
    }

    /// This table with other lease options for its scans (docs/format.md §6.7): by default each
    /// scan leases its snapshot (a change read its start) while it reads, under a new consumer id.
    pub fn with_leases(mut self, options: LeaseOptions) -> Result<Table> {
        options.validate()?;
        self.leases = options;
        Ok(self)
    }

    fn lease(&self, commit_id: i64) -> Result<Option<Lease>> {
        if self.leases.enabled {
            Lease::acquire(&self.meta, &self.leases, commit_id).map(Some)
        } else {
            Ok(None)
        }
    }

    pub(crate) fn schema_version(&self, id: i64) -> Result<TableSchema> {
        self.meta.schema(id)
    }

    pub(crate) fn storage(&self) -> &Arc<Storage> {
        &self.meta.storage
    }

    pub fn location(&self) -> &Path {
        &self.meta.location
    }

    pub fn latest_commit_id(&self) -> Result<i64> {
        self.meta.latest_commit()
    }

    /// The retained commits, oldest first.
    pub fn snapshots(&self) -> Result<Vec<SnapshotInfo>> {
        let latest = self.meta.latest_commit()?;
        let first = self.meta.earliest_retained()?.max(1);
        (first..=latest)
            .map(|id| {
                let c = self.meta.commit(id)?;
                Ok(SnapshotInfo {
                    commit_id: id,
                    timestamp_millis: c.timestamp_millis,
                    kind: c.kind,
                    schema_id: c.schema_id,
                })
            })
            .collect()
    }

    /// The schema in force at the latest commit.
    pub fn schema(&self) -> Result<TableSchema> {
        let latest = self.meta.latest_commit()?;
        let id = if latest == 0 {
            0
        } else {
            self.meta.commit(latest)?.schema_id
        };
        self.meta.schema(id)
    }

    pub fn commit_id_of(&self, spec: SnapshotSpec) -> Result<i64> {
        let latest = self.meta.latest_commit()?;
        match spec {
            SnapshotSpec::Latest => Ok(latest),
            SnapshotSpec::Id(id) if id < 0 || id > latest => Err(Error::SnapshotNotFound(format!(
                "Snapshot {id} of table {} does not exist (the latest is {latest})",
                self.location().display()
            ))),
            SnapshotSpec::Id(id) => Ok(id),
            SnapshotSpec::AsOf(millis) => self.meta.commit_at(millis, latest),
        }
    }

    /// A scan of one snapshot: its rows as +I, merged.
    pub fn scan(
        &self,
        columns: Option<&[String]>,
        filter: Option<&Expr>,
        snapshot: SnapshotSpec,
    ) -> Result<Scan> {
        let id = self.commit_id_of(snapshot)?;
        let lease = self.lease(id)?;
        let state = self.meta.state(id)?;
        let schema = self.meta.schema(state.schema_id)?;
        let plan = Plan::new(self, schema, columns, filter, &[&state])?;
        let mut tasks = VecDeque::new();
        for (group, files) in state.file_groups() {
            if let Some(b) = &plan.filter
                && !b.partition_might_match(&plan.schema, &group.0)?
            {
                continue;
            }
            plan.snapshot_tasks(files, &mut tasks);
        }
        Ok(Scan::new(plan, tasks, false, lease))
    }

    /// The net changes after commit `from` up to and including `to` (docs/format.md §7.3), with a
    /// first column `_row_kind`.
    pub fn changes(
        &self,
        from: i64,
        to: i64,
        columns: Option<&[String]>,
        filter: Option<&Expr>,
    ) -> Result<Scan> {
        if from < 0 || from > to {
            return Err(Error::Invalid(format!(
                "Invalid incremental range ({from}, {to}] of table {}: the start must be >= 0 and at most the end",
                self.location().display()
            )));
        }
        self.commit_id_of(SnapshotSpec::Id(to))?;
        let lease = self.lease(from)?;
        let start = self.meta.state(from)?;
        let end = self.meta.state(to)?;
        let schema = self.meta.schema(end.schema_id)?;
        let mut plan = Plan::new(self, schema, columns, filter, &[&start, &end])?;
        let appended = if plan.keyed {
            None
        } else {
            let (removed, added) =
                crate::changes::append_only_changes(&self.meta, &start, &end, from, to)?;
            // Compactions stand for their inputs, which may be live in neither state.
            plan.map_versions(self, &removed)?;
            plan.map_versions(self, &added)?;
            Some((removed, added))
        };
        let mut tasks = VecDeque::new();
        let keep = |p: &[Option<String>]| -> Result<bool> {
            match &plan.filter {
                Some(b) => b.partition_might_match(&plan.schema, p),
                None => Ok(true),
            }
        };
        if plan.keyed {
            let before = start.file_groups();
            let after = end.file_groups();
            let mut groups: Vec<_> = before.keys().chain(after.keys()).cloned().collect();
            groups.sort();
            groups.dedup();
            for g in groups {
                let b = before.get(&g).cloned().unwrap_or_default();
                let a = after.get(&g).cloned().unwrap_or_default();
                let paths =
                    |fs: &[DataFile]| fs.iter().map(|f| f.path.clone()).collect::<HashSet<_>>();
                if paths(&b) != paths(&a) && keep(&g.0)? {
                    tasks.push_back(Task::Diff(b, a));
                }
            }
        } else {
            let (removed, added) = appended.expect("append-only");
            for f in removed {
                if keep(&f.partition)? {
                    tasks.push_back(Task::Files(vec![f], Some(b"-D")));
                }
            }
            for f in added {
                if keep(&f.partition)? {
                    tasks.push_back(Task::Files(vec![f], Some(b"+I")));
                }
            }
        }
        Ok(Scan::new(plan, tasks, true, lease))
    }
}
