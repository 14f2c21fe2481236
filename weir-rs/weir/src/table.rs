//! A Weir table: its snapshots, its schema, scans of a snapshot and reads of changes.

use std::collections::BTreeMap;
use std::collections::{HashSet, VecDeque};
use std::path::Path;
use std::sync::Arc;

use crate::lease::{Lease, LeaseOptions};
use crate::storage::Storage;

use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::metadata::{CommitKind, DataFile, MetadataDir, TableSchema, TableState};
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
        // A rescale changes no row but the file groups of what it rescales: as Weir's Flink
        // source, read the changes before and after each rescale commit apart.
        let mut ranges = Vec::new();
        self.rescale_ranges(from, to, &mut ranges)?;
        let mut states = Vec::new();
        for (a, b) in &ranges {
            states.push(self.meta.state(*a)?);
            states.push(self.meta.state(*b)?);
        }
        let end = self.meta.state(to)?;
        let schema = self.meta.schema(end.schema_id)?;
        let refs: Vec<&TableState> = states.iter().collect();
        let mut plan = Plan::new(self, schema, columns, filter, &refs)?;
        let mut tasks = VecDeque::new();
        for (i, (a, b)) in ranges.iter().enumerate() {
            let (start, end) = (&states[2 * i], &states[2 * i + 1]);
            if plan.keyed {
                self.check_layouts(start, end, *a, *b)?;
                let before = start.file_groups();
                let after = end.file_groups();
                let mut groups: Vec<_> = before.keys().chain(after.keys()).cloned().collect();
                groups.sort();
                groups.dedup();
                for g in groups {
                    let bf = before.get(&g).cloned().unwrap_or_default();
                    let af = after.get(&g).cloned().unwrap_or_default();
                    let paths =
                        |fs: &[DataFile]| fs.iter().map(|f| f.path.clone()).collect::<HashSet<_>>();
                    if paths(&bf) != paths(&af) && keep(&plan, &g.0)? {
                        tasks.push_back(Task::Diff(bf, af));
                    }
                }
            } else {
                let (removed, added) =
                    crate::changes::append_only_changes(&self.meta, start, end, *a, *b)?;
                // Compactions stand for their inputs, which may be live in neither state.
                plan.map_versions(self, &removed)?;
                plan.map_versions(self, &added)?;
                for f in removed {
                    if keep(&plan, &f.partition)? {
                        tasks.push_back(Task::Files(vec![f], Some(b"-D")));
                    }
                }
                for f in added {
                    if keep(&plan, &f.partition)? {
                        tasks.push_back(Task::Files(vec![f], Some(b"+I")));
                    }
                }
            }
        }
        Ok(Scan::new(plan, tasks, true, lease))
    }

    /// The ranges whose changes make those of (`from`, `to`]: split at rescale commits as Weir's
    /// Flink source splits them, looking down from `to` past appends, compactions and schema
    /// changes only (a rollback's abandoned commits may lie further down).
    fn rescale_ranges(&self, from: i64, to: i64, out: &mut Vec<(i64, i64)>) -> Result<()> {
        if from >= to {
            if out.is_empty() && from == to {
                out.push((from, to));
            }
            return Ok(());
        }
        for id in (from + 1..=to).rev() {
            let c = self.meta.commit(id)?;
            if c.rescale {
                self.rescale_ranges(from, id - 1, out)?;
                if id < to {
                    out.push((id, to));
                }
                return Ok(());
            }
            let plain = (c.kind == CommitKind::Append && c.removed.is_empty())
                || c.kind == CommitKind::Compact
                || c.kind == CommitKind::Schema;
            if !plain {
                break;
            }
        }
        out.push((from, to));
        Ok(())
    }

    /// Changes are diffed file group by file group: a partition must have one bucket count at
    /// both ends (docs/format.md §6.2).
    fn check_layouts(
        &self,
        start: &TableState,
        end: &TableState,
        from: i64,
        to: i64,
    ) -> Result<()> {
        let before = self.partition_buckets(start)?;
        let after = self.partition_buckets(end)?;
        for (p, n) in &before {
            if let Some(m) = after.get(p)
                && m != n
            {
                return Err(Error::Invalid(format!(
                    "Cannot read the changes of table {} between commits {from} and {to}: partition {:?} was rescaled from {n} to {m} buckets in between; read the changes before and after the rescale commit apart",
                    self.location().display(),
                    p
                )));
            }
        }
        Ok(())
    }

    /// The bucket count of each partition with files: its files' `total-buckets`, or else the
    /// `bucket` option (default 4) of their schema version.
    fn partition_buckets(&self, state: &TableState) -> Result<BTreeMap<Vec<Option<String>>, i64>> {
        let mut out = BTreeMap::new();
        for f in &state.files {
            if out.contains_key(&f.partition) {
                continue;
            }
            let n = match f.total_buckets {
                Some(n) => n as i64,
                None => self
                    .meta
                    .schema(f.schema_id)?
                    .options
                    .get("bucket")
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .unwrap_or(4),
            };
            out.insert(f.partition.clone(), n);
        }
        Ok(out)
    }
}

/// Whether a partition may hold rows the plan's filter selects.
fn keep(plan: &Plan, partition: &[Option<String>]) -> Result<bool> {
    match &plan.filter {
        Some(b) => b.partition_might_match(&plan.schema, partition),
        None => Ok(true),
    }
}
