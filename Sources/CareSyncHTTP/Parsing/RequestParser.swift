/// A strict, incremental RFC 9112 request parser over byte buffers.
///
/// Feed it the unread bytes; it returns one event and how many bytes it consumed. Partial lines
/// stay unconsumed, so input can be split at any byte. Bare-LF policy: a line must end in CRLF;
/// a bare LF (or a bare CR) anywhere in the head, chunk lines or trailers is a 400.
struct RequestParser: Sendable {
    enum State: Sendable, Equatable {
        case requestLine
        case fields
        case fixedBody(remaining: Int)
        case chunkLine
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed
    }

    let limits: ParserLimits
    var state: State = .requestLine
    var method = ""
    var target = ""
    var major = 1
    var minor = 1
    var fields: [(name: String, value: String)] = []
    var fieldBytes = 0
    var bodyReceived = 0
    /// Bytes of an unfinished line already searched for LF (input restarts at the line's start).
    var scanned = 0

    /// Creates a parser waiting for a request line.
    init(limits: ParserLimits = ParserLimits()) {
        self.limits = limits
    }

    /// Parses from the start of `input`; returns the event and the bytes consumed.
    mutating func parse(_ input: UnsafeBufferPointer<UInt8>) throws(ParseError) -> (ParseEvent, Int) {
        do {
            return try step(input)
        } catch {
            state = .failed
            throw error
        }
    }

    private mutating func step(_ input: UnsafeBufferPointer<UInt8>) throws(ParseError) -> (ParseEvent, Int) {
        var offset = 0
        while true {
            switch state {
            case .failed:
                throw .badRequest("parser used after an error")
            case .requestLine:
                // RFC 9112 §2.2: empty lines before a request line are skipped.
                if input.count - offset >= 2, input[offset] == 13, input[offset + 1] == 10 {
                    offset += 2
                    scanned = 0
                    continue
                }
                guard let lf = findLine(input, offset) else {
                    if input.count - offset > limits.maxRequestLineLength + 1 { throw .uriTooLong }
                    return (.needMore, offset)
                }
                let line = try Self.line(input, offset, lf)
                if line.count > limits.maxRequestLineLength { throw .uriTooLong }
                try parseRequestLine(UnsafeBufferPointer(rebasing: input[line]))
                offset = lf + 1
                fields = []
                fieldBytes = 0
                state = .fields
            case .fields, .trailers:
                let inTrailers = state == .trailers
                guard let lf = findLine(input, offset) else {
                    if fieldBytes + input.count - offset > limits.maxHeaderSize + 1 { throw .headersTooLarge }
                    return (.needMore, offset)
                }
                let line = try Self.line(input, offset, lf)
                offset = lf + 1
                if line.isEmpty {
                    if inTrailers {
                        state = .requestLine
                        return (.end, offset)
                    }
                    let head = try decideFraming()
                    return (.head(head), offset)
                }
                fieldBytes += line.count + 2
                if fieldBytes > limits.maxHeaderSize { throw .headersTooLarge }
                let field = try Self.parseField(UnsafeBufferPointer(rebasing: input[line]))
                if inTrailers { continue }
                if fields.count >= limits.maxHeaderCount { throw .headersTooLarge }
                fields.append(field)
            case .fixedBody(let remaining):
                if remaining == 0 {
                    state = .requestLine
                    return (.end, offset)
                }
                let available = input.count - offset
                if available == 0 { return (.needMore, offset) }
                let take = min(available, remaining)
                state = .fixedBody(remaining: remaining - take)
                return (.body(offset..<offset + take), offset + take)
            case .chunkLine:
                guard let lf = findLine(input, offset) else {
                    if input.count - offset > Self.maxChunkLine { throw .badRequest("chunk line too long") }
                    return (.needMore, offset)
                }
                let line = try Self.line(input, offset, lf)
                if line.count > Self.maxChunkLine { throw .badRequest("chunk line too long") }
                let size = try Self.parseChunkLine(UnsafeBufferPointer(rebasing: input[line]))
                offset = lf + 1
                if size == 0 {
                    fieldBytes = 0
                    state = .trailers
                    continue
                }
                if size > UInt64(limits.maxBodySize - bodyReceived) { throw .bodyTooLarge }
                bodyReceived += Int(size)
                state = .chunkData(remaining: Int(size))
            case .chunkData(let remaining):
                let available = input.count - offset
                if available == 0 { return (.needMore, offset) }
                let take = min(available, remaining)
                state = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)
                return (.body(offset..<offset + take), offset + take)
            case .chunkDataEnd:
                if input.count - offset < 2 {
                    if input.count - offset == 1, input[offset] != 13 { throw .badRequest("chunk data not followed by CRLF") }
                    return (.needMore, offset)
                }
                guard input[offset] == 13, input[offset + 1] == 10 else {
                    throw .badRequest("chunk data not followed by CRLF")
                }
                offset += 2
                state = .chunkLine
            }
        }
    }

    /// The longest chunk-size line accepted (size and extensions).
    static let maxChunkLine = 4096

    /// The LF ending the line that starts at `offset`, skipping what an earlier call already searched;
    /// remembers how far it searched when there is none yet (no quadratic rescans of slow lines).
    private mutating func findLine(_ input: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int? {
        let from = offset + min(scanned, input.count - offset)
        if let lf = Self.findLF(input, from: from) {
            scanned = 0
            return lf
        }
        scanned = input.count - offset
        return nil
    }

    /// The index of the next LF at or after `from`, or nil.
    static func findLF(_ input: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i < input.count {
            if input[i] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// The range of a line ending at `lf` without its CRLF; a bare LF is a 400.
    static func line(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ lf: Int) throws(ParseError) -> Range<Int> {
        guard lf > start, input[lf - 1] == 13 else { throw .badRequest("bare LF") }
        return start..<(lf - 1)
    }
}
