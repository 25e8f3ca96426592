#!/usr/bin/env bash
# Every kind of response under load, against the static path and nginx in the same run: for each kind of
# bench-contract.py (static, templated, rules10, query, path, item, list, proxied: relayed by `--proxy` to nginx
# serving the page's bytes, whose CPU is not counted) and for the bundled contracts' products page
# (`bundled`: GET /api/products?page_no=1&items_per_page=20 from Contracts/ and Fixtures/), the release server with
# --threads 1 on the last core, `wrk -t1 -c16` on the first: req/s, p99, and the server's CPU per request (user and
# system apart, from /proc) over DURATION seconds; then nginx (one worker, same core) serving the bundled page's bytes
# from a file. ROUNDS rounds (default 3), every server started afresh each round, kinds interleaved; the table shows
# medians, and each kind's CPU per request and req/s against static's of the same rounds.
# Targets (issue 46): each kind at most 1.2x static's CPU per request; the bundled page at least 1.6x nginx's req/s.
# Not part of `swift test` or CI. Usage: [ROUNDS=3] [DURATION=5] [KINDS="static templated ..."] Tests/Benchmarks/kinds-load.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
KINDS=${KINDS:-static templated rules10 query path item list bundled proxied}
WORK=$(mktemp -d)
chmod 755 "$WORK"
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
command -v wrk >/dev/null && command -v nginx >/dev/null || {
    (apt-get install -y wrk nginx-light >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk nginx-light >/dev/null; })
}
CORES=$(nproc)
if [ "$CORES" -ge 2 ]; then SERVER_CPU="taskset -c $((CORES - 1))"; CLIENT_CPU="taskset -c 0"; else SERVER_CPU=""; CLIENT_CPU=""; fi
source Tests/Benchmarks/release-binary.sh   # BIN: the release mock-server
PORT=18801
BACKEND=18802   # the proxied kind's backend: nginx serving the bundled page's bytes, on the server's core
TICK=$(getconf CLK_TCK)

# Each kind's contract folder and target, made once.
for kind in $KINDS bundled; do
    [ -d "$WORK/$kind" ] || python3 Tests/Benchmarks/bench-contract.py "$WORK/$kind" Fixtures/products/list.json "$kind"
done

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }
# Runs wrk against the server with pid $1 at target $2: "req/s p99-ms user-us system-us" (CPU per request).
measure() {
    local pid=$1 url=$2 before after out
    before=$(ticks "$pid")
    out=$($CLIENT_CPU wrk -t1 -c16 -d"${DURATION}s" --latency "$url")
    after=$(ticks "$pid")
    grep -q "Non-2xx\|Socket errors" <<<"$out" && { echo "wrk: errors against $url" >&2; grep "Non-2xx\|Socket errors" <<<"$out" >&2; }
    awk -v before="$before" -v after="$after" -v hz="$TICK" '
        /Requests\/sec/ {rps = $2}
        /Requests\/sec/ {}
        / 99%/ {v = $2; if (v ~ /us$/) {sub(/us$/, "", v); v /= 1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v *= 1000}; p99 = v}
        / requests in / {n = $1}
        END {
            split(before, b, " "); split(after, a, " ")
            printf "%d %.2f %.2f %.2f", rps, p99, (a[1] - b[1]) / hz * 1e6 / n, (a[2] - b[2]) / hz * 1e6 / n
        }' <<<"$out"
}

start_ours() { # kind -> pid
    local folder="$WORK/$1" proxy=()
    [ "$1" = proxied ] && proxy=(--proxy "http://127.0.0.1:$BACKEND")
    $SERVER_CPU "$BIN" --port $PORT --threads 1 --log off --contracts "$folder/Contracts" --fixtures "$folder/Fixtures" \
        "${proxy[@]}" >"$WORK/$1.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$PORT$(cat "$folder/target")" && break; sleep 0.02; done
    echo "$pid"
}

# nginx serves the bundled page's bytes from a file: the reference for the bundled kind.
start_ours bundled >/dev/null
mkdir -p "$WORK/www/api"
curl -s "http://127.0.0.1:$PORT/api/products?page_no=1&items_per_page=20" >"$WORK/www/api/products"
kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null || true
cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 1024; }
http { access_log off; keepalive_requests 1000000;
  server { listen 127.0.0.1:$PORT; default_type application/json; location / { root $WORK/www; } } }
CONF

# The proxied kind's backend, started once: it waits idle while the other kinds run. Its CPU is not the server's.
if [[ " $KINDS " == *" proxied "* ]]; then
    sed -e "s/listen 127.0.0.1:$PORT/listen 127.0.0.1:$BACKEND/" -e "s|$WORK/nginx.pid|$WORK/backend.pid|" \
        "$WORK/nginx.conf" >"$WORK/backend.conf"
    $SERVER_CPU nginx -e "$WORK/backend-early.log" -c "$WORK/backend.conf" -p "$WORK" &
    PIDS+=("$!")
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$BACKEND/api/products" && break; sleep 0.02; done
fi

declare -A results
for round in $(seq 1 "$ROUNDS"); do
    for kind in $KINDS; do
        pid=$(start_ours "$kind")
        results[$kind.$round]=$(measure "$pid" "http://127.0.0.1:$PORT$(cat "$WORK/$kind/target")")
        kill "$pid"; wait "$pid" 2>/dev/null || true
    done
    $SERVER_CPU nginx -e "$WORK/nginx-early.log" -c "$WORK/nginx.conf" -p "$WORK" &
    pid=$!
    PIDS+=("$pid")
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$PORT/api/products" && break; sleep 0.02; done
    # nginx's master forks the worker that serves: its CPU is the worker's.
    worker=$(pgrep -P "$pid" | head -1)
    results[nginx.$round]=$(measure "$worker" "http://127.0.0.1:$PORT/api/products?page_no=1&items_per_page=20")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo "round $round done" >&2
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
field() { # kind index -> median over rounds
    for round in $(seq 1 "$ROUNDS"); do awk -v i="$2" '{print $i}' <<<"${results[$1.$round]}"; done | median
}
# The median over rounds of a kind's figure against another kind's in the same round: CPU per request (user +
# system) with index "cpu", else the field of that index.
ratio() { # kind other index
    for round in $(seq 1 "$ROUNDS"); do
        awk -v a="${results[$1.$round]}" -v b="${results[$2.$round]}" -v i="$3" 'BEGIN {
            split(a, x, " "); split(b, y, " ")
            if (i == "cpu") print (x[3] + x[4]) / (y[3] + y[4]); else print x[i] / y[i] }'
    done | median
}
echo "kinds under load: --threads 1 on one core, wrk -t1 -c16 on another, ${DURATION} s a run, medians of $ROUNDS rounds;"
echo "the ratios are medians of each round's ratio to static's (CPU: per request, user + system)"
printf "%-9s %10s %9s %9s %9s %10s %10s\n" kind "req/s" "p99 ms" "user us" "sys us" "CPU/static" "rps/static"
for kind in $KINDS nginx; do
    printf "%-9s %10s %9s %9s %9s %10s %10s\n" "$kind" "$(field "$kind" 1)" "$(field "$kind" 2)" "$(field "$kind" 3)" \
        "$(field "$kind" 4)" "$(printf "%.2fx" "$(ratio "$kind" static cpu)")" "$(printf "%.2fx" "$(ratio "$kind" static 1)")"
done
if [[ " $KINDS " == *" bundled "* ]]; then
    echo "bundled page against nginx serving its bytes from a file: $(printf "%.2fx" "$(ratio bundled nginx 1)") req/s (target 1.6x)"
fi
echo "per round (req/s p99 user sys):"
for kind in $KINDS nginx; do
    printf "  %-9s" "$kind"; for round in $(seq 1 "$ROUNDS"); do printf " | %s" "${results[$kind.$round]}"; done; echo
done
