import Foundation

/// The one temporary-directory helper: a fresh directory under the system temp dir, removed when the value is
/// released (or at `remove()`).
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory.
    public let url: URL

    /// Creates `<tmp>/<prefix>-<uuid>`.
    public init(_ prefix: String = "caresync-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the directory and everything in it now.
    public func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }
}
