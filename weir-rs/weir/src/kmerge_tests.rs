//! The streaming merge against an independent model of docs/format.md §7.1: random sorted runs
//! (log files written here block by block, and batches) with keys repeated within and across
//! runs, every row kind, and windows, blocks and chunks of a few records, so that a key's records
//! straddle every kind of boundary.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};

use super::{GroupMerge, MergeLimits};
use crate::engine::{AggFn, ColumnFold, Fold};
use crate::error::Error;
use crate::log::LogBytes;
use crate::merge::schema_of;
use crate::metadata::TableSchema;
use crate::runs::{RowDecoder, Run, Source};
use crate::types::{Column, DataType};

/// splitmix64: a seeded generator, so that a failing case can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn maybe(&mut self, bound: i64) -> Option<i64> {
        (self.below(4) != 0).then(|| self.below(bound as u64) as i64 - bound / 2)
    }
}

/// The model's key: a number, or a string compared by bytes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MKey {
    I(i64),
    S(String),
}

#[derive(Clone, Debug)]
struct Rec {
    key: MKey,
    kind: u8,
    v: Option<i64>,
    s: Option<i64>,
}

fn key_of(id: u64, strings: bool) -> MKey {
    if strings {
        // Shared prefixes, inlined (<= 7 bytes) and out-of-line strings.
        let prefix = ["", "a", "ab", "abcdefgh"][(id % 4) as usize];
        MKey::S(format!("{prefix}-{id:x}"))
    } else {
        MKey::I(id as i64 * 7919 % 1000 - 500)
    }
}

fn table_schema(strings: bool) -> TableSchema {
    let col = |id: i32, name: &str, t: &str| Column {
        id,
        name: name.into(),
        data_type: DataType::parse(t).unwrap(),
    };
    TableSchema {
        schema_id: 0,
        created_millis: 0,
        columns: vec![
            col(
                0,
                "k",
                if strings {
                    "STRING NOT NULL"
                } else {
                    "BIGINT NOT NULL"
                },
            ),
            col(1, "v", "BIGINT"),
            col(2, "s", "BIGINT"),
        ],
        primary_key: vec!["k".into()],
        partition_keys: vec![],
        options: BTreeMap::new(),
    }
}

/// A row in the layout of docs/format.md §2 (arity 3: one word of header and null bits).
fn binary_row(r: &Rec) -> Vec<u8> {
    let mut row = vec![0u8; 32];
    row[0] = r.kind;
    let mut var = Vec::new();
    let slot = |row: &mut Vec<u8>, pos: usize, w: u64| {
        row[8 + 8 * pos..16 + 8 * pos].copy_from_slice(&w.to_le_bytes());
    };
    match &r.key {
        MKey::I(k) => slot(&mut row, 0, *k as u64),
        MKey::S(s) if s.len() <= 7 => {
            let mut w = [0u8; 8];
            w[..s.len()].copy_from_slice(s.as_bytes());
            w[7] = 0x80 | s.len() as u8;
            slot(&mut row, 0, u64::from_le_bytes(w));
        }
        MKey::S(s) => {
            slot(&mut row, 0, (32u64 << 32) | s.len() as u64);
            var.extend_from_slice(s.as_bytes());
            var.resize(var.len().div_ceil(8) * 8, 0);
        }
    }
    for (pos, value) in [(1, r.v), (2, r.s)] {
        match value {
            Some(x) => slot(&mut row, pos, x as u64),
            None => row[1] |= 1 << pos,
        }
    }
    row.extend_from_slice(&var);
    row
}

/// A log file (§4.1) of `recs`, uncompressed blocks of the given record counts.
fn log_file(recs: &[Rec], blocks: &[usize]) -> Vec<u8> {
    let mut out = b"WLOG".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    let mut at = 0;
    for &n in blocks {
        let mut raw = Vec::new();
        for r in &recs[at..at + n] {
            let row = binary_row(r);
            raw.extend_from_slice(&(row.len() as u32).to_le_bytes());
            raw.extend_from_slice(&row);
        }
        at += n;
        let start = out.len();
        out.extend_from_slice(b"WBLK");
        out.extend_from_slice(&(20 + raw.len() as u32).to_le_bytes());
        out.extend_from_slice(&0i32.to_le_bytes());
        out.extend_from_slice(&3u32.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
        out.extend_from_slice(&raw);
        let crc = crc32c::crc32c(&out[start..]);
        out.extend_from_slice(&crc.to_le_bytes());
    }
    let footer = out.len();
    out.extend_from_slice(b"WEND");
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    out.extend_from_slice(&(recs.len() as u64).to_le_bytes());
    let crc = crc32c::crc32c(&out[footer..]);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Splits `n` records into pieces of 1 to 4.
fn pieces(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = n;
    while left > 0 {
        let p = (1 + rng.below(4) as usize).min(left);
        out.push(p);
        left -= p;
    }
    out
}

fn batch(schema: &TableSchema, recs: &[Rec]) -> RecordBatch {
    let k: ArrayRef = match recs.first().map(|r| &r.key) {
        Some(MKey::S(_)) => Arc::new(StringArray::from_iter_values(recs.iter().map(
            |r| match &r.key {
                MKey::S(s) => s.clone(),
                MKey::I(_) => unreachable!(),
            },
        ))),
        _ => Arc::new(Int64Array::from_iter_values(recs.iter().map(
            |r| match r.key {
                MKey::I(k) => k,
                MKey::S(_) => unreachable!(),
            },
        ))),
    };
    let v = Arc::new(Int64Array::from(
        recs.iter().map(|r| r.v).collect::<Vec<_>>(),
    ));
    let s = Arc::new(Int64Array::from(
        recs.iter().map(|r| r.s).collect::<Vec<_>>(),
    ));
    RecordBatch::try_new(schema_of(schema, &[0, 1, 2]), vec![k, v, s]).unwrap()
}

/// The runs as the merge reads them: each a log file or batches, split at random.
fn sources(rng: &mut Rng, schema: &TableSchema, runs: &[Vec<Rec>]) -> Vec<Run> {
    runs.iter()
        .enumerate()
        .map(|(i, recs)| {
            let cuts = pieces(rng, recs.len());
            let path = PathBuf::from(format!("run-{i}"));
            if rng.below(2) == 0 {
                let decoder = RowDecoder {
                    path,
                    read: schema.clone(),
                    mapping: None,
                };
                Run::log(LogBytes::Memory(log_file(recs, &cuts).into()), decoder).unwrap()
            } else {
                let mut windows = VecDeque::new();
                let mut at = 0;
                for n in cuts {
                    let part = &recs[at..at + n];
                    windows.push_back((batch(schema, part), part.iter().map(|r| r.kind).collect()));
                    at += n;
                }
                Run {
                    path,
                    source: Source::Batches(windows),
                }
            }
        })
        .collect()
}

/// The table's rows by §7.1, computed from the records of each key in read order.
fn model(runs: &[Vec<Rec>], fold: &str) -> Vec<(MKey, Option<i64>, Option<i64>)> {
    let mut by_key: BTreeMap<MKey, Vec<&Rec>> = BTreeMap::new();
    for r in runs.iter().flatten() {
        by_key.entry(r.key.clone()).or_default().push(r);
    }
    let live = |r: &Rec| r.kind == 0 || r.kind == 2;
    by_key
        .into_iter()
        .filter_map(|(k, recs)| {
            let row = |r: &Rec| (k.clone(), r.v, r.s);
            match fold {
                "last" => Some(recs[recs.len() - 1]).filter(|r| live(r)).map(row),
                "first" => Some(recs[0]).filter(|r| live(r)).map(row),
                "sequence" => {
                    // Greatest s (null below every value), ties to the last.
                    let mut w = recs[0];
                    for r in &recs[1..] {
                        if r.s >= w.s {
                            w = r;
                        }
                    }
                    Some(w).filter(|r| live(r)).map(row)
                }
                _ => {
                    // sum(v), last_value(s); every key stays.
                    let vs: Vec<i64> = recs.iter().filter_map(|r| r.v).collect();
                    let sum =
                        (!vs.is_empty()).then(|| vs.iter().fold(0i64, |a, b| a.wrapping_add(*b)));
                    Some((k.clone(), sum, recs[recs.len() - 1].s))
                }
            }
        })
        .collect()
}

fn fold_of(name: &str) -> Fold {
    match name {
        "last" => Fold::Winner(None),
        "first" => Fold::First,
        "sequence" => Fold::Winner(Some(2)),
        _ => Fold::Columns {
            columns: vec![
                ColumnFold::Last,
                ColumnFold::Agg(AggFn::Sum, ",".into()),
                ColumnFold::Agg(AggFn::LastValue, ",".into()),
            ],
            groups: vec![],
        },
    }
}

fn rows_of(batches: &[RecordBatch]) -> Vec<(MKey, Option<i64>, Option<i64>)> {
    let mut out = Vec::new();
    for b in batches {
        let v = b.column(1).as_primitive::<Int64Type>();
        let s = b.column(2).as_primitive::<Int64Type>();
        for i in 0..b.num_rows() {
            let k = match b.column(0).data_type() {
                arrow_schema::DataType::Utf8 => {
                    MKey::S(b.column(0).as_string::<i32>().value(i).into())
                }
                _ => MKey::I(b.column(0).as_primitive::<Int64Type>().value(i)),
            };
            let get = |a: &Int64Array| a.is_valid(i).then(|| a.value(i));
            out.push((k, get(v), get(s)));
        }
    }
    out
}

fn merge(runs: Vec<Run>, schema: &TableSchema, fold: Fold, limits: MergeLimits) -> GroupMerge {
    GroupMerge::new(
        runs,
        vec![0, 1, 2],
        schema_of(schema, &[0, 1, 2]),
        vec![0],
        fold,
        limits,
    )
    .unwrap()
}

#[test]
fn merges_like_the_model() {
    for seed in 0..400u64 {
        let mut rng = Rng(seed);
        let strings = seed % 2 == 1;
        let schema = table_schema(strings);
        let keys = 1 + rng.below(20);
        let runs: Vec<Vec<Rec>> = (0..1 + rng.below(5))
            .map(|_| {
                let mut recs: Vec<Rec> = (0..rng.below(30))
                    .map(|_| Rec {
                        key: key_of(rng.below(keys), strings),
                        kind: rng.below(4) as u8,
                        v: rng.maybe(1 << 62),
                        s: rng.maybe(4),
                    })
                    .collect();
                // Stable: a file's records of one key stay in the order written.
                recs.sort_by(|a, b| a.key.cmp(&b.key));
                recs
            })
            .collect();
        for fold in ["last", "first", "sequence", "aggregation"] {
            let limits = MergeLimits {
                chunk_records: 1 + rng.below(6) as usize,
                held_rows: 1 + rng.below(20) as usize,
            };
            let runs_read = sources(&mut rng, &schema, &runs);
            let out: Vec<RecordBatch> = merge(runs_read, &schema, fold_of(fold), limits)
                .collect::<Result<_, _>>()
                .unwrap();
            assert!(out.iter().all(|b| b.num_rows() > 0), "seed {seed} {fold}");
            assert_eq!(rows_of(&out), model(&runs, fold), "seed {seed} fold {fold}");
        }
    }
}

#[test]
fn a_file_out_of_key_order_is_corrupt() {
    let schema = table_schema(false);
    let rec = |k: i64| Rec {
        key: MKey::I(k),
        kind: 0,
        v: Some(k),
        s: None,
    };
    let sorted = vec![rec(1), rec(2), rec(3)];
    let unsorted = vec![rec(1), rec(3), rec(2)];
    for log in [true, false] {
        let run = if log {
            let decoder = RowDecoder {
                path: "log-x.wlog".into(),
                read: schema.clone(),
                mapping: None,
            };
            Run::log(
                LogBytes::Memory(log_file(&unsorted, &[2, 1]).into()),
                decoder,
            )
            .unwrap()
        } else {
            Run {
                path: "base-x.parquet".into(),
                source: Source::Batches(VecDeque::from([(batch(&schema, &unsorted), vec![0; 3])])),
            }
        };
        let other = Run {
            path: "base-y.parquet".into(),
            source: Source::Batches(VecDeque::from([(batch(&schema, &sorted), vec![0; 3])])),
        };
        let err = merge(
            vec![other, run],
            &schema,
            Fold::Winner(None),
            MergeLimits::default(),
        )
        .collect::<Result<Vec<_>, _>>()
        .unwrap_err();
        let Error::Corrupt { path, offset, .. } = &err else {
            panic!("{err}");
        };
        let expected = if log {
            ("log-x.wlog", 112, "record 0 of the block")
        } else {
            ("base-x.parquet", 0, "a row")
        };
        assert_eq!((path.to_str().unwrap(), *offset), (expected.0, expected.1));
        assert!(
            err.to_string().contains(&format!(
                "{} has a primary key below the record before it: the file's records are not in key order",
                expected.2
            )),
            "{err}"
        );
    }
}
