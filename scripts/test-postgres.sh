#!/usr/bin/env bash
# The server's store and restart tests against a real PostgreSQL server: installs Debian's
# `postgresql` if missing, starts a throw-away cluster in a temporary directory on 127.0.0.1 on a
# spare port, runs the tests with DATABASE_URL pointing at it, and stops it again.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/pg-lib.sh
pg_install
BIN="$PGBIN"

TMP="$(mktemp -d /tmp/jungle-pg.XXXXXX)"
chmod 755 "$TMP"
pg_as "$TMP"

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"

stop() {
  "${AS[@]}" "$BIN/pg_ctl" -D "$TMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap stop EXIT

"${AS[@]}" "$BIN/initdb" -D "$TMP/data" -A trust -U jungle --no-sync >/dev/null
"${AS[@]}" "$BIN/pg_ctl" -D "$TMP/data" -l "$TMP/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $TMP -c fsync=off" start >/dev/null
"${AS[@]}" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U jungle jungle_test

export DATABASE_URL="postgres://jungle@127.0.0.1:$PORT/jungle_test"
echo "== store and restart tests on PostgreSQL ($DATABASE_URL)"
cargo test -p jungle-server --test store
cargo test -p jungle-cli --no-default-features --features server --test serve_restart
