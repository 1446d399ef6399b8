import Foundation

/// Where a feed's anchor is kept between runs.
///
/// Save the anchor only once the page it ends has been applied: a crash in between then re-delivers
/// that page (apply by uuid, so a second delivery changes nothing) instead of losing it.
public protocol AnchorStore: Sendable {
    /// The saved anchor, or nil to read from the beginning.
    func load() async throws -> String?
    /// Saves `anchor` (nil forgets it).
    func save(_ anchor: String?) async throws
}

/// An anchor kept in a file, replaced atomically (written to a temporary file, then renamed over it),
/// so a crash leaves either the old anchor or the new one, never a torn one.
public struct FileAnchorStore: AnchorStore {
    /// The file holding the anchor.
    public let url: URL

    /// A store in the file at `url` (its directory must exist).
    public init(url: URL) { self.url = url }

    public func load() async throws -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    public func save(_ anchor: String?) async throws {
        guard let anchor else {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        // `.atomic` writes a temporary file beside `url` and renames it over `url`.
        try Data(anchor.utf8).write(to: url, options: .atomic)
    }
}

/// An anchor kept in memory (tests, or a caller that stores the anchor with its own data).
public actor MemoryAnchorStore: AnchorStore {
    private var anchor: String?
    /// A store holding `anchor`.
    public init(_ anchor: String? = nil) { self.anchor = anchor }
    public func load() async throws -> String? { anchor }
    public func save(_ anchor: String?) async throws { self.anchor = anchor }
}
