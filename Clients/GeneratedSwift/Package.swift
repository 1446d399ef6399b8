// swift-tools-version:6.0
import PackageDescription

// A client generated from the server's OpenAPI document by Apple's swift-openapi-generator, with its default
// configuration, and the WWDC20 story it runs against a live server. Its own package, so the server's build
// does not pay for the generator.
let package = Package(
    name: "CareSyncGeneratedSwift",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // openapi.json is a link to Sources/CareSyncServer/OpenAPI/openapi.json, the document the server serves.
        .executableTarget(
            name: "caresync-story",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
    ]
)
