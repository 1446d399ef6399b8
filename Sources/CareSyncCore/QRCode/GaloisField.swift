/// Arithmetic in GF(2⁸) over the QR code's primitive polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), generator α = 2.
enum GaloisField {
    /// αⁱ for i in 0..<255 (repeated once more, so products of two logarithms index it without a modulo).
    static let exp: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for i in 0..<255 {
            table[i] = UInt8(value)
            table[i + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(v) for v in 1...255 (index 0 is unused: zero has no logarithm).
    static let log: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for i in 0..<255 { table[Int(exp[i])] = i }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exp[log[Int(a)] + log[Int(b)]]
    }
}
