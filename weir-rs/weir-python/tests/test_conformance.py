"""Every snapshot and change range of the corpus, read through the Python API, is exactly what
Weir's Flink source returned (weir-flink ReaderCorpus*Test)."""

import json
from pathlib import Path

import pytest

import weir
from conformance_rows import lines

TABLES = [
    "keyed_all_types",
    "append_all_types",
    "keyed_sequence_field",
    "keyed_delta_integers",
    "keyed_time_partitions",
    "keyed_expired",
    "engine_first_row",
    "engine_partial_update",
    "engine_partial_update_ignore_delete",
    "engine_aggregation",
    "schema_evolved",
    "schema_evolved_append",
    "keyed_incremental_log",
    "keyed_incremental_parquet",
    "keyed_float_partitions",
    "keyed_partition_rescaled",
    "keyed_row_groups",
]


def _filter(e: list) -> weir.Filter:
    """A manifest filter (weir-flink CorpusFilters); literals are canonical texts (str)."""
    op = e[0]
    if op == "and":
        return _filter(e[1]) & _filter(e[2])
    if op == "or":
        return _filter(e[1]) | _filter(e[2])
    if op == "not":
        return ~_filter(e[1])
    c = weir.col(e[1])
    if op == "is_null":
        return c.is_null()
    if op == "is_not_null":
        return c.is_not_null()
    if op == "in":
        return c.isin(e[2])
    return {"=": c.__eq__, "!=": c.__ne__, "<": c.__lt__, "<=": c.__le__, ">": c.__gt__, ">=": c.__ge__}[op](e[2])


def _expected(path: Path):
    return sorted(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("name", TABLES)
def test_snapshots_and_changes_match_the_flink_source(corpus: Path, name: str) -> None:
    d = corpus / name
    manifest = json.loads((d / "expected/manifest.json").read_text())
    t = weir.Table(d / "table")
    assert [s.commit_id for s in t.snapshots()] == manifest["snapshots"]
    for s in manifest["snapshots"]:
        got = lines(t.scan(snapshot_id=s).to_arrow(), with_kind=False)
        assert got == _expected(d / f"expected/snapshot-{s}.jsonl"), f"{name} snapshot {s}"
    for a, b in manifest["changes"]:
        got = lines(t.changes(a, b).to_arrow(), with_kind=True)
        assert got == _expected(d / f"expected/changes-{a}-{b}.jsonl"), f"{name} changes ({a}, {b}]"
    for i, f in enumerate(manifest.get("filters", [])):
        flt = _filter(f["expr"])
        for s in f["snapshots"]:
            got = lines(t.scan(filter=flt, snapshot_id=s).to_arrow(), with_kind=False)
            assert got == _expected(d / f"expected/filter-{i}-snapshot-{s}.jsonl"), f"{name} filter {i} {flt}"
        for a, b in f["changes"]:
            got = lines(t.changes(a, b, filter=flt).to_arrow(), with_kind=True)
            assert got == _expected(d / f"expected/filter-{i}-changes-{a}-{b}.jsonl"), f"{name} filter {i} {flt}"
    p = manifest.get("projected_changes")
    if p:
        a, b = p["range"]
        got = lines(t.changes(a, b, columns=p["columns"]).to_arrow(), with_kind=True)
        assert got == _expected(d / f"expected/projected-changes-{a}-{b}.jsonl")


def test_as_of_reads_the_snapshot_current_at_that_time(corpus: Path) -> None:
    t = weir.Table(corpus / "keyed_sequence_field" / "table")
    snaps = t.snapshots()
    for s in snaps:
        # The last commit at or before its timestamp: this one, or a later one of the same millisecond.
        at = lines(t.scan(as_of=s.timestamp_millis).to_arrow(), with_kind=False)
        same_ms = [x.commit_id for x in snaps if x.timestamp_millis == s.timestamp_millis]
        assert at == lines(t.scan(snapshot_id=max(same_ms)).to_arrow(), with_kind=False)
        assert lines(t.scan(as_of=s.timestamp).to_arrow(), with_kind=False) == at
    with pytest.raises(weir.SnapshotNotFoundError, match="has no snapshot as of"):
        t.scan(as_of=snaps[0].timestamp_millis - 10**9)
