import CZlib
import CareSyncParallel

extension Gzip {
    /// Bodies from this size up are cut into pieces deflated on several cores at once.
    static let parallelPieceBytes = 256 * 1024
    /// The window a piece inherits from the bytes before it (deflate's 32 KiB).
    static let windowBytes = 32 * 1024

    /// `bytes` compressed as one gzip member. A large body is cut into pieces deflated concurrently, as pigz does:
    /// each piece is primed with the 32 KiB before it and ends byte-aligned (a sync flush), the last one finishes
    /// the stream, and the pieces' CRC-32s are combined. The result is one ordinary gzip member.
    static func compress(_ bytes: [UInt8], level: Int32 = 5, cores: Int = Parallel.cores) -> [UInt8] {
        let pieceCount = max(1, min(cores, bytes.count / parallelPieceBytes))
        let pieceLength = (bytes.count + pieceCount - 1) / pieceCount
        let pieces = bytes.withUnsafeBufferPointer { input in
            let shared = SharedInput(input: input)
            return Parallel.map(pieceCount) { index in
                let start = index * pieceLength, end = min(shared.input.count, start + pieceLength)
                return deflatePiece(UnsafeBufferPointer(rebasing: shared.input[start..<end]),
                                    primer: UnsafeBufferPointer(rebasing: shared.input[max(0, start - windowBytes)..<start]),
                                    last: index == pieceCount - 1, level: level)
            }
        }
        var crc = crc32(0, nil, 0)
        var out: [UInt8] = []
        out.reserveCapacity(18 + pieces.reduce(0) { $0 + ($1?.bytes.count ?? 0) })
        out += [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, level == 1 ? 4 : (level == 9 ? 2 : 0), 3]
        for piece in pieces {
            guard let piece else { return bytes }  // zlib refused (out of memory): send it as it is
            out += piece.bytes
            crc = crc32_combine(crc, piece.crc, .init(piece.length))
        }
        appendLittleEndian(UInt32(truncatingIfNeeded: crc), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        return out
    }

    /// The body, read by the concurrent pieces.
    private struct SharedInput: @unchecked Sendable {
        let input: UnsafeBufferPointer<UInt8>
    }

    /// One piece of a body as raw deflate data, with the CRC-32 and length of its input.
    struct DeflatedPiece: Sendable {
        var bytes: [UInt8]
        var crc: uLong
        var length: Int
    }

    /// Deflates `input` after priming the window with `primer`; a last piece finishes the stream, any other
    /// ends with a sync flush (byte-aligned, not final) so the next piece's data can follow it.
    static func deflatePiece(_ input: UnsafeBufferPointer<UInt8>, primer: UnsafeBufferPointer<UInt8>,
                             last: Bool, level: Int32) -> DeflatedPiece? {
        var stream = z_stream()
        guard caresync_deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        if primer.count > 0, deflateSetDictionary(&stream, primer.baseAddress, uInt(primer.count)) != Z_OK { return nil }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 64
        var produced = -1
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            stream.next_out = buffer.baseAddress
            stream.avail_out = uInt(bound)
            let status = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH)
            let complete = last ? status == Z_STREAM_END : (status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0)
            produced = complete ? bound - Int(stream.avail_out) : -1
            initialized = max(0, produced)
        }
        guard produced >= 0 else { return nil }
        return DeflatedPiece(bytes: output, crc: crc32(0, input.baseAddress, uInt(input.count)), length: input.count)
    }

    private static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
