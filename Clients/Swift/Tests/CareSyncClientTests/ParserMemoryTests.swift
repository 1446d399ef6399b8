import Foundation
import Testing
@testable import HealthExport

/// The export parser streams: parsing a large file raises the peak RSS by far less than the file's size.
@Suite struct ParserMemoryTests {
    /// The process's peak resident set (VmHWM) in bytes, from /proc (Linux).
    static func peakRSS() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb * 1024
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc for the peak RSS"))
    func aLargeExportParsesInBoundedMemory() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-large-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        handle.write(Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n".utf8))
        let record = #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2020-06-16 10:00:00 -0700" endDate="2020-06-16 10:00:00 -0700" value="72"><MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/></Record>"# + "\n"
        let chunk = Data(String(repeating: record, count: 1_000).utf8)
        for _ in 0..<300 { handle.write(chunk) }   // 300,000 records, about 70 MB
        handle.write(Data("</HealthData>\n".utf8))
        try handle.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)

        let before = try #require(Self.peakRSS())
        var count = 0
        let parser = HealthExportParser { _ in count += 1; return true }
        try parser.parse(contentsOf: file)
        let growth = try #require(Self.peakRSS()) - before
        #expect(count == 300_000)
        #expect(growth < size / 4, "peak RSS grew by \(growth / 1_048_576) MiB parsing \(size / 1_048_576) MiB")
    }
}
