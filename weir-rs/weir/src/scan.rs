//! Scans: the plan of a read, its tasks (a file group or a file each), and the stream of batches.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType as ArrowType, Field, Schema, SchemaRef};
use arrow_select::filter::filter_record_batch;

use crate::base::{BATCH_SIZE, BaseBatches};
use crate::engine::{Engine, Fold};
use crate::error::{Error, Result};
use crate::evolve::Mapping;
use crate::expr::{Bound, Expr};
use crate::kmerge::{GroupMerge, MergeLimits};
use crate::lease::Lease;
use crate::log::LogBytes;
use crate::merge::{self, Decoded, schema_of};
use crate::metadata::{DataFile, FileKind, TableSchema, TableState};
use crate::runs::{RowDecoder, Run, Source};
use crate::storage::Storage;
use crate::table::{ROW_KIND_COLUMN, Table};

/// What a scan reads, resolved against the schema.
pub(crate) struct Plan {
    location: PathBuf,
    storage: Arc<Storage>,
    pub(crate) schema: TableSchema,
    pub(crate) keyed: bool,
    /// Output columns (table positions).
    output: Vec<usize>,
    /// Columns to decode: output, then key, sequence and filter columns.
    needed: Vec<usize>,
    key: Vec<usize>,
    /// How a key's records fold, on the columns `needed`.
    fold: Fold,
    pub(crate) filter: Option<Bound>,
    /// How files of other schema versions read as `schema`, by their schema id.
    mappings: HashMap<i64, Arc<Mapping>>,
}

impl Plan {
    pub(crate) fn new(
        table: &Table,
        schema: TableSchema,
        columns: Option<&[String]>,
        filter: Option<&Expr>,
        states: &[&TableState],
    ) -> Result<Plan> {
        let output: Vec<usize> = match columns {
            None => (0..schema.columns.len()).collect(),
            Some(names) => names
                .iter()
                .map(|n| {
                    schema.index_of(n).ok_or_else(|| {
                        Error::Invalid(format!(
                            "Cannot select column '{n}' of table {}: it does not exist (columns: {})",
                            table.location().display(),
                            schema.columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
                        ))
                    })
                })
                .collect::<Result<_>>()?,
        };
        let filter = filter.map(|e| e.bind(&schema)).transpose()?;
        let keyed = !schema.primary_key.is_empty();
        let key = if keyed {
            schema.key_positions()
        } else {
            Vec::new()
        };
        // Tables without a key are not merged: their options choose nothing.
        let engine = if keyed {
            Engine::of(&schema).map_err(|e| {
                Error::Invalid(format!(
                    "Cannot read table {}: {e}",
                    table.location().display()
                ))
            })?
        } else {
            Engine::Deduplicate { sequence: None }
        };
        let mut needed = output.clone();
        let mut extra = key.clone();
        if let Some(b) = &filter {
            b.columns(&mut extra);
        }
        for p in extra {
            if !needed.contains(&p) {
                needed.push(p);
            }
        }
        for p in engine.extra_columns(&needed) {
            if !needed.contains(&p) {
                needed.push(p);
            }
        }
        let fold = engine.bind(&needed, &key);
        let mut plan = Plan {
            location: table.location().to_path_buf(),
            storage: table.storage().clone(),
            schema,
            keyed,
            output,
            needed,
            key,
            fold,
            filter,
            mappings: HashMap::new(),
        };
        for state in states {
            plan.map_versions(table, &state.files)?;
        }
        Ok(plan)
    }

    /// Plans how `files` of schema versions other than the read one read through field ids
    /// (docs/format.md §6.9); fails naming a file whose column cannot be read as the read type.
    pub(crate) fn map_versions(&mut self, table: &Table, files: &[DataFile]) -> Result<()> {
        for f in files {
            if f.schema_id == self.schema.schema_id || self.mappings.contains_key(&f.schema_id) {
                continue;
            }
            let written = table.schema_version(f.schema_id)?;
            let location = table.location().display().to_string();
            let m = Mapping::between(written, &self.schema, &f.path, &location)?;
            self.mappings.insert(f.schema_id, Arc::new(m));
        }
        Ok(())
    }

    /// Tasks of one file group of a snapshot read; files of the group pruned where that is safe.
    pub(crate) fn snapshot_tasks(&self, files: Vec<DataFile>, tasks: &mut VecDeque<Task>) {
        let base_only = !files.is_empty()
            && files
                .iter()
                .all(|f| f.kind == FileKind::Base && f.sequence == files[0].sequence);
        if !self.keyed || base_only {
            // Every row stands alone: file by file, pruned by statistics.
            for f in files {
                if f.kind == FileKind::Base
                    && let Some(b) = &self.filter
                    && !b.file_might_match(&self.schema, &f, &|id| {
                        self.mapping(&f).is_none_or(|m| m.stats_sound(id))
                    })
                {
                    continue;
                }
                tasks.push_back(Task::Files(vec![f], None));
            }
        } else {
            tasks.push_back(Task::Merge(files));
        }
    }

    /// The mapping of a file of another schema version onto the read schema.
    fn mapping(&self, f: &DataFile) -> Option<&Arc<Mapping>> {
        if f.schema_id == self.schema.schema_id {
            None
        } else {
            Some(self.mappings.get(&f.schema_id).unwrap_or_else(|| {
                panic!("no mapping planned for {} (schema {})", f.path, f.schema_id)
            }))
        }
    }

    fn open_base(&self, f: &DataFile) -> Result<BaseBatches> {
        let path = self.location.join(&f.path);
        let schema = schema_of(&self.schema, &self.needed);
        match self.mapping(f) {
            None => crate::base::open_base(
                &self.storage,
                &path,
                &self.schema.columns,
                &self.needed,
                &schema,
            ),
            Some(m) => {
                let sources = m.sources(&self.needed);
                let written = schema_of(&m.written, &sources);
                let batches = crate::base::open_base(
                    &self.storage,
                    &path,
                    &m.written.columns,
                    &sources,
                    &written,
                )?;
                let (m, read, needed) = (m.clone(), self.schema.clone(), self.needed.clone());
                Ok(batches.mapped(Box::new(move |b| {
                    m.map(&read, &needed, &sources, &b, &schema)
                })))
            }
        }
    }

    fn index_in_needed(&self, p: usize) -> usize {
        self.needed.iter().position(|&q| q == p).expect("needed")
    }

    fn decode(&self, files: &[DataFile]) -> Result<Decoded> {
        let parts = files
            .iter()
            .map(|f| self.read_file(f))
            .collect::<Result<Vec<_>>>()?;
        merge::concat(&schema_of(&self.schema, &self.needed), parts)
    }

    /// One file's rows, in the read schema's columns `needed`.
    fn read_file(&self, f: &DataFile) -> Result<Decoded> {
        match self.mapping(f) {
            None => merge::read_file(&self.storage, &self.location, &self.schema, f, &self.needed),
            Some(m) => {
                let sources = m.sources(&self.needed);
                let d = merge::read_file(&self.storage, &self.location, &m.written, f, &sources)?;
                let schema = schema_of(&self.schema, &self.needed);
                Ok(Decoded {
                    batch: m.map(&self.schema, &self.needed, &sources, &d.batch, &schema)?,
                    kinds: d.kinds,
                })
            }
        }
    }

    /// The streaming merge of a keyed file group's files (in read order): each a sorted run.
    fn open_merge(&self, files: &[DataFile]) -> Result<GroupMerge> {
        let schema = schema_of(&self.schema, &self.needed);
        let runs = files
            .iter()
            .map(|f| {
                let path = self.location.join(&f.path);
                match f.kind {
                    FileKind::Base => Ok(Run {
                        path,
                        source: Source::Base(self.open_base(f)?),
                    }),
                    FileKind::Log => {
                        let bytes = LogBytes::open(&self.storage, &path)?;
                        let decoder = RowDecoder {
                            path,
                            read: self.schema.clone(),
                            mapping: self.mapping(f).cloned(),
                        };
                        Run::log(bytes, decoder)
                    }
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let key: Vec<usize> = self.key.iter().map(|&p| self.index_in_needed(p)).collect();
        GroupMerge::new(
            runs,
            self.needed.clone(),
            schema,
            key,
            self.fold.clone(),
            MergeLimits::default(),
        )
    }

    /// A keyed file group's live rows as one batch (of the needed columns), in key order.
    fn merged(&self, files: &[DataFile]) -> Result<RecordBatch> {
        let batches = self.open_merge(files)?.collect::<Result<Vec<_>>>()?;
        Ok(arrow_select::concat::concat_batches(
            &schema_of(&self.schema, &self.needed),
            &batches,
        )?)
    }

    /// The rows of `batch` (of the needed columns) that pass the filter.
    fn filtered(&self, batch: RecordBatch) -> Result<RecordBatch> {
        match &self.filter {
            None => Ok(batch),
            Some(b) => {
                let mask = b.evaluate(&batch, &|p| self.index_in_needed(p));
                Ok(filter_record_batch(&batch, &mask)?)
            }
        }
    }

    fn project(&self, batch: &RecordBatch) -> Result<RecordBatch> {
        Ok(batch.project(&(0..self.output.len()).collect::<Vec<_>>())?)
    }

    fn run(&self, task: Task) -> Result<Vec<Output>> {
        match task {
            Task::Files(files, kind) => {
                let decoded = self.decode(&files)?;
                let batch = self.project(&self.filtered(decoded.batch)?)?;
                let kinds =
                    kind.map(|k| vec![if k == b"-D" { "-D" } else { "+I" }; batch.num_rows()]);
                Ok(vec![(batch, kinds)])
            }
            Task::Merge(_) => unreachable!("a merge streams (Scan::step)"),
            Task::Diff(before, after) => self.diff(&before, &after),
        }
    }
}

#[path = "diff.rs"]
mod diff;

/// Rows produced by a task, with their row kinds in change reads.
type Output = (RecordBatch, Option<Vec<&'static str>>);

/// A unit of work: one file group, or one file.
pub(crate) enum Task {
    /// Files read one after the other, rows as they are; for change reads, with the kind given.
    Files(Vec<DataFile>, Option<&'static [u8; 2]>),
    /// A keyed file group, merged.
    Merge(Vec<DataFile>),
    /// A keyed file group's files at both ends of a change range.
    Diff(Vec<DataFile>, Vec<DataFile>),
}

/// Batches of the needed columns, pulled one at a time.
type Batches = Box<dyn Iterator<Item = Result<RecordBatch>> + Send>;

/// A scan: a stream of record batches in bounded memory (one file group at a time).
pub struct Scan {
    plan: Plan,
    tasks: VecDeque<Task>,
    /// The base file or merged file group being read, batch by batch (of the needed columns),
    /// with the row kind of its rows in change reads.
    current: Option<(Batches, Option<&'static str>)>,
    pending: VecDeque<RecordBatch>,
    changes: bool,
    schema: SchemaRef,
    /// The reader lease on the snapshot, held until the scan ends or is dropped.
    lease: Option<Lease>,
}

impl Scan {
    pub(crate) fn new(
        plan: Plan,
        tasks: VecDeque<Task>,
        changes: bool,
        lease: Option<Lease>,
    ) -> Scan {
        let mut fields: Vec<Field> = Vec::new();
        if changes {
            fields.push(Field::new(ROW_KIND_COLUMN, ArrowType::Utf8, false));
        }
        fields.extend(
            plan.output
                .iter()
                .map(|&p| plan.schema.columns[p].arrow_field()),
        );
        Scan {
            plan,
            tasks,
            current: None,
            pending: VecDeque::new(),
            changes,
            schema: Arc::new(Schema::new(fields)),
            lease,
        }
    }

    /// The schema of every batch.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The table's schema (with types and keys) that this scan reads.
    pub fn table_schema(&self) -> &TableSchema {
        &self.plan.schema
    }

    /// The consumer id of the scan's reader lease, while it holds one.
    pub fn lease_consumer_id(&self) -> Option<&str> {
        self.lease.as_ref().map(|l| l.consumer_id())
    }

    /// The number of file groups or files still to read.
    pub fn remaining_tasks(&self) -> usize {
        self.tasks.len()
    }

    fn emit(&mut self, batch: RecordBatch, kinds: Option<Vec<&'static str>>) -> Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let batch = if self.changes {
            let kinds: ArrayRef = Arc::new(StringArray::from(kinds.expect("change kinds")));
            let mut columns = vec![kinds];
            columns.extend(batch.columns().iter().cloned());
            RecordBatch::try_new(self.schema.clone(), columns)?
        } else {
            RecordBatch::try_new(self.schema.clone(), batch.columns().to_vec())?
        };
        let mut offset = 0;
        while offset < batch.num_rows() {
            let len = BATCH_SIZE.min(batch.num_rows() - offset);
            self.pending.push_back(batch.slice(offset, len));
            offset += len;
        }
        Ok(())
    }
}

impl Iterator for Scan {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(lease) = self.lease.as_mut()
            && let Err(e) = lease.renew_if_due()
        {
            self.end();
            return Some(Err(e));
        }
        let next = self.step();
        if !matches!(next, Some(Ok(_))) {
            // Ended or failed: release the lease now rather than when the scan is dropped.
            self.end();
        }
        next
    }
}

impl Scan {
    fn end(&mut self) {
        self.tasks.clear();
        self.current = None;
        self.pending.clear();
        self.lease = None;
    }

    fn step(&mut self) -> Option<Result<RecordBatch>> {
        loop {
            if let Some(b) = self.pending.pop_front() {
                return Some(Ok(b));
            }
            if let Some((batches, kind)) = self.current.as_mut() {
                let kind = *kind;
                let step = match batches.next() {
                    None => {
                        self.current = None;
                        continue;
                    }
                    Some(batch) => batch.and_then(|b| {
                        let out = self.plan.project(&self.plan.filtered(b)?)?;
                        let kinds = kind.map(|k| vec![k; out.num_rows()]);
                        self.emit(out, kinds)
                    }),
                };
                if let Err(e) = step {
                    self.current = None;
                    self.tasks.clear();
                    return Some(Err(e));
                }
                continue;
            }
            let task = self.tasks.pop_front()?;
            if let Task::Files(files, kind) = &task
                && let [f] = files.as_slice()
                && f.kind == FileKind::Base
            {
                let kind = kind.map(|k| if k == b"-D" { "-D" } else { "+I" });
                match self.plan.open_base(f) {
                    Ok(b) => self.current = Some((Box::new(b), kind)),
                    Err(e) => {
                        self.tasks.clear();
                        return Some(Err(e));
                    }
                }
                continue;
            }
            if let Task::Merge(files) = &task {
                match self.plan.open_merge(files) {
                    Ok(m) => self.current = Some((Box::new(m), None)),
                    Err(e) => {
                        self.tasks.clear();
                        return Some(Err(e));
                    }
                }
                continue;
            }
            match self.plan.run(task) {
                Ok(parts) => {
                    for (batch, kinds) in parts {
                        if let Err(e) = self.emit(batch, kinds) {
                            return Some(Err(e));
                        }
                    }
                }
                Err(e) => {
                    self.tasks.clear();
                    return Some(Err(e));
                }
            }
        }
    }
}
