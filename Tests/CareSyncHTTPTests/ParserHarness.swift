@testable import CareSyncHTTP

/// Feeds raw bytes to a `RequestParser` the way a connection does, in pieces.
struct ParserHarness {
    /// What the parser produced.
    struct Outcome: Equatable {
        var heads: [ParsedHead] = []
        var bodies: [[UInt8]] = []
        var error: ParseError?
        /// Bytes left unconsumed at the end.
        var leftover = 0
    }

    /// Parses `bytes` delivered in pieces cut at `cuts` (sorted offsets).
    static func run(_ bytes: [UInt8], cuts: [Int] = [], limits: ParserLimits = ParserLimits()) -> Outcome {
        var parser = RequestParser(limits: limits)
        var outcome = Outcome()
        var buffer: [UInt8] = []
        var readIndex = 0
        var body: [UInt8] = []
        var bounds = cuts.filter { $0 > 0 && $0 < bytes.count }
        bounds.append(bytes.count)
        var from = 0
        for to in bounds {
            buffer += bytes[from..<to]
            from = to
            while true {
                let start = readIndex
                do {
                    let (event, consumed) = try buffer.withUnsafeBufferPointer { all throws(ParseError) in
                        try parser.parse(UnsafeBufferPointer(rebasing: all[start...]))
                    }
                    readIndex += consumed
                    if event == .needMore { break }
                    switch event {
                    case .head(let head): outcome.heads.append(head)
                    case .body(let range): body += buffer[(start + range.lowerBound)..<(start + range.upperBound)]
                    case .end:
                        outcome.bodies.append(body)
                        body = []
                    case .needMore: break
                    }
                } catch {
                    outcome.error = error
                    outcome.leftover = buffer.count - readIndex
                    return outcome
                }
            }
        }
        outcome.leftover = buffer.count - readIndex
        return outcome
    }

    /// Parses text (CRLFs written out).
    static func run(_ text: String, cuts: [Int] = [], limits: ParserLimits = ParserLimits()) -> Outcome {
        run(Array(text.utf8), cuts: cuts, limits: limits)
    }
}
