#!/usr/bin/env bash
# Browser tests of the web client: Debian's Chromium driven by npm's playwright-core, against a
# real `jungle serve` on a spare loopback port with a throw-away data directory.
# Screenshots go to e2e/artifacts/ (KEEP_SCREENSHOTS=1 also refreshes doc/screenshots/).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian's chromium"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
# Chinese text in screenshots needs a CJK font; the tests themselves do not depend on it.
if ! fc-list 2>/dev/null | grep -qiE 'cjk|wenquanyi|wqy'; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-wqy-zenhei || echo "(no CJK font: screenshots will show boxes for Chinese text)"
fi

echo "== npm packages (playwright-core only; no browser download)"
(cd e2e && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi)

echo "== building the server"
cargo build -p jungle-cli
target_dir=${CARGO_TARGET_DIR:-$root/target}
bin="$target_dir/debug/jungle"

# Node is needed for the tests anyway, so it also finds a spare port and asks for health.
port=$(node -e 'const s=require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
healthy() {
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$port/api/health"
}
data=$(mktemp -d)
log="$data/server.log"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$data"
}
trap cleanup EXIT

echo "== starting jungle serve on 127.0.0.1:$port"
# Short AI thinking time keeps the browser tests quick on small machines.
JUNGLE_AI_MS_PER_LEVEL=${JUNGLE_AI_MS_PER_LEVEL:-20} JUNGLE_AUTH_PER_MIN=0 \
  "$bin" serve --listen "127.0.0.1:$port" --data-dir "$data" >"$log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  if healthy; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "the server exited:"; cat "$log"; exit 1
  fi
  sleep 0.2
done
healthy || { echo "the server did not become healthy:"; cat "$log"; exit 1; }

echo "== browser tests"
status=0
(cd e2e && JUNGLE_URL="http://127.0.0.1:$port" timeout 420 node --test --test-concurrency=1 tests/) || status=$?
if [ "$status" -ne 0 ]; then
  echo "== browser tests failed ($status); server log tail:"
  tail -n 40 "$log"
fi
exit "$status"
