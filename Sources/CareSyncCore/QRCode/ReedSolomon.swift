/// Reed–Solomon error correction codewords as ISO/IEC 18004 §7.5.2 computes them, over `GaloisField`.
enum ReedSolomon {
    /// The generator polynomial of `degree`, ∏ (x − αⁱ) for i in 0..<degree, highest power first, its leading 1 included.
    static func generator(degree: Int) -> [UInt8] {
        var poly: [UInt8] = [1]
        for i in 0..<degree {
            // Multiplies by (x + αⁱ): subtraction is addition (XOR) in characteristic 2.
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (j, c) in poly.enumerated() {
                next[j] ^= c
                next[j + 1] ^= GaloisField.multiply(c, GaloisField.exp[i])
            }
            poly = next
        }
        return poly
    }

    /// The `count` error correction codewords of `data`: the remainder of data·xⁿ divided by the generator.
    static func remainder(of data: [UInt8], count: Int) -> [UInt8] {
        let generator = Self.generator(degree: count)
        var remainder = [UInt8](repeating: 0, count: count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for i in 0..<count { remainder[i] ^= GaloisField.multiply(generator[i + 1], factor) }
        }
        return remainder
    }
}
