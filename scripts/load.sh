#!/usr/bin/env bash
# The load measurement of doc/load.md in one command: builds the release server, starts it on
# loopback over a fresh database, runs `jungle loadtest` against it, prints the load tool's report
# and the server's peak memory, and stops everything again.
#
#   scripts/load.sh [sqlite-full|sqlite-normal|postgres] [GAMES] [SECONDS] [THINK_MS]
#
# Defaults: sqlite-full (the server's default), 5000 games, 30 s, 950 ms think time.
# `postgres` starts a throw-away PostgreSQL cluster (Debian's `postgresql`, installed if missing)
# with its durable defaults (fsync and synchronous_commit on) on a spare loopback port.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:-sqlite-full}"
GAMES="${2:-5000}"
SECONDS_="${3:-30}"
THINK="${4:-950}"
case "$MODE" in sqlite-full | sqlite-normal | postgres) ;; *)
  echo "unknown mode $MODE (sqlite-full, sqlite-normal or postgres)" >&2
  exit 2
  ;;
esac

ulimit -n 20000
cargo build --release -q -p jungle-cli --no-default-features --features server
BIN=target/release/jungle
TMP="$(mktemp -d /tmp/jungle-load.XXXXXX)"
chmod 755 "$TMP"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT="$(free_port)"
SERVER_PID=""
PG_STOP=()

# Keeps the script's own exit status: the server's exit by the signal sent here is not a failure.
cleanup() {
  local rc=$?
  if [ -n "$SERVER_PID" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "${#PG_STOP[@]}" -gt 0 ]; then
    "${PG_STOP[@]}" >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT

ARGS=(serve --listen "127.0.0.1:$PORT" --data-dir "$TMP/data" --auth-per-min 0 --max-ws-per-ip 100000)
case "$MODE" in
sqlite-full) ARGS+=(--sqlite-sync full) ;;
sqlite-normal) ARGS+=(--sqlite-sync normal) ;;
postgres)
  . scripts/pg-lib.sh
  pg_install
  pg_as "$TMP"
  PGPORT="$(free_port)"
  "${AS[@]}" "$PGBIN/initdb" -D "$TMP/pg" -A trust -U jungle >/dev/null
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$TMP/pg" -l "$TMP/pg.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $TMP -c shared_buffers=256MB" start >/dev/null
  PG_STOP=("${AS[@]}" "$PGBIN/pg_ctl" -D "$TMP/pg" -m fast stop)
  "${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U jungle jungle_load
  ARGS+=(--database-url "postgres://jungle@127.0.0.1:$PGPORT/jungle_load")
  ;;
esac

echo "== $MODE: $GAMES games, $SECONDS_ s, think $THINK ms ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
RUST_LOG=warn "$BIN" "${ARGS[@]}" >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
  sleep 0.2
done
written() { awk '/^write_bytes/ {print $2}' "/proc/$1/io" 2>/dev/null || echo 0; }
W0="$(written "$SERVER_PID")"
T0="$(date +%s)"
"$BIN" loadtest --server "127.0.0.1:$PORT" --games "$GAMES" --seconds "$SECONDS_" --think-ms "$THINK"
W1="$(written "$SERVER_PID")"
T1="$(date +%s)"
echo "server peak memory: $(grep VmHWM "/proc/$SERVER_PID/status" | awk '{print $2, $3}')"
echo "server disk writes: $(((W1 - W0) / 1048576)) MiB in $((T1 - T0)) s (setup included; PostgreSQL's own not counted)"
if grep -qiE "error|warn" "$TMP/server.log"; then
  echo "server log (errors/warnings, first 20):"
  grep -iE "error|warn" "$TMP/server.log" | head -n 20
fi
