"""Renders Arrow rows as weir-flink's ConformanceRows does (docs/readers.md, "Conformance")."""

from __future__ import annotations

import decimal
from typing import List, Optional

import pyarrow as pa


def _quote(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _texts(arr: pa.Array) -> List[Optional[str]]:
    t = arr.type
    valid = arr.is_valid().to_pylist()
    if pa.types.is_boolean(t):
        vals = [None if v is None else ("true" if v else "false") for v in arr.to_pylist()]
    elif pa.types.is_float32(t):
        vals = [None if v is None else "%08x" % v for v in arr.view(pa.uint32()).to_pylist()]
    elif pa.types.is_float64(t):
        vals = [None if v is None else "%016x" % v for v in arr.view(pa.uint64()).to_pylist()]
    elif pa.types.is_decimal(t):
        ctx = decimal.Context(prec=60)
        q = decimal.Decimal(1).scaleb(-t.scale)
        vals = [None if v is None else format(v.quantize(q, context=ctx), "f") for v in arr.to_pylist()]
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        vals = arr.to_pylist()
    elif pa.types.is_binary(t) or pa.types.is_large_binary(t):
        vals = [None if v is None else v.hex() for v in arr.to_pylist()]
    elif pa.types.is_date32(t) or pa.types.is_time32(t):
        vals = [None if v is None else str(v) for v in arr.view(pa.int32()).to_pylist()]
    elif pa.types.is_timestamp(t) or pa.types.is_integer(t):
        view = arr.view(pa.int64()) if pa.types.is_timestamp(t) else arr
        vals = [None if v is None else str(v) for v in view.to_pylist()]
    else:
        raise TypeError(f"unexpected type {t}")
    return [v if ok else None for v, ok in zip(vals, valid)]


def lines(table: pa.Table, with_kind: bool) -> List[str]:
    """The sorted ConformanceRows lines of a table; the first column is _row_kind if with_kind."""
    table = table.combine_chunks()
    cols = [c.chunk(0) if c.num_chunks else pa.array([], c.type) for c in table.columns]
    if with_kind:
        kinds = cols[0].to_pylist()
        cols = cols[1:]
    else:
        kinds = ["+I"] * table.num_rows
    texts = [_texts(c) for c in cols]
    out = []
    for i in range(table.num_rows):
        parts = [_quote(kinds[i])]
        for t in texts:
            parts.append("null" if t[i] is None else _quote(t[i]))
        out.append("[" + ", ".join(parts) + "]")
    out.sort()
    return out
