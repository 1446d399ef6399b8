/// The segments of a request path, cut on the UTF-8 bytes of `/` (ASCII: every cut is on a character boundary)
/// into one array sized once: how the router reads a request's path and its own patterns.
public enum PathSegments {
    /// "/a/b/" → ["a", "b", ""]; "/" → [""]; a leading `/` is dropped, empty segments are kept.
    public static func of(_ path: Substring) -> [Substring] {
        let bytes = path.utf8
        var start = bytes.first == UInt8(ascii: "/") ? bytes.index(after: bytes.startIndex) : bytes.startIndex
        var segments: [Substring] = []
        segments.reserveCapacity(8)
        while let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) {
            segments.append(path[start..<slash])
            start = bytes.index(after: slash)
        }
        segments.append(path[start...])
        return segments
    }
}
