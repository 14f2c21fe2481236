"""Read Weir lake tables without Flink: snapshots and changes as Arrow, pandas, Polars or DuckDB.

>>> import weir
>>> t = weir.Table("/data/orders")
>>> t.scan(columns=["id", "amount"], filter=weir.col("amount") > 10).to_pandas()

The reading is done by the Rust crate ``weir`` (weir-rs/), which follows docs/format.md; batches
reach Python through the Arrow C stream interface, without copies.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Union

import pyarrow as pa

from . import _weir
from ._filter import Column, Filter, col, to_filter
from ._weir import CorruptFileError, SnapshotNotFoundError, WeirError

if TYPE_CHECKING:  # pragma: no cover
    import duckdb
    import pandas
    import polars

__all__ = [
    "Table",
    "Scan",
    "Snapshot",
    "TableSchema",
    "Filter",
    "Column",
    "col",
    "WeirError",
    "CorruptFileError",
    "SnapshotNotFoundError",
    "ROW_KIND_COLUMN",
]

#: The first column of change reads: ``+I``, ``-U``, ``+U`` or ``-D``.
ROW_KIND_COLUMN = "_row_kind"

FilterLike = Union[Filter, Sequence[Any], None]


@dataclass(frozen=True)
class Snapshot:
    """One retained commit of the table."""

    commit_id: int
    timestamp_millis: int
    kind: str
    schema_id: int

    @property
    def timestamp(self) -> _dt.datetime:
        return _dt.datetime.fromtimestamp(self.timestamp_millis / 1000, tz=_dt.timezone.utc)


@dataclass(frozen=True)
class TableSchema:
    """The table's columns as Arrow fields, with Weir's types, keys and options."""

    arrow: pa.Schema
    types: Dict[str, str]
    primary_key: List[str]
    partition_keys: List[str]
    options: Dict[str, str]


class _SchemaCapsule:
    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __arrow_c_schema__(self) -> Any:
        return self._capsule


def _schema(stream: Any) -> pa.Schema:
    return pa.schema(_SchemaCapsule(stream.schema()))


def _batches(stream: Any) -> Iterator[pa.RecordBatch]:
    while True:
        capsules = stream.next_batch()
        if capsules is None:
            return
        yield pa.RecordBatch._import_from_c_capsule(*capsules)


def _millis(as_of: Union[int, _dt.datetime, _dt.date, None]) -> Optional[int]:
    if as_of is None or isinstance(as_of, int):
        return as_of
    if isinstance(as_of, _dt.datetime):
        if as_of.tzinfo is None:
            raise ValueError(
                "as_of needs a time zone (an aware datetime) or epoch milliseconds: a naive "
                "datetime is ambiguous"
            )
        epoch = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return (as_of - epoch) // _dt.timedelta(milliseconds=1)
    raise TypeError(f"as_of must be epoch milliseconds or an aware datetime, got {as_of!r}")


class Scan:
    """The rows of one read, produced once, one file group at a time (bounded memory).

    Every ``to_*`` method consumes the scan; call :meth:`Table.scan` again for a second read.
    """

    def __init__(self, make_stream: Any) -> None:
        self._make = make_stream
        self._used = False

    def _stream(self) -> Any:
        if self._used:
            raise RuntimeError("This scan was consumed already; call Table.scan() again")
        self._used = True
        return self._make()

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self.to_reader().__arrow_c_stream__(requested_schema)

    def to_reader(self) -> pa.RecordBatchReader:
        """A pyarrow ``RecordBatchReader`` that reads as it is consumed. Errors of the reader
        (e.g. :class:`CorruptFileError`) are raised as they are met."""
        stream = self._stream()
        return pa.RecordBatchReader.from_batches(_schema(stream), _batches(stream))

    def to_batches(self) -> Iterator[pa.RecordBatch]:
        """The record batches, one at a time."""
        return _batches(self._stream())

    def to_arrow(self) -> pa.Table:
        stream = self._stream()
        return pa.Table.from_batches(list(_batches(stream)), _schema(stream))

    def to_pandas(self, **kwargs: Any) -> "pandas.DataFrame":
        return self.to_arrow().to_pandas(**kwargs)

    def to_polars(self) -> "polars.DataFrame":
        import polars as pl

        return pl.from_arrow(self.to_arrow())  # type: ignore[return-value]

    def to_duckdb(self, conn: "duckdb.DuckDBPyConnection", name: str = "weir_scan") -> "duckdb.DuckDBPyRelation":
        """Registers the scan with ``conn`` as the view ``name`` (streamed as DuckDB reads it) and
        returns it as a relation: ``conn.sql(f"SELECT ... FROM {name}")`` works too."""
        reader = self.to_reader()
        conn.register(name, reader)
        return conn.table(name)


class Table:
    """A Weir table at a local path or ``s3://bucket/path`` (docs/readers.md).

    ``storage_options`` are the ``s3.*`` options of Weir's Java side (``s3.endpoint``,
    ``s3.region``, ``s3.path-style-access``, ``s3.access-key``, ``s3.secret-key``,
    ``s3.max-connections``, ``s3.max-retries``); what is missing comes from the ``AWS_*``
    environment variables. Each scan leases the snapshot it reads while it reads
    (``_weir/consumers/<consumer_id>.json``, so that snapshot expiry keeps its files), under
    ``consumer_id`` or a new id per scan, for ``lease_ttl_seconds`` and renewed as it reads;
    ``leases=False`` reads without one (a table that is read-only to this reader).
    """

    def __init__(
        self,
        path: Union[str, "os.PathLike[str]"],
        storage_options: Optional[Dict[str, str]] = None,
        *,
        leases: bool = True,
        consumer_id: Optional[str] = None,
        lease_ttl_seconds: float = 3600.0,
    ) -> None:
        self._t = _weir.Table(
            os.fspath(path),
            dict(storage_options) if storage_options is not None else None,
            leases,
            consumer_id,
            float(lease_ttl_seconds),
        )

    @property
    def location(self) -> str:
        return str(self._t.location)

    def latest_commit_id(self) -> int:
        return self._t.latest_commit_id()

    def snapshots(self) -> List[Snapshot]:
        """The retained commits, oldest first."""
        return [Snapshot(*s) for s in self._t.snapshots()]

    def schema(self) -> TableSchema:
        capsule, pk, parts, options, types = self._t.schema()
        return TableSchema(
            arrow=pa.schema(_SchemaCapsule(capsule)),
            types=dict(types),
            primary_key=list(pk),
            partition_keys=list(parts),
            options=dict(options),
        )

    def scan(
        self,
        columns: Optional[Sequence[str]] = None,
        filter: FilterLike = None,
        snapshot_id: Optional[int] = None,
        as_of: Union[int, _dt.datetime, None] = None,
    ) -> Scan:
        """The rows of a snapshot (the latest, ``snapshot_id``, or the latest at or before
        ``as_of``, epoch milliseconds or an aware datetime), merged as Weir reads them."""
        f = to_filter(filter)
        text = f.to_json() if f is not None else None
        cols = list(columns) if columns is not None else None
        millis = _millis(as_of)
        # Plan now, so that bad arguments fail here rather than at the first batch.
        first = self._t.scan(cols, text, snapshot_id, millis)
        pending = [first]

        def make() -> Any:
            return pending.pop() if pending else self._t.scan(cols, text, snapshot_id, millis)

        return Scan(make)

    def changes(
        self,
        from_commit: int,
        to_commit: int,
        columns: Optional[Sequence[str]] = None,
        filter: FilterLike = None,
    ) -> Scan:
        """The net changes after ``from_commit`` up to and including ``to_commit``, with a first
        column ``_row_kind`` (``+I``, ``-U``, ``+U``, ``-D``)."""
        f = to_filter(filter)
        text = f.to_json() if f is not None else None
        cols = list(columns) if columns is not None else None
        first = self._t.changes(from_commit, to_commit, cols, text)
        pending = [first]

        def make() -> Any:
            return pending.pop() if pending else self._t.changes(from_commit, to_commit, cols, text)

        return Scan(make)

    def __repr__(self) -> str:
        return f"weir.Table({self.location!r})"
