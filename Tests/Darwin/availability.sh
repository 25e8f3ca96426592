#!/usr/bin/env bash
# Apple availability, checked on Linux: every API that the package's code (sources and tests) references and
# that Apple ships only above the deployment targets in Package.swift, outside an `if #available` or
# `@available` that covers it, fails with `file:line: <API> needs macOS N / iOS N`. How: availability.py.
#
# Usage: Tests/Darwin/availability.sh [PACKAGE_DIR]   (default: this package)
# Builds the package and its tests first with the flags of .ci/run's build stage, so that after that stage
# it compiles nothing; the index store is what that build writes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
package=$(cd "${1:-$here/../..}" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
(cd "$package" && swift build --build-tests --enable-index-store -Xswiftc -warnings-as-errors >"$log" 2>&1) || {
    cat "$log" >&2
    echo "availability: the build of $package failed (above)" >&2
    exit 2
}
python3 "$here/availability.py" --package "$package"
