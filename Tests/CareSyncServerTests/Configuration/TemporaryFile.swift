import Foundation

/// A file in a fresh temporary folder, removed by ``remove()``; for configuration tests.
struct TemporaryFile {
    /// The file's path.
    let path: String

    /// Writes `contents` to a new temporary file.
    static func make(contents: String, name: String = "caresync.json") throws -> TemporaryFile {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("caresync-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return TemporaryFile(path: url.path)
    }

    /// Deletes the file and its folder.
    func remove() {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}
