#!/usr/bin/env bash
# Streams beside the plain mock path, and one WebSocket's echo rate, each against a reference in the same run:
#  1. wrk against the static products list with nothing else open, then with 100 idle WebSockets and 10 busy event
#     streams (100 events a second each) open on the same server: req/s and p99 of both, and the ratio (goal >= 0.95).
#  2. Text messages per second echoed on one WebSocket (64 in flight, every echo checked, each one journaled twice by
#     ours), against Python websockets' own echo server, by the same client.
# Servers on the last core, clients (wrk, Python) on the first; ROUNDS rounds (default 3), DURATION seconds per wrk
# run (default 8). Python's websockets from PyPI into .build/streams-venv (as Tests/Streams/run.sh installs it).
# Not part of `swift test` or CI: a measurement. Usage: [ROUNDS=3] [DURATION=8] Tests/Benchmarks/streams.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-8}
MESSAGES=${MESSAGES:-50000}
VENV=${STREAMS_VENV:-.build/streams-venv}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
command -v wrk >/dev/null || { apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }; }
if ! "$VENV/bin/python" -c 'import websockets' 2>/dev/null; then
    rm -rf "$VENV" && python3 -m venv "$VENV" && "$VENV/bin/pip" install --quiet -r Tests/Streams/requirements.txt
    cp Tests/Streams/requirements.txt "$VENV/requirements.txt"
fi
PY="$VENV/bin/python"
CORES=$(nproc)
if [ "$CORES" -ge 2 ]; then SERVER_CPU="taskset -c $((CORES - 1))"; CLIENT_CPU="taskset -c 0"; else SERVER_CPU=""; CLIENT_CPU=""; fi
source Tests/Benchmarks/release-binary.sh   # BIN: the release mock-server

OURS=18601 PYTHON_ECHO=18602
mkdir -p "$WORK/Contracts" "$WORK/Fixtures/products"
cp Fixtures/products/list.json "$WORK/Fixtures/products/list.json"
# 100 events a second for a minute and a half, then kept open.
EVENTS=$(python3 -c 'import json; print(json.dumps([{"data": "tick %d" % i, "delayMs": 10} for i in range(9000)]))')
cat >"$WORK/Contracts/bench.json" <<JSON
{"domain": "bench", "endpoints": [
  {"id": "products", "method": "GET", "path": "/api/products",
   "scenarios": [{"name": "success", "status": 200, "body": "products/list.json", "expect": "success"}]},
  {"id": "chat", "method": "GET", "path": "/chat", "websocket": true,
   "scenarios": [{"name": "success", "expect": "success", "echo": true}]},
  {"id": "busy", "method": "GET", "path": "/busy",
   "scenarios": [{"name": "success", "expect": "success", "afterLast": "keepOpen", "events": $EVENTS}]}
]}
JSON
$SERVER_CPU "$BIN" --port "$OURS" --threads 1 --log off --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" \
    >"$WORK/ours.log" 2>&1 & PIDS+=("$!")
OURS_PID=$!
$SERVER_CPU "$PY" Tests/Benchmarks/streams_load.py echo-server "$PYTHON_ECHO" >"$WORK/python.log" 2>&1 & PIDS+=("$!")
PYTHON_PID=$!
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # user + system clock ticks of a process
TICK=$(getconf CLK_TCK)
for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$OURS/api/products" && grep -q ready "$WORK/python.log" && break; sleep 0.02; done

run() { # -> "req/s p99-ms"
    $CLIENT_CPU wrk -t1 -c16 -d"${DURATION}s" --latency "http://127.0.0.1:$OURS/api/products" | awk '
        /Requests\/sec/ {rps = $2}
        / 99%/ {v = $2; if (v ~ /us$/) {sub(/us$/, "", v); v /= 1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v *= 1000}; p99 = v}
        /Non-2xx|Socket errors/ {print "wrk: " $0 > "/dev/stderr"}
        END {printf "%d %.2f", rps, p99}'
}
echo "plain path: 16 connections, ${DURATION} s per run, server on one core, wrk and the streams' clients on another"
printf "%-6s %14s %10s %18s %10s %8s\n" round "none open" p99 "100 ws + 10 sse" p99 ratio
for round in $(seq 1 "$ROUNDS"); do
    read -r alone alone_p99 <<<"$(run)"
    $CLIENT_CPU "$PY" Tests/Benchmarks/streams_load.py hold "http://127.0.0.1:$OURS" 100 10 >"$WORK/hold.log" 2>&1 &
    HOLD=$!
    for _ in $(seq 1 500); do grep -q ready "$WORK/hold.log" && break; sleep 0.02; done
    grep -q ready "$WORK/hold.log" || { echo "the streams did not open:" >&2; cat "$WORK/hold.log" >&2; exit 1; }
    open=$(curl -s "http://127.0.0.1:$OURS/__mock/streams" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
    read -r busy busy_p99 <<<"$(run)"
    kill "$HOLD"; wait "$HOLD" 2>/dev/null || true
    printf "%-6s %14s %9sms %12s (%3d) %9sms %8s\n" "$round" "$alone" "$alone_p99" "$busy" "$open" "$busy_p99" \
        "$(awk -v a="$busy" -v b="$alone" 'BEGIN {printf "%.2fx", a / b}')"
done
echo
echo "echo on one WebSocket: $MESSAGES messages of 32 bytes, 64 in flight, the same Python client; server CPU per message"
printf "%-6s %12s %10s %18s %10s %8s\n" round "ours msg/s" "CPU/msg" "websockets msg/s" "CPU/msg" ratio
echo_run() { # url pid -> "msg/s cpu-us-per-message"
    local before after rate
    before=$(ticks "$2")
    rate=$($CLIENT_CPU "$PY" Tests/Benchmarks/streams_load.py echo "$1" "$MESSAGES" 64)
    after=$(ticks "$2")
    echo "$rate $(awk -v t=$((after - before)) -v hz="$TICK" -v n="$MESSAGES" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')"
}
for round in $(seq 1 "$ROUNDS"); do
    read -r ours ours_cpu <<<"$(echo_run "ws://127.0.0.1:$OURS/chat" "$OURS_PID")"
    read -r python python_cpu <<<"$(echo_run "ws://127.0.0.1:$PYTHON_ECHO/" "$PYTHON_PID")"
    printf "%-6s %12s %8sus %18s %8sus %8s\n" "$round" "$ours" "$ours_cpu" "$python" "$python_cpu" \
        "$(awk -v a="$ours" -v b="$python" 'BEGIN {printf "%.2fx", a / b}')"
done
