import CareSyncStore
@testable import CareSyncBackends
import Foundation
import Testing

@Suite struct StartupCheckTests {
    /// A fresh folder with an empty database path in it.
    static func makePath() throws -> (String, TemporaryFile) {
        let placeholder = try TemporaryFile.make(contents: "", name: "placeholder")
        return ((placeholder.path as NSString).deletingLastPathComponent + "/caresync.sqlite", placeholder)
    }

    @Test func writableDatabasePasses() throws {
        let (path, folder) = try Self.makePath()
        defer { folder.remove() }
        let database = try Database(path: path)
        try StartupCheck.verifyWritable(database)
    }

    @Test func readOnlyDatabaseIsRefusedWithOneLine() throws {
        let (path, folder) = try Self.makePath()
        defer { folder.remove() }
        do {
            let database = try Database(path: path)
            try database.write { try $0.execute("CREATE TABLE t (x)") }
        }
        var configuration = Database.Configuration()
        configuration.connection.readOnly = true
        let readOnly = try Database(path: path, configuration: configuration)
        let error = #expect(throws: StartupError.self) { try StartupCheck.verifyWritable(readOnly) }
        #expect(error?.path == path)
        #expect(error?.description.contains("startup refused: database \(path) cannot be written") == true)
        #expect(error?.description.lowercased().contains("readonly") == true, "\(String(describing: error))")
        #expect(error?.description.contains("\n") == false)
    }

    @Test(arguments: ["not a database at all, just text", String(repeating: "SQLite format 3\0", count: 300)])
    func corruptFileIsRefusedAtOpenOrCheck(contents: String) throws {
        let (path, folder) = try Self.makePath()
        defer { folder.remove() }
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) {
            let database = try Database(path: path)
            try StartupCheck.verifyWritable(database)
        }
    }
}

extension StartupCheckTests {
    @Test func probeLeavesNoTrace() throws {
        let (path, folder) = try Self.makePath()
        defer { folder.remove() }
        let database = try Database(path: path)
        try StartupCheck.verifyWritable(database)
        try StartupCheck.verifyWritable(database)
        let tables = try database.read { try $0.scalarInt64("SELECT count(*) FROM sqlite_master") }
        #expect(tables == 0)
    }
}

extension StartupCheckTests {
    @Test func openingFailureNamesTheFile() throws {
        let (path, folder) = try Self.makePath()
        defer { folder.remove() }
        let inMissingFolder = path + ".d/missing/caresync.sqlite"
        let error = #expect(throws: StartupError.self) {
            try StartupCheck.opening(inMissingFolder) { try Database(path: inMissingFolder) }
        }
        #expect(error?.description.hasPrefix("startup refused: database \(inMissingFolder) cannot be opened") == true,
                "\(String(describing: error))")
        #expect(StartupCheck.accessProblem(path) == nil)
    }
}
