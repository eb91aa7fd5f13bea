#!/usr/bin/env bash
# Runs the S3-compatible test server (tools/s3server/serve.mjs: s3rver behind a proxy that
# checks SigV4 signatures) on a free loopback port.
#   scripts/s3-server.sh start DIR [--tls]
#                                    start it with its objects in DIR and the bucket
#                                    `tarn-test`; print its endpoint "127.0.0.1:PORT" (--tls:
#                                    HTTPS, the certificate to trust in DIR/tls/cert.pem)
#   scripts/s3-server.sh stop DIR    stop the server of DIR (by the PID it recorded)
set -euo pipefail
cd "$(dirname "$0")/.."
action="${1:-}"
dir="${2:-}"
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: scripts/s3-server.sh start|stop DIR" >&2
  exit 2
fi
case "$action" in
  start)
    [ -d tools/oracle/node_modules/s3rver ] || { echo "s3-server: s3rver missing (scripts/setup.sh installs it)" >&2; exit 1; }
    mkdir -p "$dir/objects"
    # s3rver's ListObjectsV2 continuation tokens use DES, which Node's OpenSSL 3 keeps in its
    # legacy provider.
    node --openssl-legacy-provider tools/s3server/serve.mjs --dir "$dir/objects" --bucket tarn-test ${3:-} \
      >"$dir/server.out" 2>"$dir/server.log" &
    echo $! >"$dir/pid"
    for _ in $(seq 1 100); do
      if grep -q '^ready ' "$dir/server.out" 2>/dev/null; then
        echo "127.0.0.1:$(sed -n 's/^ready //p' "$dir/server.out")"
        exit 0
      fi
      kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
      sleep 0.1
    done
    echo "s3-server: did not start" >&2
    cat "$dir/server.log" >&2
    exit 1
    ;;
  stop)
    [ -f "$dir/pid" ] || exit 0
    pid="$(cat "$dir/pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$dir/pid"
    ;;
  *)
    echo "usage: scripts/s3-server.sh start|stop DIR" >&2
    exit 2
    ;;
esac
