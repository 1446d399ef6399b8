/// How one version and error correction level splits its codewords into blocks (ISO/IEC 18004 Table 9).
struct QRBlockLayout: Sendable, Hashable {
    /// Error correction codewords in every block.
    let ecPerBlock: Int
    /// Groups of blocks: how many blocks, and the data codewords in each.
    let groups: [(blocks: Int, data: Int)]

    /// Data codewords in the whole symbol.
    var dataCodewords: Int { groups.reduce(0) { $0 + $1.blocks * $1.data } }
    /// Every codeword in the whole symbol, data and error correction.
    var totalCodewords: Int { dataCodewords + groups.reduce(0) { $0 + $1.blocks } * ecPerBlock }

    static func == (a: Self, b: Self) -> Bool {
        a.ecPerBlock == b.ecPerBlock && a.groups.map(\.blocks) == b.groups.map(\.blocks) && a.groups.map(\.data) == b.groups.map(\.data)
    }
    func hash(into hasher: inout Hasher) { hasher.combine(ecPerBlock); hasher.combine(dataCodewords) }
}

/// The versions this encoder draws, 1 to 10 (up to 213 bytes at level M), with their block layouts and alignment patterns.
enum QRVersionTable {
    /// The largest version supported.
    static let maxVersion = 10

    /// Block layouts by version (index 0 is version 1) and level (L, M, Q, H).
    private static let layouts: [[(Int, [(Int, Int)])]] = [
        [(7, [(1, 19)]), (10, [(1, 16)]), (13, [(1, 13)]), (17, [(1, 9)])],
        [(10, [(1, 34)]), (16, [(1, 28)]), (22, [(1, 22)]), (28, [(1, 16)])],
        [(15, [(1, 55)]), (26, [(1, 44)]), (18, [(2, 17)]), (22, [(2, 13)])],
        [(20, [(1, 80)]), (18, [(2, 32)]), (26, [(2, 24)]), (16, [(4, 9)])],
        [(26, [(1, 108)]), (24, [(2, 43)]), (18, [(2, 15), (2, 16)]), (22, [(2, 11), (2, 12)])],
        [(18, [(2, 68)]), (16, [(4, 27)]), (24, [(4, 19)]), (28, [(4, 15)])],
        [(20, [(2, 78)]), (18, [(4, 31)]), (18, [(2, 14), (4, 15)]), (26, [(4, 13), (1, 14)])],
        [(24, [(2, 97)]), (22, [(2, 38), (2, 39)]), (22, [(4, 18), (2, 19)]), (26, [(4, 14), (2, 15)])],
        [(30, [(2, 116)]), (22, [(3, 36), (2, 37)]), (20, [(4, 16), (4, 17)]), (24, [(4, 12), (4, 13)])],
        [(18, [(2, 68), (2, 69)]), (26, [(4, 43), (1, 44)]), (24, [(6, 19), (2, 20)]), (28, [(6, 15), (2, 16)])],
    ]

    /// The block layout of `version` at `level`.
    static func layout(version: Int, level: QRErrorCorrection) -> QRBlockLayout {
        let (ec, groups) = layouts[version - 1][level.rawValue]
        return QRBlockLayout(ecPerBlock: ec, groups: groups.map { (blocks: $0.0, data: $0.1) })
    }

    /// The row and column centres of the alignment patterns (ISO/IEC 18004 Annex E); empty for version 1.
    static func alignmentCentres(version: Int) -> [Int] {
        [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]][version - 1]
    }

    /// The side of a symbol of `version`, in modules.
    static func size(version: Int) -> Int { 17 + 4 * version }

    /// Bits of the byte mode's character count (8 up to version 9, 16 from version 10).
    static func byteCountBits(version: Int) -> Int { version < 10 ? 8 : 16 }
}
