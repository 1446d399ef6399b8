/// The codeword sequence of a byte-mode QR symbol: mode, count, data, terminator and padding (ISO/IEC 18004 §7.4),
/// split into blocks, each block's Reed–Solomon codewords appended, then interleaved (§7.6).
enum QRCodewords {
    /// The smallest version in `minVersion...maxVersion` whose data capacity at `level` holds `count` bytes, or nil.
    static func smallestVersion(for count: Int, level: QRErrorCorrection, from minVersion: Int = 1) -> Int? {
        (max(1, minVersion)...QRVersionTable.maxVersion).first { version in
            let capacityBits = QRVersionTable.layout(version: version, level: level).dataCodewords * 8
            let countBits = QRVersionTable.byteCountBits(version: version)
            return count < (1 << countBits) && 4 + countBits + 8 * count <= capacityBits
        }
    }

    /// The data codewords of `bytes` in byte mode, padded to the capacity of `version` at `level` (which must hold them).
    static func data(_ bytes: [UInt8], version: Int, level: QRErrorCorrection) -> [UInt8] {
        let capacity = QRVersionTable.layout(version: version, level: level).dataCodewords
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
        }
        append(0b0100, 4)  // byte mode
        append(bytes.count, QRVersionTable.byteCountBits(version: version))
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))  // terminator, shortened when the symbol is full
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Data and error correction codewords interleaved as they are placed in the symbol.
    static func interleaved(_ data: [UInt8], version: Int, level: QRErrorCorrection) -> [UInt8] {
        let layout = QRVersionTable.layout(version: version, level: level)
        var blocks: [[UInt8]] = []
        var start = 0
        for group in layout.groups {
            for _ in 0..<group.blocks {
                blocks.append(Array(data[start..<start + group.data]))
                start += group.data
            }
        }
        let ec = blocks.map { ReedSolomon.remainder(of: $0, count: layout.ecPerBlock) }
        var result: [UInt8] = []
        for i in 0..<(blocks.map(\.count).max() ?? 0) {
            for block in blocks where i < block.count { result.append(block[i]) }
        }
        for i in 0..<layout.ecPerBlock {
            for block in ec { result.append(block[i]) }
        }
        return result
    }
}
