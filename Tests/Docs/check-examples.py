#!/usr/bin/env python3
"""Runs the examples in README.md and docs/*.md against the bundled contracts, so the docs cannot rot.

Usage:   Tests/Docs/check-examples.py [file.md ...]        (default: README.md and docs/*.md)
Needs:   Python 3 (standard library only), bash, curl, and a built mock-server: MOCK_SERVER_BIN, else
         .build/debug/mock-server (build it with `swift build`).
Verbose: CHECK_EXAMPLES_VERBOSE=1 also prints what each block printed, to compare with the comments beside it.
Exit:    0 when every block passed, 1 when one failed (each failure names its file and line and shows its
         output), 2 when the binary or a file is missing.

The conventions, for whoever writes the docs:

- A fence whose info string is `sh runnable` is an example that runs against the bundled contracts. For each
  one the script copies Contracts/, Fixtures/ and Tests/OpenAPITests/OpenAPIDocuments/ into a scratch folder,
  starts `mock-server --port 0` there on them (a fresh server per block, so no block sees another's
  scenarios, states, sessions or sequence steps), rewrites `127.0.0.1:8080` and `localhost:8080` in the block
  to the server's port, and runs the block with `bash -euo pipefail` in the scratch folder, 20 s at most. A
  block fails when it exits non-zero or runs out of time.
  In a block, `swift run mock-server <args>` and `mock-server <args>` run MOCK_SERVER_BIN (shell functions
  stand in for them; nothing is built), so a block reads as a reader would type it. Keep blocks
  self-contained: `curl -sf` where a 2xx is expected, plain `curl -s` (or `-w '%{http_code}'`) where an error
  status is the point, no interactive steps, no servers left running, no fixed ports other than 8080.
  Blocks that need a device, Xcode, a backend or a build stay plain ```sh and are not run.

- A fence whose info string is `json contract` must hold one JSON object (or array) that a contract file can
  hold; it is checked with `mock-server validate` against a copy of the bundled Fixtures/ (so its fixture
  paths must exist there). Each block is validated alone, in a Contracts folder of its own holding one file,
  since two examples may well declare the same endpoint id. It is wrapped by what it is:
    * an object with "domain": a whole contract file, as is;
    * an object with "method": one endpoint, wrapped as {"domain": "docs", "endpoints": [it]};
    * an object with "path" and no "method": one resource, wrapped as {"domain": "docs", "resources": [it]};
    * an object with "name": one scenario, and an array: scenarios, wrapped in an endpoint
      {"id": "docsExample", "method": "GET", "path": "/docs/example", "scenarios": [...]} of domain "docs".
  A scenario that needs its endpoint's declarations (a template's placeholders, a `when` on a path
  parameter) is written as a whole endpoint.

- A fence whose info string is `text help` must hold exactly what `mock-server --help` prints, so the flag
  reference in docs/cli.md is the binary's own (regenerate it by pasting the output when a flag changes).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT_SECONDS = 20
COPIED = ["Contracts", "Fixtures", "Tests/OpenAPITests/OpenAPIDocuments"]
PREAMBLE = r'''
swift() {
    if [ "${1-}" = run ] && [ "${2-}" = mock-server ]; then shift 2; "$MOCK_SERVER_BIN" "$@"
    else echo "check-examples: only 'swift run mock-server ...' can run here, not: swift $*" >&2; return 127; fi
}
mock-server() { "$MOCK_SERVER_BIN" "$@"; }
'''
FENCE = re.compile(r"^(?P<indent> {0,8})(?P<fence>```+|~~~+)\s*(?P<info>[^`]*?)\s*$")


class Block:
    def __init__(self, path, line, info, text):
        self.path, self.line, self.info, self.text = path, line, info, text

    @property
    def where(self):
        return f"{self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path}:{self.line}"


def blocks(path):
    """Every fenced block of a Markdown file: its opening fence's line (1-based), info string and text."""
    found, lines = [], path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, info = len(match["indent"]), match["fence"], match["info"]
        body, end = [], index + 1
        while end < len(lines) and not re.match(r"^ {0,8}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$",
                                                lines[end]):
            body.append(lines[end][indent:] if lines[end][:indent].strip() == "" else lines[end])
            end += 1
        found.append(Block(path, index + 1, info, "\n".join(body) + "\n"))
        index = end + 1
    return found


def scratch_copy(into):
    for name in COPIED:
        source = ROOT / name
        if source.exists():
            shutil.copytree(source, into / name)


def start_server(binary, folder):
    """Starts the server on the scratch copy; returns the process, its port and its stderr file."""
    stderr = open(folder / ".server-stderr", "w+")
    process = subprocess.Popen(
        [binary, "--port", "0", "--contracts", str(folder / "Contracts"), "--fixtures", str(folder / "Fixtures"),
         "--quiet"], cwd=folder, stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True)
    line = process.stdout.readline()
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if not match:
        process.kill()
        process.wait()
        stderr.seek(0)
        raise RuntimeError(f"mock-server did not start: {line!r}\n{stderr.read()}")
    return process, int(match[1]), stderr


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run_shell(block, binary):
    """Runs one `sh runnable` block; returns None when it passed, else what to print."""
    with tempfile.TemporaryDirectory(prefix="docs-example-") as name:
        folder = Path(name)
        scratch_copy(folder)
        server, port, server_stderr = start_server(binary, folder)
        try:
            script = re.sub(r"(?<=127\.0\.0\.1:)8080\b", str(port), block.text)
            script = re.sub(r"(?<=localhost:)8080\b", str(port), script)
            env = dict(os.environ, MOCK_SERVER_BIN=binary)
            shell = subprocess.Popen(["bash", "-euo", "pipefail", "-c", PREAMBLE + script], cwd=folder, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
            try:
                output, _ = shell.communicate(timeout=TIMEOUT_SECONDS)
                status = shell.returncode
            except subprocess.TimeoutExpired:
                os.killpg(shell.pid, signal.SIGKILL)
                output, _ = shell.communicate()
                status = f"timed out after {TIMEOUT_SECONDS} s"
            else:
                try:  # anything the block left running in the background
                    os.killpg(shell.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        finally:
            stop(server)
        if os.environ.get("CHECK_EXAMPLES_VERBOSE") == "1":
            print(f"--- {block.where}, port 8080 is {port} ---\n{output.rstrip()}\n---", flush=True)
        if status == 0:
            return None
        server_stderr.seek(0)
        log = server_stderr.read().strip()
        server_stderr.close()
        outcome = f"exit status {status}" if isinstance(status, int) else status
        return (f"{outcome}\n--- the block (port 8080 is {port} here) ---\n{script.rstrip()}\n"
                f"--- its output ---\n{output.rstrip()}" + (f"\n--- the server's stderr ---\n{log}" if log else ""))


def wrapped(value):
    """The contract file a `json contract` block stands for, or a reason it cannot be one."""
    example_endpoint = {"id": "docsExample", "method": "GET", "path": "/docs/example"}
    if isinstance(value, list):
        return {"domain": "docs", "endpoints": [dict(example_endpoint, scenarios=value)]}
    if not isinstance(value, dict):
        return "a json contract block holds an object or an array"
    if "domain" in value:
        return value
    if "method" in value:
        return {"domain": "docs", "endpoints": [value]}
    if "path" in value:
        return {"domain": "docs", "resources": [value]}
    if "name" in value:
        return {"domain": "docs", "endpoints": [dict(example_endpoint, scenarios=[value])]}
    return "cannot tell whether this is a contract, an endpoint, a resource or a scenario"


def check_contract(block, binary, fixtures):
    """Validates one `json contract` block; returns None when it passed, else what to print."""
    try:
        value = json.loads(block.text)
    except json.JSONDecodeError as error:
        return f"not JSON: {error}\n{block.text.rstrip()}"
    contract = wrapped(value)
    if isinstance(contract, str):
        return contract
    with tempfile.TemporaryDirectory(prefix="docs-contract-") as name:
        contracts = Path(name) / "Contracts"
        contracts.mkdir()
        (contracts / "example.json").write_text(json.dumps(contract, indent=2, ensure_ascii=False), encoding="utf-8")
        result = subprocess.run([binary, "validate", "--contracts", str(contracts), "--fixtures", str(fixtures)],
                                capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
    if result.returncode == 0:
        return None
    return f"mock-server validate exited {result.returncode}\n{(result.stdout + result.stderr).rstrip()}"


def check_help(block, binary):
    """A `text help` block: exactly the binary's --help output."""
    result = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
    if result.stdout.rstrip("\n") == block.text.rstrip("\n"):
        return None
    import difflib
    diff = difflib.unified_diff(block.text.rstrip("\n").splitlines(), result.stdout.rstrip("\n").splitlines(),
                                "the docs", "mock-server --help", lineterm="", n=1)
    return "the block is not what mock-server --help prints; paste the output again:\n" + "\n".join(diff)


def main():
    binary = os.environ.get("MOCK_SERVER_BIN", str(ROOT / ".build/debug/mock-server"))
    binary = str(Path(binary).resolve()) if os.sep in binary else shutil.which(binary) or binary
    if not os.access(binary, os.X_OK):
        print(f"check-examples: no mock-server at {binary}; run `swift build` or set MOCK_SERVER_BIN", file=sys.stderr)
        return 2
    files = [Path(argument).resolve() for argument in sys.argv[1:]] or \
        [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    missing = [str(file) for file in files if not file.is_file()]
    if missing:
        print("check-examples: no such file: " + ", ".join(missing), file=sys.stderr)
        return 2
    started = time.monotonic()
    ran, validated, compared, failures = 0, 0, 0, []
    with tempfile.TemporaryDirectory(prefix="docs-fixtures-") as name:
        fixtures = Path(name) / "Fixtures"
        shutil.copytree(ROOT / "Fixtures", fixtures)
        for file in files:
            for block in blocks(file):
                words = block.info.split()
                if words[:2] == ["sh", "runnable"]:
                    ran += 1
                    problem = run_shell(block, binary)
                elif words[:2] == ["json", "contract"]:
                    validated += 1
                    problem = check_contract(block, binary, fixtures)
                elif words[:2] == ["text", "help"]:
                    compared += 1
                    problem = check_help(block, binary)
                else:
                    continue
                status = "ok" if problem is None else "FAILED"
                print(f"{status:6} {block.where} ({words[0]} {words[1]})", flush=True)
                if problem is not None:
                    failures.append((block, problem))
    for block, problem in failures:
        print(f"\n{block.where}: {problem}")
    summary = (f"{ran} sh runnable block(s) run, {validated} json contract block(s) validated and {compared} help "
               f"block(s) compared from {len(files)} "
               f"file(s) in {time.monotonic() - started:.1f} s with {binary}")
    if failures:
        print(f"\n{summary}: {len(failures)} FAILED")
        return 1
    print(f"\n{summary}: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
