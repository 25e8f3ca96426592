// swift-tools-version:6.1
// 6.1 (Xcode 16.3) is the oldest toolchain that builds the tests: they use `#expect(throws:)`'s returned error.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "MockedNetworking",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "Endpoints", targets: ["Endpoints"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .executable(name: "mock-server", targets: ["mock-server"]),
        .executable(name: "mock-server-tls", targets: ["mock-server-tls"]),
        // For test targets: answers from the contracts in-process. Carries the mock server; keep it out of apps.
        .library(name: "ContractDispatcher", targets: ["ContractDispatcher"]),
    ],
    targets: [
        // The mock protocol both sides speak: X-Mock-* headers, admin paths, status -> expected result.
        .target(name: "MockProtocol", swiftSettings: strict),
        .target(name: "Networking", dependencies: ["MockProtocol"], swiftSettings: strict),
        .target(name: "Endpoints", dependencies: ["Networking"], swiftSettings: strict),
        .target(name: "ContractModel", dependencies: ["MockProtocol"], swiftSettings: strict),
        .target(name: "CSystemShims"),
        // The HTTP server: platform calls, readiness backends, parser, connections, streams. Knows nothing of contracts.
        // Its declarations are `public` though it is no product: Swift optimizes across modules (inlining,
        // generic specialization) only what is public, never `package`, and the mock layer calls it per request.
        .target(name: "HTTPCore", dependencies: ["CSystemShims"], swiftSettings: strict),
        // The mock layer on top: routing, scenarios, validation, fixtures, journal, admin API.
        // The dashboard's files are compiled in (`PackageResources`): no bundle to find at run time.
        .target(name: "MockServer", dependencies: ["HTTPCore", "ContractModel", "MockProtocol"],
                resources: [.embedInCode("Admin/Dashboard/dashboard.html"), .embedInCode("Admin/Dashboard/dashboard.css"),
                            .embedInCode("Admin/Dashboard/dashboard.js")],
                swiftSettings: strict),
        .target(name: "ContractDispatcher", dependencies: ["Networking", "MockServer", "HTTPCore"], swiftSettings: strict),
        // OpenAPI in and out: contracts to an OpenAPI 3.1 document and OpenAPI 3.0/3.1 documents to contracts.
        .target(name: "OpenAPI", dependencies: ["ContractModel", "MockProtocol"], swiftSettings: strict),
        // Record and proxy: the upstream client and the writer that turns exchanges into contracts.
        .target(name: "Recorder", dependencies: ["MockServer", "HTTPCore", "ContractModel", "MockProtocol"],
                swiftSettings: strict),
        .target(name: "Verifier", dependencies: ["Recorder", "MockServer", "HTTPCore", "ContractModel"],
                swiftSettings: strict),
        // "mock-server-tls" is listed so that building mock-server builds it too, into the same folder; it is a
        // separate process, and mock-server links none of it (nor FoundationNetworking).
        .executableTarget(name: "mock-server", dependencies: ["MockServer", "HTTPCore", "ContractModel", "MockProtocol",
                                                              "OpenAPI", "Recorder", "Verifier", "mock-server-tls"],
                          swiftSettings: strict),
        // The HTTP→HTTPS bridge for https:// targets: HTTPCore's server in front of the toolchain's URLSession.
        .executableTarget(name: "mock-server-tls", dependencies: ["HTTPCore"], swiftSettings: strict),

        .target(name: "TestSupport", dependencies: ["HTTPCore"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "MockProtocolTests", dependencies: ["MockProtocol"], swiftSettings: strict),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking"], swiftSettings: strict),
        .testTarget(name: "EndpointsTests", dependencies: ["Endpoints", "Networking"], swiftSettings: strict),
        .testTarget(name: "ContractModelTests", dependencies: ["ContractModel", "TestSupport"],
                    exclude: ["YAMLSuite", "OpenAPIExamples", "Contracts"], swiftSettings: strict),
        .testTarget(name: "OpenAPITests", dependencies: ["OpenAPI", "ContractModel", "TestSupport"],
                    exclude: ["OpenAPIDocuments"], swiftSettings: strict),
        .testTarget(name: "TLSBridgeTests", dependencies: ["mock-server-tls", "HTTPCore"], swiftSettings: strict),
        .testTarget(name: "RecorderTests", dependencies: ["Recorder", "MockServer", "HTTPCore", "ContractModel", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "VerifierTests", dependencies: ["Verifier", "Recorder", "MockServer", "HTTPCore", "ContractModel",
                                                          "TestSupport"],
                    swiftSettings: strict),
        .testTarget(
            name: "MockServerTests", dependencies: ["MockServer", "HTTPCore", "ContractModel", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ContractTests",
            dependencies: ["Endpoints", "Networking", "MockServer", "HTTPCore", "ContractModel", "TestSupport",
                           "ContractDispatcher", "mock-server"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
