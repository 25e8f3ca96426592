#!/usr/bin/env python3
"""Apple availability, checked on Linux.

Linux enforces no `@available(macOS N, ...)`: an API that Apple ships only above the package's deployment
targets compiles here and fails on the users' Mac. This reads every symbol the package's own code references
from the index store that `swift build` wrote, looks each up in the symbol graphs of the toolchain's modules
(the Linux interfaces carry Apple's availability attributes), and reports each reference that needs more than
the deployment targets `Package.swift` declares, outside an availability context that covers it:

    Sources/OpenAPI/FixtureExamples.swift:65: String.init(validating:as:) needs macOS 15 / iOS 18

Not a use of the newer API: a reference in code that Apple platforms do not compile (an `#if os(Linux)` or
`canImport(Glibc)` branch), one inside `if #available`, after `guard #available` or in a declaration marked
`@available` that covers it, and one to a newer declaration that has an identical older twin (a protocol
requirement added later beside the extension method that served before, as `FixedWidthInteger.&*` in Swift
6.0: what the compiler calls on the older OS is the twin).

Usage: availability.py [--package DIR] [--store DIR]   (availability.sh builds first, then runs this)
Exit status: 0 nothing found, 1 findings, 2 the check could not run.
"""

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys

import indexstore
import swiftsource

SWIFTPM_PLATFORMS = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}


def deployment_targets(package):
    """`{platform: (major, minor)}` as `Package.swift` declares them (`swift package dump-package`)."""
    dump = json.loads(run(["swift", "package", "dump-package"], cwd=package))
    targets = {SWIFTPM_PLATFORMS[p["platformName"]]: swiftsource._version(p["version"])
               for p in dump.get("platforms") or [] if p["platformName"] in SWIFTPM_PLATFORMS}
    if not targets:
        fail(f"{package}/Package.swift declares no Apple platform (platforms: [.macOS(...), .iOS(...)])")
    return targets


def toolchain():
    """The toolchain's target triple and where its modules and libIndexStore are."""
    info = json.loads(run(["swift", "-print-target-info"]))
    resources = info["paths"]["runtimeResourcePath"]
    triple = info["target"]["triple"]
    modules = os.path.join(resources, info["target"]["unversionedTriple"].split("-")[2])
    if not os.path.isdir(modules):
        modules = os.path.join(resources, "linux")
    return triple, modules, os.path.dirname(resources)


def availability_table(cache, triple, modules):
    """`{usr: (api, {platform: version}, [twins' {platform: version}])}` for every toolchain symbol that Apple
    makes available from some version: built once per toolchain from `swift-symbolgraph-extract`, then
    cached under `cache`."""
    version = run(["swift", "--version"])
    folder = os.path.join(cache, hashlib.sha256((version + triple).encode()).hexdigest()[:16])
    table_path = os.path.join(folder, "table.json")
    if os.path.exists(table_path):
        with open(table_path) as file:
            return json.load(file)
    graphs = os.path.join(folder, "graphs")
    os.makedirs(graphs, exist_ok=True)
    for module_file in sorted(glob.glob(os.path.join(modules, "*.swiftmodule"))):
        module = os.path.basename(module_file).removesuffix(".swiftmodule")
        subprocess.run(["swift-symbolgraph-extract", "-module-name", module, "-target", triple, "-output-dir",
                        graphs, "-minimum-access-level", "public"], capture_output=True)
    symbols = []
    for path in glob.glob(os.path.join(graphs, "*.symbols.json")):
        with open(path) as file:
            symbols.extend(json.load(file)["symbols"])
    table, by_declaration = {}, {}
    for symbol in symbols:
        introduced = introductions(symbol)
        declaration = (tuple(symbol["pathComponents"]), symbol["kind"]["identifier"],
                       "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", [])))
        by_declaration.setdefault(declaration, []).append(introduced)
        if introduced:
            table[symbol["identifier"]["precise"]] = [".".join(symbol["pathComponents"]), introduced, declaration]
    for usr, entry in table.items():
        twins = list(by_declaration[entry[2]])
        twins.remove(entry[1])
        entry[2] = twins
    with open(table_path, "w") as file:
        json.dump(table, file)
    return table


def introductions(symbol):
    """`{platform: [major, minor]}` from a symbol's availability; an API unavailable there counts as never."""
    found = {}
    for entry in symbol.get("availability", []):
        platform = entry.get("domain")
        if platform not in swiftsource.APPLE_PLATFORMS:
            continue
        if entry.get("isUnconditionallyUnavailable") or "obsoleted" in entry:
            found[platform] = [9999, 0]
        elif "introduced" in entry:
            found[platform] = [entry["introduced"]["major"], entry["introduced"].get("minor", 0)]
    return found


def findings(store, package, targets, table):
    """`(path, line, api, {platform: version})` for each reference that needs more than `targets`."""
    root = os.path.realpath(package) + os.sep
    references = 0
    found = set()
    for main_file, _, records in store.units():
        path = os.path.realpath(main_file)
        if not path.startswith(root) or "/.build" in path[len(root) - 1:]:
            continue
        needing = []
        for record in records:
            for usr, line, column in store.references(record):
                references += 1
                entry = table.get(usr)
                if entry:
                    needs = {p: tuple(v) for p, v in entry[1].items() if p in targets and tuple(v) > targets[p]}
                    needs = {p: v for p, v in needs.items()
                             if not any(tuple(twin.get(p, (0, 0))) <= targets[p] for twin in entry[2])}
                    if needs:
                        needing.append((line, column, entry[0], needs))
        if needing:
            found.update(uncovered(path, needing))
    return sorted((os.path.relpath(path, package), line, api, needs) for path, line, api, needs in found), references


def uncovered(path, needing):
    """The references of one file that no `#if` branch or availability context excuses."""
    with open(path, "rb") as file:
        source = file.read()
    line_starts = [0] + [index + 1 for index, byte in enumerate(source) if byte == 0x0A]
    contexts = swiftsource.availability_contexts(source)
    inactive = {}
    result = set()
    for line, column, api, needs in needing:
        offset = line_starts[line - 1] + column - 1
        left = {}
        for platform, version in needs.items():
            if platform not in inactive:
                inactive[platform] = swiftsource.inactive_ranges(source, platform)
            if any(start <= offset < end for start, end in inactive[platform]):
                continue
            if any(start <= offset < end and versions.get(platform, (0, 0)) >= version
                   for start, end, versions in contexts):
                continue
            left[platform] = version
        if left:
            result.add((path, line, api, tuple(sorted(left.items()))))
    return result


def describe(needs):
    needs = sorted(needs, key=lambda item: swiftsource.APPLE_PLATFORMS.index(item[0]))
    return " / ".join(f"{platform} {major}" + (f".{minor}" if minor else "") for platform, (major, minor) in needs)


def run(command, cwd=None):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{done.stderr.strip()}")
    return done.stdout


def fail(message):
    print(f"availability: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=".", help="the package's folder (default: here)")
    parser.add_argument("--store", help="its index store (default: PACKAGE/.build/debug/index/store)")
    arguments = parser.parse_args()
    package = os.path.abspath(arguments.package)
    store_path = arguments.store or os.path.join(package, ".build", "debug", "index", "store")
    if not os.path.isdir(store_path):
        fail(f"no index store at {store_path}: run `swift build --build-tests --enable-index-store` first")
    targets = deployment_targets(package)
    triple, modules, libraries = toolchain()
    table = availability_table(os.path.join(package, ".build", "availability"), triple, modules)
    store = indexstore.IndexStore(store_path, libraries)
    found, references = findings(store, package, targets, table)
    for path, line, api, needs in found:
        print(f"{path}:{line}: {api} needs {describe(needs)}")
    against = describe(targets.items())
    print(f"availability: {references} references read against {against}, {len(table)} toolchain APIs newer "
          f"than some Apple release: {len(found)} finding{'' if len(found) == 1 else 's'}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
