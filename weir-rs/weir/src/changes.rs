//! Which files' rows changed between two states of an append-only table (docs/format.md §7.3).

use std::collections::{BTreeMap, HashSet};

use crate::error::Result;
use crate::metadata::{CommitKind, DataFile, MetadataDir, TableState};

/// Files whose rows were removed (read as -D) and added (read as +I) in (`from`, `to`]: a
/// compaction stands for its inputs; a rollback in the range makes it the file-set difference.
pub(crate) fn append_only_changes(
    meta: &MetadataDir,
    start: &TableState,
    end: &TableState,
    from: i64,
    to: i64,
) -> Result<(Vec<DataFile>, Vec<DataFile>)> {
    let mut commits = Vec::new();
    for id in (from + 1..=to).rev() {
        let c = meta.commit(id)?;
        if c.kind == CommitKind::Rollback {
            let at_end: HashSet<&str> = end.files.iter().map(|f| f.path.as_str()).collect();
            let at_start: HashSet<&str> = start.files.iter().map(|f| f.path.as_str()).collect();
            return Ok((
                start
                    .files
                    .iter()
                    .filter(|f| !at_end.contains(f.path.as_str()))
                    .cloned()
                    .collect(),
                end.files
                    .iter()
                    .filter(|f| !at_start.contains(f.path.as_str()))
                    .cloned()
                    .collect(),
            ));
        }
        commits.push(c);
    }
    commits.reverse();
    let mut at_start: BTreeMap<String, DataFile> = start
        .files
        .iter()
        .map(|f| (f.path.clone(), f.clone()))
        .collect();
    let mut added: Vec<DataFile> = Vec::new();
    let mut removed: Vec<DataFile> = Vec::new();
    let mut compacted_from: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut resolved: HashSet<String> = HashSet::new();
    for c in commits {
        if c.kind == CommitKind::Compact {
            let mut inputs: BTreeMap<(Vec<Option<String>>, i32), Vec<String>> = BTreeMap::new();
            for path in &c.removed {
                let f = added
                    .iter()
                    .find(|f| &f.path == path)
                    .or_else(|| at_start.get(path));
                if let Some(f) = f {
                    inputs
                        .entry((f.partition.clone(), f.bucket))
                        .or_default()
                        .push(path.clone());
                }
            }
            for f in &c.added {
                let g = (f.partition.clone(), f.bucket);
                compacted_from.insert(f.path.clone(), inputs.get(&g).cloned().unwrap_or_default());
                at_start.entry(f.path.clone()).or_insert_with(|| f.clone());
            }
            continue;
        }
        for path in &c.removed {
            remove(
                path,
                &mut added,
                &mut removed,
                &at_start,
                &compacted_from,
                &mut resolved,
            );
        }
        added.extend(c.added.iter().cloned());
    }
    Ok((removed, added))
}

fn remove(
    path: &str,
    added: &mut Vec<DataFile>,
    removed: &mut Vec<DataFile>,
    at_start: &BTreeMap<String, DataFile>,
    compacted_from: &BTreeMap<String, Vec<String>>,
    resolved: &mut HashSet<String>,
) {
    if !resolved.insert(path.to_string()) {
        return;
    }
    if let Some(i) = added.iter().position(|f| f.path == path) {
        added.remove(i);
        return;
    }
    if let Some(inputs) = compacted_from.get(path) {
        for input in inputs {
            remove(input, added, removed, at_start, compacted_from, resolved);
        }
        return;
    }
    if let Some(f) = at_start.get(path) {
        removed.push(f.clone());
    }
}
