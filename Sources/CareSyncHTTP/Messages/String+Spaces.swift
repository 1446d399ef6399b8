extension String {
    /// Without leading and trailing spaces and tabs: HTTP's optional whitespace (RFC 9110, 5.6.3), and a tenth of the
    /// cost of Foundation's `trimmingCharacters(in: .whitespaces)` on a hot path.
    public func trimmingSpaces() -> Substring { self[...].trimmingSpaces() }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace), cut on UTF-8 bytes from both ends.
    public func trimmingSpaces() -> Substring {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while start < end, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return self[start..<end]
    }
}
