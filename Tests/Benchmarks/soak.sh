#!/usr/bin/env bash
# Soak: mixed valid and invalid traffic over 500 connections against the release-built server,
# with hostile clients (garbage, oversized heads, slow and abandoned requests, every fault) alongside,
# and an editor rewriting, adding and removing fixtures all the while (on a copy of the folders).
# Samples RSS and open file descriptors each minute; fails if the server dies, stops answering,
# leaks descriptors or serves a stale fixture at the end. Not part of `swift test` or CI.
# Usage: Tests/Benchmarks/soak.sh [seconds (default 600)]
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-600}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
trap "exit 1" INT TERM
command -v wrk >/dev/null || apt-get install -y wrk >/dev/null
source Tests/Benchmarks/static-build-deps.sh

# The Swift runtime linked statically, as one would ship it: it starts about 3 ms sooner.
RELEASE=(-c release --static-swift-stdlib --scratch-path .build-release)
swift build "${RELEASE[@]}" --product mock-server >/dev/null
BIN="$(swift build "${RELEASE[@]}" --show-bin-path)/mock-server"
cp -R Contracts Fixtures "$WORK/"
"$BIN" --port 0 --log off --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" >"$WORK/server.log" 2>&1 &
SERVER=$!
PIDS+=($SERVER)
# The first line is "listening on http://127.0.0.1:<port>"; --port 0 never collides with a leftover.
until PORT=$(head -1 "$WORK/server.log" 2>/dev/null | sed -n 's/^listening on http:\/\/127.0.0.1://p') && [ -n "$PORT" ]; do
    kill -0 $SERVER 2>/dev/null || { echo "FAIL: the server did not start:"; cat "$WORK/server.log"; exit 1; }
    sleep 0.05
done

fds() { ls "/proc/$SERVER/fd" | wc -l; }
rss() { awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$SERVER/status"; }
FDS_BEFORE=$(fds)
echo "start: RSS $(rss) MiB, $FDS_BEFORE fds"

cat > "$WORK/mixed.lua" <<'LUA'
local requests = {
  {"GET", "/api/products?page_no=1&items_per_page=20"}, {"GET", "/api/products/1"}, {"GET", "/api/products/2"},
  {"GET", "/api/products/404"}, {"GET", "/healthChecker"}, {"GET", "/api/v1/question/2"},
  {"GET", "/api/products?page_no=x"}, {"GET", "/nothing/here"}, {"DELETE", "/healthChecker"},
  {"GET", "/api/products/..%2f..%2fetc%2fpasswd"}, {"GET", "/api/v1/question/today"},
  {"GET", "/__mock/journal?limit=5"}, {"GET", "/api/products/42"},
}
math.randomseed(os.time())
request = function()
  local r = requests[math.random(#requests)]
  local headers = {}
  if math.random(4) == 1 then headers["Authorization"] = "Bearer soak" end
  if math.random(10) == 1 then headers["X-Mock-Scenario"] = "serverErr" end
  return wrk.format(r[1], r[2], headers)
end
LUA

python3 - "$PORT" "$DURATION" >"$WORK/hostile.log" 2>&1 <<'PY' &
import random, socket, sys, threading, time
port, duration = int(sys.argv[1]), float(sys.argv[2])
end = time.time() + duration
counts = {}
def attempt(kind):
    s = socket.create_connection(("127.0.0.1", port), timeout=3)
    try:
        if kind == "garbage":
            s.sendall(bytes(random.getrandbits(8) for _ in range(random.randint(1, 2000))) + b"\r\n\r\n")
        elif kind == "oversized":
            s.sendall(b"GET / HTTP/1.1\r\nHost: a\r\nX: " + b"v" * 40000 + b"\r\n\r\n")
        elif kind == "abandon":
            s.sendall(b"GET /api/products/1 HTTP/1.1\r\nHo")
            s.close(); return
        elif kind == "smuggle":
            s.sendall(b"POST /api/v1/questions HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        elif kind == "badchunk":
            s.sendall(b"POST /api/v1/questions HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        elif kind == "pipelined":
            s.sendall(b"GET /healthChecker HTTP/1.1\r\nHost: a\r\n\r\n" * 20 + b"GET /healthChecker HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        else:  # a fault scenario
            path = {"reset": "/api/products?page_no=1&items_per_page=1", "empty": "/api/v1/question/press-for-answer",
                    "malformed": "/healthChecker", "truncated": "/api/products/1", "hang": "/healthChecker"}[kind]
            method = "POST" if kind == "empty" else "GET"
            body = b'{"index":1}' if kind == "empty" else b""
            s.sendall(f"{method} {path} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(body)}\r\nX-Mock-Scenario: {kind}\r\n\r\n".encode() + body)
            if kind == "hang":
                time.sleep(0.2); s.close(); return
        while s.recv(65536):
            pass
    except OSError:
        pass
    finally:
        s.close()
def worker():
    kinds = ["garbage", "oversized", "abandon", "smuggle", "badchunk", "pipelined",
             "reset", "empty", "malformed", "truncated", "hang"]
    while time.time() < end:
        kind = random.choice(kinds)
        try:
            attempt(kind)
            counts[kind] = counts.get(kind, 0) + 1
        except OSError as error:
            counts["connect-error"] = counts.get("connect-error", 0) + 1
threads = [threading.Thread(target=worker) for _ in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
print("hostile requests:", sum(counts.values()), dict(sorted(counts.items())))
PY
PIDS+=($!)
HOSTILE=$!

# The editor: products/2.json rewritten in place, products/42.json added by rename and removed.
python3 - "$WORK/Fixtures/products" "$DURATION" >"$WORK/editor.log" 2>&1 <<'PY' &
import os, sys, time
folder, duration = sys.argv[1], float(sys.argv[2])
end = time.time() + duration
original = open(f"{folder}/2.json", "rb").read()
edits = 0
while time.time() < end:
    with open(f"{folder}/2.json", "wb") as file:
        file.write(original if edits % 2 else original + b"\n")
    with open(f"{folder}/.42.tmp", "wb") as file:
        file.write(original)
    os.replace(f"{folder}/.42.tmp", f"{folder}/42.json")
    time.sleep(0.05)
    os.remove(f"{folder}/42.json")
    edits += 1
    time.sleep(0.05)
print("fixture edits:", edits)
PY
PIDS+=($!)
EDITOR=$!

wrk -t2 -c500 -d"${DURATION}s" -s "$WORK/mixed.lua" "http://127.0.0.1:$PORT" >"$WORK/wrk.log" 2>&1 &
WRK=$!
PIDS+=($WRK)

START=$(date +%s)
while kill -0 $WRK 2>/dev/null; do
    sleep 60 & wait $! || true
    kill -0 $SERVER 2>/dev/null || { echo "FAIL: the server died"; exit 1; }
    echo "t=$(( $(date +%s) - START ))s: RSS $(rss) MiB, $(fds) fds"
done
wait $HOSTILE || true
wait $EDITOR || true

grep -E "requests in|Requests/sec|Non-2xx|Socket errors" "$WORK/wrk.log" | sed 's/^/wrk: /'
cat "$WORK/hostile.log" "$WORK/editor.log"
# Held connections (no_response) close within their hold time; give them that long.
for _ in $(seq 1 30); do [ "$(fds)" -le "$FDS_BEFORE" ] && break; sleep 0.5; done
FDS_AFTER=$(fds)
echo "end: RSS $(rss) MiB, $FDS_AFTER fds (before: $FDS_BEFORE)"
curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthChecker" || { echo "FAIL: no answer after the soak"; exit 1; }
[ "$FDS_AFTER" -le "$FDS_BEFORE" ] || { echo "FAIL: $((FDS_AFTER - FDS_BEFORE)) descriptors leaked"; exit 1; }
# After all that churn, the last edit is what is served.
echo "{\"final\": $RANDOM}" >"$WORK/Fixtures/products/2.json"
cmp -s <(curl -s "http://127.0.0.1:$PORT/api/products/2") "$WORK/Fixtures/products/2.json" \
    || { echo "FAIL: a stale fixture is served after the edits"; exit 1; }
echo "PASS: still serving, no descriptors leaked, the last fixture edit is served"
