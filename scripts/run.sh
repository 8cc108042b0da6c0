#!/usr/bin/env bash
# Builds and starts the Jungle server with its embedded SQLite database and the web client.
# Prints the URL to open. Extra arguments go to `jungle serve` (see `jungle serve --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p jungle-cli
exec "${CARGO_TARGET_DIR:-target}/release/jungle" serve "$@"
