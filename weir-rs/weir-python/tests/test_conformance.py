"""Every snapshot and change range of the corpus, read through the Python API, is exactly what
Weir's Flink source returned (weir-flink ReaderCorpusTest)."""

import json
from pathlib import Path

import pytest

import weir
from conformance_rows import lines

TABLES = ["keyed_all_types", "append_all_types", "keyed_sequence_field", "keyed_time_partitions", "keyed_expired"]


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
