#!/usr/bin/env bash
# Selects an Xcode on a GitHub macOS runner and fails unless its Swift is 6.1 or newer, the oldest that
# Package.swift accepts. `floor`: the oldest released Xcode that brings Swift 6.1 (16.3 or newer), so that
# the package's own floor is built; `newest`: the newest released one. Names such as Xcode_16.4.app and
# Xcode_26.1.app count; Xcode_26.2_beta.app, Xcode_26.1_Release_Candidate.app and Xcode.app (a link) do not.
set -euo pipefail
which=${1:-newest}
releases=$(find /Applications -maxdepth 1 -regex '.*/Xcode_[0-9][0-9.]*\.app' | sort -V)
case "$which" in
    floor) xcode=$(awk -F'[_/]' '{ split($NF, v, "."); if (v[1] > 16 || (v[1] == 16 && v[2] + 0 >= 3)) print }' <<<"$releases" | head -n 1) ;;
    newest) xcode=$(tail -n 1 <<<"$releases") ;;
    *) echo "usage: $0 floor|newest" >&2; exit 2 ;;
esac
if [ -z "$xcode" ]; then
    echo "no released Xcode for '$which' in /Applications:" >&2
    echo "$releases" >&2
    exit 1
fi
sudo xcode-select -s "$xcode"
version=$(swift --version 2>&1 | sed -nE 's/.*Swift version ([0-9]+)\.([0-9]+).*/\1 \2/p' | head -n 1)
read -r major minor <<<"$version"
echo "$xcode: Swift $major.$minor"
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 1 ]; }; then
    echo "Swift 6.1 or newer is needed (Xcode 16.3 or newer)" >&2
    exit 1
fi
