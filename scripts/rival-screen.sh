#!/usr/bin/env bash
# A screen of an engine build against an opponent that does not share its evaluation
# (doc/strength.md, 2026-12-06 late morning): the engine at 40 000, 50 000 and 60 000 nodes a move
# against `rival --modern` at 200 000, 124 games each (every suite opening once with each colour),
# two games at a time, and the total over the 372 games. Fixed nodes make the result independent
# of the host's load (commit 40e9f8a scored 0.742 on 2026-12-06: doc/strength.md).
#
#   scripts/rival-screen.sh [JUNGLE_BINARY] [-- MATCH_ARGS…]
#
# Without a binary it screens the working tree's release build; MATCH_ARGS go to `jungle match`
# (e.g. `-- --option1 Weights=…` for other evaluation weights); GAMES=n plays n games a leg instead
# of 124. About 12 minutes on two free cores.
set -euo pipefail
GAMES="${GAMES:-124}"
cd "$(dirname "$0")/.."

cargo build --release -q -p jungle-cli
cargo build --release -q -p jungle-engine --example rival
# Copies, so that a rebuild while the match runs cannot change either side.
TMP="$(mktemp -d /tmp/jungle-rival-screen.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT
ENGINE=target/release/jungle
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  ENGINE="$1"
  shift
fi
[ "${1:-}" = "--" ] && shift
cp "$ENGINE" "$TMP/engine"
cp target/release/jungle "$TMP/jungle"
cp target/release/examples/rival "$TMP/rival"

echo "$ENGINE (Bench $("$TMP/engine" bench 2>/dev/null | tail -1 | cut -d' ' -f1)) against rival --modern at 200k nodes"
echo "started $(date -u '+%F %H:%M') UTC"
for nodes in 40000 50000 60000; do
  "$TMP/jungle" match \
    --engine "$TMP/engine engine" --engine "$TMP/rival --modern" \
    --name engine --name modern --nodes "$nodes" --nodes2 200000 \
    --games "$GAMES" --concurrency 2 --quiet "$@" > "$TMP/leg"
  score=$(sed -n 's/^Score of engine vs modern: \([0-9]*\) - \([0-9]*\) - \([0-9]*\) .*/\1 \2 \3/p' "$TMP/leg")
  forfeits=$(sed -n 's/^Forfeits (illegal move, timeout, crash): engine \([0-9]*\), modern \([0-9]*\)$/\1 \2/p' "$TMP/leg")
  if [ -z "$score" ] || [ -z "$forfeits" ]; then
    cat "$TMP/leg" >&2
    echo "the match at $nodes nodes did not finish" >&2
    exit 1
  fi
  echo "$nodes $score $forfeits"
done | awk '
  {
    printf "%d nodes: %d-%d-%d, forfeits %d / %d\n", $1, $2, $3, $4, $5, $6
    w += $2; l += $3; d += $4; fe += $5; fm += $6
  }
  END {
    n = w + l + d
    if (n == 0) exit 1
    printf "total: %d-%d-%d, score %.3f over %d games, forfeits %d / %d\n", w, l, d, (w + d / 2) / n, n, fe, fm
  }'
echo "finished $(date -u '+%F %H:%M') UTC"
