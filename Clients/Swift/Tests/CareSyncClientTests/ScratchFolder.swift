import Foundation

/// The one folder under the system's temporary folder that holds what these tests write (exports, replicas,
/// anchor files), removed with everything in it when the test process exits.
enum ScratchFolder {
    /// This process's folder, made (and its removal at exit registered) on first use.
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-sdk-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchFolder.root) }
        return root
    }()

    /// A new empty folder inside `root`, named `prefix` and a UUID.
    static func make(_ prefix: String) throws -> URL {
        let folder = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
