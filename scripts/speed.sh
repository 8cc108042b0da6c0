#!/usr/bin/env bash
# Paired speed comparison of two builds of `jungle` on this host (doc/strength.md): for each pair,
# both builds run (in alternating order) three fixed-depth searches — `go depth 19` from the start
# position and depths 21 and 20 from two bench middlegames, Hash 16 MiB, times summed — and
# `jungle bench`. Prints one line per pair and the medians of the per-pair ratios (above 1: B is
# faster). The host's speed moves from hour to hour, so only ratios of interleaved runs count.
#
#   scripts/speed.sh BIN_A BIN_B [PAIRS]     (PAIRS defaults to 11)
#
# Builds that search differently (different node counts) are reported as such: their time ratio
# is then not a speed ratio alone. Two builds of the same engine source can differ by about 2%
# from code layout alone (doc/strength.md, 2026-12-05/06), so a smaller ratio says little.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 BIN_A BIN_B [PAIRS]" >&2
  exit 2
fi
A="$1"
B="$2"
PAIRS="${3:-11}"
for bin in "$A" "$B"; do
  [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
done

SEARCHES=(
  "startpos|19"
  "fen 1l3t1/1d3ce/r2pw2/7/7/7/E1WP1DR/7/TC3L1 r 8 5|21"
  "fen 7/2dw3/r1let1c/3p3/7/3PR2/1ETW1L1/4D2/1C5 r 40 21|20"
)

# The fixed-depth searches of one build: prints "<milliseconds> <nodes>". At the end of its input
# the engine finishes the search and prints its move before it exits.
deep() {
  local bin="$1" ms=0 nodes=0 spec out t0 t1
  for spec in "${SEARCHES[@]}"; do
    t0=$(date +%s%N)
    out=$(printf 'uci\nsetoption name Hash value 16\nisready\nposition %s\ngo depth %s\n' \
      "${spec%|*}" "${spec#*|}" | "$bin" engine)
    t1=$(date +%s%N)
    ms=$((ms + (t1 - t0) / 1000000))
    nodes=$((nodes + $(grep -o 'nodes [0-9]*' <<<"$out" | tail -1 | cut -d' ' -f2)))
  done
  echo "$ms $nodes"
}

# `jungle bench` of one build: prints "<nodes per second> <nodes>".
bench() {
  "$1" bench 2>/dev/null | tail -1 | awk '{print $3, $1}'
}

median() {
  sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

deep_ratios=()
bench_ratios=()
bench_a=()
bench_b=()
printf '%-5s %9s %9s %7s %11s %11s %7s\n' pair "A ms" "B ms" "A/B" "A bench" "B bench" "B/A"
for i in $(seq "$PAIRS"); do
  if [ $((i % 2)) = 1 ]; then
    read -r da na <<<"$(deep "$A")"; read -r db nb <<<"$(deep "$B")"
    read -r ba bna <<<"$(bench "$A")"; read -r bb bnb <<<"$(bench "$B")"
  else
    read -r db nb <<<"$(deep "$B")"; read -r da na <<<"$(deep "$A")"
    read -r bb bnb <<<"$(bench "$B")"; read -r ba bna <<<"$(bench "$A")"
  fi
  if [ "$na" != "$nb" ] || [ "$bna" != "$bnb" ]; then
    echo "note: the builds search differently (nodes $na/$nb, bench $bna/$bnb)" >&2
  fi
  dr=$(awk -v a="$da" -v b="$db" 'BEGIN {printf "%.3f", a / b}')
  br=$(awk -v a="$ba" -v b="$bb" 'BEGIN {printf "%.3f", b / a}')
  deep_ratios+=("$dr")
  bench_ratios+=("$br")
  bench_a+=("$ba")
  bench_b+=("$bb")
  printf '%-5s %9s %9s %7s %11s %11s %7s\n' "$i" "$da" "$db" "$dr" "$ba" "$bb" "$br"
done
echo "median time ratio A/B (fixed depth): $(printf '%s\n' "${deep_ratios[@]}" | median)"
echo "median bench ratio B/A (nodes/s):    $(printf '%s\n' "${bench_ratios[@]}" | median)"
echo "median bench nodes/s: A $(printf '%s\n' "${bench_a[@]}" | median), B $(printf '%s\n' "${bench_b[@]}" | median)"
