#!/usr/bin/env bash
# Runs a throwaway PostgreSQL 15 server (Debian's `postgresql` package) for the tests.
#   scripts/pg-server.sh start DIR   initdb in DIR, start on a free loopback port, print the
#                                    libpq connection string of its database `tarn_test`
#   scripts/pg-server.sh stop DIR    stop the server of DIR (by the PID it recorded)
#   scripts/pg-server.sh restart DIR stop and start it again on the same port (fault tests)
# The server runs as an unprivileged user: as root, the `postgres` system user the package
# creates; otherwise the calling user. Authentication is `trust` on loopback only.
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
action="${1:-}"
dir="${2:-}"
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: scripts/pg-server.sh start|stop|restart DIR" >&2
  exit 2
fi
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}
case "$action" in
  start)
    [ -x "$bin/initdb" ] || { echo "pg-server: $bin/initdb missing (apt-get install postgresql)" >&2; exit 1; }
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"  # absolute: the server runs as another user in another folder
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_server_user "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale \
      >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free loopback port: nothing answers on it.
    port=""
    for _ in $(seq 1 50); do
      candidate=$((20000 + RANDOM % 40000))
      if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
    done
    [ -n "$port" ] || { echo "pg-server: no free loopback port" >&2; exit 1; }
    # Sockets in DIR (not /var/run/postgresql); fsync off: a test server needs no durability.
    as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_server_user "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres tarn_test
    echo "$port" >"$dir/port"
    echo "host=127.0.0.1 port=$port user=postgres dbname=tarn_test"
    ;;
  restart)
    as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart \
      >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    as_server_user "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *)
    echo "usage: scripts/pg-server.sh start|stop DIR" >&2
    exit 2
    ;;
esac
