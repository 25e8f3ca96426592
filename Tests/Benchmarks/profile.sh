#!/usr/bin/env bash
# Where a request's CPU time goes on this machine's hardware, by function: `perf record` (cpu-clock samples, 4,000 a
# second) of the release build while wrk -t1 keeps it busy, printed in nanoseconds per request, user space (the
# server's code, the Swift runtime, the C library) and the kernel's work for it apart. instructions.sh counts instructions, the same figure on every run; this sees
# what they cost, cache misses and atomic instructions included, and the system calls. The two disagree most where
# memory has gone cold: the journal's append, before it asked for its next slots ahead, showed about 500
# instructions there and about 250 ns here. Not part of `swift test` or CI; installs perf and wrk if missing.
# Usage: [MOCK_SERVER_BIN=<binary>] [CONNECTIONS=16] [TOP=25] [TEMPLATED=1] Tests/Benchmarks/profile.sh [seconds (default 5)]
# Prints the CPU time per request, user and kernel, then the TOP functions of each.
# The server serves instructions.sh's contract (bench-contract.py) with one event-loop thread on the last core, wrk
# on the first. Samples are of the server's threads only; each row's figure is its share of them times the CPU
# time they stand for, over the requests wrk completed.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-5}
CONNECTIONS=${CONNECTIONS:-16}
TOP=${TOP:-25}
PORT=18184
WORK=$(mktemp -d)
SERVER=
RECORDER=
cleanup() {
    [ -n "$RECORDER" ] && kill "$RECORDER" 2>/dev/null && wait "$RECORDER" 2>/dev/null
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
command -v perf >/dev/null || { apt-get install -y linux-perf >/dev/null 2>&1 \
    || { apt-get update >/dev/null && apt-get install -y linux-perf >/dev/null; }; }
command -v wrk >/dev/null || { apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }; }
source Tests/Benchmarks/release-binary.sh
python3 Tests/Benchmarks/bench-contract.py "$WORK" Fixtures/products/list.json "${TEMPLATED:-}"

CORES=$(nproc)
if [ "$CORES" -ge 2 ]; then SERVER_CPU=(taskset -c $((CORES - 1))); CLIENT_CPU=(taskset -c 0); else SERVER_CPU=(); CLIENT_CPU=(); fi
TARGET="/api/products?page_no=1&items_per_page=20"
"${SERVER_CPU[@]}" "$BIN" --port $PORT --log off --threads 1 --contracts "$WORK/Contracts" --fixtures "$WORK/Fixtures" \
    >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT$TARGET" && break; sleep 0.1; done
curl -sf -o /dev/null "http://127.0.0.1:$PORT$TARGET" || { echo "the server did not answer:" >&2; cat "$WORK/server.log" >&2; exit 1; }
# Warm: the journal full (1,000 entries), as in a day's use.
"${CLIENT_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d1s "http://127.0.0.1:$PORT$TARGET" >/dev/null

perf record -e cpu-clock -F 4000 -p "$SERVER" -o "$WORK/perf.data" -- sleep "$((DURATION + 1))" >/dev/null 2>"$WORK/perf.log" &
RECORDER=$!
sleep 0.5
"${CLIENT_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$PORT$TARGET" >"$WORK/wrk.txt"
wait "$RECORDER" || { RECORDER=; cat "$WORK/perf.log" >&2; exit 1; }
RECORDER=
REQUESTS=$(awk '/requests in/ {print $1}' "$WORK/wrk.txt")
[ -n "$REQUESTS" ] && [ "$REQUESTS" -gt 0 ] || { echo "wrk completed no request:" >&2; cat "$WORK/wrk.txt" >&2; exit 1; }
perf report -i "$WORK/perf.data" --stdio --sort sym 2>"$WORK/report.log" >"$WORK/report.txt" \
    || { echo "perf report failed:" >&2; cat "$WORK/report.log" >&2; exit 1; }

python3 - "$WORK/report.txt" "$REQUESTS" "$DURATION" "$CONNECTIONS" "$TOP" <<'PY' | swift demangle --simplified
import re, sys
report, requests, duration, connections, top = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
text = open(report).read()
# cpu-clock's event count is the CPU time the samples stand for, in nanoseconds.
count = re.search(r"Event count \(approx\.\): (\d+)", text)
if not count: sys.exit("perf report gave no event count: no samples of the server?")
nanoseconds = int(count.group(1))
rows = []
for line in text.splitlines():
    match = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(.*\S)", line)
    if match:
        rows.append((float(match.group(1)) / 100 * nanoseconds / requests, match.group(2) == "k", match.group(3)))
user = sum(cost for cost, kernel, _ in rows if not kernel)
kernel = sum(cost for cost, kernel, _ in rows if kernel)
print(f"{requests:,} requests in {duration} s at {connections} connections: {requests / float(duration):,.0f} req/s")
print(f"CPU per request: {(user + kernel) / 1000:.2f} us: user space {user / 1000:.2f} us, kernel {kernel / 1000:.2f} us")
for side, in_kernel in (("user space (the server's code, the Swift runtime, the C library)", False),
                        ("the kernel's work for it", True)):
    print(f"\n{side}: the top {top}\n\n| ns/request | function |\n|---:|---|")
    for cost, _, name in sorted(row for row in rows if row[1] == in_kernel)[::-1][:top]:
        print(f"| {cost:.1f} | {name} |")
PY
