/// Reads fixed-width ASCII digits and literal bytes off a byte array.
struct DigitScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    /// Consumes `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Consumes one digit.
    mutating func digit() -> Int? {
        guard position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 else { return nil }
        position += 1
        return Int(bytes[position - 1] - 48)
    }

    /// Consumes exactly `count` digits.
    mutating func number(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let d = digit() else { return nil }
            value = value * 10 + d
        }
        return value
    }
}

extension Int64 {
    /// The quotient rounded toward negative infinity.
    public func floorDiv(_ d: Int64) -> Int64 { let q = self / d; return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q }
    /// The remainder of `floorDiv`: from 0 up to (not including) `d` for a positive `d`.
    public func floorMod(_ d: Int64) -> Int64 { self - floorDiv(d) * d }
}
