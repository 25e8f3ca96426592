#!/usr/bin/env bash
# The exported OpenAPI document, checked by tools nobody here wrote:
#   1. `mock-server openapi export` writes the bundled contracts as an OpenAPI 3.1 document;
#   2. openapi-spec-validator validates it against the OpenAPI 3.1 schema;
#   3. the built mock-server serves the bundled contracts on a free port, and Schemathesis sends it
#      requests made from the document (positive data only, a bounded number per operation) and checks each
#      response: no 5xx, a documented status, a documented content type, a body that fits the schema.
# Every endpoint answers its first scenario, a success, unless a request names another in X-Mock-Scenario.
# The document describes that header as an optional string without an enum, so Schemathesis sends made-up
# names (answered 400, which is documented) and never picks a scenario's deliberate failure (a fault, a 5xx
# or a malformed body), which only X-Mock-Scenario or the admin API plays.
# Python tools come from PyPI into .build/openapi-venv, created when missing. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=.build/openapi-venv
EXAMPLES=${OPENAPI_MAX_EXAMPLES:-20}
if [ ! -x "$VENV/bin/schemathesis" ] || [ ! -x "$VENV/bin/openapi-spec-validator" ]; then
    echo "== creating $VENV (openapi-spec-validator, schemathesis)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check openapi-spec-validator schemathesis
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

"$BIN" --port 0 --log off --quiet --contracts Contracts --fixtures Fixtures >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER=$!
LINE=""
for _ in $(seq 1 200); do
    LINE=$(head -n 1 "$WORK/server.out" 2>/dev/null || true)
    [[ $LINE == listening* ]] && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.err"; echo "mock-server did not start"; exit 1; }
    sleep 0.05
done
[[ $LINE == listening* ]] || { echo "mock-server did not say where it listens"; exit 1; }
URL=${LINE#listening on }
echo "== schemathesis against $URL (positive data, at most $EXAMPLES examples per operation)"
"$VENV/bin/schemathesis" run "$WORK/openapi.json" --url "$URL" \
    --mode positive --max-examples "$EXAMPLES" --seed 1 --workers 1 --no-color \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --header "Authorization: Bearer schemathesis" --request-timeout 5 \
    --generation-database none --report junit --report-dir "$WORK/report"
kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.err"; echo "mock-server died during the run"; exit 1; }
