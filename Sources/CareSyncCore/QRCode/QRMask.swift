/// The eight data masks (ISO/IEC 18004 §7.8.2) and the penalty that picks one (§7.8.3).
enum QRMask {
    /// Whether mask `pattern` inverts the module in `row`, `column`.
    static func inverts(_ pattern: Int, row i: Int, column j: Int) -> Bool {
        switch pattern {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }

    /// The penalty score of a finished symbol: runs, 2×2 blocks, finder-like patterns and the dark proportion.
    static func penalty(_ m: QRMatrix) -> Int {
        let n = m.size
        var score = 0
        for line in 0..<n {
            let row = (0..<n).map { m[line, $0] }
            let column = (0..<n).map { m[$0, line] }
            score += runPenalty(row) + runPenalty(column) + finderPenalty(row) + finderPenalty(column)
        }
        for i in 0..<(n - 1) {
            for j in 0..<(n - 1) {
                let c = m[i, j]
                if m[i, j + 1] == c && m[i + 1, j] == c && m[i + 1, j + 1] == c { score += 3 }
            }
        }
        let dark = m.modules.lazy.filter { $0 }.count, total = n * n
        // Ten points per full 5 % the dark share strays from 50 %.
        score += 10 * (abs(dark * 20 - total * 10) / total)
        return score
    }

    /// Rule 1: 3 + (length − 5) for each run of five or more modules of one colour.
    static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0, run = 1
        for k in 1...line.count {
            if k < line.count && line[k] == line[k - 1] {
                run += 1
            } else {
                if run >= 5 { score += 3 + run - 5 }
                run = 1
            }
        }
        return score
    }

    /// Rule 3: 40 for each 1:1:3:1:1 dark-light pattern with four light modules (or the border) on one side.
    static func finderPenalty(_ line: [Bool]) -> Int {
        let core: [Bool] = [true, false, true, true, true, false, true]
        func light(_ k: Int) -> Bool { k < 0 || k >= line.count || !line[k] }
        var score = 0
        for start in 0...(line.count - core.count) where (0..<core.count).allSatisfy({ line[start + $0] == core[$0] }) {
            if (1...4).allSatisfy({ light(start - $0) }) { score += 40 }
            if (1...4).allSatisfy({ light(start + core.count - 1 + $0) }) { score += 40 }
        }
        return score
    }
}
