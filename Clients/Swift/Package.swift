// swift-tools-version:6.0
import PackageDescription

// CareSyncClient: the device agent's and therapist client's side of CareSync, Foundation only,
// so an iOS or macOS app adds it without building the server. Its tests run against a live server
// (`caresync serve`, found through CARESYNC_BIN).
let package = Package(
    name: "CareSyncClient",
    platforms: [.iOS(.v16), .macOS(.v13), .watchOS(.v9), .tvOS(.v16)],
    products: [
        .library(name: "CareSyncClient", targets: ["CareSyncClient"]),
        .executable(name: "caresync-agent", targets: ["caresync-agent"]),
    ],
    targets: [
        .target(name: "CareSyncClient"),
        // caresync-agent's parts; the library above stays Foundation only.
        .target(name: "HealthExport", dependencies: ["CareSyncClient"]),
        .systemLibrary(name: "CAgentSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Mirror", dependencies: ["CareSyncClient", "CAgentSQLite"]),
        .executableTarget(name: "caresync-agent", dependencies: ["CareSyncClient", "HealthExport", "Mirror"]),
        .testTarget(name: "CareSyncClientTests", dependencies: ["CareSyncClient", "HealthExport", "Mirror"]),
    ]
)
