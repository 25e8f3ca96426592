#!/usr/bin/env bash
# Fuzzes the HTTP parser (with the chunked decoder and percent-decoding), the contract parser and the response-template
# reader with libFuzzer and AddressSanitizer. Not part of `swift test` or CI.
# Usage: Tests/Fuzz/run.sh [seconds-per-target (default 300)] [http|contracts|templates|all]
# Crashes are written to Tests/Fuzz/findings/; add each as a regression test.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET=${1:-300}
WHICH=${2:-all}
BUILD=../../.build-fuzz
mkdir -p "$BUILD" findings
export SWIFT_BACKTRACE=enable=no   # let libFuzzer and ASan report crashes

HTTP_SOURCES=(../../Sources/HTTPCore/HTTP/{HTTPRequest,HTTPRequestParser,HeadParser,ChunkedDecoder,HTTPParseError,HTTPStatus,PercentDecoding}.swift)
CONTRACT_SOURCES=(../../Sources/ContractModel/*.swift)

build() { # name sources...
    local name=$1; shift
    rm -f "$BUILD/$name"   # never fuzz a stale binary when the build fails
    swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name MockedNetworking "$@" -o "$BUILD/$name" 2>&1 \
        | grep -v "Cannot export local symbol" || true
    [ -x "$BUILD/$name" ] || { echo "building $name failed" >&2; exit 1; }
}

run() { # name corpus seeds
    local name=$1 corpus="$BUILD/corpus-$1" seeds=$2
    mkdir -p "$corpus"
    echo "== fuzzing $name for ${SECONDS_PER_TARGET}s"
    "$BUILD/$name" -max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix=findings/"$name"- "$corpus" "$seeds" 2>&1 | grep -E "^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written" || true
}

if [ "$WHICH" = all ] || [ "$WHICH" = http ]; then
    build fuzz-http "${HTTP_SOURCES[@]}" FuzzHTTPParser.swift
    run fuzz-http seeds/http
fi
if [ "$WHICH" = all ] || [ "$WHICH" = contracts ]; then
    build fuzz-contracts "${CONTRACT_SOURCES[@]}" FuzzContractLoader.swift
    run fuzz-contracts ../../Contracts
fi
if [ "$WHICH" = all ] || [ "$WHICH" = templates ]; then
    build fuzz-templates "${CONTRACT_SOURCES[@]}" FuzzResponseTemplate.swift
    run fuzz-templates seeds/templates
fi
ls findings | grep -q . && { echo "findings:"; ls findings; exit 1; } || echo "no crashes, hangs or leaks found"
