#!/usr/bin/env bash
# Selects the newest released Xcode on a GitHub macOS runner (Xcode_16.4.app, Xcode_26.1.app, ...; betas and
# release candidates left out) and fails unless its Swift is 6.1 or newer, the oldest Package.swift accepts.
set -euo pipefail
xcode=$(find /Applications -maxdepth 1 -name 'Xcode_[0-9]*.app' ! -iname '*beta*' ! -iname '*rc*' | sort -V | tail -n 1)
if [ -z "$xcode" ]; then
    echo "no Xcode_N.app in /Applications" >&2
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
