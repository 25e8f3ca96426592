#!/usr/bin/env bash
# The client against a server nobody here wrote: installs httpbin (from PyPI, into a virtual environment
# under .build, once), starts it with gunicorn on 127.0.0.1 on a port the system picks, and runs the
# HTTPBinTests suite (Tests/NetworkingTests/HTTPBinTests.swift) with HTTPBIN_URL pointing at it.
# Fails if the suite fails, if it ran no test, or if any of its tests was skipped.
# Environment: HTTPBIN_VENV (default .build/httpbin-venv), SWIFT_TEST_FLAGS (default -Xswiftc -warnings-as-errors,
# the flags .ci/run builds with, so the build is reused).
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=${HTTPBIN_VENV:-.build/httpbin-venv}
REQUIREMENTS=Tests/HTTPBin/requirements.txt
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
if ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt" 2>/dev/null || ! "$VENV/bin/python" -c 'import httpbin, gunicorn' 2>/dev/null; then
    echo "installing httpbin into $VENV"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    if ! "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQUIREMENTS"; then
        echo "error: could not install httpbin from PyPI (is the package index reachable?)" >&2
        exit 1
    fi
    cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi

# Port 0: the system picks a free port, and gunicorn says which in its log.
"$VENV/bin/gunicorn" --bind 127.0.0.1:0 --worker-class gthread --workers 2 --threads 16 --timeout 60 \
    --log-level info --error-logfile "$WORK/gunicorn.log" httpbin:app &
SERVER=$!
URL=
for _ in $(seq 1 300); do
    URL=$(sed -n 's/.*Listening at: \(http:\/\/127\.0\.0\.1:[0-9]*\).*/\1/p' "$WORK/gunicorn.log" 2>/dev/null | head -1 || true)
    if [ -n "$URL" ] && "$VENV/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1] + '/get', timeout=2)" "$URL" 2>/dev/null; then
        break
    fi
    if ! kill -0 "$SERVER" 2>/dev/null; then
        echo "error: httpbin did not start:" >&2
        cat "$WORK/gunicorn.log" >&2
        exit 1
    fi
    URL=
    sleep 0.1
done
if [ -z "$URL" ]; then
    echo "error: httpbin did not answer within 30 s" >&2
    cat "$WORK/gunicorn.log" >&2
    exit 1
fi
echo "httpbin at $URL"

# shellcheck disable=SC2086 # the flags are words on purpose
set +e
HTTPBIN_URL=$URL swift test ${SWIFT_TEST_FLAGS--Xswiftc -warnings-as-errors} --filter HTTPBinTests 2>&1 | tee "$WORK/test.log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
    echo "error: the httpbin suite failed (exit $status)" >&2
    exit "$status"
fi
if grep -q "skipped" "$WORK/test.log"; then
    echo "error: httpbin tests were skipped; they must run" >&2
    exit 1
fi
if ! grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$WORK/test.log"; then
    echo "error: the httpbin suite ran no test" >&2
    exit 1
fi
echo "httpbin suite passed"
