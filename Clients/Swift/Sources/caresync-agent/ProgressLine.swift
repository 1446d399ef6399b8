import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress line on stderr, redrawn in place (carriage return, erase to end of line). Drawn only
/// when stderr is a terminal and `--quiet` is not given; a log file or a pipe gets no progress bar.
struct ProgressLine: Sendable {
    /// Whether the line is drawn at all.
    let enabled: Bool

    /// A line drawn when stderr is a terminal, unless `quiet`.
    init(quiet: Bool) {
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Replaces the line with `text`.
    func draw(_ text: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Ends the line, so what follows starts on a new one.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// `[#########---------------]  37%`: `fraction` of `width` cells filled.
    static func bar(_ fraction: Double, width: Int = 24) -> String {
        let clamped = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let filled = Int((clamped * Double(width)).rounded(.down))
        let percent = String(Int((clamped * 100).rounded(.down)))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + String(repeating: " ", count: 3 - percent.count) + percent + "%"
    }
}
