#!/usr/bin/env bash
# The mock server's WebSocket endpoints against a client nobody here wrote: Python's `websockets` (from PyPI, into
# .build/streams-venv, once), driving `mock-server --contracts Tests/Streams/Contracts` over loopback
# (Tests/Streams/streams_test.py). Fails if any test fails or none ran; never skips.
# Environment: STREAMS_VENV (default .build/streams-venv).
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${STREAMS_VENV:-.build/streams-venv}
REQUIREMENTS=Tests/Streams/requirements.txt
WORK=$(mktemp -d)
SERVER=

cleanup() {
    if [ -n "$SERVER" ]; then
        kill "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# Install when the environment is missing or was made from other requirements.
if ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt" 2>/dev/null || ! "$VENV/bin/python" -c 'import websockets' 2>/dev/null; then
    echo "installing websockets into $VENV"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    if ! "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQUIREMENTS"; then
        echo "error: could not install websockets from PyPI (is the package index reachable?)" >&2
        exit 1
    fi
    cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi

swift build --product mock-server >/dev/null
BIN="$(swift build --show-bin-path)/mock-server"
mkdir -p "$WORK/Fixtures"
"$BIN" --port 0 --quiet --contracts Tests/Streams/Contracts --fixtures "$WORK/Fixtures" --ws-max-message 4096 \
    >"$WORK/server.log" 2>&1 &
SERVER=$!
URL=
for _ in $(seq 1 100); do
    URL=$(sed -n 's/.*listening on \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$WORK/server.log" | head -1 || true)
    [ -n "$URL" ] && break
    kill -0 "$SERVER" 2>/dev/null || { echo "error: mock-server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$URL" ] || { echo "error: mock-server printed no address within 10 s" >&2; cat "$WORK/server.log" >&2; exit 1; }

MOCK_SERVER_URL="$URL" "$VENV/bin/python" Tests/Streams/streams_test.py 2>&1 | tee "$WORK/result.txt"
grep -q '^OK' "$WORK/result.txt" || { echo "error: the websockets suite failed" >&2; exit 1; }
grep -Eq '^Ran [1-9][0-9]* tests?' "$WORK/result.txt" || { echo "error: the websockets suite ran no test" >&2; exit 1; }
