/// Comparisons whose time does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte whatever the first difference (lengths are not secret).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
