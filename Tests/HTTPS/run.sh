#!/usr/bin/env bash
# `mock-server record --target https://…` (and `--proxy https://…`) end to end: makes a throwaway CA and a
# server certificate with openssl, trusts the CA in the system store (FoundationNetworking's libcurl reads
# Debian's fixed bundle, so there is no other way to make it trust a test certificate), starts two HTTPS
# backends with Python's http.server + ssl (one with that certificate, one with a certificate from a CA nobody
# trusts) and checks with curl what mock-server relays through its TLS bridge (mock-server-tls): statuses and
# bodies unchanged, a 302 relayed and not followed, a Set-Cookie not replayed, request fields and bodies passed
# as sent, HEAD's length, the recording written at SIGTERM validates; a Basic challenge, an untrusted
# certificate and a dead bridge give 502s that say so. The CA is removed again at exit.
# Changes the system trust store, so it runs only with CI=true (as root, or with sudo); otherwise it says how
# to run it and exits 0 with a "skipped" line.
# Environment: SWIFT_BUILD_FLAGS (default -Xswiftc -warnings-as-errors, the flags .ci/run builds with).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${CI:-}" != "true" ]; then
    echo "HTTPS end-to-end test skipped: it adds a throwaway CA to the system trust store for a minute."
    echo "Run it with: CI=true bash Tests/HTTPS/run.sh (as root or with sudo; the CA is removed at exit)"
    exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
    if ! sudo -n true 2>/dev/null; then
        echo "error: CI=true but neither root nor password-less sudo: cannot add the test CA to the system store" >&2
        exit 1
    fi
    SUDO=sudo
fi
STORE=/usr/local/share/ca-certificates/mocked-networking-https-test.crt
WORK=$(mktemp -d)
PIDS=()
INSTALLED=

cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    if [ -n "$INSTALLED" ]; then
        $SUDO rm -f "$STORE"
        $SUDO update-ca-certificates >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
    echo "error: $*" >&2
    exit 1
}

# shellcheck disable=SC2086 # the flags are words on purpose
swift build ${SWIFT_BUILD_FLAGS--Xswiftc -warnings-as-errors} --product mock-server
BIN="$(swift build ${SWIFT_BUILD_FLAGS--Xswiftc -warnings-as-errors} --show-bin-path)"
[ -x "$BIN/mock-server-tls" ] || fail "swift build --product mock-server did not build $BIN/mock-server-tls"

# A CA and a certificate for localhost and 127.0.0.1 signed by it.
certificate() { # name
    local dir=$WORK/$1
    mkdir -p "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=MockedNetworking test CA $1" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > "$dir/ext.cnf"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
        -extfile "$dir/ext.cnf" -out "$dir/server.crt" 2>/dev/null
}
certificate trusted
certificate untrusted

echo "adding the test CA to the system store ($STORE)"
$SUDO cp "$WORK/trusted/ca.crt" "$STORE"
INSTALLED=1
$SUDO update-ca-certificates >/dev/null

# Starts `command...` with its output in $WORK/<name>.out; sets PORT from the first line matching `pattern`.
start() { # name pattern command...
    local name=$1 pattern=$2
    shift 2
    "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" &
    PIDS+=($!)
    LAST=$!
    PORT=
    for _ in $(seq 1 300); do
        PORT=$(sed -n "s/$pattern/\1/p" "$WORK/$name.out" | head -1)
        [ -n "$PORT" ] && return 0
        kill -0 "$LAST" 2>/dev/null || break
        sleep 0.1
    done
    cat "$WORK/$name.err" >&2
    fail "$name did not start"
}

start backend '^\([0-9][0-9]*\)$' python3 Tests/HTTPS/server.py "$WORK/trusted/server.crt" "$WORK/trusted/server.key"
BACKEND=$PORT
start untrusted '^\([0-9][0-9]*\)$' python3 Tests/HTTPS/server.py "$WORK/untrusted/server.crt" "$WORK/untrusted/server.key"
UNTRUSTED=$PORT
LISTEN='.*listening on http:\/\/127\.0\.0\.1:\([0-9][0-9]*\).*'
start recorder "$LISTEN" "$BIN/mock-server" record --target "https://localhost:$BACKEND" --port 0 --log off \
    --contracts "$WORK/Recorded/Contracts" --fixtures "$WORK/Recorded/Fixtures"
RECORDER=$LAST
PROXY=http://127.0.0.1:$PORT
start proxying "$LISTEN" "$BIN/mock-server" --proxy "https://localhost:$BACKEND" --port 0 --log off
PROXYING=http://127.0.0.1:$PORT
start refusing "$LISTEN" "$BIN/mock-server" record --target "https://localhost:$UNTRUSTED" --port 0 --log off \
    --contracts "$WORK/Other/Contracts" --fixtures "$WORK/Other/Fixtures"
REFUSING=$LAST
REFUSED=http://127.0.0.1:$PORT

# Fetches a URL with curl into $WORK/body, $WORK/head; prints the status.
fetch() { # url [curl options...]
    local url=$1
    shift
    curl -sS -o "$WORK/body" -D "$WORK/head" -w '%{http_code}' "$@" "$url"
}
expect() { # description actual expected
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
    echo "ok: $1"
}
direct() { curl -sS --cacert "$WORK/trusted/ca.crt" "https://localhost:$BACKEND$1"; }

expect "GET /items: status" "$(fetch "$PROXY/items")" 200
expect "GET /items: body unchanged" "$(cat "$WORK/body")" "$(direct /items)"
grep -qi '^set-cookie: session=s3cr3t' "$WORK/head" || fail "GET /items: the Set-Cookie was not relayed"
echo "ok: GET /items: Set-Cookie relayed to the client"
expect "GET /missing: status" "$(fetch "$PROXY/missing")" 404
expect "GET /missing: body unchanged" "$(cat "$WORK/body")" "$(direct /missing)"
expect "GET /old: the 302 is relayed, not followed" "$(fetch "$PROXY/old")" 302
grep -qi '^location: /items' "$WORK/head" || fail "GET /old: no Location: /items in $(cat "$WORK/head")"
expect "GET /old: its own body" "$(cat "$WORK/body")" '{"moved": "/items"}'
expect "GET /headers: status" "$(fetch "$PROXY/headers" -H 'X-Custom: one')" 200
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$WORK/body" "$1"; }
expect "the backend got no cookie (none stored from /items)" "$(field 'd["headers"].get("cookie")')" None
expect "the backend sees its own Host" "$(field 'd["headers"]["host"]')" "localhost:$BACKEND"
expect "Accept-Encoding: identity unless the client set one" "$(field 'd["headers"]["accept-encoding"]')" identity
expect "client fields passed on" "$(field 'd["headers"]["x-custom"]')" one
fetch "$PROXY/headers" -X POST -H 'Content-Type: application/json' -H 'Cookie: mine=1' --data '{"a":1}' >/dev/null
expect "POST: method, body and the client's own Cookie passed on" \
    "$(field '(d["method"], d["body"], d["headers"]["cookie"])')" "('POST', '{\"a\":1}', 'mine=1')"
fetch "$PROXY/headers" -X DELETE -H 'Content-Type: application/json' --data '{"gone":true}' >/dev/null
expect "DELETE with a body: the body is sent" "$(field '(d["method"], d["body"])')" "('DELETE', '{\"gone\":true}')"

expect "HEAD /items: status" "$(fetch "$PROXY/items" -I)" 200
expect "HEAD /items: the backend's Content-Length" \
    "$(sed -n 's/^[Cc]ontent-[Ll]ength: *\([0-9]*\).*/\1/p' "$WORK/head")" "$(direct /items | wc -c | tr -d ' ')"
# Serving the bundled contracts with --proxy: what no endpoint serves goes through the bridge too.
expect "--proxy: an unmocked path is relayed" "$(fetch "$PROXYING/old")" 302
expect "--proxy: its body" "$(cat "$WORK/body")" '{"moved": "/items"}'

# URLSession on Linux hangs on a Basic challenge (swift-corelibs-foundation #5456): the bridge cancels it, so the
# client gets a prompt 502 saying why instead of the 401.
expect "401 with a Basic challenge: a prompt 502" "$(fetch "$PROXY/basic" --max-time 10)" 502
grep -q 'authentication' "$WORK/body" || fail "Basic challenge: the 502 does not say why: $(cat "$WORK/body")"
echo "ok: Basic challenge: $(field 'd.get("upstreamError")')"

expect "untrusted certificate: 502" "$(fetch "$REFUSED/items")" 502
grep -q 'TLS: certificate not trusted' "$WORK/body" || fail "untrusted certificate: the 502 does not say so: $(cat "$WORK/body")"
echo "ok: untrusted certificate: $(field 'd.get("upstreamError")')"

# A bridge that dies while mock-server runs: the next request gets a 502 naming it.
BRIDGE=$(pgrep -P "$REFUSING" -x mock-server-tls || true)
[ -n "$BRIDGE" ] || fail "no mock-server-tls child of the second recorder"
kill -9 "$BRIDGE"
expect "dead bridge: 502" "$(fetch "$REFUSED/items")" 502
grep -q 'mock-server-tls' "$WORK/body" || fail "dead bridge: the 502 does not name it: $(cat "$WORK/body")"
echo "ok: dead bridge: $(field 'd.get("upstreamError")')"

# SIGTERM writes the recording; the bridge goes with mock-server.
BRIDGE=$(pgrep -P "$RECORDER" -x mock-server-tls || true)
kill -TERM "$RECORDER"
wait "$RECORDER" || fail "mock-server record did not exit 0 at SIGTERM: $(cat "$WORK/recorder.err")"
for _ in $(seq 1 50); do kill -0 "$BRIDGE" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$BRIDGE" 2>/dev/null; then fail "the bridge $BRIDGE outlived mock-server"; fi
echo "ok: the bridge ended with mock-server"
"$BIN/mock-server" validate --contracts "$WORK/Recorded/Contracts" --fixtures "$WORK/Recorded/Fixtures"
if grep -rq 's3cr3t' "$WORK/Recorded"; then fail "the session cookie was written to disk"; fi
echo "ok: the recording validates"
echo "HTTPS end-to-end test passed"
