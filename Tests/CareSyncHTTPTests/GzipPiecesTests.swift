import CareSyncTestSupport
import CZlib
import Foundation
import Testing
@testable import CareSyncHTTP

/// Bodies deflated in pieces on several cores are still one ordinary gzip member that any reader inflates.
@Suite struct GzipPiecesTests {
    /// Feed-like JSON of about `count` bytes: repetitive, as pages are, with enough variety to matter.
    static func feedLike(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var n = 0
        while out.count < count {
            out += Array(#"{"end":"2020-01-01T00:\#(n % 60):30.000Z","source":"device.\#(n % 7)","value":\#(n * 7919 % 1000)},"#.utf8)
            n += 1
        }
        return Array(out.prefix(count))
    }

    @Test(arguments: [0, 1, Gzip.parallelPieceBytes - 1, Gzip.parallelPieceBytes, 2 * Gzip.parallelPieceBytes + 17, 1_400_000])
    func everySplitInflatesToTheBody(size: Int) throws {
        let body = Self.feedLike(size)
        for cores in 1...4 {
            let packed = try #require(Gzip.compress(body, level: 1, cores: cores))
            #expect(try Self.inflateOneMember(packed) == body, "size \(size), cores \(cores)")
            #expect(try Gzip.decompress(packed, limit: max(1, size)) == body)
        }
    }

    @Test func gzipTheProgramReadsAPiecedBody() throws {
        let body = Self.feedLike(1_000_000)
        let packed = try #require(Gzip.compress(body, level: 1, cores: 3))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pieces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(packed).write(to: folder.appendingPathComponent("page.json.gz"))
        let gunzip = try ChildProcess.run("/usr/bin/env", ["gzip", "-d", "-q", folder.appendingPathComponent("page.json.gz").path])
        #expect(gunzip.termination == .init(reason: .exit, status: 0))
        #expect(Array(try Data(contentsOf: folder.appendingPathComponent("page.json"))) == body)
    }

    @Test func noiseAndEveryLevelInflateToTheBody() throws {
        // Noise does not compress: stored blocks, larger than the input, must still fit and inflate.
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<700_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for cores in 1...3 {
            #expect(try Self.inflateOneMember(try #require(Gzip.compress(noise, level: 1, cores: cores))) == noise)
        }
        let body = Self.feedLike(600_000)
        for level in Int32(1)...9 {
            let packed = try #require(Gzip.compress(body, level: level, cores: 2))
            #expect(try Self.inflateOneMember(packed) == body, "level \(level)")
            #expect(packed.count < body.count / 4, "level \(level): \(packed.count) bytes")
        }
    }

    @Test func primedPiecesCompressAsWellAsOne() throws {
        // A 20 KiB block of noise, repeated: each piece finds it only in the window it was primed with.
        var generator = SystemRandomNumberGenerator()
        let block = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let body = Array((0..<70).map { _ in block }.joined())
        let whole = try #require(Gzip.compress(body, level: 1, cores: 1)).count
        let pieced = try #require(Gzip.compress(body, level: 1, cores: 4)).count
        #expect(pieced <= whole + whole / 20, "\(pieced) bytes in pieces against \(whole) in one")
    }

    /// Inflates exactly one gzip member and fails unless it ends the input: a second member would be refused
    /// by some clients, so pieces must never become members.
    static func inflateOneMember(_ packed: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        #expect(caresync_inflateInit2(&stream, 15 + 16) == Z_OK)
        defer { inflateEnd(&stream) }
        var input = packed
        var output = [UInt8](repeating: 0, count: 4_000_000)
        let (status, produced, left) = input.withUnsafeMutableBufferPointer { inPtr in
            output.withUnsafeMutableBufferPointer { outPtr in
                stream.next_in = inPtr.baseAddress
                stream.avail_in = uInt(inPtr.count)
                stream.next_out = outPtr.baseAddress
                stream.avail_out = uInt(outPtr.count)
                let status = inflate(&stream, Z_FINISH)
                return (status, outPtr.count - Int(stream.avail_out), Int(stream.avail_in))
            }
        }
        #expect(status == Z_STREAM_END)
        #expect(left == 0, "bytes after the first gzip member")
        return Array(output.prefix(produced))
    }
}
