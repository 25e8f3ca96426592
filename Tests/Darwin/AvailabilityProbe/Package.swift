// swift-tools-version:6.1
// A scratch package for Tests/Darwin/availability-test.sh: calls planted where Apple platforms lack them, and
// uses the check must let pass. Each line the check must report ends in `// expect: <what it prints>`.
import PackageDescription

let package = Package(
    name: "AvailabilityProbe",
    platforms: [.macOS(.v13), .iOS(.v16)],
    targets: [
        .target(name: "Probe"),
        .testTarget(name: "ProbeTests", dependencies: ["Probe"]),
    ],
    swiftLanguageModes: [.v6]
)
