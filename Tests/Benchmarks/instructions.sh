#!/usr/bin/env bash
# User-space instructions per request under valgrind's callgrind: a deterministic figure for
# comparing two versions of the request path, where wall-clock benchmarks on a shared machine vary
# by ±15%. Not part of `swift test` or CI.
# Usage: [MOCK_SERVER_BIN=<binary>] [TEMPLATED=1] Tests/Benchmarks/instructions.sh [requests-per-connection (default 250)]
# MOCK_SERVER_BIN measures another build (say the baseline that run.sh's BASELINE left in .build-baseline).
# Runs the release build twice under callgrind, once with no requests and once with 8 keep-alive
# connections each sending that many benchmark requests; prints the difference per request. The server
# serves the products page as a static fixture from a contract of its own (as run.sh's table does), so
# the figure compares across versions; TEMPLATED=1 serves the same bytes from a template instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
PER_CONNECTION=${1:-250}
CONNECTIONS=8
PORT=18183
WORK=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
source Tests/Benchmarks/static-build-deps.sh

RELEASE=(-c release --static-swift-stdlib --scratch-path .build-release)
if [ -n "${MOCK_SERVER_BIN:-}" ]; then
    BIN=$MOCK_SERVER_BIN
else
    swift build "${RELEASE[@]}" --product mock-server >/dev/null
    BIN="$(swift build "${RELEASE[@]}" --show-bin-path)/mock-server"
fi

python3 - "$WORK" Fixtures/products/list.json "${TEMPLATED:-}" <<'PY'
import json, os, sys
work, fixture, templated = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
os.makedirs(work + "/Contracts"); os.makedirs(work + "/Fixtures")
text = open(fixture).read()
if templated:
    text = text.replace('"page_no": 1,', '"page_no": {{query.page_no}},', 1).replace(
        '"items_per_page": 20,', '"items_per_page": {{query.items_per_page}},', 1).replace(
        '"limit": 20,', '"limit": {{query.items_per_page}},', 1)
open(work + "/Fixtures/list.json", "w").write(text)
scenario = {"name": "success", "status": 200, "body": "list.json", "expect": "success"}
if templated: scenario["template"] = True
json.dump({"domain": "bench", "endpoints": [{"id": "productList", "method": "GET", "path": "/api/products",
           "request": {"query": {"page_no": "integer", "items_per_page": "integer"}}, "scenarios": [scenario]}]},
          open(work + "/Contracts/bench.json", "w"))
PY

cat > "$WORK/client.py" <<'PY'
import socket, sys, threading
port, count, connections = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
request = b"GET /api/products?page_no=1&items_per_page=20 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
def client():
    s = socket.create_connection(("127.0.0.1", port))
    for _ in range(count):
        s.sendall(request)
        data = b""
        while True:
            data += s.recv(65536)
            end = data.find(b"\r\n\r\n")
            if end < 0: continue
            length = next(int(line.split(b":")[1]) for line in data[:end].split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            if len(data) >= end + 4 + length: break
    s.close()
threads = [threading.Thread(target=client) for _ in range(connections)]
[t.start() for t in threads]; [t.join() for t in threads]
PY

instructions() { # requests-per-connection -> total user-space instructions of the run
    valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out" \
        "$BIN" --port $PORT --log off --threads 1 --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" \
        >/dev/null 2>"$WORK/valgrind.log" &
    SERVER=$!
    until curl -s -o /dev/null "http://127.0.0.1:$PORT/api/products?page_no=1&items_per_page=20"; do sleep 0.2; done
    python3 "$WORK/client.py" $PORT "$1" $CONNECTIONS
    kill -INT $SERVER; wait $SERVER || true
    SERVER=
    awk '/Collected/ {gsub(",", "", $4); print $4}' "$WORK/valgrind.log"
}
IDLE=$(instructions 0)
LOADED=$(instructions "$PER_CONNECTION")
echo "$(( (LOADED - IDLE) / (PER_CONNECTION * CONNECTIONS) )) user-space instructions per request ($((PER_CONNECTION * CONNECTIONS)) requests)"
