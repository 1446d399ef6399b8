import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init(_ prefix: String = "caresync-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
