#!/usr/bin/env bash
# The whole test suite, from a fresh clone: `./scripts/test.sh`.
# Installs what the suite needs (Debian packages, npm packages), starts a PostgreSQL server on
# loopback for the store tests, and runs the browser tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== format and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings

echo "== unit, property and integration tests (SQLite store included)"
cargo test --workspace

for extra in scripts/test-postgres.sh scripts/test-e2e.sh; do
  if [ -f "$extra" ]; then
    echo "== $extra"
    bash "$extra"
  fi
done
echo "== all tests passed"
