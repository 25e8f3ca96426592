#!/usr/bin/env bash
# The dashboard in a real browser: Debian's headless Chromium driven by Python Playwright, against the
# mock-server executable. Installs what is missing (the chromium package with apt-get, Playwright into a
# virtualenv under .build/browser-venv); never downloads a browser build (no `playwright install`).
# If something cannot be installed it fails and says why: it never skips.
# Usage: Tests/Browser/run.sh [--screenshots]   (--screenshots rewrites docs/images/dashboard-*.png)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
VENV=$ROOT/.build/browser-venv
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

fail() { echo "Tests/Browser/run.sh: $*" >&2; exit 1; }

if [ ! -x "$CHROMIUM" ]; then
    echo "installing Debian's chromium package..." >&2
    command -v apt-get >/dev/null || fail "no $CHROMIUM and no apt-get to install Debian's chromium package"
    { apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }; } \
        || fail "could not install the chromium package with apt-get (run as root, with Debian's package lists reachable)"
    [ -x "$CHROMIUM" ] || fail "the chromium package installed no $CHROMIUM"
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import playwright" 2>/dev/null; then
    echo "installing Playwright for Python into $VENV..." >&2
    command -v python3 >/dev/null || fail "python3 is missing"
    rm -rf "$VENV"
    if ! python3 -m venv "$VENV" 2>/dev/null; then
        { apt-get install -y python3-venv >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y python3-venv >/dev/null; }; } \
            || fail "python3 cannot make a virtualenv and python3-venv could not be installed"
        python3 -m venv "$VENV" || fail "python3 -m venv $VENV failed"
    fi
    "$VENV/bin/pip" install --quiet playwright || fail "pip could not install playwright from PyPI"
fi

swift build --product mock-server >/dev/null || fail "swift build --product mock-server failed"
BIN="$(swift build --show-bin-path)/mock-server"

SHOTS=""
if [ "${1:-}" = "--screenshots" ]; then SHOTS="$ROOT/docs/images"; mkdir -p "$SHOTS"; fi
CHROMIUM="$CHROMIUM" "$VENV/bin/python" "$ROOT/Tests/Browser/dashboard_test.py" "$BIN" "$ROOT" $SHOTS
