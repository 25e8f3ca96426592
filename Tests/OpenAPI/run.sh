#!/usr/bin/env bash
# The exported OpenAPI document, checked by tools nobody here wrote:
#   1. `mock-server openapi export` writes the bundled contracts as an OpenAPI 3.1 document;
#   2. openapi-spec-validator validates it against the OpenAPI 3.1 schema;
#   3. the built mock-server serves the bundled contracts on a free port, and Schemathesis sends it
#      requests made from the document (positive data only, a bounded number per operation) and checks each
#      response: no 5xx, a documented status, a documented content type, a body that fits the schema;
#   4. the other way round: test documents (a pet store, a paginated API served under /v2, YAML with
#      anchors, FastAPI's generated document, two of the OpenAPI Specification's examples) are imported, served, and Schemathesis checks the mock against
#      the original document. The paginated API's /files/{name}.txt is excluded: a parameter inside a path
#      segment cannot be a contract route, and the import says so. (polymorphic.json is not run here: its
#      integer path parameter would get Schemathesis's `2.0`, a JSON Schema integer that the mock, like
#      most servers, refuses with a 400 the document does not list.) Each imported set is also exported
#      again and that document validated.
# Every endpoint answers its first scenario, a success, unless a request names another in X-Mock-Scenario.
# The document describes that header as an optional string without an enum, so Schemathesis sends made-up
# names (answered 400, which is documented) and never picks a scenario's deliberate failure (a fault, a 5xx
# or a malformed body), which only X-Mock-Scenario or the admin API plays.
# Python tools come from PyPI into .build/openapi-venv, created when missing. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROOT=$PWD
VENV=.build/openapi-venv
EXAMPLES=${OPENAPI_MAX_EXAMPLES:-20}
if [ ! -x "$VENV/bin/schemathesis" ] || [ ! -x "$VENV/bin/openapi-spec-validator" ]; then
    echo "== creating $VENV (openapi-spec-validator, schemathesis)"
    python3 -m venv "$VENV"
    # Pinned, so that the same seed makes the same requests on every machine.
    "$VENV/bin/pip" install --quiet --disable-pip-version-check openapi-spec-validator==0.9.0 schemathesis==4.32.5
fi

swift build --product mock-server -Xswiftc -warnings-as-errors
BIN="$(swift build --show-bin-path)/mock-server"
WORK=$(mktemp -d)
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

"$BIN" openapi export -o "$WORK/openapi.json"
echo "== openapi-spec-validator"
"$VENV/bin/openapi-spec-validator" "$WORK/openapi.json"

CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance

# Starts the mock server on a free port with the contracts in $1 and fixtures in $2; sets SERVER and URL.
# Each server writes to files of its own: a file left by the one before would give its port.
SERVERS=0
start_server() {
    SERVERS=$((SERVERS + 1))
    OUT="$WORK/server-$SERVERS.out"
    ERR="$WORK/server-$SERVERS.err"
    "$BIN" --port 0 --log off --quiet --contracts "$1" --fixtures "$2" >"$OUT" 2>"$ERR" &
    SERVER=$!
    local line=""
    for _ in $(seq 1 200); do
        line=$(head -n 1 "$OUT" 2>/dev/null || true)
        [[ $line == listening* ]] && break
        kill -0 "$SERVER" 2>/dev/null || { cat "$ERR"; echo "mock-server did not start"; exit 1; }
        sleep 0.05
    done
    [[ $line == listening* ]] || { echo "mock-server did not say where it listens"; exit 1; }
    URL=${line#listening on }
}

stop_server() {
    kill -0 "$SERVER" 2>/dev/null || { cat "$ERR"; echo "mock-server died during the run"; exit 1; }
    kill "$SERVER"
    wait "$SERVER" 2>/dev/null || true
    SERVER=""
}

# schemathesis <document> <report name> [options]: positive data, a fixed seed, the four checks. Run in the
# scratch folder, where it leaves its .schemathesis cache.
schemathesis() {
    local document=$1 name=$2
    shift 2
    (cd "$WORK" && "$ROOT/$VENV/bin/schemathesis" run "$document" --mode positive --max-examples "$EXAMPLES" --seed 1 --workers 1 \
        --no-color --checks "$CHECKS" --request-timeout 5 --generation-database none \
        --header "Authorization: Bearer schemathesis" --report junit --report-dir "$WORK/report-$name" "$@")
}

start_server Contracts Fixtures
echo "== schemathesis: the exported document against $URL (positive data, at most $EXAMPLES examples per operation)"
schemathesis "$WORK/openapi.json" export --url "$URL"
stop_server

DOCUMENTS=$ROOT/Tests/OpenAPITests/OpenAPIDocuments
SPEC_EXAMPLES=../../ContractModelTests/OpenAPIExamples   # the OpenAPI Specification's own examples
for document in petstore.json paginated.json inventory.yaml fastapi/fastapi.json \
    "$SPEC_EXAMPLES/petstore-expanded.yaml" "$SPEC_EXAMPLES/api-with-examples.yaml"; do
    name=$(basename "$document" | tr . -)
    rm -rf "$WORK/$name"
    "$BIN" openapi import "$DOCUMENTS/$document" --contracts "$WORK/$name/Contracts" --fixtures "$WORK/$name/Fixtures" \
        >"$WORK/$name.import"
    # What was imported exports again to a valid document.
    "$BIN" openapi export --contracts "$WORK/$name/Contracts" --fixtures "$WORK/$name/Fixtures" -o "$WORK/$name.json" \
        2>/dev/null
    "$VENV/bin/openapi-spec-validator" "$WORK/$name.json"
    start_server "$WORK/$name/Contracts" "$WORK/$name/Fixtures"
    echo "== schemathesis: $document, imported, against $URL"
    extra=()
    # paginated.json's page is declared int32: without a format, Schemathesis sends integers of any size, which the
    # mock, whose integers are an app's 64-bit Int, refuses with a 400 that document does not list.
    [ "$document" = paginated.json ] && extra=(--exclude-path '/files/{name}.txt')
    # --origin: the document's own base path (/v2 for the paginated API) is kept.
    schemathesis "$DOCUMENTS/$document" "$name" --origin "$URL" --header "X-API-Key: schemathesis" "${extra[@]}"
    stop_server
done
