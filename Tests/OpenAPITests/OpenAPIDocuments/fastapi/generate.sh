#!/usr/bin/env bash
# Regenerates fastapi.json, the OpenAPI document FastAPI's own generator writes for app.py.
# Creates a virtual environment (.build/fastapi-venv at the package root) with FastAPI when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
venv="$root/.build/fastapi-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import fastapi, multipart, email_validator' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check fastapi python-multipart email-validator
fi
cd "$here"
export PYTHONDONTWRITEBYTECODE=1
"$venv/bin/python" -c 'import json, app; print(json.dumps(app.app.openapi(), indent=2, sort_keys=True))' > fastapi.json
echo "wrote $here/fastapi.json with FastAPI $("$venv/bin/python" -c 'import fastapi; print(fastapi.__version__)')"
