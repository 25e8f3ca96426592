#!/usr/bin/env bash
# Tests availability.sh on a scratch copy of AvailabilityProbe/: it must report exactly the lines marked
# `// expect: <finding>` (several on one line are separated by ` | `), exit 1, and pass once Package.swift's
# deployment targets are raised to what the planted calls need (so the targets are read from there).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -R "$here/AvailabilityProbe/." "$scratch/"
passed=0
failed=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passed=$((passed + 1)); echo "ok: $name"; else failed=$((failed + 1)); echo "FAILED: $name"; fi
}

expected=$(cd "$scratch" && grep -rn "// expect: " Sources Tests |
    perl -ne 'print "$1: $_\n" for m{^([^:]+:\d+):.*// expect: (.*)$} ? split(/ \| /, $2) : ()' | sort)
status=0
output=$("$here/availability.sh" "$scratch" 2>&1) || status=$?
reported=$(grep -E '^[^ ]+:[0-9]+: ' <<<"$output" | sort || true)
check "exits 1 on findings (exit $status)" test "$status" -eq 1
check "reports exactly the marked lines" test "$reported" = "$expected"
if [ "$reported" != "$expected" ]; then
    diff <(echo "$expected") <(echo "$reported") | sed 's/^/    /' || true
fi
check "says what it read against" grep -q "against macOS 13 / iOS 16" <<<"$output"

sed -i 's/platforms: \[.macOS(.v13), .iOS(.v16)\]/platforms: [.macOS(.v15), .iOS(.v18)]/' "$scratch/Package.swift"
status=0
output=$("$here/availability.sh" "$scratch" 2>&1) || status=$?
check "passes with targets that have the APIs (exit $status)" test "$status" -eq 0
check "reads the targets from Package.swift" grep -q "against macOS 15 / iOS 18" <<<"$output"

sed -i 's/platforms: \[.macOS(.v15), .iOS(.v18)\],//' "$scratch/Package.swift"
status=0
output=$("$here/availability.sh" "$scratch" 2>&1) || status=$?
check "a package with no Apple platform is a usage error (exit $status)" test "$status" -eq 2
check "which says so" grep -q "declares no Apple platform" <<<"$output"

echo "availability check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
