// swift-tools-version:6.1
// A consumer of MockedNetworking, as an app team would set it up: its own endpoints and contract,
// tested against an embedded mock server. `.ci/run` builds and tests it, so the README's
// "Use it in your own project" section cannot rot.
import PackageDescription

let package = Package(
    name: "TodoApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // In your project: .package(url: "https://github.com/<owner>/MockedNetworking.git", branch: "main")
        .package(name: "MockedNetworking", path: "../.."),
    ],
    targets: [
        .target(name: "TodoApp", dependencies: [.product(name: "Networking", package: "MockedNetworking")]),
        .testTarget(
            name: "TodoAppTests",
            dependencies: [
                "TodoApp",
                .product(name: "Networking", package: "MockedNetworking"),
                .product(name: "MockServer", package: "MockedNetworking"),
                .product(name: "ContractDispatcher", package: "MockedNetworking"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
