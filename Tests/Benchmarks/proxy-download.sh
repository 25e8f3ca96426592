#!/usr/bin/env bash
# A 200 MB download through `mock-server --proxy`: the server's peak resident memory before and after, against the
# body's size, and the bytes checked against the file. The backend is nginx (one worker) serving the file; the
# download runs at full speed, then at 20 MB/s (a reader slower than the backend). Not part of `swift test` or CI.
# Usage: [SIZE_MB=200] Tests/Benchmarks/proxy-download.sh
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

BACKEND=18701 OURS=18702
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
"$BIN" --port "$OURS" --log off --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" --proxy "http://127.0.0.1:$BACKEND" \
    >"$WORK/logs/ours.log" 2>&1 & PIDS+=("$!")
OURS_PID=$!
for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$OURS/unused" && break; sleep 0.02; done
rss() { awk -v key="$1:" '$1 == key {print int($2 / 1024)}' "/proc/$OURS_PID/status"; }   # MiB
expected=$(sha256sum "$WORK/www/big.bin" | cut -d' ' -f1)
printf "%-22s %10s %12s %12s %10s %8s\n" download "seconds" "peak before" "peak after" "RSS after" intact
for rate in full 20M; do
    before=$(rss VmHWM)
    started=$(date +%s.%N)
    limit=(); [ "$rate" = full ] || limit=(--limit-rate "$rate")
    got=$(curl -s "${limit[@]}" "http://127.0.0.1:$OURS/big.bin" | sha256sum | cut -d' ' -f1)
    took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
    printf "%-22s %10s %9s MiB %9s MiB %7s MiB %8s\n" "$SIZE_MB MB at $rate" "$took" "$before" "$(rss VmHWM)" "$(rss VmRSS)" \
        "$([ "$got" = "$expected" ] && echo yes || echo NO)"
done
