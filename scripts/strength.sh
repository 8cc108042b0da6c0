#!/usr/bin/env bash
# The README's stand-in strength figure in one command (doc/strength.md): the engine at full
# strength against its own `Level 9` (depth cap 12), both from the same release build, each with a
# 64 MiB table, colour-swapped pairs from the shipped opening suite, two games at a time.
#
#   scripts/strength.sh [MOVETIME_MS] [GAMES] [LEVEL] [PGN]
#
# Defaults: 100 ms a move, 124 games (every suite opening once with each colour), level 9, the
# game records to a temporary file whose name is printed. About 12 minutes at the defaults on two
# free cores; anything else running on them (a build, the test suite) costs time forfeits.
set -euo pipefail
cd "$(dirname "$0")/.."

MOVETIME="${1:-100}"
GAMES="${2:-124}"
LEVEL="${3:-9}"
for v in "$MOVETIME" "$GAMES" "$LEVEL"; do
  case "$v" in '' | *[!0-9]*) echo "usage: $0 [MOVETIME_MS] [GAMES] [LEVEL] [PGN]" >&2; exit 2 ;; esac
done

cargo build --release -q -p jungle-cli
# A copy, so that a rebuild while the match runs cannot change either side.
TMP="$(mktemp -d /tmp/jungle-strength.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT
cp target/release/jungle "$TMP/jungle"
PGN="${4:-$(mktemp /tmp/jungle-strength-XXXXXX.pgn)}"

echo "full strength against Level $LEVEL, $MOVETIME ms a move, $GAMES games; records in $PGN"
echo "started $(date -u '+%F %H:%M') UTC, Bench $("$TMP/jungle" bench 2>/dev/null | tail -1 | cut -d' ' -f1)"
"$TMP/jungle" match \
  --engine "$TMP/jungle engine" --engine "$TMP/jungle engine" \
  --name full --name "L$LEVEL" \
  --option1 Hash=64 --option2 Hash=64 --option2 "Level=$LEVEL" \
  --games "$GAMES" --movetime "$MOVETIME" --concurrency 2 --quiet --host-speed --pgn "$PGN"
echo "finished $(date -u '+%F %H:%M') UTC"
