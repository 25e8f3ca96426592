#!/usr/bin/env bash
# The libraries' documentation, built with the toolchain's own docc (no documentation plugin is a dependency):
# symbol graphs of Networking, MockServer and ContractDispatcher from the debug build's modules
# (swift-symbolgraph-extract), a check that every public symbol has a documentation comment, then each catalog
# (Sources/<target>/<target>.docc) converted into .build/docc/<target>.doccarchive with warnings as errors, so an
# unresolved symbol link fails the stage. Needs `swift build` first (the CI build stage does it).
# Usage: Tests/Docs/docc.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
TARGETS=(Networking MockServer ContractDispatcher)
BIN=$(swift build --show-bin-path)
GRAPHS=.build/docc/symbol-graphs
TRIPLE=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
MODULE_MAP="$BIN/CSystemShims.build/module.modulemap"
[ -f "$MODULE_MAP" ] || { echo "docc.sh: no $MODULE_MAP: run swift build first" >&2; exit 1; }
rm -rf .build/docc && mkdir -p "$GRAPHS"
for target in "${TARGETS[@]}"; do
    mkdir -p "$GRAPHS/$target"
    swift-symbolgraph-extract -module-name "$target" -I "$BIN/Modules" -target "$TRIPLE" \
        -Xcc "-fmodule-map-file=$MODULE_MAP" -Xcc -I -Xcc Sources/CSystemShims/include \
        -minimum-access-level public -skip-synthesized-members -output-dir "$GRAPHS/$target"
done
python3 - "$GRAPHS" "${TARGETS[@]}" <<'PY'
import json, sys
graphs, targets = sys.argv[1], sys.argv[2:]
missing = []
for target in targets:
    graph = json.load(open(f"{graphs}/{target}/{target}.symbols.json"))
    for symbol in graph["symbols"]:
        # A member that implements a protocol requirement or comes from an extension of another module's type
        # shows that declaration's comment (sourceOrigin).
        if symbol.get("accessLevel") in ("public", "open") and not symbol.get("docComment") \
                and "sourceOrigin" not in symbol:
            location = symbol.get("location", {})
            where = location.get("uri", "?").split("/Sources/")[-1] + ":" + str(location.get("position", {}).get("line", 0) + 1)
            missing.append(f"Sources/{where}: {target}.{'.'.join(symbol['pathComponents'])} has no documentation comment")
if missing:
    print("\n".join(sorted(missing)))
    sys.exit(f"docc.sh: {len(missing)} public symbol(s) without a documentation comment")
print(f"docc.sh: every public symbol of {', '.join(targets)} is documented")
PY
for target in "${TARGETS[@]}"; do
    if ! docc convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$GRAPHS/$target" \
        --fallback-display-name "$target" --fallback-bundle-identifier "mockednetworking.$target" \
        --output-path ".build/docc/$target.doccarchive" --warnings-as-errors >".build/docc/$target.log" 2>&1; then
        cat ".build/docc/$target.log"
        echo "docc.sh: the $target documentation has warnings or unresolved links (above)" >&2
        exit 1
    fi
    echo "docc.sh: .build/docc/$target.doccarchive"
done
