/// A square grid of modules (true is dark) with the function patterns of one version drawn and marked
/// (ISO/IEC 18004 §6.3): finders with separators, timing, alignment, the dark module, and room for format and version.
struct QRMatrix: Sendable, Hashable {
    /// Modules per side.
    let size: Int
    /// Row-major modules, true for dark.
    var modules: [Bool]
    /// Row-major marks of the function modules, which data and masks never touch.
    var isFunction: [Bool]

    /// The module in `row`, `column`.
    subscript(row: Int, column: Int) -> Bool {
        get { modules[row * size + column] }
        set { modules[row * size + column] = newValue }
    }

    /// An empty symbol of `version` with its function patterns drawn; format and version areas reserved.
    init(version: Int) {
        size = QRVersionTable.size(version: version)
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        for k in 0..<size {
            setFunction(6, k, k % 2 == 0)
            setFunction(k, 6, k % 2 == 0)
        }
        drawFinder(row: 3, column: 3)
        drawFinder(row: 3, column: size - 4)
        drawFinder(row: size - 4, column: 3)
        let centres = QRVersionTable.alignmentCentres(version: version)
        for r in centres {
            for c in centres where !(r == 6 && c == 6) && !(r == 6 && c == centres.last) && !(r == centres.last && c == 6) {
                drawAlignment(row: r, column: c)
            }
        }
        drawFormat(0)  // reserves the areas; the real bits come once the mask is chosen
        if version >= 7 { drawVersion(version) }
    }

    /// Marks and sets one function module.
    mutating func setFunction(_ row: Int, _ column: Int, _ dark: Bool) {
        self[row, column] = dark
        isFunction[row * size + column] = true
    }

    /// A 7×7 finder centred at `row`, `column`, with its light separator where it fits in the symbol.
    private mutating func drawFinder(row: Int, column: Int) {
        for dr in -4...4 {
            for dc in -4...4 {
                let r = row + dr, c = column + dc
                guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                let ring = max(abs(dr), abs(dc))
                setFunction(r, c, ring != 2 && ring != 4)
            }
        }
    }

    /// A 5×5 alignment pattern centred at `row`, `column`.
    private mutating func drawAlignment(row: Int, column: Int) {
        for dr in -2...2 {
            for dc in -2...2 { setFunction(row + dr, column + dc, max(abs(dr), abs(dc)) != 1) }
        }
    }

    /// Both copies of the 15 format bits for `level` bits and mask `pattern` (§7.9), BCH(15,5) coded and masked with 0x5412,
    /// and the dark module.
    mutating func drawFormat(_ formatData: Int) {
        let bits = Self.formatBits(formatData)
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { setFunction(i, 8, bit(i)) }
        setFunction(7, 8, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(8, 7, bit(8))
        for i in 9..<15 { setFunction(8, 14 - i, bit(i)) }
        for i in 0..<8 { setFunction(8, size - 1 - i, bit(i)) }
        for i in 8..<15 { setFunction(size - 15 + i, 8, bit(i)) }
        setFunction(size - 8, 8, true)
    }

    /// Both copies of the 18 version bits (§7.10), BCH(18,6) coded; versions 7 and up.
    private mutating func drawVersion(_ version: Int) {
        let bits = Self.versionBits(version)
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1, a = size - 11 + i % 3, b = i / 3
            setFunction(b, a, dark)
            setFunction(a, b, dark)
        }
    }

    /// The 15 format bits of five data bits (level, mask): BCH(15,5) with generator 0x537, masked with 0x5412.
    static func formatBits(_ data: Int) -> Int {
        var rem = data
        for _ in 0..<10 { rem = (rem << 1) ^ ((rem >> 9) * 0x537) }
        return (data << 10 | rem) ^ 0x5412
    }

    /// The 18 version bits of `version`: BCH(18,6) with generator 0x1F25.
    static func versionBits(_ version: Int) -> Int {
        var rem = version
        for _ in 0..<12 { rem = (rem << 1) ^ ((rem >> 11) * 0x1F25) }
        return version << 12 | rem
    }

    /// Places `codewords` most significant bit first in the two-column zigzag from the bottom right (§7.7.3),
    /// skipping function modules and the vertical timing column; modules left over stay light (remainder bits).
    mutating func place(_ codewords: [UInt8]) {
        var index = 0
        let total = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !isFunction[row * size + column] && index < total {
                    self[row, column] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// Inverts the data modules that mask `pattern` selects.
    mutating func apply(mask pattern: Int) {
        for row in 0..<size {
            for column in 0..<size where !isFunction[row * size + column] && QRMask.inverts(pattern, row: row, column: column) {
                self[row, column].toggle()
            }
        }
    }
}
