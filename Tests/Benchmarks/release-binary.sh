# Sourced by instructions.sh and profile.sh: sets BIN to the server they measure, `MOCK_SERVER_BIN` if given (another
# build, say the baseline that run.sh's BASELINE left in .build-baseline), else the release build with the Swift
# runtime linked statically, built into .build-release first.
source Tests/Benchmarks/static-build-deps.sh
if [ -n "${MOCK_SERVER_BIN:-}" ]; then
    BIN=$MOCK_SERVER_BIN
else
    RELEASE=(-c release --static-swift-stdlib --scratch-path .build-release)
    swift build "${RELEASE[@]}" --product mock-server >/dev/null
    BIN="$(swift build "${RELEASE[@]}" --show-bin-path)/mock-server"
fi
