"""Random model tests through the Python API, on the corpus tables:

- the changes between two random retained snapshots, applied to the first one's rows, give the
  second one's rows (keyed tables by key, append-only tables as a multiset);
- random filters (comparisons, IN, IS [NOT] NULL, AND, OR, NOT over random columns and values the
  table holds) select exactly the rows a three-valued evaluation in Python selects.
"""

import math
import random
from collections import Counter
from pathlib import Path

import pytest

import weir

TABLES = [
    "keyed_all_types",
    "append_all_types",
    "keyed_sequence_field",
    "keyed_time_partitions",
    "keyed_expired",
    "keyed_incremental_log",
    "keyed_incremental_parquet",
    "keyed_float_partitions",
]
# The merge-engine tables too; the filters only on those without TIMESTAMP(9) columns, whose
# value -2^63 ns (1677-09-21) pandas turns into NaT, which this model cannot compare.
ENGINE_TABLES = [
    "engine_first_row",
    "engine_partial_update",
    "engine_partial_update_ignore_delete",
    "engine_aggregation",
]
SEED = 26


def _key(row, names):
    return tuple(repr(row[n]) for n in names)


@pytest.mark.parametrize("name", TABLES + ENGINE_TABLES)
def test_changes_applied_to_a_snapshot_give_the_later_snapshot(corpus: Path, name: str) -> None:
    t = weir.Table(corpus / name / "table")
    pk = t.schema().primary_key
    ids = [s.commit_id for s in t.snapshots()]
    rnd = random.Random(SEED)
    pairs = {(min(a, b), max(a, b)) for a, b in (rnd.sample(ids, 2) for _ in range(6))} if len(ids) > 1 else set()
    assert pairs
    for a, b in sorted(pairs):
        start = t.scan(snapshot_id=a).to_arrow().to_pylist()
        end = t.scan(snapshot_id=b).to_arrow().to_pylist()
        changes = t.changes(a, b).to_arrow().to_pylist()
        if pk:
            state = {_key(r, pk): repr(r) for r in start}
            for c in changes:
                kind = c.pop("_row_kind")
                k = _key(c, pk)
                if kind in ("-U", "-D"):
                    assert state.pop(k) == repr(c), f"{name} ({a}, {b}]: {kind} of a row that was not there"
                else:
                    assert k not in state, f"{name} ({a}, {b}]: {kind} of a key that was there"
                    state[k] = repr(c)
            assert sorted(state.values()) == sorted(map(repr, end)), f"{name} ({a}, {b}]"
        else:
            bag = Counter(map(repr, start))
            for c in changes:
                kind = c.pop("_row_kind")
                assert kind in ("+I", "-D")
                if kind == "-D":
                    assert bag[repr(c)] > 0
                    bag[repr(c)] -= 1
                else:
                    bag[repr(c)] += 1
            assert +bag == Counter(map(repr, end)), f"{name} ({a}, {b}]"


# Columns whose Python values round-trip exactly as filter literals (nanosecond timestamps do not:
# Python's datetime holds microseconds).
SKIP = {"c_ts9", "c_ltz9"}
OPS = ["=", "!=", "<", "<=", ">", ">="]


def _cmp(op, x, v):
    if x is None:
        return None
    return {"=": x == v, "!=": x != v, "<": x < v, "<=": x <= v, ">": x > v, ">=": x >= v}[op]


def _random_filter(rnd, rows, columns, depth=0):
    """(weir filter, Python three-valued predicate)."""
    r = rnd.random()
    if depth < 2 and r < 0.3:
        (fa, pa_), (fb, pb) = _random_filter(rnd, rows, columns, depth + 1), _random_filter(rnd, rows, columns, depth + 1)
        if rnd.random() < 0.5:
            return fa & fb, lambda row: False if pa_(row) is False or pb(row) is False else (None if pa_(row) is None or pb(row) is None else True)
        return fa | fb, lambda row: True if pa_(row) is True or pb(row) is True else (None if pa_(row) is None or pb(row) is None else False)
    if depth < 2 and r < 0.38:
        f, p = _random_filter(rnd, rows, columns, depth + 1)
        return ~f, lambda row: None if p(row) is None else not p(row)
    c = rnd.choice(columns)
    values = [row[c] for row in rows if row[c] is not None and not (isinstance(row[c], float) and math.isnan(row[c]))]
    if r < 0.45 or not values:
        if rnd.random() < 0.5:
            return weir.col(c).is_null(), lambda row: row[c] is None
        return weir.col(c).is_not_null(), lambda row: row[c] is not None
    if r < 0.6:
        vs = rnd.sample(values, min(3, len(values)))
        return weir.col(c).isin(vs), lambda row: None if row[c] is None else any(row[c] == v for v in vs)
    op = rnd.choice(OPS)
    v = rnd.choice(values)
    return weir.col(c)._cmp({"=": "="}.get(op, op), v), lambda row: _cmp(op, row[c], v)


@pytest.mark.parametrize("name", TABLES + ENGINE_TABLES[1:3])
def test_random_filters_select_what_python_selects(corpus: Path, name: str) -> None:
    t = weir.Table(corpus / name / "table")
    rows = t.scan().to_arrow().to_pylist()
    columns = [c for c in t.schema().arrow.names if c not in SKIP]
    rnd = random.Random(SEED)
    for i in range(25):
        f, p = _random_filter(rnd, rows, columns)
        want = sorted(repr(r) for r in rows if p(r) is True)
        got = sorted(map(repr, t.scan(filter=f).to_arrow().to_pylist()))
        assert got == want, f"{name} filter {i}: {f}"
