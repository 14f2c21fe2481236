#!/usr/bin/env bash
# Builds and tests the native reader: the Rust crate (fmt, clippy, cargo test) and the Python wheel
# (maturin, pytest). Both conformance suites read the corpus that weir-flink's ReaderCorpus*Test
# classes write during `./mvnw verify` (weir-flink/target/reader-corpus), so run this after Maven.
# Needs cargo (rustup's, on the machine) and python3 with venv; the Python packages come from PyPI
# into a virtualenv kept under ~/.cache, so later runs reuse it. The S3 tests (Rust and Python) start
# versitygw 1.8.0 themselves from $WEIR_VERSITYGW, else ~/.cache/weir-test-bin/versitygw-1.8.0
# (.ci/run builds it before Maven).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
export WEIR_READER_CORPUS="${WEIR_READER_CORPUS:-$PWD/../weir-flink/target/reader-corpus}"
if ! command -v cargo >/dev/null 2>&1; then
  echo "weir-rs/ci.sh: cargo not found (install Rust with rustup: https://rustup.rs)" >&2
  exit 1
fi
cargo --version

start=$(date +%s)
cargo fmt --all --check
cargo clippy --all-targets -p weir -- -D warnings
cargo test -p weir
echo "weir-rs: Rust checks and tests took $(( $(date +%s) - start )) s"

start=$(date +%s)
VENV="$HOME/.cache/weir-py-venv"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --disable-pip-version-check \
  "maturin==1.16.0" "pyarrow==26.0.1" "pandas==3.1.1" "polars==2.1.0" "duckdb==2.0.1" "pytest==9.2.0"
export PATH="$VENV/bin:$PATH"
PYO3_PYTHON="$VENV/bin/python" cargo clippy -p weir-python -- -D warnings
(cd weir-python && maturin build --release -q -o ../target/wheels)
pip install -q --disable-pip-version-check --force-reinstall --no-deps target/wheels/weir-0.1.0-*.whl
python -m pytest -q weir-python/tests
echo "weir-rs: wheel build and Python tests took $(( $(date +%s) - start )) s"
