import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The conformance corpus of weir-flink's ReaderCorpus*Test classes (docs/readers.md)."""
    d = Path(os.environ.get("WEIR_READER_CORPUS", REPO / "weir-flink/target/reader-corpus"))
    if not (d / "keyed_all_types").is_dir():
        pytest.fail(
            f"No conformance corpus at {d}: run ./mvnw -pl weir-flink -am test "
            "-Dtest='ReaderCorpus*Test' first, or set WEIR_READER_CORPUS"
        )
    return d
