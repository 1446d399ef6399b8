extension StringProtocol {
    /// Without leading and trailing spaces and tabs: HTTP's optional whitespace (RFC 9110, 5.6.3), and a tenth of the
    /// cost of Foundation's `trimmingCharacters(in: .whitespaces)` on a hot path.
    public func trimmingSpaces() -> SubSequence {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
