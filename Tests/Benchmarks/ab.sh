#!/usr/bin/env bash
# Interleaved A/B of two server builds' CPU time per request, the figure run.sh's tables vary most on: each build in
# turn serves the bundled contracts pinned to core 0 with one thread (`--log off`), `wrk -t1` on core 1 for a warm-up
# second and then for the measured seconds, round after round. Prints each round and the medians. Not part of
# `swift test` or CI.
# Usage: Tests/Benchmarks/ab.sh <binary A> <binary B> [connections (16)] [rounds (10)] [seconds per round (5)]
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$1 B=$2 CONNS=${3:-16} ROUNDS=${4:-10} SECONDS_PER_ROUND=${5:-5}
command -v wrk >/dev/null || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
URL_PATH="/api/products?page_no=1&items_per_page=20"
SERVER=
LOG=$(mktemp)
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -f "$LOG"' EXIT

round() { # label binary port
    taskset -c 0 "$2" --port "$3" --threads 1 --log off --contracts Contracts --fixtures Fixtures >/dev/null 2>&1 &
    SERVER=$!
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$3$URL_PATH" && break; sleep 0.1; done
    curl -s -o /dev/null "http://127.0.0.1:$3$URL_PATH" || { echo "ab.sh: $2 did not answer on port $3" >&2; exit 1; }
    taskset -c 1 wrk -t1 -c"$CONNS" -d1s "http://127.0.0.1:$3$URL_PATH" >/dev/null
    local before after out
    before=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
    out=$(taskset -c 1 wrk -t1 -c"$CONNS" -d"${SECONDS_PER_ROUND}s" "http://127.0.0.1:$3$URL_PATH")
    after=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
    kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
    local requests rate
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    rate=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    python3 -c "print('$1', $rate, round(($after - $before) / $(getconf CLK_TCK) * 1e6 / $requests, 2))" | tee -a "$LOG"
}

echo "label req/s cpu-µs-per-request"
for _ in $(seq "$ROUNDS"); do round A "$A" 18091; round B "$B" 18092; done
python3 - "$LOG" "$A" "$B" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for label, binary in (("A", sys.argv[2]), ("B", sys.argv[3])):
    mine = [(float(rate), float(cpu)) for name, rate, cpu in rows if name == label]
    print(f"{label} {binary}: median {statistics.median(r for r, _ in mine):,.0f} req/s, "
          f"median {statistics.median(c for _, c in mine):.2f} µs CPU per request "
          f"(rounds {min(c for _, c in mine):.2f} to {max(c for _, c in mine):.2f})")
PY
