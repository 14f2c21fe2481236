"""Reading from S3 (a real versitygw 1.8.0 started here, as Weir's Java S3 tests use) and reader
leases, through the Python API (docs/readers.md)."""

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Iterator, Tuple

import pytest

import weir
from conformance_rows import lines


def _binary() -> Path:
    env = os.environ.get("WEIR_VERSITYGW")
    return Path(env) if env else Path.home() / ".cache/weir-test-bin/versitygw-1.8.0"


@pytest.fixture(scope="module")
def s3(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tuple[str, dict]]:
    """versitygw serving copies of two corpus tables in the bucket ``corpus``."""
    binary = _binary()
    if not binary.is_file():
        pytest.fail(f"The S3 tests need versitygw 1.8.0 at {binary} (set WEIR_VERSITYGW; .ci/run builds it)")
    data = tmp_path_factory.mktemp("versitygw")
    for name in ("keyed_sequence_field", "engine_partial_update"):
        shutil.copytree(corpus / name / "table", data / "corpus" / name)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, ROOT_ACCESS_KEY="testkey", ROOT_SECRET_KEY="testsecret")
    proc = subprocess.Popen(
        [str(binary), "--port", f"127.0.0.1:{port}", "--quiet", "posix", str(data)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "versitygw did not start"
                time.sleep(0.05)
        yield str(data), {
            "s3.endpoint": f"http://127.0.0.1:{port}",
            "s3.path-style-access": "true",
            "s3.access-key": "testkey",
            "s3.secret-key": "testsecret",
        }
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("name", ["keyed_sequence_field", "engine_partial_update"])
def test_s3_reads_equal_local_reads(corpus: Path, s3: Tuple[str, dict], name: str) -> None:
    data, options = s3
    local = weir.Table(corpus / name / "table")
    remote = weir.Table(f"s3://corpus/{name}", options)
    assert remote.location == f"s3://corpus/{name}"
    snaps = [s.commit_id for s in local.snapshots()]
    assert [s.commit_id for s in remote.snapshots()] == snaps
    for s in snaps:
        want = lines(local.scan(snapshot_id=s).to_arrow(), with_kind=False)
        assert want and lines(remote.scan(snapshot_id=s).to_arrow(), with_kind=False) == want
    want = lines(local.changes(snaps[0], snaps[-1]).to_arrow(), with_kind=True)
    assert lines(remote.changes(snaps[0], snaps[-1]).to_arrow(), with_kind=True) == want
    # Every scan's lease went through S3 and is gone.
    consumers = Path(data) / "corpus" / name / "_weir" / "consumers"
    assert not consumers.exists() or not any(consumers.iterdir())


def test_s3_errors_name_the_option_and_the_location(s3: Tuple[str, dict]) -> None:
    _, options = s3
    with pytest.raises(FileNotFoundError, match="s3://corpus/missing"):
        weir.Table("s3://corpus/missing", options)
    with pytest.raises(ValueError, match="Unknown storage option 's3.nope'"):
        weir.Table("s3://corpus/keyed_sequence_field", {**options, "s3.nope": "1"})
    with pytest.raises(ValueError, match="'s3.path-style-access' = 'maybe'"):
        weir.Table("s3://corpus/keyed_sequence_field", {**options, "s3.path-style-access": "maybe"})
    with pytest.raises(OSError, match="s3://corpus/keyed_sequence_field"):
        weir.Table("s3://corpus/keyed_sequence_field", {**options, "s3.secret-key": "wrong"})


def test_a_scan_holds_a_lease_until_it_is_read(corpus: Path, tmp_path: Path) -> None:
    table_dir = tmp_path / "t"
    shutil.copytree(corpus / "keyed_sequence_field" / "table", table_dir)
    t = weir.Table(table_dir, consumer_id="py-reader", lease_ttl_seconds=60)
    latest = t.latest_commit_id()
    lease = table_dir / "_weir" / "consumers" / "py-reader.json"
    scan = t.scan()  # planned: the lease is written
    doc = json.loads(lease.read_text())
    assert (doc["consumer-id"], doc["commit-id"], doc["format-version"]) == ("py-reader", latest, 1)
    assert doc["expires-millis"] > time.time() * 1000 + 50_000
    scan.to_arrow()
    assert not lease.exists()
    first = t.snapshots()[0].commit_id
    t.changes(first, latest).to_arrow()
    assert not lease.exists()
    quiet = weir.Table(table_dir, leases=False)
    quiet.scan().to_arrow()
    assert not any((table_dir / "_weir" / "consumers").iterdir())
    with pytest.raises(ValueError, match="Invalid consumer id"):
        weir.Table(table_dir, consumer_id="../x")
    with pytest.raises(ValueError, match="at least 1 s"):
        weir.Table(table_dir, lease_ttl_seconds=0.5)
