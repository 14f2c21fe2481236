//! Merge-on-read of one keyed file group as a streaming k-way merge (docs/format.md §7.1): every
//! data file is a run sorted by key (§4, §5.2), read a window at a time; the records of each key
//! are gathered across the runs in read order and folded by the table's engine (`merge::fold_sorted`)
//! in chunks of whole keys. Memory is bounded by the runs' windows and one chunk, not by the group:
//! a log file is read and decompressed a block at a time, and only the records the fold reads are
//! decoded into Arrow, so that an uncompacted group's superseded records are never decoded (the
//! whole-group sort and gather this replaces cost 5.8 times the CPU at 5 M records per group).

use std::cmp::Ordering;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use arrow_select::interleave::interleave_record_batch;

use crate::engine::Fold;
use crate::error::Result;
use crate::merge::fold_sorted;
use crate::row::RowRefs;
use crate::runs::{Columns, Key, KeyCodec, OwnedKey, RowDecoder, Run, Window};
use crate::value::cmp_between;

/// The bounds of a merge's memory.
#[derive(Debug, Clone, Copy)]
pub struct MergeLimits {
    /// Records picked for decoding before a chunk is folded and emitted.
    pub chunk_records: usize,
    /// Rows of windows the merge has moved past, held for the chunk's decoding, before a chunk is
    /// emitted (many superseded records per picked one).
    pub held_rows: usize,
}

impl Default for MergeLimits {
    fn default() -> Self {
        MergeLimits {
            // Small enough that a chunk's picked rows stay in a core's cache across the column
            // passes that decode them (schema1: 8 k rows of ~190 bytes); 4 k to 16 k measured
            // within 10 % of each other.
            chunk_records: 8 * 1024,
            held_rows: 256 * 1024,
        }
    }
}

/// The one record of each key that a fold reads, when it reads one: then only that record is
/// decoded, and folding it alone gives the same row as folding them all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnlyRecord {
    /// The last record (`deduplicate` without `sequence.field`).
    Last,
    /// The first record (`first-row`).
    First,
    /// The record with the greatest sequence value, the last among equals (`deduplicate` with
    /// `sequence.field`): only the sequence column is decoded ahead, the winner alone in full.
    Greatest,
}

fn only_record(fold: &Fold) -> Option<OnlyRecord> {
    match fold {
        Fold::Winner(None) => Some(OnlyRecord::Last),
        Fold::Winner(Some(_)) => Some(OnlyRecord::Greatest),
        Fold::First => Some(OnlyRecord::First),
        Fold::Columns { .. } => None,
    }
}

/// A picked record ((run, window, row)) and its row kind.
type Pick = ((u32, u32, u32), u8);

/// Past every key of a run (keys are `i64`).
const END: i128 = i128::MAX;

struct RunState {
    run: Run,
    /// Windows since the last chunk; the last one is current.
    held: Vec<Window>,
    /// The current row of the current window.
    pos: usize,
    /// Whether the run has a current row (false past its last).
    live: bool,
}

impl RunState {
    fn current(&self) -> &Window {
        self.held.last().expect("a live run has a window")
    }
}

/// The live rows of a keyed file group, in key order, in chunks (each a batch of the needed
/// columns).
pub struct GroupMerge {
    runs: Vec<RunState>,
    codec: KeyCodec,
    cols: Columns,
    fold: Fold,
    only: Option<OnlyRecord>,
    limits: MergeLimits,
    /// The chunk: (run, window, row) of each picked record, in key order.
    picks: Vec<(u32, u32, u32)>,
    kinds: Vec<u8>,
    /// Each key's picked records, as a range of `picks`.
    ranges: Vec<(usize, usize)>,
    held_rows: usize,
    key_buf: OwnedKey,
    /// Each run's current key (`END` past its last), where the key is one integral column: the
    /// smallest is found in a small array, without touching the windows.
    ints: Option<Vec<i128>>,
    started: bool,
    failed: bool,
}

impl GroupMerge {
    /// The merge of `runs` (in read order, §6.6) whose needed columns (table positions `needed`,
    /// Arrow schema `schema`) hold the key at indices `key` and fold by `fold`.
    pub(crate) fn new(
        runs: Vec<Run>,
        needed: Vec<usize>,
        schema: SchemaRef,
        key: Vec<usize>,
        fold: Fold,
        limits: MergeLimits,
    ) -> Result<GroupMerge> {
        let seq = match fold {
            Fold::Winner(seq) => seq,
            _ => None,
        };
        let mut ahead = key.clone();
        ahead.extend(seq);
        let ahead_schema = std::sync::Arc::new(schema.project(&ahead)?);
        let count = runs.len();
        let types: Vec<_> = key
            .iter()
            .map(|&i| schema.field(i).data_type().clone())
            .collect();
        let codec = KeyCodec::new(&types)?;
        let ints = codec.integral().then(|| vec![END; count]);
        Ok(GroupMerge {
            runs: runs
                .into_iter()
                .map(|run| RunState {
                    run,
                    held: Vec::new(),
                    pos: 0,
                    live: false,
                })
                .collect(),
            codec,
            cols: Columns {
                needed,
                schema,
                key,
                seq,
                ahead,
                ahead_schema,
            },
            only: only_record(&fold),
            fold,
            limits,
            picks: Vec::new(),
            kinds: Vec::new(),
            ranges: Vec::new(),
            held_rows: 0,
            key_buf: OwnedKey::default(),
            ints,
            started: false,
            failed: false,
        })
    }

    /// Moves run `r` to its next record, pulling its next window at the end of one.
    fn advance(&mut self, r: usize) -> Result<()> {
        let s = &mut self.runs[r];
        s.pos += 1;
        if s.pos >= s.current().len() {
            self.held_rows += s.current().len();
            match s.run.next_window(&self.codec, &self.cols)? {
                Some(w) => {
                    s.held.push(w);
                    s.pos = 0;
                }
                None => s.live = false,
            }
        }
        self.note_key(r);
        Ok(())
    }

    /// Copies run `r`'s current key to `ints`, where keys are integral.
    #[inline]
    fn note_key(&mut self, r: usize) {
        if let Some(ints) = self.ints.as_mut() {
            let s = &self.runs[r];
            ints[r] = match s.live.then(|| s.current().keys.get(s.pos)) {
                Some(Key::Int(k)) => k as i128,
                _ => END,
            };
        }
    }

    fn start(&mut self) -> Result<()> {
        let mut first = Vec::with_capacity(self.runs.len());
        for s in &mut self.runs {
            first.push(s.run.next_window(&self.codec, &self.cols)?);
        }
        for (s, w) in self.runs.iter_mut().zip(first) {
            if let Some(w) = w {
                s.held.push(w);
                s.live = true;
            }
        }
        for r in 0..self.runs.len() {
            self.note_key(r);
        }
        Ok(())
    }

    /// Picks run `r`'s current record for the key being gathered and moves past it.
    #[inline]
    fn take(&mut self, r: usize, start: usize, last: &mut Option<Pick>) -> Result<()> {
        let s = &self.runs[r];
        let record = (r as u32, (s.held.len() - 1) as u32, s.pos as u32);
        let kind = s.current().kinds[s.pos];
        match self.only {
            Some(OnlyRecord::Last) => *last = Some((record, kind)),
            Some(OnlyRecord::Greatest) => {
                let takes = match last {
                    None => true,
                    Some(((br, bw, brow), _)) => {
                        let best = self.runs[*br as usize].held[*bw as usize].seq.as_ref();
                        let this = s.current().seq.as_ref();
                        let (this, best) = (this.expect("decoded ahead"), best.expect("ahead"));
                        cmp_between(this, s.pos, best, *brow as usize) != Ordering::Less
                    }
                };
                if takes {
                    *last = Some((record, kind));
                }
            }
            Some(OnlyRecord::First) if self.picks.len() > start => {}
            _ => {
                self.picks.push(record);
                self.kinds.push(kind);
            }
        }
        self.advance(r)
    }

    /// Picks the records of the smallest key left; false at the end of every run. The run on the
    /// smallest key is the first in read order among equals: no run before it holds that key, so
    /// the key's records are those of this run and the ones after it, in read order.
    fn next_key(&mut self) -> Result<bool> {
        let start = self.picks.len();
        let mut last: Option<Pick> = None;
        if let Some(ints) = &self.ints {
            let (mut m, mut key) = (0, ints[0]);
            for (r, &k) in ints.iter().enumerate().skip(1) {
                if k < key {
                    (m, key) = (r, k);
                }
            }
            if key == END {
                return Ok(false);
            }
            for r in m..self.runs.len() {
                while self.ints.as_ref().expect("ints")[r] == key {
                    self.take(r, start, &mut last)?;
                }
                // Only a run that just moved can be below the smallest key.
                if self.ints.as_ref().expect("ints")[r] < key {
                    let s = &self.runs[r];
                    return Err(s.run.out_of_order(s.current(), s.pos));
                }
            }
        } else {
            let mut min: Option<usize> = None;
            for (r, s) in self.runs.iter().enumerate() {
                if s.live
                    && min.is_none_or(|m| {
                        let t = &self.runs[m];
                        s.current().keys.get(s.pos) < t.current().keys.get(t.pos)
                    })
                {
                    min = Some(r);
                }
            }
            let Some(m) = min else {
                return Ok(false);
            };
            {
                let s = &self.runs[m];
                self.key_buf.set(s.current().keys.get(s.pos));
            }
            for r in m..self.runs.len() {
                while self.runs[r].live {
                    let s = &self.runs[r];
                    match s.current().keys.get(s.pos).cmp(&self.key_buf.get()) {
                        Ordering::Greater => break,
                        Ordering::Less => return Err(s.run.out_of_order(s.current(), s.pos)),
                        Ordering::Equal => self.take(r, start, &mut last)?,
                    }
                }
            }
        }
        if let Some((record, kind)) = last {
            self.picks.push(record);
            self.kinds.push(kind);
        }
        self.ranges.push((start, self.picks.len()));
        Ok(true)
    }

    /// The chunk's picked records, decoded, in key order.
    fn decode(&self) -> Result<RecordBatch> {
        // Log files of the read schema's version: every picked row decodes in one pass, in order.
        let picked = |r: usize| self.picks.iter().any(|p| p.0 as usize == r);
        let logs: Vec<Option<&RowDecoder>> =
            self.runs.iter().map(|s| s.run.unmapped_log()).collect();
        if let Some(decoder) = logs.iter().flatten().next()
            && (0..self.runs.len()).all(|r| logs[r].is_some() || !picked(r))
        {
            let mut src = RowRefs::default();
            src.rows.reserve(self.picks.len());
            for &(r, w, row) in &self.picks {
                let s = &self.runs[r as usize];
                src.rows
                    .push(s.held[w as usize].row_ref(row as usize, &s.run.path));
            }
            return decoder.decode(&src, &self.cols.needed, &self.cols.schema);
        }
        let mut per_run: Vec<Vec<(u32, u32)>> = vec![Vec::new(); self.runs.len()];
        let mut order: Vec<(usize, usize)> = Vec::with_capacity(self.picks.len());
        for &(r, w, row) in &self.picks {
            let r = r as usize;
            order.push((r, per_run[r].len()));
            per_run[r].push((w, row));
        }
        let mut parts: Vec<RecordBatch> = Vec::new();
        let mut slot = vec![0usize; self.runs.len()];
        for (r, picks) in per_run.iter().enumerate() {
            if !picks.is_empty() {
                slot[r] = parts.len();
                let s = &self.runs[r];
                parts.push(s.run.decode(&s.held, picks, &self.cols)?);
            }
        }
        Ok(match parts.len() {
            0 => RecordBatch::new_empty(self.cols.schema.clone()),
            1 => parts.pop().expect("one"),
            _ => {
                let refs: Vec<&RecordBatch> = parts.iter().collect();
                for o in order.iter_mut() {
                    o.0 = slot[o.0];
                }
                interleave_record_batch(&refs, &order)?
            }
        })
    }

    /// Decodes the chunk's records, folds each key's and lets go of the windows passed.
    fn flush(&mut self) -> Result<RecordBatch> {
        let batch = self.decode()?;
        let out = fold_sorted(&batch, &self.kinds, &self.ranges, &self.fold)?;
        for s in &mut self.runs {
            let current = if s.live { s.held.pop() } else { None };
            for w in s.held.drain(..) {
                s.run.recycle(w);
            }
            s.held.extend(current);
        }
        self.picks.clear();
        self.kinds.clear();
        self.ranges.clear();
        self.held_rows = 0;
        Ok(out)
    }

    fn step(&mut self) -> Result<Option<RecordBatch>> {
        if !self.started {
            self.started = true;
            self.start()?;
        }
        loop {
            let mut more = true;
            while self.picks.len() < self.limits.chunk_records
                && self.held_rows < self.limits.held_rows
            {
                if !self.next_key()? {
                    more = false;
                    break;
                }
            }
            if self.ranges.is_empty() && !more {
                return Ok(None);
            }
            let out = self.flush()?;
            if out.num_rows() > 0 {
                return Ok(Some(out));
            }
            if !more {
                return Ok(None);
            }
        }
    }
}

impl Iterator for GroupMerge {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let r = self.step().transpose();
        if matches!(r, Some(Err(_))) {
            self.failed = true;
        }
        r
    }
}

#[cfg(test)]
#[path = "kmerge_tests.rs"]
mod tests;
