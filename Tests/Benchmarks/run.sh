#!/usr/bin/env bash
# Benchmark: the release-built mock-server against nginx serving the same fixture, side by side.
# Not part of `swift test` or CI. Usage: [BASELINE=<git revision>] Tests/Benchmarks/run.sh [seconds-per-run (default 5)]
# With BASELINE, that revision is built the same way and measured in the same run, interleaved, for
# before/after figures (columns "before" and "after/before").
# Prints one table (req/s and p99 per concurrency, ratio ours/nginx), start-up time, RSS, and a
# URLSession client loop. Stops everything it started, by PID.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DURATION=${1:-5}
WORK=$(mktemp -d)
PIDS=()
BASELINE=${BASELINE:-}
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -n "$BASELINE" ] && git -C "$ROOT" worktree remove --force "$WORK/baseline-src" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT
trap "exit 1" INT TERM

need() { command -v "$1" >/dev/null 2>&1; }
if ! need wrk || ! need nginx; then
    echo "installing wrk and nginx-light (benchmark only)..." >&2
    (apt-get install -y wrk nginx-light >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk nginx-light >/dev/null; })
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# Two or more cores: the servers on the last core, wrk on the first.
CORES=$(nproc)
if [ "$CORES" -ge 2 ]; then SERVER_CPU="taskset -c $((CORES - 1))"; CLIENT_CPU="taskset -c 0"; else SERVER_CPU=""; CLIENT_CPU=""; fi

echo "building mock-server (release, static Swift runtime)..." >&2
# The Swift runtime linked statically, as one would ship it: it starts about 3 ms sooner.
RELEASE=(-c release --static-swift-stdlib --scratch-path .build-release)
swift build "${RELEASE[@]}" --product mock-server >/dev/null
BIN="$(swift build "${RELEASE[@]}" --show-bin-path)/mock-server"
if [ -n "$BASELINE" ]; then
    echo "building the baseline $BASELINE the same way..." >&2
    git worktree add --detach "$WORK/baseline-src" "$BASELINE" >/dev/null 2>&1
    BASE_RELEASE=(-c release --static-swift-stdlib --scratch-path "$ROOT/.build-baseline")
    (cd "$WORK/baseline-src" && swift build "${BASE_RELEASE[@]}" --product mock-server >/dev/null)
    BASE_BIN="$(cd "$WORK/baseline-src" && swift build "${BASE_RELEASE[@]}" --show-bin-path)/mock-server"
fi

OUR_PORT=18181
NGINX_PORT=18182
BASE_PORT=18183
FIXTURE=Fixtures/products/list.json
TARGET="/api/products?page_no=1&items_per_page=20"

# --- nginx: one worker, access log off, keep-alive, the same bytes at the same path --------------
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location = /api/products { default_type application/json; alias $ROOT/$FIXTURE; }
    }
}
CONF
$SERVER_CPU "$NGINX" -c "$WORK/nginx/nginx.conf" &
PIDS+=($!)

# --- ours: one event-loop thread, like nginx's one worker ---------------------------------------
$SERVER_CPU "$BIN" --port $OUR_PORT --log off --threads 1 >"$WORK/ours.log" 2>&1 &
OUR_PID=$!
PIDS+=($OUR_PID)
sleep 0.2
kill -0 $OUR_PID 2>/dev/null || { echo "our server did not start:"; cat "$WORK/ours.log"; exit 1; }

wait_for() { for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$1$TARGET" && return 0; sleep 0.02; done; echo "port $1 did not answer" >&2; exit 1; }
wait_for $OUR_PORT
wait_for $NGINX_PORT
if [ -n "$BASELINE" ]; then
    $SERVER_CPU "$BASE_BIN" --port $BASE_PORT --log off --threads 1 >"$WORK/baseline.log" 2>&1 &
    PIDS+=($!)
    wait_for $BASE_PORT
fi
cmp -s <(curl -s "http://127.0.0.1:$OUR_PORT$TARGET") "$FIXTURE" || { echo "ours serves different bytes" >&2; exit 1; }
cmp -s <(curl -s "http://127.0.0.1:$NGINX_PORT$TARGET") "$FIXTURE" || { echo "nginx serves different bytes" >&2; exit 1; }

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
RSS_IDLE=$(rss_kib $OUR_PID)

# wrk prints "Requests/sec: N" and, with --latency, a "99%  1.23ms" line.
run_wrk() { # port connections -> "rps p99ms"
    local out
    out=$($CLIENT_CPU wrk -t1 -c"$2" -d"${DURATION}s" --latency "http://127.0.0.1:$1$TARGET")
    local rps p99
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub("us","",v); v=v/1000} else if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /s$/) {sub("s","",v); v=v*1000}; print v}' <<<"$out")
    local errors
    errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out")
    [ -n "$errors" ] && echo "  wrk reported on port $1, $2 connections: $errors" >&2
    echo "$rps $p99"
}

best() { # keep the higher req/s of two runs and the lower p99
    awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "%.0f %.3f", (x[1] > y[1] ? x[1] : y[1]), (x[2] < y[2] ? x[2] : y[2]) }'
}

echo
echo "wrk -t1, ${DURATION}s per run, each run twice with the servers interleaved; fixture $(wc -c <"$FIXTURE") bytes"
printf '%-12s %14s %14s %8s %12s %12s' connections "ours req/s" "nginx req/s" ratio "ours p99" "nginx p99"
[ -n "$BASELINE" ] && printf ' %14s %12s %13s' "before req/s" "before p99" "after/before"
echo
for connections in 1 16 64; do
    o1=$(run_wrk $OUR_PORT $connections); n1=$(run_wrk $NGINX_PORT $connections)
    [ -n "$BASELINE" ] && b1=$(run_wrk $BASE_PORT $connections)
    o2=$(run_wrk $OUR_PORT $connections); n2=$(run_wrk $NGINX_PORT $connections)
    [ -n "$BASELINE" ] && b2=$(run_wrk $BASE_PORT $connections)
    ours=$(best "$o1" "$o2"); theirs=$(best "$n1" "$n2")
    read -r ours_rps ours_p99 <<<"$ours"; read -r nginx_rps nginx_p99 <<<"$theirs"
    ratio=$(awk -v a="$ours_rps" -v b="$nginx_rps" 'BEGIN { printf "%.2fx", a / b }')
    printf '%-12s %14s %14s %8s %10sms %10sms' "$connections" "$ours_rps" "$nginx_rps" "$ratio" "$ours_p99" "$nginx_p99"
    if [ -n "$BASELINE" ]; then
        read -r base_rps base_p99 <<<"$(best "$b1" "$b2")"
        change=$(awk -v a="$ours_rps" -v b="$base_rps" 'BEGIN { printf "%.2fx", a / b }')
        printf ' %14s %10sms %13s' "$base_rps" "$base_p99" "$change"
    fi
    echo
done
RSS_LOADED=$(rss_kib $OUR_PID)

# --- start-up to first response, median of 10 ---------------------------------------------------
STARTUP=$(python3 - "$BIN" <<'PY'
import socket, statistics, subprocess, sys, time
samples = []
for i in range(10):
    port = 18190 + i
    start = time.perf_counter()
    proc = subprocess.Popen([sys.argv[1], "--port", str(port), "--log", "off"], stdout=subprocess.DEVNULL)
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            s.sendall(b"GET /healthChecker HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            if s.recv(64).startswith(b"HTTP/1.1 200"):
                samples.append((time.perf_counter() - start) * 1000)
                s.close()
                break
        except OSError:
            time.sleep(0.0002)
    proc.terminate(); proc.wait()
print("%.1f" % statistics.median(samples))
PY
)

# --- a URLSession client loop against our server -------------------------------------------------
swiftc -O -swift-version 6 -parse-as-library Tests/Benchmarks/URLSessionLoop.swift -o "$WORK/urlsession-loop"
CLIENT=$("$WORK/urlsession-loop" "http://127.0.0.1:$OUR_PORT$TARGET")

echo
echo "start-up to first response (median of 10): ${STARTUP} ms"
echo "RSS: idle $((RSS_IDLE / 1024)).$(((RSS_IDLE % 1024) * 10 / 1024)) MiB, after load $((RSS_LOADED / 1024)).$(((RSS_LOADED % 1024) * 10 / 1024)) MiB"
echo "URLSession client loop: $CLIENT"
