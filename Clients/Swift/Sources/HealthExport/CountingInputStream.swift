import Foundation

/// A file's input stream that counts the bytes read from it, for a progress bar's fraction.
/// Read by the parser thread only.
final class CountingInputStream: InputStream {
    private let base: InputStream
    /// Bytes handed to the reader so far.
    private(set) var bytesRead: Int64 = 0

    /// A stream over the file at `url`, or nil when it cannot be opened.
    init?(file url: URL) {
        guard let base = InputStream(url: url) else { return nil }
        self.base = base
        super.init(data: Data())
    }

    override func open() { base.open() }
    override func close() { base.close() }
    override var hasBytesAvailable: Bool { base.hasBytesAvailable }
    override var streamStatus: Stream.Status { base.streamStatus }
    override var streamError: (any Error)? { base.streamError }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        let count = base.read(buffer, maxLength: length)
        if count > 0 { bytesRead += Int64(count) }
        return count
    }
}
