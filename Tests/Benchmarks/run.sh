#!/usr/bin/env bash
# Benchmark: the release-built mock-server against nginx serving the same fixture, side by side.
# Not part of `swift test` or CI.
# Usage: [BASELINE=<git revision>] [ONLY=floor|endpoints|fixtures|resources|dashboards|throttled]
#        [ROUNDS=n] [LOADS="16 64"]
#        Tests/Benchmarks/run.sh [seconds-per-run (default 5)]
# With BASELINE, that revision is built the same way and measured in the same run, interleaved, for
# before/after figures (columns "before" and "after/before").
# Prints one table (req/s and p99 per concurrency, ratio ours/nginx); then the floor table: ours, the
# baseline, h2o (one thread), nginx (one worker) and floor.c (Tests/Benchmarks/floor.c: the least work
# HTTP/1.1 keep-alive can cost) each on one core with one thread, wrk -t1 on the other, at 16, 64,
# 256 and 1,000 connections and 16 connections pipelining 16 deep: req/s, p99 and the server's CPU
# time per request, and its user and system parts (medians of ROUNDS runs, default 3, interleaved, every
# server of the table started afresh for each run), ours against the floor and the baseline (CPU: the median
# and range of the run-for-run ratios) and h2o; with ours' templated path and a resource's GET /items/{id}
# against static at 16 (LOADS: some of the loads, 16 among them; ONLY=floor runs that section alone; it
# installs h2o and gcc if missing; with an even ROUNDS, a median is the mean of the middle two). Then
# start-up time, RSS, and a URLSession client loop; then the 1,000-endpoint section: req/s of the first
# and the last of 1,000 routes, their ratio, and start-up on that contract folder. ONLY=endpoints runs that section alone.
# Then start-up on large fixtures: one of 50 MB, and 2,000 files; ONLY=fixtures runs that alone.
# Last, a resource's item from the store against a static fixture of the same bytes, and POST
# throughput; ONLY=resources runs that alone.
# ONLY=dashboards (not part of a full run): the mock path's req/s with 10 readers of the live journal
# (GET /__mock/events, as 10 dashboards) against none, interleaved; then one reader that stops reading
# while 10,000 requests go by: the server's RSS, and what the reader gets when it reads again.
# The table serves a static fixture from a contract of its own; a templated copy of the same fixture
# (its page_no, items_per_page and limit filled in from the query, the same bytes once rendered) is
# measured against it in the same run ("templated/static").
# Stops everything it started, by PID.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DURATION=${1:-5}
# The floor table's rounds: each figure there is the median of this many runs.
ROUNDS=${ROUNDS:-3}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS=$ROUNDS: the floor table's rounds are a whole number from 1" >&2; exit 2; }
# The floor table's loads, some of the five: more rounds of fewer loads in the same time.
LOADS=${LOADS:-16 64 256 1000 16x16}
[[ " $LOADS " =~ " 16 " ]] && [[ "$LOADS" =~ ^(16|64|256|1000|16x16)( (16|64|256|1000|16x16))*$ ]] || {
    echo "LOADS=$LOADS: the floor table's loads are some of 16, 64, 256, 1000 and 16x16, 16 among them (the other paths are set against it)" >&2
    exit 2; }
[ "$(tr ' ' '\n' <<<"$LOADS" | sort | uniq -d)" = "" ] || { echo "LOADS=$LOADS: a load named twice" >&2; exit 2; }
PIDS=()
BASELINE=${BASELINE:-}
ONLY=${ONLY:-}
[ -z "$ONLY" ] || [ "$ONLY" = floor ] || [ "$ONLY" = endpoints ] || [ "$ONLY" = fixtures ] || [ "$ONLY" = resources ] || [ "$ONLY" = dashboards ] \
    || [ "$ONLY" = throttled ] || {
    echo "ONLY=$ONLY: the sections that run alone are 'floor', 'endpoints', 'fixtures', 'resources', 'dashboards' and 'throttled'" >&2
    exit 2; }
FLOOR=""
[ -z "$ONLY" ] || [ "$ONLY" = floor ] && FLOOR=1
# The floor table's 1,000 connections, on wrk's side and the servers'.
[ -z "$FLOOR" ] || [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 4096 ] || ulimit -n 4096
# Made once the options are checked, and removed at exit: a bad option leaves nothing behind.
WORK=$(mktemp -d)
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -n "$BASELINE" ] && git -C "$ROOT" worktree remove --force "$WORK/baseline-src" >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT
trap "exit 1" INT TERM

need() { command -v "$1" >/dev/null 2>&1; }
source Tests/Benchmarks/static-build-deps.sh
if ! need wrk || ! need nginx; then
    echo "installing wrk and nginx-light (benchmark only)..." >&2
    (apt-get install -y wrk nginx-light >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk nginx-light >/dev/null; })
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ -n "$FLOOR" ] && { ! need h2o || ! need cc; }; then
    echo "installing h2o and gcc (the floor table only)..." >&2
    (apt-get install -y h2o gcc >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y h2o gcc >/dev/null; })
fi

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

# --- helpers the sections share ------------------------------------------------------------------
start_server() { # log-file command [arguments...]: on the servers' core, stopped at exit; its PID in STARTED
    local log=$1
    shift
    $SERVER_CPU "$@" >"$log" 2>&1 &
    STARTED=$!
    PIDS+=("$STARTED")
}
stop_server() { # pid: stops a server start_server started, and forgets it, so that cleanup signals no PID the system reused
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    local kept=() pid
    for pid in "${PIDS[@]}"; do [ "$pid" = "$1" ] || kept+=("$pid"); done
    PIDS=("${kept[@]}")
}
wait_for() { # port path [log-file]: until it answers 2xx, 5 s at most; otherwise the script stops, showing the log
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$1$2" && return 0; sleep 0.02; done
    echo "port $1 did not answer $2" >&2
    if [ -n "${3:-}" ]; then echo "its log, $3:" >&2; cat "$3" >&2 || true; fi
    exit 1
}
serves() { # label url file: the script stops unless url answers 200 with exactly the file's bytes
    local status
    status=$(curl -s -m 5 -o "$WORK/served" -w '%{http_code}' "$2" || true)
    if [ "$status" != 200 ] || ! cmp -s "$WORK/served" "$3"; then
        echo "$1 answers $status with $(wc -c <"$WORK/served") bytes at $2, not 200 with the $(wc -c <"$3") bytes of $3" >&2
        exit 1
    fi
}
cpu_ticks() { # pid... -> "user system": CPU time so far of these processes and their children, in clock ticks
    local pid
    for pid in "$@"; do echo "$pid"; pgrep -P "$pid" || true; done \
        | while read -r pid; do cat "/proc/$pid/stat" 2>/dev/null || true; done | awk '{u += $14; s += $15} END {print u + 0, s + 0}'
}
stolen_ticks() { # -> "steal all": the servers' core's stolen and total clock ticks so far (/proc/stat; a virtual machine's
    # host running something else when the core had work); the whole machine's when the servers have no core of their own
    awk -v core="cpu${SERVER_CPU:+$((CORES - 1))}" '$1 == core {print $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
}
ratio_of() { # a b -> a/b as "1.23x" ("-" when b is 0)
    awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) printf "-"; else printf "%.2fx", a / b }'
}
HZ=$(getconf CLK_TCK)
# One wrk -t1 run on the client's core. The CPU time is that of the server PIDs given (none: 0).
# The CPU time: user and system, and their sum; the user time is what the server's code did (with the Swift runtime
# and the C library), the system time what the kernel did for it (the sockets, and on loopback the client's side of
# each packet it sends). The kernel splits the two by sampling, a tick at a time: a run's user part is a few hundred
# ticks, so a few per cent either way.
measure() { # "server PIDs" port connections path [wrk options...] -> "req/s p99-ms CPU-µs-per-request wrk-errors user-µs system-µs"
    local pids=$1 port=$2 connections=$3 path=$4 before after out
    shift 4
    # shellcheck disable=SC2086 # one word a PID
    read -r -a before <<<"$(cpu_ticks $pids)"
    out=$($CLIENT_CPU wrk -t1 -c"$connections" -d"${DURATION}s" --latency "$@" "http://127.0.0.1:$port$path")
    # shellcheck disable=SC2086
    read -r -a after <<<"$(cpu_ticks $pids)"
    awk '/Non-2xx|Socket errors/ {print "  wrk reported on port '"$port"', '"$connections"' connections: " $0 > "/dev/stderr"}' <<<"$out"
    awk -v u=$((after[0] - before[0])) -v s=$((after[1] - before[1])) -v hz="$HZ" -v port="$port" '
        /requests in/ {n = $1}
        /Requests\/sec/ {r = $2}
        $1 == "99%" {p = $2; if (p ~ /us$/) p = p / 1000; else if (p ~ /ms$/) p = p + 0; else p = p * 1000}
        /Socket errors/ {gsub(/,/, ""); e += $4 + $6 + $8 + $10}
        /Non-2xx/ {e += $NF}
        END {if (!n) {print "wrk completed no request on port " port > "/dev/stderr"; exit 1}
             printf "%.0f %.3f %.2f %d %.2f %.2f", r, p, (u + s) * 1000000 / hz / n, e, u * 1000000 / hz / n, s * 1000000 / hz / n}' <<<"$out"
}

# --- start-up to first response: the median of 10 runs --------------------------------------------
startup_ms() { # binary first-port request-path [server arguments...] -> milliseconds
    python3 - "$@" <<'PY'
import socket, statistics, subprocess, sys, time
binary, first_port, path, extra = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
request = ("GET %s HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n" % path).encode()
samples = []
for i in range(10):
    port = first_port + i
    start = time.perf_counter()
    proc = subprocess.Popen([binary, "--port", str(port), "--log", "off"] + extra, stdout=subprocess.DEVNULL)
    while True:
        if proc.poll() is not None:
            sys.exit("%s exited with %d before answering" % (binary, proc.returncode))
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            s.sendall(request)
            if s.recv(64).startswith(b"HTTP/1.1 200"):
                samples.append((time.perf_counter() - start) * 1000)
                s.close()
                break
        except OSError:
            time.sleep(0.0002)
    proc.terminate(); proc.wait()
print("%.1f" % statistics.median(samples))
PY
}

# --- 1,000 endpoints: the first route against the last, and start-up on that folder --------------
# Routes /bench/r0000/items/{id} ... /bench/r0999/items/{id} in four contract files, all serving a
# copy of the products fixture, so the req/s compare with the table's 16-connection row.
many_endpoints() {
    local dir="$WORK/endpoints" first="/bench/r0000/items/1" last="/bench/r0999/items/1"
    python3 - "$dir" "$ROOT/Fixtures/products/list.json" <<'PY'
import json, os, shutil, sys
root, fixture = sys.argv[1], sys.argv[2]
os.makedirs(root + "/Contracts")
os.makedirs(root + "/Fixtures/bench")
shutil.copyfile(fixture, root + "/Fixtures/bench/item.json")
for part in range(4):
    endpoints = [{"id": "r%04d" % i, "method": "GET", "path": "/bench/r%04d/items/{id}" % i,
                  "scenarios": [{"name": "success", "status": 200, "body": "bench/item.json", "expect": "success"}]}
                 for i in range(part * 250, (part + 1) * 250)]
    with open(root + "/Contracts/bench%d.json" % part, "w") as out:
        json.dump({"domain": "bench%d" % part, "endpoints": endpoints}, out, indent=1)
PY
    local folders=(--contracts "$dir/Contracts" --fixtures "$dir/Fixtures")
    local servers=("$BIN") ports=(18184) pids=() labels=(ours)
    if [ -n "$BASELINE" ]; then servers+=("$BASE_BIN"); ports+=(18185); labels+=("$BASELINE"); fi
    for i in "${!servers[@]}"; do
        start_server "$WORK/endpoints-$i.log" "${servers[$i]}" --port "${ports[$i]}" --log off --threads 1 "${folders[@]}"
        pids+=("$STARTED")
        local answered=""
        for _ in $(seq 1 250); do
            curl -sf -o /dev/null "http://127.0.0.1:${ports[$i]}$first" && { answered=1; break; }
            sleep 0.02
        done
        [ -n "$answered" ] || { echo "${labels[$i]} did not serve $first:"; cat "$WORK/endpoints-$i.log"; exit 1; }
        for path in "$first" "$last"; do
            serves "${labels[$i]}" "http://127.0.0.1:${ports[$i]}$path" "$dir/Fixtures/bench/item.json"
        done
    done
    wrk_rps() { # port path -> req/s
        measure "" "$1" 16 "$2" | awk '{print $1}'
    }
    # Each route three times, the servers and routes interleaved; the best run counts. A ratio suffers
    # twice from the host's bursts of noise, hence one run more than the table's.
    declare -A rps=()
    for _ in 1 2 3; do
        for i in "${!servers[@]}"; do
            for route in first last; do
                local path=$first
                [ "$route" = last ] && path=$last
                local value
                value=$(wrk_rps "${ports[$i]}" "$path")
                [ "${value:-0}" -gt "${rps[$i-$route]:-0}" ] && rps[$i-$route]=$value
            done
        done
    done
    local rss
    rss=$(awk '/VmRSS/ {print $2}' "/proc/${pids[0]}/status")
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done

    echo
    echo "1,000 endpoints (/bench/r0000/items/{id} ... /bench/r0999/items/{id}): wrk -t1 -c16, ${DURATION}s per run, best of three"
    printf '%-14s %14s %14s %16s %20s\n' server "first req/s" "last req/s" "last/first" "start-up (median)"
    for i in "${!servers[@]}"; do
        local startup
        startup=$(startup_ms "${servers[$i]}" $((18200 + 10 * i)) "$first" "${folders[@]}")
        printf '%-14s %14s %14s %16s %17s ms\n' "${labels[$i]}" "${rps[$i-first]}" "${rps[$i-last]}" \
            "$(ratio_of "${rps[$i-last]}" "${rps[$i-first]}")" "$startup"
    done
    echo "targets: last/first >= 0.9, start-up <= 20 ms; RSS of ours after load $((rss / 1024)).$(((rss % 1024) * 10 / 1024)) MiB"
}

# --- large fixtures: start-up with one 50 MB fixture, and with 2,000 fixture files ---------------
large_fixtures() {
    python3 - "$WORK/large" <<'PY'
import json, os, sys
root = sys.argv[1]
for case in ("big", "many"):
    os.makedirs("%s/%s/Contracts" % (root, case)); os.makedirs("%s/%s/Fixtures/items" % (root, case))
item = {"id": 1, "name": "a product", "price": 12.5, "tags": ["a", "b"], "description": "x" * 180}
with open(root + "/big/Fixtures/items/all.json", "w") as out:
    json.dump({"items": [dict(item, id=i) for i in range(50_000_000 // 260)]}, out)
endpoint = lambda i, body: {"id": "e%d" % i, "method": "GET", "path": "/e/%d" % i,
                            "scenarios": [{"name": "success", "status": 200, "body": body, "expect": "success"}]}
json.dump({"domain": "big", "endpoints": [endpoint(0, "items/all.json")]}, open(root + "/big/Contracts/big.json", "w"))
for i in range(2000):
    json.dump(dict(item, id=i), open("%s/many/Fixtures/items/%d.json" % (root, i), "w"))
json.dump({"domain": "many", "endpoints": [endpoint(i, "items/%d.json" % i) for i in range(2000)]},
          open(root + "/many/Contracts/many.json", "w"))
PY
    # The debug build is what `swift run mock-server` starts: the README's first command.
    swift build --product mock-server >/dev/null
    local debug servers labels
    debug="$(swift build --show-bin-path)/mock-server"
    servers=("$BIN" "$debug"); labels=("ours (release)" "ours (debug)")
    [ -n "$BASELINE" ] && { servers+=("$BASE_BIN"); labels+=("$BASELINE (release)"); }
    echo
    echo "start-up to the first response with large fixtures (median of 10)"
    printf '%-22s %14s %18s\n' server "one 50 MB" "2,000 files"
    for i in "${!servers[@]}"; do
        printf '%-22s %11s ms %15s ms\n' "${labels[$i]}" \
            "$(startup_ms "${servers[$i]}" $((18500 + 20 * i)) /e/0 --contracts "$WORK/large/big/Contracts" --fixtures "$WORK/large/big/Fixtures")" \
            "$(startup_ms "${servers[$i]}" $((18510 + 20 * i)) /e/0 --contracts "$WORK/large/many/Contracts" --fixtures "$WORK/large/many/Fixtures")"
    done
}

# --- a resource's item from the store against a static fixture of the same bytes; POST throughput --
# Its contract folder in $WORK/resources-<port>; the server's PID in STARTED.
start_resources() { # port: a store of items (/items) and a static fixture of one item's bytes (/static/{id})
    local dir="$WORK/resources-$1"
    python3 - "$dir" <<'PY'
import json, os, sys
root = sys.argv[1]
os.makedirs(root + "/Contracts"); os.makedirs(root + "/Fixtures")
json.dump([{"id": 1, "productId": 1, "quantity": 2}], open(root + "/Fixtures/seed.json", "w"))
open(root + "/Fixtures/item.json", "w").write('{"id":1,"productId":1,"quantity":2}')
json.dump({"domain": "bench",
           "resources": [{"id": "items", "path": "/items", "fields": {"productId": "integer", "quantity": "integer"},
                          "seed": "seed.json", "maxItems": 1000000}],
           "endpoints": [{"id": "static", "method": "GET", "path": "/static/{id}", "request": {"pathParams": {"id": "integer"}},
                          "scenarios": [{"name": "success", "status": 200, "body": "item.json", "expect": "success"}]}]},
          open(root + "/Contracts/bench.json", "w"))
PY
    start_server "$dir.log" "$BIN" --port "$1" --log off --threads 1 --contracts "$dir/Contracts" --fixtures "$dir/Fixtures"
    wait_for "$1" /static/1
    serves "the static fixture" "http://127.0.0.1:$1/static/1" "$dir/Fixtures/item.json"
    serves "the store" "http://127.0.0.1:$1/items/1" "$dir/Fixtures/item.json"
}

resources() {
    local port=18186 dir="$WORK/resources-18186"
    start_resources $port
    local pid=$STARTED
    cat > "$dir/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"productId":7,"quantity":1}'
wrk.headers["Content-Type"] = "application/json"
LUA
    rps() { # path [wrk options...] -> req/s
        local path=$1
        shift
        measure "" $port 16 "$path" "$@" | awk '{print $1}'
    }
    local static_rps=0 store_rps=0 value
    for _ in 1 2; do
        value=$(rps /static/1); [ "$value" -gt "$static_rps" ] && static_rps=$value
        value=$(rps /items/1); [ "$value" -gt "$store_rps" ] && store_rps=$value
    done
    local post_rps
    post_rps=$(rps /items -s "$dir/post.lua")
    kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    echo
    echo "resource store: GET of one item against a static fixture of the same bytes (wrk -t1 -c16, best of two), and POST"
    printf '%-22s %14s\n' "static fixture" "$static_rps req/s"
    printf '%-22s %14s %10s\n' "GET /items/{id}" "$store_rps req/s" "$(ratio_of "$store_rps" "$static_rps")"
    printf '%-22s %14s\n' "POST /items" "$post_rps req/s"
    echo "target: GET /items/{id} >= 0.7x the static fixture"
}

# --- dashboards: the mock path with 10 live-journal readers against none; a reader that stops reading --
dashboards() {
    local port=18188 readers=10 path="/bench/list" dir="$WORK/dashboards"
    # The products page served statically from a contract of its own, as in the table.
    mkdir -p "$dir/Contracts" "$dir/Fixtures"
    cp "$ROOT/Fixtures/products/list.json" "$dir/Fixtures/list.json"
    echo '{"domain": "bench", "endpoints": [{"id": "list", "method": "GET", "path": "/bench/list",
      "scenarios": [{"name": "success", "status": 200, "body": "list.json", "expect": "success"}]}]}' >"$dir/Contracts/bench.json"
    local servers=("$BIN") labels=(ours) ports=("$port")
    if [ -n "$BASELINE" ]; then servers+=("$BASE_BIN"); labels+=("$BASELINE"); ports+=($((port + 1))); fi
    local pids=()
    for i in "${!servers[@]}"; do
        start_server "$WORK/dashboards-$i.log" "${servers[$i]}" --port "${ports[$i]}" --log off --threads 1 \
            --contracts "$dir/Contracts" --fixtures "$dir/Fixtures"
        pids+=("$STARTED")
        wait_for "${ports[$i]}" "$path"
    done
    rps() { # port -> "req/s server-CPU-µs-per-request" (CPU time is steadier than req/s on a shared host)
        local pid=${pids[0]}
        [ "$1" = "${ports[0]}" ] || pid=${pids[1]}
        measure "$pid" "$1" 16 "$path" | awk '{print $1, $3}'
    }
    with_readers() { # port run -> req/s with $readers readers of /__mock/events (one python process, on the client's core)
        $CLIENT_CPU python3 - "$1" "$readers" "$WORK/readers-$1-$2.txt" <<'PY' &
import re, select, signal, socket, sys
port, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
for s in sockets:
    s.sendall(b"GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
events = missed = 0
tails = {s: b"" for s in sockets}
def stop(*_):
    open(out, "w").write("%d %d\n" % (events, missed))
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
while True:
    for s in select.select(sockets, [], [])[0]:
        data = s.recv(262144)
        if not data:
            sockets.remove(s)
            continue
        # Whole events only (they end in a blank line); the rest waits for the next read.
        text = tails[s] + data
        cut = text.rfind(b"\n\n") + 2
        events += text[:cut].count(b"event: request")
        missed += sum(int(n) for n in re.findall(rb'event: missed\ndata: \{"count":(\d+)', text[:cut]))
        tails[s] = text[cut:]
PY
        local reader=$!
        sleep 0.5
        rps "$1"
        kill "$reader" 2>/dev/null || true; wait "$reader" 2>/dev/null || true
    }
    declare -A none=() with=() none_cpu=() with_cpu=()
    local run value cpu
    for run in 1 2 3; do
        for i in "${!servers[@]}"; do
            read -r value cpu <<<"$(rps "${ports[$i]}")"
            [ "$value" -gt "${none[$i]:-0}" ] && none[$i]=$value
            awk -v a="$cpu" -v b="${none_cpu[$i]:-1e9}" 'BEGIN { exit !(a < b) }' && none_cpu[$i]=$cpu
            read -r value cpu <<<"$(with_readers "${ports[$i]}" $run)"
            [ "$value" -gt "${with[$i]:-0}" ] && with[$i]=$value
            awk -v a="$cpu" -v b="${with_cpu[$i]:-1e9}" 'BEGIN { exit !(a < b) }' && with_cpu[$i]=$cpu
        done
    done
    echo
    echo "live journal readers: GET $path, wrk -t1 -c16, ${DURATION}s per run, best of three, interleaved; $readers readers of /__mock/events or none"
    printf '%-14s %14s %16s %10s %22s %10s %30s\n' server "no reader" "$readers readers" "with/none" \
        "server CPU per request" "with/none" "events per reader, last run"
    for i in "${!servers[@]}"; do
        local events missed
        read -r events missed <"$WORK/readers-${ports[$i]}-3.txt"
        printf '%-14s %14s %16s %10s %22s %10s %30s\n' "${labels[$i]}" "${none[$i]} req/s" "${with[$i]} req/s" \
            "$(ratio_of "${with[$i]}" "${none[$i]}")" \
            "${none_cpu[$i]} / ${with_cpu[$i]} us" \
            "$(ratio_of "${none_cpu[$i]}" "${with_cpu[$i]}")" \
            "$((events / readers)) read, $((missed / readers)) missed"
    done
    echo "target: with/none >= 0.95 (req/s; CPU: requests per CPU second, with/none)"

    # One reader that sends its request and then stops reading (a frozen tab), while 10,000 requests go by.
    for i in "${!servers[@]}"; do
        echo
        echo "${labels[$i]}: a reader that stops reading while 10,000 requests go by"
        python3 - "${ports[$i]}" "${pids[$i]}" "$path" <<'PY'
import http.client, re, socket, sys, time
port, pid, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rss = lambda: int(re.search(r"VmRSS:\s+(\d+)", open("/proc/%s/status" % pid).read()).group(1)) / 1024
stalled = socket.create_connection(("127.0.0.1", port))
stalled.sendall(b"GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
time.sleep(0.3)
before = rss()
client = http.client.HTTPConnection("127.0.0.1", port)
started = time.monotonic()
for _ in range(10_000):
    client.request("GET", path)
    response = client.getresponse()
    response.read()
    assert response.status == 200, response.status
took = time.monotonic() - started
after = rss()
print("  10,000 requests in %.2f s (%.0f req/s, one client, keep-alive) while the reader stalled" % (took, 10_000 / took))
print("  server RSS: %.1f MiB before, %.1f MiB after" % (before, after))
client.request("GET", "/__mock/journal?limit=1")
last = client.getresponse().read().decode()
last = int(re.search(r'"sequence":(\d+)', last).group(1))
# Reads again, until the last request's event, for 20 s at most.
stalled.settimeout(0.5)
received, resumed, caught_up = b"", time.monotonic(), None
while time.monotonic() - resumed < 20:
    try:
        chunk = stalled.recv(65536)
    except socket.timeout:
        continue
    if not chunk:
        print("  the server closed the stream"); break
    received += chunk
    if ("\nid: %d\n" % last).encode() in received:
        caught_up = time.monotonic() - resumed
        break
print("  read again: the last request's event came %s" % ("after %.1f s" % caught_up if caught_up else "not within 20 s"))
text = received.decode("utf-8", "replace")
events = text.count("event: request")
missed = sum(int(n) for n in re.findall(r'event: missed\r?\ndata: \{"count":(\d+)\}', text))
ids = [int(n) for n in re.findall(r"\nid: (\d+)\n", text)]
print("  on reading again: %d bytes, %d request events (ids %s..%s), missed events counting %d; %d accounted for"
      % (len(received), events, ids[0] if ids else "-", ids[-1] if ids else "-", missed, events + missed))
stalled.close()
PY
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
}

# ONLY=throttled (not part of a full run): 1,000 connections at once downloading a 10 KB body capped at
# 20,000 bytes a second (half a second each), on one event loop: the server's threads and CPU meanwhile.
throttled() {
    local dir="$WORK/throttled" port=18188
    mkdir -p "$dir/Contracts" "$dir/Fixtures"
    head -c 10000 /dev/zero | tr '\0' 'x' >"$dir/Fixtures/body.txt"
    cat >"$dir/Contracts/throttled.json" <<'JSON'
{"domain": "throttled", "endpoints": [{"id": "slow", "method": "GET", "path": "/slow", "response": {"contentType": "text/plain"},
  "scenarios": [{"name": "success", "status": 200, "body": "body.txt", "bandwidth": "20000", "expect": "success"}]}]}
JSON
    (ulimit -n 8192; exec $SERVER_CPU "$BIN" --port $port --log off --threads 1 --contracts "$dir/Contracts" \
        --fixtures "$dir/Fixtures") >"$WORK/throttled.log" 2>&1 &
    local pid=$!
    PIDS+=("$pid")
    for _ in $(seq 1 250); do curl -sf -o /dev/null -m 2 "http://127.0.0.1:$port/__mock/health" && break; sleep 0.02; done
    local ticks before after threads_during
    ticks=$(getconf CLK_TCK)
    before=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    local out="$WORK/throttled.wrk"
    (ulimit -n 8192; $CLIENT_CPU wrk -t1 -c1000 -d"${DURATION}s" --timeout 10s "http://127.0.0.1:$port/slow") >"$out" &
    local wrk=$!
    sleep "$((DURATION / 2))"
    threads_during=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status")
    local rss_during
    rss_during=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
    wait $wrk
    after=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    local rps
    rps=$(awk '/Requests\/sec/ {printf "%.0f", $2}' "$out")
    echo
    echo "throttled downloads: wrk -t1 -c1000 -d${DURATION}s, 10,000-byte body at 20,000 bytes/s (0.5 s each), server --threads 1"
    printf '%-34s %s\n' "downloads per second" "$rps (1,000 at once, 0.5 s each: at most 2,000)"
    printf '%-34s %s\n' "server threads during the run" "$threads_during"
    printf '%-34s %s\n' "server resident memory" "$((rss_during / 1024)) MiB"
    printf '%-34s %s\n' "server CPU" "$(awk -v t="$((after - before))" -v hz="$ticks" -v d="$DURATION" 'BEGIN { printf "%.0f%% of one core", 100 * t / hz / d }')"
    grep -E "Socket errors|Non-2xx" "$out" || true
}

# --- the floor: ours against h2o, nginx and the least work HTTP/1.1 keep-alive can cost ------------
# Ours, the baseline, h2o, nginx and floor.c (Tests/Benchmarks/floor.c), each on the servers' core with
# one thread and started afresh for each run, serve the table's fixture at its path; wrk -t1 on the
# other core. A server's CPU per request: its user+system time during a run (with its children's:
# nginx's worker, h2o's crash reporter) over the requests wrk completed. Medians of ROUNDS, interleaved.
# Then ours' templated path and a resource's GET /items/{id} against static, at 16 connections.
floor_table() {
    local h2o_port=18176 floor_port=18177 resource_port=18178
    # h2o 2.2.5: one thread, no access log, keep-alive. Its header section is 181 bytes to the 210 of
    # ours and floor.c (no X-Mock-* fields; its Last-Modified dropped and Cache-Control set as ours has
    # them, an Accept-Ranges left): the same 5,466-byte body, 29 bytes less a response.
    mkdir -p "$WORK/h2o"
    {
        [ "$(id -u)" != 0 ] || echo "user: root" # as root and without it, h2o serves as nobody
        cat <<CONF
num-threads: 1
access-log: /dev/null
http1-request-timeout: 60
send-server-name: OFF
file.etag: OFF
hosts:
  default:
    listen:
      host: 127.0.0.1
      port: $h2o_port
    paths:
      /api/products:
        file.file: $ROOT/$FIXTURE
        header.unset: last-modified
        header.set: "Cache-Control: no-store"
CONF
    } >"$WORK/h2o/h2o.conf"
    # As wrk's scripts/pipeline.lua: the requests concatenated, sent in one write; wrk counts each response.
    cat >"$WORK/pipeline.lua" <<'LUA'
init = function(args)
   local r = {}
   for i = 1, 16 do r[i] = wrk.format(nil, nil) end
   req = table.concat(r)
end
request = function()
   return req
end
LUA
    cc -O2 -o "$WORK/floor" "$ROOT/Tests/Benchmarks/floor.c"
    launch_h2o() { start_server "$WORK/h2o/h2o.log" h2o -c "$WORK/h2o/h2o.conf"; }
    launch_floor() { start_server "$WORK/floor.log" "$WORK/floor" $floor_port "$ROOT/$FIXTURE"; }
    launch_h2o
    local h2o_pid=$STARTED
    launch_floor
    local floor_pid=$STARTED
    wait_for $h2o_port "$TARGET"
    wait_for $floor_port "$TARGET"
    serves h2o "http://127.0.0.1:$h2o_port$TARGET" "$FIXTURE"
    serves floor.c "http://127.0.0.1:$floor_port$TARGET" "$FIXTURE"
    start_resources $resource_port
    local resource_pid=$STARTED

    local labels=(ours) ports=("$OUR_PORT") pids=("$OUR_PID") launchers=(launch_ours) logs=("$WORK/ours.log")
    if [ -n "$BASELINE" ]; then
        labels+=("$BASELINE"); ports+=("$BASE_PORT"); pids+=("$BASE_PID"); launchers+=(launch_baseline); logs+=("$WORK/baseline.log")
    fi
    labels+=(h2o nginx floor.c)
    ports+=("$h2o_port" "$NGINX_PORT" "$floor_port")
    pids+=("$h2o_pid" "$NGINX_PID" "$floor_pid")
    launchers+=(launch_h2o launch_nginx launch_floor)
    logs+=("$WORK/h2o/h2o.log" "$WORK/nginx/stderr.log" "$WORK/floor.log")
    local h2o=$((${#labels[@]} - 3)) floor=$((${#labels[@]} - 1)) loads
    read -r -a loads <<<"$LOADS"
    # Ours at 16 connections on other paths: the templated copy; the resource's static item and store item.
    local path_labels=("templated GET /api/products/templated" "static GET /static/1 (the item's bytes)" "store GET /items/1"
                       "when: the 20th of 20 rules holds, GET /api/products/ruled")
    local path_pids=("" "$resource_pid" "$resource_pid" "") # ours' (the first and the last) set each run
    local path_ports=("$OUR_PORT" "$resource_port" "$resource_port" "$OUR_PORT")
    local path_targets=("$TEMPLATED" /static/1 /items/1 "$RULED")
    local path_bytes=("$(wc -c <"$FIXTURE")" "$(wc -c <"$WORK/resources-$resource_port/Fixtures/item.json")")
    path_bytes+=("${path_bytes[1]}" "${path_bytes[0]}")

    declare -A runs=() # "server load" or "path n" -> one line a run: "req/s p99 CPU-µs errors user-µs system-µs"
    local stolen_before
    stolen_before=$(stolen_ticks)
    local run load i result pid order
    for run in $(seq "$ROUNDS"); do
        echo "floor table: run $run of $ROUNDS..." >&2
        # Every run starts each server of the table afresh, so that each run is a sample of its own: here the medians of
        # two processes of one build, over a few runs each, came out 10-15% apart (not every time), and one process's
        # system time per request went from 6.5 to 9.8 µs between runs of 3 s (a virtual machine; see "steal" below).
        # Each then serves 1 s unmeasured, as after a while in use (ours' journal full), before the first load.
        for i in "${!labels[@]}"; do
            stop_server "${pids[$i]}"
            "${launchers[$i]}"
            pids[i]=$STARTED
            wait_for "${ports[$i]}" "$TARGET" "${logs[$i]}"
            $CLIENT_CPU wrk -t1 -c16 -d1s "http://127.0.0.1:${ports[$i]}$TARGET" >/dev/null
        done
        path_pids[0]=${pids[0]}
        path_pids[3]=${pids[0]}
        # Ours and floor.c, whose ratio is the CPU target, are measured one right after the other, then the rest: the
        # host's speed drifts between runs (one server's system time per request went 6.6 to 8.8 µs from one 4-second
        # run to the next), and at the two ends of the table's order the pair was measured up to half a minute apart.
        # Every other run takes the servers in the opposite order, so that none always comes first after a change of
        # load (two servers of one build measured in a fixed order came out 1 to 10% apart here, not always the same way).
        # An odd ROUNDS runs the first order once more than the other.
        order=(0 "$floor")
        for i in "${!labels[@]}"; do [ "$i" = 0 ] || [ "$i" = "$floor" ] || order+=("$i"); done
        if [ $((run % 2)) = 0 ]; then local forward=("${order[@]}"); order=(); for i in "${forward[@]}"; do order=("$i" "${order[@]}"); done; fi
        for load in "${loads[@]}"; do
            local connections=$load options=()
            if [ "$load" = 16x16 ]; then connections=16; options=(-s "$WORK/pipeline.lua"); fi
            for i in "${order[@]}"; do
                result=$(measure "${pids[$i]}" "${ports[$i]}" "$connections" "$TARGET" "${options[@]}")
                runs["$i $load"]+="$result"$'\n'
            done
        done
        for i in "${!path_labels[@]}"; do
            result=$(measure "${path_pids[$i]}" "${path_ports[$i]}" 16 "${path_targets[$i]}")
            runs["path $i"]+="$result"$'\n'
        done
    done
    local stolen_after
    stolen_after=$(stolen_ticks)
    for pid in "${pids[$h2o]}" "${pids[$floor]}" "$resource_pid"; do stop_server "$pid"; done

    # A median of an even count: the mean of the middle two.
    local median='function median() { return NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
    cell() { # key field -> the median of that field over the runs (field 4, wrk's errors: their sum)
        if [ "$2" = 4 ]; then awk 'NF {s += $4} END {print s + 0}' <<<"${runs[$1]}"; return; fi
        # As measure() gives them: req/s whole, p99 in ms to the microsecond, CPU times to the hundredth of a µs.
        local format=%.2f
        case $2 in 1) format=%.0f ;; 2) format=%.3f ;; esac
        awk -v f="$2" 'NF {print $f}' <<<"${runs[$1]}" | sort -g \
            | awk -v format="$format" "$median"' {v[NR] = $1} END {printf format "\n", median()}'
    }
    paired() { # key key field -> "median min–max" of the first's figure over the second's, run for run
        paste -d ' ' <(awk -v f="$3" 'NF {print $f}' <<<"${runs[$1]}") <(awk -v f="$3" 'NF {print $f}' <<<"${runs[$2]}") \
            | awk '$2 > 0 {print $1 / $2}' | sort -g \
            | awk "$median"' {v[NR] = $1} END {if (NR) printf "%.2fx %.2f–%.2f", median(), v[1], v[NR]; else printf "- -"}'
    }
    echo
    echo "the floor: GET $TARGET ($(wc -c <"$FIXTURE")-byte body), each server on one core with one thread, wrk -t1 on the other;"
    echo "${DURATION}s per run, medians of $ROUNDS, servers interleaved (ours, then floor.c, then the rest; every other run in the opposite order)"
    if [[ " $LOADS " =~ " 16x16 " ]]; then
        echo "16x16: 16 connections, 16 requests pipelined per write"
        echo "(no p99 there: wrk's latency percentiles come out wrong, often 0, with pipelining; wrk issue 236);"
    fi
    echo "CPU: the server's user+system time per request completed (user and system: each one's median on its own, so they need"
    echo "not add up to it); every run starts each server of the table afresh; CPU/floor: the median, and the range, of the run-for-run ratios"
    echo "to floor.c${BASELINE:+ (and CPU vs $BASELINE: to $BASELINE)}; the other ratios are of the medians: the row's server over h2o${BASELINE:+ and $BASELINE}"
    local stolen
    stolen=$(awk -v before="$stolen_before" -v after="$stolen_after" 'BEGIN { split(before, b, " "); split(after, a, " ");
        if (a[2] > b[2]) printf "%.1f%%", 100 * (a[1] - b[1]) / (a[2] - b[2]); else printf "-" }')
    local whose="the machine's"
    [ -z "$SERVER_CPU" ] || whose="the servers' core's"
    echo "steal: the host took $stolen of $whose time while the table ran (/proc/stat); the more, the more the figures vary"
    echo
    local header="| server | conns | req/s | p99 ms | CPU µs/req | user | system | CPU/floor | its range | req/s vs h2o | p99 vs h2o |"
    local rule="|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    if [ -n "$BASELINE" ]; then header+=" req/s vs $BASELINE | CPU vs $BASELINE (range) |"; rule+="---:|---:|"; fi
    echo "$header wrk errors |"
    echo "$rule---:|"
    local rps p99 cpu row
    for load in "${loads[@]}"; do
        for i in "${!labels[@]}"; do
            rps=$(cell "$i $load" 1); p99=$(cell "$i $load" 2); cpu=$(cell "$i $load" 3)
            local p99_ratio
            p99_ratio=$(ratio_of "$p99" "$(cell "$h2o $load" 2)")
            [ "$load" != 16x16 ] || { p99="n/a"; p99_ratio="n/a"; }
            row="| ${labels[$i]} | $load | $rps | $p99 | $cpu | $(cell "$i $load" 5) | $(cell "$i $load" 6)"
            local against_floor
            read -r -a against_floor <<<"$(paired "$i $load" "$floor $load" 3)"
            row+=" | ${against_floor[0]} | ${against_floor[1]}"
            row+=" | $(ratio_of "$rps" "$(cell "$h2o $load" 1)") | $p99_ratio |"
            if [ -n "$BASELINE" ] && [ "$i" = 0 ]; then
                local against_baseline
                read -r -a against_baseline <<<"$(paired "0 $load" "1 $load" 3)"
                row+=" $(ratio_of "$rps" "$(cell "1 $load" 1)") | ${against_baseline[0]} (${against_baseline[1]}) |"
            elif [ -n "$BASELINE" ]; then
                row+=" | |"
            fi
            echo "$row $(cell "$i $load" 4) |"
        done
    done
    echo
    echo "ours on other paths, wrk -t1 -c16 (medians of $ROUNDS, interleaved with the table); each against the static path of the same bytes"
    echo
    echo "| path | body bytes | req/s | CPU µs/req | req/s vs static | CPU vs static |"
    echo "|---|---:|---:|---:|---:|---:|"
    local static_rps static_cpu
    static_rps=$(cell "0 16" 1); static_cpu=$(cell "0 16" 3)
    echo "| static GET /api/products | ${path_bytes[0]} | $static_rps | $static_cpu | 1.00x | 1.00x |"
    for i in "${!path_labels[@]}"; do
        rps=$(cell "path $i" 1); cpu=$(cell "path $i" 3)
        # The store's item is set against the static fixture of its own bytes, the row above it; the rest against ours'.
        if [ "$i" = 2 ]; then static_rps=$(cell "path 1" 1); static_cpu=$(cell "path 1" 3); fi
        if [ "$i" = 3 ]; then static_rps=$(cell "0 16" 1); static_cpu=$(cell "0 16" 3); fi
        if [ "$i" = 1 ]; then
            echo "| ${path_labels[$i]} | ${path_bytes[$i]} | $rps | $cpu | | |"
        else
            echo "| ${path_labels[$i]} | ${path_bytes[$i]} | $rps | $cpu | $(ratio_of "$rps" "$static_rps") | $(ratio_of "$cpu" "$static_cpu") |"
        fi
    done
}

if [ "$ONLY" = throttled ]; then
    throttled
    exit 0
fi
if [ "$ONLY" = dashboards ]; then
    dashboards
    exit 0
fi
if [ "$ONLY" = resources ]; then
    resources
    exit 0
fi
if [ "$ONLY" = endpoints ]; then
    many_endpoints
    exit 0
fi
if [ "$ONLY" = fixtures ]; then
    large_fixtures
    exit 0
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
# 4,096: the floor table has 1,000 connections.
events { worker_connections 4096; }
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
launch_nginx() { start_server "$WORK/nginx/stderr.log" "$NGINX" -c "$WORK/nginx/nginx.conf"; NGINX_PID=$STARTED; }
launch_nginx

# --- the contracts: the fixture at the same path, static; and for ours a templated copy -----------
python3 - "$WORK" "$ROOT/$FIXTURE" <<'PY'
import json, os, shutil, sys
work, fixture = sys.argv[1], sys.argv[2]
query = {"page_no": "integer", "items_per_page": "integer"}
def endpoint(id, path, body, template=False):
    scenario = {"name": "success", "status": 200, "body": body, "expect": "success"}
    if template: scenario["template"] = True
    return {"id": id, "method": "GET", "path": path, "request": {"query": query}, "scenarios": [scenario]}
for folder in ("static", "dynamic"):
    os.makedirs("%s/%s/Contracts" % (work, folder)); os.makedirs("%s/%s/Fixtures" % (work, folder))
    shutil.copyfile(fixture, "%s/%s/Fixtures/list.json" % (work, folder))
    json.dump({"domain": "bench", "endpoints": [endpoint("static", "/api/products", "list.json")]},
              open("%s/%s/Contracts/static.json" % (work, folder), "w"))
text = open(fixture).read()
for key, placeholder in (('"page_no": 1,', '"page_no": {{query.page_no}},'),
                         ('"items_per_page": 20,', '"items_per_page": {{query.items_per_page}},'),
                         ('"limit": 20,', '"limit": {{query.items_per_page}},')):
    assert key in text, key
    text = text.replace(key, placeholder, 1)
open(work + "/dynamic/Fixtures/list-template.json", "w").write(text)
json.dump({"domain": "templated", "endpoints": [endpoint("templated", "/api/products/templated", "list-template.json", True)]},
          open(work + "/dynamic/Contracts/templated.json", "w"))
# The same bytes from the last of 20 scenarios whose `when` reads page_no: the first 19 are tested and do not hold.
ruled = endpoint("ruled", "/api/products/ruled", "list.json")
success = ruled["scenarios"][0]
ruled["scenarios"] = [dict(success, name="rule%d" % i, when={"query": {"page_no": str(100 + i)}}) for i in range(1, 20)] \
    + [dict(success, name="rule20", when={"query": {"page_no": "1"}})]
json.dump({"domain": "ruled", "endpoints": [ruled]}, open(work + "/dynamic/Contracts/ruled.json", "w"))
PY

# --- ours: one event-loop thread, like nginx's one worker ---------------------------------------
launch_ours() {
    start_server "$WORK/ours.log" "$BIN" --port $OUR_PORT --log off --threads 1 \
        --contracts "$WORK/dynamic/Contracts" --fixtures "$WORK/dynamic/Fixtures"
    OUR_PID=$STARTED
}
launch_ours
sleep 0.2
kill -0 $OUR_PID 2>/dev/null || { echo "our server did not start:"; cat "$WORK/ours.log"; exit 1; }

wait_for $OUR_PORT "$TARGET"
wait_for $NGINX_PORT "$TARGET"
if [ -n "$BASELINE" ]; then
    launch_baseline() {
        start_server "$WORK/baseline.log" "$BASE_BIN" --port $BASE_PORT --log off --threads 1 \
            --contracts "$WORK/static/Contracts" --fixtures "$WORK/static/Fixtures"
        BASE_PID=$STARTED
    }
    launch_baseline
    wait_for $BASE_PORT "$TARGET"
    serves "$BASELINE" "http://127.0.0.1:$BASE_PORT$TARGET" "$FIXTURE"
fi
serves ours "http://127.0.0.1:$OUR_PORT$TARGET" "$FIXTURE"
serves nginx "http://127.0.0.1:$NGINX_PORT$TARGET" "$FIXTURE"
TEMPLATED="/api/products/templated?page_no=1&items_per_page=20"
serves "the template" "http://127.0.0.1:$OUR_PORT$TEMPLATED" "$FIXTURE"
RULED="/api/products/ruled?page_no=1&items_per_page=20"
serves "the 20th when rule" "http://127.0.0.1:$OUR_PORT$RULED" "$FIXTURE"

if [ "$ONLY" = floor ]; then
    floor_table
    exit 0
fi

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
RSS_IDLE=$(rss_kib $OUR_PID)

run_wrk() { # port connections [target] -> "rps p99ms"
    measure "" "$1" "$2" "${3:-$TARGET}" | awk '{print $1, $2}'
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
    ratio=$(ratio_of "$ours_rps" "$nginx_rps")
    printf '%-12s %14s %14s %8s %10sms %10sms' "$connections" "$ours_rps" "$nginx_rps" "$ratio" "$ours_p99" "$nginx_p99"
    if [ -n "$BASELINE" ]; then
        read -r base_rps base_p99 <<<"$(best "$b1" "$b2")"
        change=$(ratio_of "$ours_rps" "$base_rps")
        printf ' %14s %10sms %13s' "$base_rps" "$base_p99" "$change"
    fi
    echo
done
RSS_LOADED=$(rss_kib $OUR_PID)

floor_table

# --- a templated fixture against the static one, same server, same bytes -------------------------
echo
echo "templated fixture (3 placeholders, rendered per request) against the same fixture static; best of two, interleaved"
printf '%-12s %14s %16s %17s\n' connections "static req/s" "templated req/s" "templated/static"
for connections in 16 64; do
    s1=$(run_wrk $OUR_PORT $connections); t1=$(run_wrk $OUR_PORT $connections "$TEMPLATED")
    s2=$(run_wrk $OUR_PORT $connections); t2=$(run_wrk $OUR_PORT $connections "$TEMPLATED")
    read -r static_rps _ <<<"$(best "$s1" "$s2")"; read -r templated_rps _ <<<"$(best "$t1" "$t2")"
    printf '%-12s %14s %16s %17s\n' "$connections" "$static_rps" "$templated_rps" \
        "$(ratio_of "$templated_rps" "$static_rps")"
done
echo "target: templated/static >= 0.6"

# --- start-up to first response, median of 10 ---------------------------------------------------
STARTUP=$(startup_ms "$BIN" 18190 /healthChecker)

# --- idle wake-ups: context switches of every thread over 3 s with no client ----------------------
switches() { # pids -> voluntary + involuntary context switches of all their threads
    local pid
    for pid in "$@"; do cat /proc/"$pid"/task/*/status 2>/dev/null; done | awk '/ctxt_switches/ {sum += $2} END {print sum + 0}'
}
idle_wakeups() { # pids -> switches over 3 s, measured after 1 s of rest
    sleep 1
    local before after
    before=$(switches "$@"); sleep 3; after=$(switches "$@")
    echo $((after - before))
}
IDLE_OURS=$(idle_wakeups $OUR_PID)
NGINX_MASTER=$(cat "$WORK/nginx/nginx.pid")
# shellcheck disable=SC2046
IDLE_NGINX=$(idle_wakeups "$NGINX_MASTER" $(pgrep -P "$NGINX_MASTER"))
[ -n "$BASELINE" ] && IDLE_BASE=$(idle_wakeups "$BASE_PID")

# --- a URLSession client loop against our server -------------------------------------------------
swiftc -O -swift-version 6 -parse-as-library Tests/Benchmarks/URLSessionLoop.swift -o "$WORK/urlsession-loop"
CLIENT=$("$WORK/urlsession-loop" "http://127.0.0.1:$OUR_PORT$TARGET")

echo
echo "start-up to first response (median of 10): ${STARTUP} ms"
echo "RSS: idle $((RSS_IDLE / 1024)).$(((RSS_IDLE % 1024) * 10 / 1024)) MiB, after load $((RSS_LOADED / 1024)).$(((RSS_LOADED % 1024) * 10 / 1024)) MiB"
echo "URLSession client loop: $CLIENT"
echo "idle wake-ups (context switches in 3 s, no client): ours $IDLE_OURS, nginx master+worker $IDLE_NGINX${BASELINE:+, before $IDLE_BASE}"

many_endpoints
large_fixtures
resources
