import CareSyncTestSupport
import Foundation

/// A file in a fresh temporary folder, removed by ``remove()``; for configuration tests.
struct TemporaryFile {
    /// The folder holding the file.
    let directory: TemporaryDirectory
    /// The file's path.
    var path: String { directory.path(name) }
    let name: String

    /// Writes `contents` to a new temporary file.
    static func make(contents: String, name: String = "caresync.json") throws -> TemporaryFile {
        let file = TemporaryFile(directory: try TemporaryDirectory("caresync-config"), name: name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file.path))
        return file
    }

    /// Deletes the file and its folder.
    func remove() { directory.remove() }
}
