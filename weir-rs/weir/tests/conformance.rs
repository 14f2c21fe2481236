//! The reader against the conformance corpus that weir-flink's `ReaderCorpus*Test` classes write:
//! for every retained snapshot and every recorded range of changes, the same rows, values and row
//! kinds as Weir's Flink source (docs/readers.md, "Conformance").
//!
//! The corpus is read from `$WEIR_READER_CORPUS`, by default `weir-flink/target/reader-corpus`;
//! the test fails if it is missing (run the Maven test first, as `weir-rs/ci.sh` does).

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType as ArrowType, TimeUnit};
use weir::{Expr, Literal, Op, SnapshotSpec, Table};

fn corpus() -> PathBuf {
    let dir = std::env::var_os("WEIR_READER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weir-flink/target/reader-corpus")
        });
    assert!(
        dir.join("keyed_all_types").is_dir(),
        "No conformance corpus at {}: run `./mvnw -pl weir-flink -am test -Dtest='ReaderCorpus*Test'` first, or set WEIR_READER_CORPUS",
        dir.display()
    );
    dir
}

/// A value's text as `ConformanceRows` (Java) writes it.
fn text(a: &ArrayRef, i: usize) -> Option<String> {
    if a.is_null(i) {
        return None;
    }
    Some(match a.data_type() {
        ArrowType::Boolean => a.as_boolean().value(i).to_string(),
        ArrowType::Int8 => a.as_primitive::<Int8Type>().value(i).to_string(),
        ArrowType::Int16 => a.as_primitive::<Int16Type>().value(i).to_string(),
        ArrowType::Int32 => a.as_primitive::<Int32Type>().value(i).to_string(),
        ArrowType::Int64 => a.as_primitive::<Int64Type>().value(i).to_string(),
        ArrowType::Date32 => a.as_primitive::<Date32Type>().value(i).to_string(),
        ArrowType::Time32(_) => a
            .as_primitive::<Time32MillisecondType>()
            .value(i)
            .to_string(),
        ArrowType::Float32 => format!("{:08x}", a.as_primitive::<Float32Type>().value(i).to_bits()),
        ArrowType::Float64 => format!(
            "{:016x}",
            a.as_primitive::<Float64Type>().value(i).to_bits()
        ),
        ArrowType::Decimal128(_, s) => {
            plain_decimal(a.as_primitive::<Decimal128Type>().value(i), *s as u32)
        }
        ArrowType::Utf8 => a.as_string::<i32>().value(i).to_string(),
        ArrowType::Binary => a
            .as_binary::<i32>()
            .value(i)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        ArrowType::Timestamp(TimeUnit::Millisecond, _) => a
            .as_primitive::<TimestampMillisecondType>()
            .value(i)
            .to_string(),
        ArrowType::Timestamp(TimeUnit::Microsecond, _) => a
            .as_primitive::<TimestampMicrosecondType>()
            .value(i)
            .to_string(),
        ArrowType::Timestamp(TimeUnit::Nanosecond, _) => a
            .as_primitive::<TimestampNanosecondType>()
            .value(i)
            .to_string(),
        other => panic!("unexpected type {other}"),
    })
}

fn plain_decimal(v: i128, scale: u32) -> String {
    let digits = v.unsigned_abs().to_string();
    let s = scale as usize;
    let body = if s == 0 {
        digits
    } else {
        let padded = format!("{digits:0>width$}", width = s + 1);
        format!(
            "{}.{}",
            &padded[..padded.len() - s],
            &padded[padded.len() - s..]
        )
    };
    if v < 0 { format!("-{body}") } else { body }
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Rows as `ConformanceRows` lines; `kind_column` is the index of `_row_kind`, if any.
fn lines(batches: &[RecordBatch], kind_column: Option<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for b in batches {
        for i in 0..b.num_rows() {
            let kind = match kind_column {
                Some(k) => b.column(k).as_string::<i32>().value(i).to_string(),
                None => "+I".to_string(),
            };
            let mut line = format!("[{}", quote(&kind));
            for c in 0..b.num_columns() {
                if Some(c) == kind_column {
                    continue;
                }
                line.push_str(", ");
                match text(b.column(c), i) {
                    Some(t) => line.push_str(&quote(&t)),
                    None => line.push_str("null"),
                }
            }
            line.push(']');
            out.push(line);
        }
    }
    out.sort();
    out
}

fn expected(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut rows: Vec<String> = text.lines().map(str::to_string).collect();
    rows.sort();
    rows
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("expected/manifest.json")).unwrap())
        .unwrap()
}

/// A filter of the manifest (weir-flink `CorpusFilters`): literals are canonical texts.
fn filter(v: &serde_json::Value) -> Expr {
    let a = v.as_array().unwrap();
    let s = |i: usize| a[i].as_str().unwrap().to_string();
    let lit = |v: &serde_json::Value| Literal::Str(v.as_str().unwrap().to_string());
    let op = s(0);
    match op.as_str() {
        "and" => Expr::And(Box::new(filter(&a[1])), Box::new(filter(&a[2]))),
        "or" => Expr::Or(Box::new(filter(&a[1])), Box::new(filter(&a[2]))),
        "not" => Expr::Not(Box::new(filter(&a[1]))),
        "is_null" => Expr::IsNull(s(1)),
        "is_not_null" => Expr::IsNotNull(s(1)),
        "in" => Expr::In(s(1), a[2].as_array().unwrap().iter().map(lit).collect()),
        _ => {
            let op = match op.as_str() {
                "=" => Op::Eq,
                "!=" => Op::Ne,
                "<" => Op::Lt,
                "<=" => Op::Le,
                ">" => Op::Gt,
                ">=" => Op::Ge,
                other => panic!("unknown operator {other}"),
            };
            Expr::Cmp(s(1), op, lit(&a[2]))
        }
    }
}

/// Filtered snapshot and change reads: the same rows as the Flink source with that filter.
fn check_filters(name: &str, dir: &Path, table: &Table, m: &serde_json::Value) {
    let Some(filters) = m.get("filters") else {
        return;
    };
    for (i, f) in filters.as_array().unwrap().iter().enumerate() {
        let expr = filter(&f["expr"]);
        for s in f["snapshots"].as_array().unwrap() {
            let s = s.as_i64().unwrap();
            let batches: Vec<RecordBatch> = table
                .scan(None, Some(&expr), SnapshotSpec::Id(s))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let want = expected(&dir.join(format!("expected/filter-{i}-snapshot-{s}.jsonl")));
            assert_eq!(
                lines(&batches, None),
                want,
                "{name} filter {i} {expr:?} snapshot {s}"
            );
        }
        for r in f["changes"].as_array().unwrap() {
            let (from, to) = (r[0].as_i64().unwrap(), r[1].as_i64().unwrap());
            let batches: Vec<RecordBatch> = table
                .changes(from, to, None, Some(&expr))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let want =
                expected(&dir.join(format!("expected/filter-{i}-changes-{from}-{to}.jsonl")));
            assert_eq!(
                lines(&batches, Some(0)),
                want,
                "{name} filter {i} {expr:?} changes ({from}, {to}]"
            );
        }
    }
}

fn check(name: &str) {
    let dir = corpus().join(name);
    let table = Table::open(dir.join("table")).unwrap();
    let m = manifest(&dir);
    let snapshots: Vec<i64> = m["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert!(!snapshots.is_empty());
    for &s in &snapshots {
        let batches: Vec<RecordBatch> = table
            .scan(None, None, SnapshotSpec::Id(s))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let want = expected(&dir.join(format!("expected/snapshot-{s}.jsonl")));
        let got = lines(&batches, None);
        assert_eq!(got.len(), want.len(), "{name} snapshot {s}: row count");
        assert_eq!(got, want, "{name} snapshot {s}");
    }
    for r in m["changes"].as_array().unwrap() {
        let (from, to) = (r[0].as_i64().unwrap(), r[1].as_i64().unwrap());
        let batches: Vec<RecordBatch> = table
            .changes(from, to, None, None)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let want = expected(&dir.join(format!("expected/changes-{from}-{to}.jsonl")));
        assert_eq!(
            lines(&batches, Some(0)),
            want,
            "{name} changes ({from}, {to}]"
        );
    }
    if let Some(p) = m.get("projected_changes") {
        let columns: Vec<String> = p["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        let (from, to) = (
            p["range"][0].as_i64().unwrap(),
            p["range"][1].as_i64().unwrap(),
        );
        let batches: Vec<RecordBatch> = table
            .changes(from, to, Some(&columns), None)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let want = expected(&dir.join(format!("expected/projected-changes-{from}-{to}.jsonl")));
        assert!(!want.is_empty());
        assert_eq!(
            lines(&batches, Some(0)),
            want,
            "{name} projected changes ({from}, {to}]"
        );
    }
    check_filters(name, &dir, &table, &m);
    // The latest snapshot is the last one, also by time.
    let latest = *snapshots.last().unwrap();
    assert_eq!(table.latest_commit_id().unwrap(), latest);
    let info = table.snapshots().unwrap();
    assert_eq!(
        info.iter().map(|s| s.commit_id).collect::<Vec<_>>(),
        snapshots
    );
    for s in &info {
        assert!(
            table
                .commit_id_of(SnapshotSpec::AsOf(s.timestamp_millis))
                .unwrap()
                >= s.commit_id
        );
    }
}

#[test]
fn keyed_all_types() {
    check("keyed_all_types");
}

#[test]
fn append_all_types() {
    check("append_all_types");
}

#[test]
fn keyed_sequence_field() {
    check("keyed_sequence_field");
}

/// Every type stored as a Parquet integer, DELTA_BINARY_PACKED in the base files where it pays
/// (docs/format.md §5.2).
#[test]
fn keyed_delta_integers() {
    check("keyed_delta_integers");
}

/// Incremental compaction (docs/format.md §6.3): merged newest runs as one log, or as base files
/// and a log of deletes, placed by the greatest sequence they merged.
#[test]
fn keyed_incremental_log() {
    check("keyed_incremental_log");
}

#[test]
fn keyed_incremental_parquet() {
    check("keyed_incremental_parquet");
}

/// Canonical FLOAT/DOUBLE texts (docs/format.md §2.3): a DOUBLE partition key with values whose
/// JDK 17 texts differ (one partition named as JDK 17 did), FLOAT/DOUBLE statistics, filters that
/// prune by both.
#[test]
fn keyed_float_partitions() {
    check("keyed_float_partitions");
}

/// A base file of several Parquet row groups (`file.row-group-size` = 1 mb), a log after it.
#[test]
fn keyed_row_groups() {
    check("keyed_row_groups");
}

#[test]
fn keyed_time_partitions() {
    check("keyed_time_partitions");
}

/// A partition rescaled apart from the table, then the whole table (docs/rescale.md): files with
/// `total-buckets`, partitions of two counts in one snapshot, changes read apart at rescales.
#[test]
fn keyed_partition_rescaled() {
    check("keyed_partition_rescaled");
}

#[test]
fn keyed_expired() {
    check("keyed_expired");
    let dir = corpus().join("keyed_expired");
    let table = Table::open(dir.join("table")).unwrap();
    let err = table
        .scan(None, None, SnapshotSpec::Id(1))
        .err()
        .expect("expired");
    assert!(err.to_string().contains("has expired"), "{err}");
}

#[test]
fn engine_first_row() {
    check("engine_first_row");
}

#[test]
fn engine_partial_update() {
    check("engine_partial_update");
}

#[test]
fn engine_partial_update_ignore_delete() {
    check("engine_partial_update_ignore_delete");
}

#[test]
fn engine_aggregation() {
    check("engine_aggregation");
}

/// Schema evolution (docs/format.md §6.9): columns added, dropped, renamed and widened (to
/// STRING too) over four versions, files of every version before and after each change, some
/// compacted in between; every snapshot reads in its own version's columns, changes in the end's,
/// exactly as the Flink source reads them.
#[test]
fn schema_evolved() {
    check("schema_evolved");
    let dir = corpus().join("schema_evolved");
    let table = Table::open(dir.join("table")).unwrap();
    let versions: Vec<i64> = table
        .snapshots()
        .unwrap()
        .iter()
        .map(|s| s.schema_id)
        .collect();
    for v in 0..=3 {
        assert!(
            versions.contains(&v),
            "schema {v} in force at some snapshot: {versions:?}"
        );
    }
    // Each snapshot in its own version's columns.
    for s in table.snapshots().unwrap() {
        let scan = table
            .scan(None, None, SnapshotSpec::Id(s.commit_id))
            .unwrap();
        let names: Vec<String> = scan
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        assert_eq!(
            names.contains(&"new_name".to_string()),
            s.schema_id >= 1,
            "{names:?}"
        );
        assert_eq!(
            names.first().map(String::as_str),
            Some(if s.schema_id >= 1 {
                "added_first"
            } else {
                "id"
            })
        );
    }
}

/// Filters on columns of every kind of change in the evolved tables (integer, DECIMAL and VARCHAR
/// widenings, every type turned into STRING): a file's statistics prune only where its version's
/// type keeps their order and texts (§6.9), so every filtered read is exactly the unfiltered rows
/// that match, in every snapshot (append-only tables and base-only groups are pruned file by
/// file).
#[test]
fn schema_evolved_filters_match_the_unfiltered_rows() {
    filters_match_the_unfiltered_rows("schema_evolved");
}

#[test]
fn schema_evolved_append_filters_match_the_unfiltered_rows() {
    check("schema_evolved_append");
    filters_match_the_unfiltered_rows("schema_evolved_append");
}

fn filters_match_the_unfiltered_rows(name: &str) {
    let dir = corpus().join(name);
    let table = Table::open(dir.join("table")).unwrap();
    let mut checked = 0;
    for s in table.snapshots().unwrap() {
        let spec = SnapshotSpec::Id(s.commit_id);
        let all: Vec<RecordBatch> = table
            .scan(None, None, spec)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let schema = all[0].schema();
        for col in [
            "c_int",
            "c_decimal",
            "c_varchar",
            "c_float",
            "s_int",
            "s_float",
            "s_double",
            "s_decimal",
            "s_ts3",
            "new_name",
            "added_last",
            "w_tinyint",
            "w_smallint",
            "w_decimal",
            "w_varchar",
            "s_time0",
            "s_time",
            "s_ltz3",
            "s_ltz",
            "s_char",
            "s_binary",
            "s_varbinary",
        ] {
            let Ok(c) = schema.index_of(col) else {
                continue;
            };
            if !matches!(
                schema.field(c).data_type(),
                ArrowType::Int32 | ArrowType::Int64 | ArrowType::Decimal128(_, _) | ArrowType::Utf8
            ) {
                continue;
            }
            let mut values: Vec<String> = all
                .iter()
                .flat_map(|b| (0..b.num_rows()).filter_map(|i| text(b.column(c), i)))
                .collect();
            values.sort();
            values.dedup();
            let picks = [
                0,
                values.len() / 3,
                values.len() / 2,
                values.len().saturating_sub(1),
            ];
            for v in picks.iter().filter_map(|&i| values.get(i)) {
                let expr = Expr::Cmp(col.into(), Op::Eq, Literal::Str(v.clone()));
                let got: Vec<RecordBatch> = table
                    .scan(None, Some(&expr), spec)
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                let mut want: Vec<String> = Vec::new();
                for b in &all {
                    for i in 0..b.num_rows() {
                        if text(b.column(c), i).as_ref() == Some(v) {
                            want.extend(lines(&[b.slice(i, 1)], None));
                        }
                    }
                }
                want.sort();
                assert!(!want.is_empty());
                assert_eq!(
                    lines(&got, None),
                    want,
                    "snapshot {} {col} = {v}",
                    s.commit_id
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{name}: {checked}");
}
