#!/usr/bin/env bash
# Builds the library products an app or its UI-test runner embeds (Networking, Endpoints, MockServer,
# ContractDispatcher) for the iOS Simulator, warnings as errors. With the newest Xcode, through xcodebuild, as an
# app's build does (SWIFT_TREAT_WARNINGS_AS_ERRORS keeps the flags SwiftPM sets per target, which
# OTHER_SWIFT_FLAGS would replace). With the floor Xcode, through SwiftPM and the simulator SDK: GitHub's macOS
# image carries no simulator runtime for Xcode 16.3, without which xcodebuild finds no destination, and SwiftPM
# needs none to compile.
# Usage: .github/build-ios-simulator.sh floor|newest
set -euo pipefail
products=(Networking Endpoints MockServer ContractDispatcher)
case "${1:-}" in
    newest)
        for scheme in "${products[@]}"; do
            xcodebuild build -scheme "$scheme" -destination "generic/platform=iOS Simulator" \
                -skipPackagePluginValidation SWIFT_TREAT_WARNINGS_AS_ERRORS=YES | tail -n 5
        done
        ;;
    floor)
        sdk=$(xcrun --sdk iphonesimulator --show-sdk-path)
        for product in "${products[@]}"; do
            swift build --product "$product" --triple "$(uname -m)-apple-ios16.0-simulator" --sdk "$sdk" \
                -Xswiftc -warnings-as-errors
        done
        ;;
    *)
        echo "usage: $0 floor|newest" >&2
        exit 2
        ;;
esac
