#!/usr/bin/env bash
# A 200 MB download and a 200 MB upload through `mock-server --proxy`: the server's peak resident memory before and
# after each, against the body's size, and the bytes checked at the other end. Downloads: nginx (one worker) serves
# the file, read at full speed, then at 20 MB/s (a reader slower than the backend). Uploads: upload_backend.py hashes
# what it reads, at full speed, then at 20 MB/s (a backend slower than the client); sent with Content-Length, then
# chunked. Not part of `swift test` or CI.
# Usage: [SIZE_MB=200] Tests/Benchmarks/proxy-memory.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MB=${SIZE_MB:-200}
WORK=$(mktemp -d)
chmod 755 "$WORK"   # nginx workers run as nobody: they must reach the file
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
command -v nginx >/dev/null || { apt-get install -y nginx-light >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y nginx-light >/dev/null; }; }
source Tests/Benchmarks/release-binary.sh   # BIN: the release mock-server

BACKEND=18701 OURS=18702 UPLOADS=18703 SLOW_UPLOADS=18704
mkdir -p "$WORK/www" "$WORK/Contracts" "$WORK/Fixtures" "$WORK/logs"
head -c $((SIZE_MB * 1024 * 1024)) /dev/urandom >"$WORK/www/big.bin"
echo '{"domain": "none", "endpoints": [{"id": "unused", "method": "GET", "path": "/unused", "scenarios": [{"name": "s", "status": 204, "expect": "success"}]}]}' \
    >"$WORK/Contracts/none.json"
cat >"$WORK/backend.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/backend.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 64; }
http { access_log off; server { listen 127.0.0.1:$BACKEND; location / { root $WORK/www; } } }
CONF
nginx -e "$WORK/logs/early.log" -c "$WORK/backend.conf" -p "$WORK" & PIDS+=("$!")
python3 Tests/Benchmarks/upload_backend.py "$UPLOADS" & PIDS+=("$!")
python3 Tests/Benchmarks/upload_backend.py "$SLOW_UPLOADS" $((20 * 1000 * 1000)) & PIDS+=("$!")
start() { # port backend-port -> pid of a server relaying to the backend
    "$BIN" --port "$1" --log off --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" --proxy "http://127.0.0.1:$2" \
        >"$WORK/logs/ours-$1.log" 2>&1 & PIDS+=("$!")
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$1/unused" && break; sleep 0.02; done
}
start "$OURS" "$BACKEND"
OURS_PID=${PIDS[-1]}
rss() { awk -v key="$1:" '$1 == key {print int($2 / 1024)}' "/proc/$OURS_PID/status"; }   # MiB
expected=$(sha256sum "$WORK/www/big.bin" | cut -d' ' -f1)
printf "%-22s %10s %12s %12s %10s %8s\n" body "seconds" "peak before" "peak after" "RSS after" intact
for rate in full 20M; do
    before=$(rss VmHWM)
    started=$(date +%s.%N)
    limit=(); [ "$rate" = full ] || limit=(--limit-rate "$rate")
    got=$(curl -s "${limit[@]}" "http://127.0.0.1:$OURS/big.bin" | sha256sum | cut -d' ' -f1)
    took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
    printf "%-22s %10s %9s MiB %9s MiB %7s MiB %8s\n" "down, $rate" "$took" "$before" "$(rss VmHWM)" "$(rss VmRSS)" \
        "$([ "$got" = "$expected" ] && echo yes || echo NO)"
done

# Uploads: one server per backend speed, each started afresh, so that each row's peak is its own.
for backend in full 20M; do
    port=$((OURS + 10)); [ "$backend" = full ] && target=$UPLOADS || { target=$SLOW_UPLOADS; port=$((OURS + 11)); }
    start "$port" "$target"
    OURS_PID=${PIDS[-1]}
    for framing in length chunked; do
        before=$(rss VmHWM)
        started=$(date +%s.%N)
        header=(); [ "$framing" = chunked ] && header=(-H "Transfer-Encoding: chunked")
        got=$(curl -s "${header[@]}" --data-binary "@$WORK/www/big.bin" "http://127.0.0.1:$port/upload")
        took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
        printf "%-22s %10s %9s MiB %9s MiB %7s MiB %8s\n" "up $framing, $backend" "$took" "$before" "$(rss VmHWM)" \
            "$(rss VmRSS)" "$([ "$got" = "$expected" ] && echo yes || echo NO)"
    done
done
