import Foundation

/// Reads QR codes back as a phone would: the SVG rendered to PNG by librsvg's `rsvg-convert`, decoded by ZBar's
/// `zbarimg` (Debian: librsvg2-bin, zbar-tools; scripts/ci-enrol.sh installs both).
public enum QRDecoder {
    /// Whether both tools are installed.
    public static var isAvailable: Bool { tool("rsvg-convert") != nil && tool("zbarimg") != nil }

    /// Whether a missing tool fails the test instead of skipping the check (`CARESYNC_REQUIRE_QR_DECODER=1`, as CI sets).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CARESYNC_REQUIRE_QR_DECODER"] == "1" }

    /// The text of every QR code ZBar finds in `svg`, in its order; the tools run on a thread of their own.
    public static func decode(svg: String) async throws -> [String] {
        try await onDedicatedThread { try decodeBlocking(svg: svg) }
    }

    /// `decode`, blocking the calling thread.
    static func decodeBlocking(svg: String) throws -> [String] {
        let directory = try TemporaryDirectory("caresync-qr")
        let svgPath = directory.path("code.svg"), pngPath = directory.path("code.png")
        try Data(svg.utf8).write(to: URL(fileURLWithPath: svgPath))
        _ = try run(tool("rsvg-convert")!, ["--background-color", "white", "-o", pngPath, svgPath])
        let output = try run(tool("zbarimg")!, ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", pngPath])
        return output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    private static func tool(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        String(decoding: try ChildProcess.run(executable, arguments).output, as: UTF8.self)
    }
}
