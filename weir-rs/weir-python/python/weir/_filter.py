"""Filters for scans: ``weir.col("x") > 5``, combined with ``&``, ``|`` and ``~``.

A filter prunes partitions and files by their statistics and is applied to every row; comparisons
with a null are unknown and drop the row (SQL's three-valued logic).
"""

from __future__ import annotations

import datetime as _dt
import decimal as _decimal
import json
from typing import Any, Iterable, Union

Scalar = Union[bool, int, float, str, bytes, _decimal.Decimal, _dt.date, _dt.datetime, _dt.time]


def _literal(value: Any) -> dict:
    if isinstance(value, bool):
        return {"t": "bool", "v": value}
    if isinstance(value, int):
        return {"t": "int", "v": value}
    if isinstance(value, float):
        # As text: JSON has no NaN or infinities; repr is exact (the shortest round-trip form).
        return {"t": "float", "v": repr(value)}
    if isinstance(value, str):
        return {"t": "str", "v": value}
    if isinstance(value, (bytes, bytearray)):
        return {"t": "bytes", "v": list(value)}
    if isinstance(value, _decimal.Decimal):
        return {"t": "str", "v": format(value, "f")}
    if isinstance(value, _dt.datetime) and type(value).__name__ == "Timestamp" and isinstance(getattr(value, "value", None), int):
        # A pandas.Timestamp (what pyarrow returns for nanosecond columns): its exact nanoseconds
        # since the epoch (UTC for an aware one); datetime arithmetic would overflow at its range ends.
        millis, nanos = divmod(value.value, 1_000_000)
        return {"t": "str", "v": f"{millis}.{nanos}"}
    if isinstance(value, _dt.datetime):
        # The canonical timestamp text (docs/format.md §2.3): epoch millis "." nano of milli.
        # A naive datetime is a wall-clock TIMESTAMP (read in UTC), an aware one an instant.
        epoch = _dt.datetime(1970, 1, 1, tzinfo=None if value.tzinfo is None else _dt.timezone.utc)
        delta = value - epoch
        micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
        millis, micro_of_milli = divmod(micros, 1000)
        return {"t": "str", "v": f"{millis}.{micro_of_milli * 1000}"}
    if isinstance(value, _dt.date):
        return {"t": "str", "v": value.isoformat()}
    if isinstance(value, _dt.time):
        return {"t": "str", "v": value.isoformat(timespec="milliseconds")}
    raise TypeError(f"Cannot use {value!r} ({type(value).__name__}) in a Weir filter")


class Filter:
    """A predicate on columns; build one with :func:`col`."""

    __slots__ = ("_node",)

    def __init__(self, node: dict) -> None:
        self._node = node

    def __and__(self, other: "Filter") -> "Filter":
        return Filter({"op": "and", "a": self._node, "b": _node(other)})

    def __or__(self, other: "Filter") -> "Filter":
        return Filter({"op": "or", "a": self._node, "b": _node(other)})

    def __invert__(self) -> "Filter":
        return Filter({"op": "not", "a": self._node})

    def __bool__(self) -> bool:
        raise TypeError("Combine Weir filters with &, | and ~, not with and/or/not")

    def to_json(self) -> str:
        return json.dumps(self._node)

    def __repr__(self) -> str:
        return f"Filter({self.to_json()})"


def _node(f: Filter) -> dict:
    if not isinstance(f, Filter):
        raise TypeError(f"Expected a weir filter, got {f!r}")
    return f._node


class Column:
    """A column reference for filters."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _cmp(self, op: str, value: Any) -> Filter:
        return Filter({"op": op, "col": self.name, "lit": _literal(value)})

    def __eq__(self, value: Any) -> Filter:  # type: ignore[override]
        return self._cmp("=", value)

    def __ne__(self, value: Any) -> Filter:  # type: ignore[override]
        return self._cmp("!=", value)

    def __lt__(self, value: Any) -> Filter:
        return self._cmp("<", value)

    def __le__(self, value: Any) -> Filter:
        return self._cmp("<=", value)

    def __gt__(self, value: Any) -> Filter:
        return self._cmp(">", value)

    def __ge__(self, value: Any) -> Filter:
        return self._cmp(">=", value)

    __hash__ = None  # type: ignore[assignment]

    def isin(self, values: Iterable[Any]) -> Filter:
        return Filter({"op": "in", "col": self.name, "lits": [_literal(v) for v in values]})

    def is_null(self) -> Filter:
        return Filter({"op": "is_null", "col": self.name})

    def is_not_null(self) -> Filter:
        return Filter({"op": "is_not_null", "col": self.name})


def col(name: str) -> Column:
    """A reference to the column ``name``, for filters: ``col("amount") >= 10``."""
    return Column(name)


_OPS = {"=": "=", "==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def to_filter(spec: Any) -> Filter | None:
    """Accepts a :class:`Filter`, None, or pyarrow-style DNF: ``[("a", "=", 1), ("b", "in", [1, 2])]``
    (a list of tuples is their AND; a list of such lists is the OR of those)."""
    if spec is None or isinstance(spec, Filter):
        return spec
    if isinstance(spec, (list, tuple)) and spec and all(isinstance(c, (list, tuple)) for c in spec):
        if all(isinstance(c, tuple) for c in spec):
            parts = [_tuple(c) for c in spec]
            out = parts[0]
            for p in parts[1:]:
                out = out & p
            return out
        ors = [to_filter(list(c)) for c in spec]
        out = ors[0]
        for p in ors[1:]:
            out = out | p  # type: ignore[operator]
        return out
    raise TypeError(f"Invalid filter {spec!r}: use weir.col(...) expressions or a list of (column, op, value)")


def _tuple(t: tuple) -> Filter:
    if len(t) != 3:
        raise TypeError(f"Invalid filter term {t!r}: expected (column, op, value)")
    name, op, value = t
    c = Column(name)
    if op == "in":
        return c.isin(value)
    if op == "not in":
        return ~c.isin(value)
    if op not in _OPS:
        raise ValueError(f"Invalid filter operator {op!r} (allowed: {', '.join(_OPS)}, in, not in)")
    return c._cmp(_OPS[op], value)
