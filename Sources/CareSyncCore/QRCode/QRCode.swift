/// Why a QR code could not be made.
public enum QRCodeError: Error, Hashable, Sendable {
    /// The bytes do not fit in the largest supported version at the level asked for.
    case tooLong(bytes: Int)
}

/// A QR code symbol (ISO/IEC 18004, model 2): byte mode, versions 1–10, any error correction level, the mask of
/// least penalty. Drawn by this code alone; render it with `QRCodeSVG`.
public struct QRCode: Sendable, Hashable {
    /// The version, 1–10 (the side is 17 + 4·version modules).
    public let version: Int
    /// The error correction level.
    public let errorCorrection: QRErrorCorrection
    /// The data mask chosen, 0–7.
    public let mask: Int
    /// Modules per side, without the quiet zone.
    public var size: Int { matrix.size }
    let matrix: QRMatrix

    /// Whether the module in `row`, `column` is dark.
    public func isDark(row: Int, column: Int) -> Bool { matrix[row, column] }

    /// Encodes UTF-8 `text` in byte mode.
    public static func encode(text: String, level: QRErrorCorrection = .medium, minVersion: Int = 1) throws(QRCodeError) -> QRCode {
        try encode(bytes: Array(text.utf8), level: level, minVersion: minVersion)
    }

    /// Encodes `bytes` in byte mode in the smallest version from `minVersion` that holds them; `mask` forces a mask (tests).
    public static func encode(bytes: [UInt8], level: QRErrorCorrection = .medium, minVersion: Int = 1,
                              mask forced: Int? = nil) throws(QRCodeError) -> QRCode {
        guard let version = QRCodewords.smallestVersion(for: bytes.count, level: level, from: minVersion) else {
            throw .tooLong(bytes: bytes.count)
        }
        let data = QRCodewords.data(bytes, version: version, level: level)
        var base = QRMatrix(version: version)
        base.place(QRCodewords.interleaved(data, version: version, level: level))
        var best: (matrix: QRMatrix, mask: Int, penalty: Int)?
        for pattern in forced.map({ [$0] }) ?? Array(0..<8) {
            var candidate = base
            candidate.apply(mask: pattern)
            candidate.drawFormat(level.formatBits << 3 | pattern)
            let penalty = QRMask.penalty(candidate)
            if best == nil || penalty < best!.penalty { best = (candidate, pattern, penalty) }
        }
        return QRCode(version: version, errorCorrection: level, mask: best!.mask, matrix: best!.matrix)
    }
}
