import CZlib

/// gzip: compress responses (ISA-L, `Gzip+Compress.swift`), inflate request bodies under a size limit (zlib).
enum Gzip {
    /// Failures of inflating a request body.
    enum Failure: Error, Equatable {
        /// The inflated body would exceed the limit (a zip bomb).
        case tooLarge
        /// Not a valid gzip stream.
        case corrupt
    }

    /// Inflates gzip `bytes` (concatenated members allowed); throws `.tooLarge` as soon as the
    /// output would pass `limit`, so a bomb never allocates more than the limit.
    static func decompress(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard caresync_inflateInit2(&stream, 15 + 32) == Z_OK else { throw .corrupt }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        var failure: Failure?
        input.withUnsafeMutableBufferPointer { inPtr in
            stream.next_in = inPtr.baseAddress
            stream.avail_in = uInt(inPtr.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { outPtr -> (Int32, Int) in
                    stream.next_out = outPtr.baseAddress
                    stream.avail_out = uInt(outPtr.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, outPtr.count - Int(stream.avail_out))
                }
                if output.count + produced > limit {
                    failure = .tooLarge
                    return
                }
                output += chunk[0..<produced]
                switch status {
                case Z_STREAM_END:
                    if stream.avail_in == 0 { return }
                    // Another gzip member follows.
                    guard inflateReset(&stream) == Z_OK else { failure = .corrupt; return }
                case Z_OK:
                    continue
                case Z_BUF_ERROR where produced > 0:
                    continue
                default:
                    failure = .corrupt
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Whether an `Accept-Encoding` value accepts gzip (q > 0).
    static func accepts(_ acceptEncoding: String) -> Bool {
        for element in acceptEncoding.split(separator: ",") {
            let parts = element.split(separator: ";")
            guard let coding = parts.first?.trimmingSpaces().lowercased(), coding == "gzip" || coding == "x-gzip" || coding == "*" else {
                continue
            }
            var q = 1.0
            for param in parts.dropFirst() {
                let kv = param.trimmingSpaces()
                if kv.lowercased().hasPrefix("q=") { q = Double(kv.dropFirst(2)) ?? 0 }
            }
            if q > 0 { return true }
        }
        return false
    }
}
