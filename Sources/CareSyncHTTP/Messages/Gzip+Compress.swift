import CIsal
import CZlib
import CareSyncParallel

extension Gzip {
    /// Bodies from this size up are cut into pieces deflated on several cores at once.
    static let parallelPieceBytes = 256 * 1024
    /// The window a piece inherits from the bytes before it (deflate's 32 KiB).
    static let windowBytes = 32 * 1024

    /// `bytes` compressed as one gzip member by ISA-L. A large body is cut into pieces deflated concurrently, as pigz does:
    /// each piece is primed with the 32 KiB before it and ends byte-aligned (a sync flush), the last one finishes
    /// the stream, and the pieces' CRC-32s are combined. The result is one ordinary gzip member; nil if ISA-L refused.
    static func compress(_ bytes: [UInt8], level: Int32 = 5, cores: Int = Parallel.cores) -> [UInt8]? {
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
            guard let piece else { return nil }
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

    /// ISA-L's level for a configured gzip level: 1 for 1 (the default), 2 above it. ISA-L's level 2 is its
    /// smallest fast one; its level 1 already writes smaller output than zlib's level 6 (docs/benchmarks.md).
    static func isalLevel(_ level: Int32) -> Int32 { level <= 1 ? 1 : 2 }

    /// Deflates `input` with ISA-L after priming the window with `primer`; a last piece finishes the stream, any
    /// other ends with a sync flush (byte-aligned, not final) so the next piece's data can follow it.
    static func deflatePiece(_ input: UnsafeBufferPointer<UInt8>, primer: UnsafeBufferPointer<UInt8>,
                             last: Bool, level: Int32) -> DeflatedPiece? {
        let level = isalLevel(level)
        // The stream's state is 80 KiB: on the heap, not on a worker thread's stack.
        let stream = UnsafeMutablePointer<isal_zstream>.allocate(capacity: 1)
        defer { stream.deallocate() }
        isal_deflate_init(stream)
        let levelBufferSize = Int(caresync_isal_level_buffer_size(level))
        let levelBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: levelBufferSize)
        defer { levelBuffer.deallocate() }
        stream.pointee.level = UInt32(level)
        stream.pointee.level_buf = levelBuffer
        stream.pointee.level_buf_size = UInt32(levelBufferSize)
        stream.pointee.gzip_flag = UInt16(IGZIP_DEFLATE)
        if primer.count > 0,
           isal_deflate_set_dict(stream, UnsafeMutablePointer(mutating: primer.baseAddress), UInt32(primer.count)) != COMP_OK {
            return nil
        }
        // Stored blocks at worst (5 bytes of header per 64 KiB), plus the flush: an eighth more is ample.
        let bound = input.count + input.count / 8 + 1_024
        var produced = -1
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = UInt32(bound)
            stream.pointee.end_of_stream = last ? 1 : 0
            stream.pointee.flush = UInt16(last ? NO_FLUSH : SYNC_FLUSH)
            let status = isal_deflate(stream)
            let complete = status == COMP_OK && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0
                && (!last || caresync_isal_stream_ended(stream) != 0)
            produced = complete ? bound - Int(stream.pointee.avail_out) : -1
            initialized = max(0, produced)
        }
        guard produced >= 0 else { return nil }
        return DeflatedPiece(bytes: output, crc: uLong(crc32_gzip_refl(0, input.baseAddress, UInt64(input.count))),
                             length: input.count)
    }

    private static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
