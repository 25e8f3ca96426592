#!/usr/bin/env bash
# Every kind of response against the static path, in user-space instructions per request (instructions.sh under
# callgrind, deterministic): the static fixture, a template, the 20th and the 10th `when` rule, a fixture chosen by
# the query and by the path, a resource's item and its list, and the bundled contracts' products page. One table, each kind's ratio to the static path of the
# same run and build. The issue's target is at most 2x.
# Usage: [MOCK_SERVER_BIN=<binary>] Tests/Benchmarks/kinds.sh [requests-per-connection (default 250)]
set -euo pipefail
cd "$(dirname "$0")/../.."
source Tests/Benchmarks/release-binary.sh    # builds the release binary once, so each run below measures it
export MOCK_SERVER_BIN=$BIN
kinds=(static templated rules rules10 query path item list bundled)
declare -A counts
for kind in "${kinds[@]}"; do
    counts[$kind]=$(KIND=$kind bash Tests/Benchmarks/instructions.sh "${1:-250}" | awk '{print $1}')
    echo "measured $kind: ${counts[$kind]}" >&2
done
printf "%-10s %14s %8s\n" kind instructions "/static"
for kind in "${kinds[@]}"; do
    printf "%-10s %14s %8s\n" "$kind" "${counts[$kind]}" \
        "$(awk -v a="${counts[$kind]}" -v b="${counts[static]}" 'BEGIN {printf "%.2fx", a / b}')"
done
