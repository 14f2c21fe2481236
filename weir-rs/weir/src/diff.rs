//! Net changes of a keyed file group between two states (docs/format.md §7.3): both merged
//! states diffed key by key.

use arrow_array::RecordBatch;

use super::{Output, Plan};
use crate::error::Result;
use crate::merge::{self, schema_of};
use crate::metadata::DataFile;

impl Plan {
    /// Net changes of one file group between two states (docs/format.md §7.3).
    pub(super) fn diff(&self, before: &[DataFile], after: &[DataFile]) -> Result<Vec<Output>> {
        let empty = || RecordBatch::new_empty(schema_of(&self.schema, &self.needed));
        let old = if before.is_empty() {
            empty()
        } else {
            self.merged(before)?
        };
        let new = if after.is_empty() {
            empty()
        } else {
            self.merged(after)?
        };
        let key: Vec<usize> = self.key.iter().map(|&p| self.index_in_needed(p)).collect();
        let both = arrow_select::concat::concat_batches(&old.schema(), [&old, &new])?;
        let keys = merge::key_rows(&both, &key)?;
        let matches = |batch: &RecordBatch| -> Vec<bool> {
            match &self.filter {
                None => vec![true; batch.num_rows()],
                Some(b) => b
                    .evaluate(batch, &|p| self.index_in_needed(p))
                    .iter()
                    .map(|v| v == Some(true))
                    .collect(),
            }
        };
        let (mo, mn) = (matches(&old), matches(&new));
        let old_out = self.project(&old)?;
        let new_out = self.project(&new)?;
        let (n_old, n_new) = (old.num_rows(), new.num_rows());
        // (from new?, row, kind)
        let mut picks: Vec<(bool, u32, &'static str)> = Vec::new();
        let (mut i, mut j) = (0usize, 0usize);
        while i < n_old || j < n_new {
            let c = if i == n_old {
                std::cmp::Ordering::Greater
            } else if j == n_new {
                std::cmp::Ordering::Less
            } else {
                keys.row(i).cmp(&keys.row(n_old + j))
            };
            match c {
                std::cmp::Ordering::Less => {
                    if mo[i] {
                        picks.push((false, i as u32, "-D"));
                    }
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    if mn[j] {
                        picks.push((true, j as u32, "+I"));
                    }
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    match (mo[i], mn[j]) {
                        (true, true) => {
                            if !merge::rows_equal(&old_out, i, &new_out, j) {
                                picks.push((false, i as u32, "-U"));
                                picks.push((true, j as u32, "+U"));
                            }
                        }
                        (true, false) => picks.push((false, i as u32, "-D")),
                        (false, true) => picks.push((true, j as u32, "+I")),
                        (false, false) => {}
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        // In runs of one source, keeping the order of the changes.
        let mut out = Vec::new();
        let mut k = 0;
        while k < picks.len() {
            let from_new = picks[k].0;
            let mut rows = Vec::new();
            let mut kinds = Vec::new();
            while k < picks.len() && picks[k].0 == from_new {
                rows.push(picks[k].1);
                kinds.push(picks[k].2);
                k += 1;
            }
            let src = if from_new { &new_out } else { &old_out };
            out.push((merge::take_rows(src, rows)?, Some(kinds)));
        }
        Ok(out)
    }
}
