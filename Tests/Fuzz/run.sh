#!/usr/bin/env bash
# Fuzzes the HTTP parser (with the chunked decoder and percent-decoding), the contract parser, the response-template
# reader and the YAML reader with libFuzzer and AddressSanitizer. Not part of `swift test` or CI.
# Usage: Tests/Fuzz/run.sh [seconds-per-target (default 300)] [http|contracts|templates|yaml|all]
#        Tests/Fuzz/run.sh [documents (default 5000)] yaml-differential
# Crashes are written to Tests/Fuzz/findings/; add each as a regression test. `yaml-differential` compares the YAML
# reader with PyYAML (in a virtual environment, .build/yaml-venv) on generated and mutated documents; see
# yaml_differential.py.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET=${1:-300}
WHICH=${2:-all}
BUILD=../../.build-fuzz
mkdir -p "$BUILD" findings
export SWIFT_BACKTRACE=enable=no   # let libFuzzer and ASan report crashes

HTTP_SOURCES=(../../Sources/HTTPCore/HTTP/{HTTPRequest,HTTPRequestParser,HeadParser,ChunkedDecoder,HTTPParseError,HTTPStatus,HTTPMethod,PercentDecoding,QueryNames,ShortBytes,HeadFields,HTTPHeaders,KnownMethod,Array+Storage}.swift
              ../../Sources/HTTPCore/Platform/{POSIX,POSIX+Bytes}.swift)
CONTRACT_SOURCES=(../../Sources/ContractModel/*.swift)

build() { # name sources...
    local name=$1; shift
    rm -f "$BUILD/$name"   # never fuzz a stale binary when the build fails
    swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name MockedNetworking "$@" -o "$BUILD/$name" 2>&1 \
        | grep -v "Cannot export local symbol" || true
    [ -x "$BUILD/$name" ] || { echo "building $name failed" >&2; exit 1; }
}

run() { # name seeds... (a dictionary Tests/Fuzz/<name without fuzz->.dict is used when there is one)
    local name=$1 corpus="$BUILD/corpus-$1" dict=()
    shift
    [ -f "${name#fuzz-}.dict" ] && dict=(-dict="${name#fuzz-}.dict")
    mkdir -p "$corpus"
    echo "== fuzzing $name for ${SECONDS_PER_TARGET}s"
    "$BUILD/$name" -max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
        "${dict[@]}" -artifact_prefix=findings/"$name"- "$corpus" "$@" 2>&1 | grep -E "^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written" || true
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
if [ "$WHICH" = all ] || [ "$WHICH" = yaml ]; then
    build fuzz-yaml "${CONTRACT_SOURCES[@]}" FuzzYAMLReader.swift
    run fuzz-yaml ../ContractModelTests/YAMLSuite ../ContractModelTests/OpenAPIExamples
fi
if [ "$WHICH" = yaml-differential ]; then
    rm -f "$BUILD/yaml-to-json"
    swiftc -parse-as-library -O -package-name MockedNetworking "${CONTRACT_SOURCES[@]}" YAMLToJSON.swift \
        -o "$BUILD/yaml-to-json" 2>&1 | grep -v "Cannot export local symbol" || true
    VENV=../../.build/yaml-venv
    [ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install --quiet pyyaml; }
    exec "$VENV/bin/python" yaml_differential.py --reader "$BUILD/yaml-to-json" --documents "${1:-5000}" \
        --seeds ../ContractModelTests/YAMLSuite ../ContractModelTests/OpenAPIExamples
fi
ls findings | grep -q . && { echo "findings:"; ls findings; exit 1; } || echo "no crashes, hangs or leaks found"
