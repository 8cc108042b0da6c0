# Sourced by the scripts that start a throw-away PostgreSQL cluster (test-postgres.sh, load.sh).

# The newest installed PostgreSQL's bin directory (empty if none).
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# Installs Debian's `postgresql` if missing; sets PGBIN.
pg_install() {
  if [ -z "$(pg_bin)" ] || [ ! -x "$(pg_bin)/initdb" ]; then
    echo "== installing Debian's postgresql"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
  fi
  PGBIN="$(pg_bin)"
}

# PostgreSQL refuses to run as root: when we are root, sets AS to run a command as the `postgres`
# user (created if missing) and gives it the directory $1; otherwise AS is empty.
pg_as() {
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir "$1" postgres
    chown postgres "$1"
    AS=(runuser -u postgres --)
  else
    AS=()
  fi
}
