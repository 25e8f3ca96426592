#!/usr/bin/env bash
# The proxy against nginx's: the same backend (nginx, one worker, serving Fixtures/products/list.json as
# /api/products), reached through `mock-server --proxy` (empty contracts: every request relayed) and through nginx
# `proxy_pass` with upstream keep-alive, side by side in one run. Backend and proxy share the last core, wrk -t1
# the first; 16 keep-alive connections; ROUNDS rounds (default 3) of DURATION seconds (default 10) each.
# Prints req/s, p99 and the proxy's CPU per request (user + system, from /proc; the backend's not counted) per round,
# and ours/nginx. Not part of `swift test` or CI: a measurement.
# Usage: [ROUNDS=3] [DURATION=10] Tests/Benchmarks/proxy.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CONNECTIONS=16
WORK=$(mktemp -d)
chmod 755 "$WORK"   # nginx workers run as nobody: they must reach the files
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
command -v wrk >/dev/null && command -v nginx >/dev/null || {
    (apt-get install -y wrk nginx-light >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk nginx-light >/dev/null; })
}
CORES=$(nproc)
if [ "$CORES" -ge 2 ]; then SERVER_CPU="taskset -c $((CORES - 1))"; CLIENT_CPU="taskset -c 0"; else SERVER_CPU=""; CLIENT_CPU=""; fi
source Tests/Benchmarks/release-binary.sh   # BIN: the release mock-server

BACKEND=18501 NGINX_PROXY=18502 OURS=18503
mkdir -p "$WORK/www/api" "$WORK/Contracts" "$WORK/Fixtures" "$WORK/logs"
cp Fixtures/products/list.json "$WORK/www/api/products"
# A contract set with no endpoint: every request goes to --proxy.
echo '{"domain": "none", "endpoints": [{"id": "unused", "method": "GET", "path": "/unused", "scenarios": [{"name": "s", "status": 204, "expect": "success"}]}]}' \
    >"$WORK/Contracts/none.json"
nginx_conf() { # name body
    cat >"$WORK/$1.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/$1.pid;
error_log $WORK/logs/$1-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    $2
}
CONF
}
nginx_conf backend "server { listen 127.0.0.1:$BACKEND; default_type application/json; location / { root $WORK/www; } }"
nginx_conf proxy "upstream backend { server 127.0.0.1:$BACKEND; keepalive 32; }
    server { listen 127.0.0.1:$NGINX_PROXY; location / { proxy_pass http://backend; proxy_http_version 1.1;
        proxy_set_header Connection \"\"; proxy_buffering on; } }"
start() { $SERVER_CPU "$@" >"$WORK/logs/$(basename "$1").$RANDOM.log" 2>&1 & PIDS+=("$!"); }
start nginx -e "$WORK/logs/backend-early.log" -c "$WORK/backend.conf" -p "$WORK"
start nginx -e "$WORK/logs/proxy-early.log" -c "$WORK/proxy.conf" -p "$WORK"
NGINX_PROXY_MASTER=${PIDS[-1]}
start "$BIN" --port "$OURS" --threads 1 --log off --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" \
    --proxy "http://127.0.0.1:$BACKEND"
OURS_PID=${PIDS[-1]}
for port in $BACKEND $NGINX_PROXY $OURS; do
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$port/api/products" && break; sleep 0.02; done
    cmp -s <(curl -s "http://127.0.0.1:$port/api/products") Fixtures/products/list.json \
        || { echo "port $port does not serve the fixture" >&2; exit 1; }
done
NGINX_PROXY_PID=$(pgrep -P "$NGINX_PROXY_MASTER" | head -1)   # the worker, which does the relaying
TICK=$(getconf CLK_TCK)
ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }
run() { # port pid -> "req/s p99-ms user-us system-us" (CPU per request)
    local before after
    before=$(ticks "$2")
    $CLIENT_CPU wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$1/api/products" >"$WORK/wrk.txt"
    after=$(ticks "$2")
    awk -v before="$before" -v after="$after" -v hz="$TICK" '
        /Requests\/sec/ {rps = $2}
        / requests in / {n = $1}
        / 99%/ {v = $2; if (v ~ /us$/) {sub(/us$/, "", v); v /= 1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v *= 1000}; p99 = v}
        /Non-2xx|Socket errors/ {print "wrk: " $0 > "/dev/stderr"}
        END {
            split(before, b, " "); split(after, a, " ")
            printf "%d %.2f %.2f %.2f", rps, p99, (a[1] - b[1]) / hz * 1e6 / n, (a[2] - b[2]) / hz * 1e6 / n
        }' "$WORK/wrk.txt"
}
echo "proxy: $CONNECTIONS connections, ${DURATION} s per run, backend nginx (1 worker) and the proxy on one core, wrk on another"
printf "%-6s %11s %9s %13s %12s %9s %13s %7s %7s\n" round "ours req/s" "ours p99" "ours usr+sys" "nginx req/s" \
    "nginx p99" "nginx usr+sys" "req/s" "CPU"
for round in $(seq 1 "$ROUNDS"); do
    read -r ours_rps ours_p99 ours_user ours_sys <<<"$(run $OURS "$OURS_PID")"
    read -r nginx_rps nginx_p99 nginx_user nginx_sys <<<"$(run $NGINX_PROXY "$NGINX_PROXY_PID")"
    printf "%-6s %11s %7sms %13s %12s %7sms %13s %7s %7s\n" "$round" "$ours_rps" "$ours_p99" "$ours_user+$ours_sys" \
        "$nginx_rps" "$nginx_p99" "$nginx_user+$nginx_sys" \
        "$(awk -v a="$ours_rps" -v b="$nginx_rps" 'BEGIN {printf "%.2fx", a / b}')" \
        "$(awk -v a="$ours_user" -v b="$ours_sys" -v c="$nginx_user" -v d="$nginx_sys" 'BEGIN {printf "%.2fx", (a + b) / (c + d)}')"
done
echo "(CPU: the proxy's own per request in µs, user + system, the backend's not counted; ratios ours/nginx)"
