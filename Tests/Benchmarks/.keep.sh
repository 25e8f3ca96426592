#!/usr/bin/env bash
# User-space instructions per request under valgrind's callgrind: a deterministic figure for
# comparing two versions of the request path, where wall-clock benchmarks on a shared machine vary
# by ±15%. Not part of `swift test` or CI.
# Usage: [MOCK_SERVER_BIN=<binary>] [KIND=<kind>] [TEMPLATED=1] [RULES=1] Tests/Benchmarks/instructions.sh [requests-per-connection (default 250)]
# KIND picks what the server answers and the client asks (bench-contract.py lists them: static, templated, rules,
# rules10, query, path, item, list); kinds.sh runs them all into one table.
# MOCK_SERVER_BIN measures another build (say the baseline that run.sh's BASELINE left in .build-baseline).
# Runs the release build twice under callgrind, both times warmed up with 8 × WARMUP requests (see below), then
# once with no more requests and once with 8 keep-alive connections each sending that many benchmark requests;
# prints the difference per request. The server
# serves the products page as a static fixture from a contract of its own (as run.sh's table does), so
# the figure compares across versions; TEMPLATED=1 serves the same bytes from a template instead; RULES=1 by the last of
# 20 scenarios with a `when` (the first 19 do not hold).
# APP_HEADERS=1 sends the fields an iOS app's URLSession request carries (User-Agent, Accept-Language, a bearer
# token and so on) besides Host, to see what longer values cost.
# STAGES=1 also breaks the figure down by stage (parse, route, validate, scenario, body, journal, response
# head, write), from the inclusive cost of the functions that do each; what the optimizer inlined into
# the glue, and the event loop's own work, are in "the rest".
set -euo pipefail
cd "$(dirname "$0")/../.."
PER_CONNECTION=${1:-250}
# Both runs first send this many requests per connection, unmeasured: enough to fill the journal (1,000 entries),
# so the figure is the steady state's, where each request drops the oldest entry, rather than partly the cost of
# growing the journal. WARMUP=0 measures from a cold start (the method before 2026-11-26).
WARMUP=${WARMUP:-150}
CONNECTIONS=8
PORT=18183
WORK=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; echo "WORK=$WORK" >&2; }
trap cleanup EXIT
command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
source Tests/Benchmarks/release-binary.sh

python3 Tests/Benchmarks/bench-contract.py "$WORK" Fixtures/products/list.json "${KIND:-${TEMPLATED:-}}" "${RULES:-}"
TARGET=$(cat "$WORK/target")

cat > "$WORK/client.py" <<'PY'
import socket, sys, threading
port, count, connections, target = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[5].encode()
failures = []
fields = b"Host: 127.0.0.1\r\n"
if len(sys.argv) > 4 and sys.argv[4] == "1":
    fields += (b"Accept: */*\r\nAccept-Language: en-GB,en;q=0.9\r\nAccept-Encoding: gzip, deflate\r\n"
               b"User-Agent: Shop/1 CFNetwork/1568.100.1 Darwin/24.0.0\r\nConnection: keep-alive\r\n"
               b"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl\r\n")
request = b"GET " + target + b" HTTP/1.1\r\n" + fields + b"\r\n"
def client():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)  # a server that stops answering fails the run rather than hanging it (valgrind is slow, not that slow)
    for _ in range(count):
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:  # the server closed the connection, or crashed
                failures.append("the server closed a connection before its response")
                s.close()
                return
            data += chunk
            end = data.find(b"\r\n\r\n")
            if end < 0: continue
            length = next(int(line.split(b":")[1]) for line in data[:end].split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            if len(data) >= end + 4 + length: break
    s.close()
def guarded():
    try:
        client()
    except Exception as error:  # refused, reset or timed out; or a response without its length
        failures.append(f"the server stopped answering as expected: {error!r}")
threads = [threading.Thread(target=guarded) for _ in range(connections)]
[t.start() for t in threads]; [t.join() for t in threads]
if failures: sys.exit(failures[0])
PY

fail() { # the client failed: the server's log shown, the server stopped (the EXIT trap does not run in the
         # command substitution that runs instructions), and the script fails
    kill -KILL "$SERVER" 2>/dev/null
    tail -20 "$WORK/valgrind.log" >&2
    exit 1
}
instructions() { # requests-per-connection -> total user-space instructions of the run
    valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.$1.out" \
        "$BIN" --port $PORT --log off --threads 1 --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" \
        >/dev/null 2>"$WORK/valgrind.log" &
    SERVER=$!
    until curl -s -o /dev/null "http://127.0.0.1:$PORT$TARGET"; do sleep 0.2; done
    if [ "$WARMUP" -gt 0 ]; then
        python3 "$WORK/client.py" $PORT "$WARMUP" $CONNECTIONS "${APP_HEADERS:-}" "$TARGET" || fail
    fi
    # A server that crashed shows its stack in valgrind's log: shown, and the script fails.
    python3 "$WORK/client.py" $PORT "$1" $CONNECTIONS "${APP_HEADERS:-}" "$TARGET" || fail
    kill -INT $SERVER; wait $SERVER || true
    SERVER=
    awk '/Collected/ {gsub(",", "", $4); print $4}' "$WORK/valgrind.log"
}
IDLE=$(instructions 0)
LOADED=$(instructions "$PER_CONNECTION")
echo "$(( (LOADED - IDLE) / (PER_CONNECTION * CONNECTIONS) )) user-space instructions per request ($((PER_CONNECTION * CONNECTIONS)) requests)"
[ -n "${STAGES:-}" ] || exit 0
# Self cost per source line, summed by source file: code the optimizer inlined keeps its own file, so the
# stages stay apart whatever was inlined where. The Swift runtime and the C library (reference counting,
# allocation, copies, string checks) serve every stage and are one line of their own. Start-up and idle
# work is subtracted with the idle run's figures.
for run in 0 "$PER_CONNECTION"; do
    callgrind_annotate --threshold=100 "$WORK/callgrind.$run.out" 2>/dev/null >"$WORK/self.$run.txt"
    callgrind_annotate --threshold=100 --tree=caller "$WORK/callgrind.$run.out" 2>/dev/null >"$WORK/callers.$run.txt"
done
python3 - "$WORK/self.0.txt" "$WORK/self.$PER_CONNECTION.txt" $((PER_CONNECTION * CONNECTIONS)) \
    "$WORK/callers.0.txt" "$WORK/callers.$PER_CONNECTION.txt" <<'PY'
import re, sys
def allocations(path):  # calls of malloc: its callers' counts, listed just above it in the caller tree
    calls = 0
    for line in open(path):
        if not line.strip():
            calls = 0
        elif re.search(r"\*\s+\S*:malloc \[", line):
            return calls
        elif re.search(r"\)\s+<", line):
            match = re.search(r"\((\d[\d,]*)x\)", line)
            calls += int(match.group(1).replace(",", "")) if match else 0
    return 0
stages = [  # stage, the source files (under Sources/) whose code does it
    ("read and dispatch (event loop, connection, buffers)", r"HTTPCore/(Server/(Connection|EventLoop|InboundBuffer|TimerQueue|ConnectionTable)|IO/)"),
    ("parse the head", r"HTTPCore/HTTP/(HeadParser|HTTPRequestParser|HTTPRequest|HTTPHeaders|KnownMethod|Array\+Storage|ChunkedDecoder)"),
    ("route (path, router, contract set)", r"MockServer/(Routing/|Admin/ContractReloader)|HTTPCore/HTTP/(PercentDecoding|ShortBytes)"),
    ("validate (query, headers, body)", r"MockServer/Server/(RequestValidator|BodyValidator)|ContractModel/FieldType|HTTPCore/HTTP/QueryNames"),
    ("pick the scenario, conditions", r"MockServer/(Scenarios|Conditions)/"),
    ("fixture body", r"MockServer/Responses/"),
    ("journal", r"MockServer/(Server/Journal|Admin/(Header|Body)Redaction)|HTTPCore/HTTP/HeadFields"),
    ("reply and response head", r"HTTPCore/(Server/(Reply|WirePlan)|HTTP/(HTTPResponse|HTTPDate|HTTPStatus))|MockServer/Server/(RequestHandler|CORSPolicy|AccessLog)"),
    ("write (gathered sendmsg)", r"HTTPCore/(Server/OutboundQueue|Platform/)|CSystemShims/"),
]
def by_stage(path):
    totals = {}
    for line in open(path):
        match = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(\S*?):", line)
        if not match: continue
        cost, file = int(match.group(1).replace(",", "")), match.group(2)
        stage = next((name for name, pattern in stages if re.search(pattern, file)), None)
        if stage is None:
            stage = "Swift runtime and C library (retain/release, malloc, copies, string checks)" \
                if "Sources/" not in file and "<compiler-generated>" not in file else "other code"
        if "<compiler-generated>" in file: stage = "compiler-generated (copies, destroys, outlined code)"
        totals[stage] = totals.get(stage, 0) + cost
    return totals
idle, loaded, requests = by_stage(sys.argv[1]), by_stage(sys.argv[2]), int(sys.argv[3])
rows = [(name, (loaded.get(name, 0) - idle.get(name, 0)) // requests) for name in
        [name for name, _ in stages] + ["compiler-generated (copies, destroys, outlined code)",
         "Swift runtime and C library (retain/release, malloc, copies, string checks)", "other code"]]
print("| stage | instructions per request |\n|---|---|")
for name, value in rows: print(f"| {name} | {value:,} |")
print(f"| **sum of the rows** | **{sum(value for _, value in rows):,}** |")
mallocs = (allocations(sys.argv[5]) - allocations(sys.argv[4])) / requests
print(f"\nHeap allocations (malloc calls) per request: {mallocs:.2f}")
PY
