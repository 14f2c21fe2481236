"""The Python API on the corpus tables: projection, filters (checked against the unfiltered rows
filtered in Python), the pandas/Polars/DuckDB outputs, and exact errors for bad input."""

import math
import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

import weir


@pytest.fixture()
def keyed(corpus: Path) -> weir.Table:
    return weir.Table(corpus / "keyed_all_types" / "table")


def test_schema_maps_every_type(keyed: weir.Table) -> None:
    s = keyed.schema()
    assert s.primary_key == ["id", "region"]
    assert s.partition_keys == ["region"]
    assert s.options == {"bucket": "2"}
    a = s.arrow
    assert a.field("id").type == pa.int32() and not a.field("id").nullable
    assert a.field("c_decimal_38_10").type == pa.decimal128(38, 10)
    assert a.field("c_ts6").type == pa.timestamp("us")
    assert a.field("c_ltz9").type == pa.timestamp("ns", tz="UTC")
    assert a.field("c_time").type == pa.time32("ms")
    assert a.field("c_bytes").type == pa.binary()
    assert s.types["c_ts9"] == "TIMESTAMP(9)"
    assert keyed.scan().to_arrow().schema == a


def test_projection_keeps_the_requested_order(keyed: weir.Table) -> None:
    full = keyed.scan().to_arrow()
    got = keyed.scan(columns=["c_string", "id"]).to_arrow()
    assert got.column_names == ["c_string", "id"]
    assert sorted(zip(got["id"].to_pylist(), got["c_string"].to_pylist()), key=repr) == sorted(
        zip(full["id"].to_pylist(), full["c_string"].to_pylist()), key=repr
    )


def _rows(t: pa.Table):
    return sorted(map(repr, t.to_pylist()))


@pytest.mark.parametrize(
    "flt, pred",
    [
        (weir.col("id") < 300, lambda r: r["id"] < 300),
        (weir.col("region") == "eu", lambda r: r["region"] == "eu"),
        (weir.col("c_int").is_null(), lambda r: r["c_int"] is None),
        (
            (weir.col("c_bigint") >= 0) | weir.col("c_string").isin(["", "1234567"]),
            lambda r: (r["c_bigint"] is not None and r["c_bigint"] >= 0) or r["c_string"] in ("", "1234567"),
        ),
        ([("id", ">", 100), ("region", "in", ["us", "a b/ü"])], lambda r: r["id"] > 100 and r["region"] in ("us", "a b/ü")),
        (~(weir.col("c_double") > 0.0), lambda r: r["c_double"] is not None and not (r["c_double"] > 0.0) and not math.isnan(r["c_double"])),
    ],
)
def test_filters_match_python_on_the_full_rows(keyed: weir.Table, flt, pred) -> None:
    full = keyed.scan().to_arrow().to_pylist()
    want = sorted(repr(r) for r in full if pred(r))
    got = _rows(keyed.scan(filter=flt).to_arrow())
    assert got == want
    assert 0 < len(want) < len(full)


def test_decimal_and_date_literals(corpus: Path) -> None:
    t = weir.Table(corpus / "keyed_time_partitions" / "table")
    full = t.scan().to_arrow().to_pylist()
    import datetime as dt
    import decimal

    day = full[0]["dt"]
    assert _rows(t.scan(filter=weir.col("dt") == day).to_arrow()) == sorted(repr(r) for r in full if r["dt"] == day)
    lim = decimal.Decimal("0.50")
    assert _rows(t.scan(filter=weir.col("v") > lim).to_arrow()) == sorted(
        repr(r) for r in full if r["v"] is not None and r["v"] > lim
    )
    ts = full[0]["ts"]
    assert isinstance(ts, dt.datetime)
    assert _rows(t.scan(filter=weir.col("ts") == ts).to_arrow()) == sorted(repr(r) for r in full if r["ts"] == ts)


def test_outputs_pandas_polars_duckdb(keyed: weir.Table) -> None:
    n = keyed.scan().to_arrow().num_rows
    assert len(keyed.scan(columns=["id"]).to_pandas()) == n
    assert keyed.scan(columns=["id", "region"]).to_polars().shape == (n, 2)
    conn = duckdb.connect()
    keyed.scan(columns=["id", "region"]).to_duckdb(conn, "orders")
    assert conn.execute("SELECT count(*), count(DISTINCT region) FROM orders").fetchone() == (n, 3)
    batches = list(keyed.scan().to_batches())
    assert sum(b.num_rows for b in batches) == n


def test_changes_have_a_row_kind_column(keyed: weir.Table) -> None:
    c = keyed.changes(1, 2, columns=["id"]).to_arrow()
    assert c.column_names == ["_row_kind", "id"]
    assert set(c["_row_kind"].to_pylist()) <= {"+I", "-U", "+U", "-D"}


def test_a_scan_is_read_once(keyed: weir.Table) -> None:
    s = keyed.scan()
    s.to_arrow()
    with pytest.raises(RuntimeError, match="consumed already"):
        s.to_arrow()


def test_errors_name_what_is_wrong(corpus: Path, keyed: weir.Table, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="No Weir table at"):
        weir.Table(tmp_path)
    with pytest.raises(ValueError, match="Cannot select column 'nope' of table .*: it does not exist"):
        keyed.scan(columns=["nope"])
    with pytest.raises(ValueError, match="Invalid filter: column 'nope' does not exist"):
        keyed.scan(filter=weir.col("nope") == 1)
    with pytest.raises(weir.SnapshotNotFoundError, match="Snapshot 99 of table .* does not exist"):
        keyed.scan(snapshot_id=99)
    with pytest.raises(weir.SnapshotNotFoundError, match="has expired"):
        weir.Table(corpus / "keyed_expired" / "table").scan(snapshot_id=1)
    with pytest.raises(ValueError, match="Choose one of snapshot_id and as_of"):
        keyed.scan(snapshot_id=1, as_of=5)
    with pytest.raises(ValueError, match="as_of needs a time zone"):
        import datetime as dt

        keyed.scan(as_of=dt.datetime(2024, 1, 1))


def test_damaged_logs_are_corrupt_file_errors_naming_file_and_offset(corpus: Path, tmp_path: Path) -> None:
    copy = tmp_path / "t"
    shutil.copytree(corpus / "keyed_sequence_field" / "table", copy)
    logs = sorted(copy.rglob("*.wlog"))
    originals = {p: p.read_bytes() for p in logs}
    for p, data in originals.items():
        b = bytearray(data)
        b[40] ^= 0x10  # in the first block's payload
        p.write_bytes(bytes(b))
    with pytest.raises(weir.CorruptFileError, match=r"Corrupt file .*/log-[^/]*\.wlog at offset 8: block checksum mismatch"):
        weir.Table(copy).scan().to_arrow()
    for p, data in originals.items():
        p.write_bytes(data[:-3])  # torn: the footer is incomplete
    with pytest.raises(weir.CorruptFileError, match=r"/log-[^/]*\.wlog at offset \d+: no footer"):
        weir.Table(copy).scan().to_arrow()
