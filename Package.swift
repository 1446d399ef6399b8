// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CareSync",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "caresync", targets: ["caresync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // System libraries: the shims wrap only what Swift cannot import.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // ISA-L's igzip: gzip answers, about five times faster than zlib's fastest level and smaller (docs/benchmarks.md).
        .systemLibrary(name: "CIsal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // libcurl, driven directly: webhook attempts connect to the address the SSRF guard checked (CURLOPT_RESOLVE).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // <sys/epoll.h>, which Glibc's module leaves out: the HTTP event loops' epoll sets.
        .systemLibrary(name: "CEpoll"),

        // Work split over the cores (feed reads, feed JSON, gzip pieces). Knows nothing else.
        .target(name: "CareSyncParallel"),
        // The one JSON string escaper, below both the domain and HTTP (neither may import the other).
        .target(name: "CareSyncJSON"),
        // The one lock box (`Locked`, a pthread mutex the thread sanitizer sees), below the domain, HTTP and the tests.
        .target(name: "CareSyncLocking"),
        // Domain: samples, types, units, anchors, sync rules, statistics. No SQL, no HTTP.
        // swift-crypto: passkey signatures (ES256, and RS256 through _CryptoExtras) and challenge hashes.
        .target(name: "CareSyncCore", dependencies: [
            "CareSyncJSON", "CareSyncLocking",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        // What every backend shares: the connection pool, group commit, the migration runner (docs/store.md).
        .target(name: "CareSyncStoreCore", dependencies: ["CareSyncCore", "CareSyncLocking", .product(name: "Crypto", package: "swift-crypto")]),
        // SQLite: connection, statements, the sync store; the store core in SQLite's dialect.
        .target(name: "CareSyncStore", dependencies: ["CareSyncCore", "CareSyncStoreCore", "CareSyncParallel", "CSQLite"]),
        // PostgreSQL through libpq: connections, the sync and access stores; the store core in PostgreSQL's dialect (docs/store.md).
        .target(name: "CareSyncPostgres", dependencies: ["CareSyncCore", "CareSyncStoreCore", "CareSyncLocking", "CLibPQ"]),
        // The sync rules in plain Swift collections: the oracle tests compare the store against.
        .target(name: "CareSyncReferenceModel", dependencies: ["CareSyncCore", "CareSyncLocking"]),
        // HTTP/1.1 on sockets and Dispatch: parser, connections, router, gzip. Knows no domain type.
        .target(name: "CareSyncHTTP", dependencies: [
            "CareSyncParallel", "CareSyncJSON", "CareSyncLocking", "CZlib", "CIsal", "CEpoll",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        // The backends behind CareSyncCore's `StoreBackend`: open, migrate, back up and check SQLite or PostgreSQL.
        .target(name: "CareSyncBackends", dependencies: ["CareSyncCore", "CareSyncStore", "CareSyncPostgres"]),
        // The API: controllers, auth, audit, error mapping, buildServer(config, backend). Store protocols only, never a backend.
        .target(name: "CareSyncServer", dependencies: [
            "CareSyncCore", "CareSyncHTTP", "CareSyncWebApp", "CareSyncParallel", "CareSyncJSON", "CareSyncLocking", "CCurl",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [.copy("OpenAPI/openapi.json")]),
        // The therapist web app, served at `/`: the files of its `Files/` folder, the one list of them (a JS edit
        // rebuilds nothing, it is only copied).
        .target(name: "CareSyncWebApp", dependencies: [
            "CareSyncHTTP",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], resources: [.copy("Files")]),
        // The executable only wires: it picks the backend and hands it to the API.
        .executableTarget(name: "caresync", dependencies: [
            "CareSyncServer", "CareSyncBackends", "CareSyncCore", "CareSyncHTTP",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: [
            // jemalloc in place of glibc's malloc for the server process (libjemalloc-dev; docs/benchmarks.md,
            // "jemalloc as the server's allocator"): threads allocate and free without waiting on arena locks.
            .linkedLibrary("jemalloc", .when(platforms: [.linux])),
        ]),

        // A trivial HTTP server for wrk, the differential check and the fuzz seeds (bench/http).
        .executableTarget(name: "http-bench-server", dependencies: ["CareSyncHTTP", "CareSyncLocking"], path: "bench/Sources/http-bench-server"),
        // A child process the store's crash-safety test kills with SIGKILL while it writes.
        .executableTarget(name: "caresync-crash-writer", dependencies: ["CareSyncStore", "CareSyncCore"]),
        // Store benchmark: raw SQLite reference vs the sync store (release build; see docs/benchmarks.md).
        .executableTarget(name: "caresync-store-bench", dependencies: ["CareSyncStore", "CareSyncCore"],
                          path: "bench/store/Sources"),
        // Statistics benchmark: engine alone and store fetch + engine (release build; see docs/benchmarks.md).
        .executableTarget(name: "caresync-stats-bench", dependencies: ["CareSyncCore", "CareSyncStore"], path: "bench/stats"),

        // What every test target shares: polling with a deadline, the hand-moved clock, the lock box.
        .target(name: "CareSyncTestSupport", dependencies: ["CareSyncCore", "CareSyncLocking"], path: "Tests/CareSyncTestSupport"),
        .testTarget(name: "CareSyncJSONTests", dependencies: ["CareSyncJSON"]),
        .testTarget(name: "CareSyncLockingTests", dependencies: ["CareSyncLocking"]),
        .testTarget(name: "CareSyncCoreTests", dependencies: [
            "CareSyncCore", "CareSyncReferenceModel", "CareSyncTestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ], exclude: ["Passkeys/Fixtures"]),
        .testTarget(name: "CareSyncStoreTests", dependencies: ["CareSyncStore", "CareSyncStoreCore", "CareSyncPostgres", "CareSyncCore", "CareSyncReferenceModel", "CareSyncTestSupport"]),
        .testTarget(name: "CareSyncHTTPTests", dependencies: ["CareSyncHTTP", "CareSyncTestSupport"]),
        .testTarget(name: "CareSyncServerTests", dependencies: ["CareSyncServer", "CareSyncBackends", "CareSyncWebApp", "CareSyncHTTP", "CareSyncStore", "CareSyncPostgres", "CareSyncCore",
                                                            "CareSyncReferenceModel", "CareSyncTestSupport",
                                                            .product(name: "Crypto", package: "swift-crypto")]),
    ]
)
