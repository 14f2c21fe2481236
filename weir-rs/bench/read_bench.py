"""Read benchmark of the Python package (docs/readers.md, "Benchmark"): full scans to Arrow of a
Weir table (uncompacted and compacted) against DuckDB's read_parquet over the compacted table's
base files and pypaimon over the equivalent Paimon table. Each reader runs in a child process of
its own, `--repeat` times; each run prints rows, wall seconds, rows/s and CPU seconds (user + sys
of the process over the read, all threads), and the load average (1 minute) before and after.

    python weir-rs/bench/read_bench.py --weir LOGS_TABLE --weir COMPACTED_TABLE \
        --duckdb COMPACTED_TABLE --paimon WAREHOUSE:DB.TABLE [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Tuple


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _timed(read: Callable[[], int]) -> dict:
    cpu, wall = _cpu(), time.perf_counter()
    rows = read()
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    return {"rows": rows, "seconds": round(wall, 3), "rows_per_s": round(rows / wall), "cpu_s": round(cpu, 3)}


def read_weir(path: str) -> int:
    import weir

    # No lease: the benchmark measures the read alone.
    return weir.Table(path, leases=False).scan().to_arrow().num_rows


def read_duckdb(path: str) -> int:
    import duckdb

    files = sorted(str(p) for p in Path(path).rglob("base-*.parquet"))
    if not files:
        raise SystemExit(f"No base files under {path}: compact the table first")
    out = duckdb.connect().sql(f"SELECT * FROM read_parquet({files!r})").arrow()
    # DuckDB 2 returns a RecordBatchReader, older versions a Table.
    return (out.read_all() if hasattr(out, "read_all") else out).num_rows


def read_paimon(spec: str) -> int:
    from pypaimon import CatalogFactory

    warehouse, table = spec.rsplit(":", 1)
    catalog = CatalogFactory.create({"warehouse": warehouse})
    t = catalog.get_table(table)
    rb = t.new_read_builder()
    splits = rb.new_scan().plan().splits()
    return rb.new_read().to_arrow(splits).num_rows


READERS = {"weir": read_weir, "duckdb": read_duckdb, "paimon": read_paimon}


def _child(kind: str, target: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, target], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--weir", action="append", default=[], help="a Weir table directory")
    p.add_argument("--duckdb", action="append", default=[], help="a compacted Weir table directory")
    p.add_argument("--paimon", action="append", default=[], help="WAREHOUSE:DATABASE.TABLE")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--child", nargs=2, metavar=("KIND", "TARGET"), help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        print(json.dumps(_timed(lambda: READERS[a.child[0]](a.child[1]))))
        return
    runs: list[Tuple[str, str]] = (
        [("weir", t) for t in a.weir] + [("duckdb", t) for t in a.duckdb] + [("paimon", t) for t in a.paimon]
    )
    for kind, target in runs:
        for i in range(a.repeat):
            # The 1-minute load average before and after, since the machine may be shared.
            before = os.getloadavg()[0]
            r = _child(kind, target)
            load = [round(before, 2), round(os.getloadavg()[0], 2)]
            print(json.dumps({"reader": kind, "target": target, "run": i + 1, **r, "load": load}), flush=True)


if __name__ == "__main__":
    main()
