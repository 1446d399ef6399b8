/// A QR code's error correction level: how much of the symbol may be damaged and still read.
public enum QRErrorCorrection: Int, Sendable, CaseIterable {
    /// About 7 % recoverable.
    case low
    /// About 15 % recoverable.
    case medium
    /// About 25 % recoverable.
    case quartile
    /// About 30 % recoverable.
    case high

    /// The two bits the format information carries (ISO/IEC 18004 Table 12: L 01, M 00, Q 11, H 10).
    var formatBits: Int {
        switch self {
        case .low: 1
        case .medium: 0
        case .quartile: 3
        case .high: 2
        }
    }
}
