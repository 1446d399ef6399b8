// libFuzzer entry point over the request parser (compiled with the parser sources by scripts/fuzz-parser.sh).
// The first input byte chooses how the rest is split into deliveries; invariants are preconditions,
// so a violation is a crash libFuzzer reports.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let small = mode & 0x80 != 0
    let limits = small
        ? ParserLimits(maxRequestLineLength: 64, maxHeaderSize: 256, maxHeaderCount: 8, maxBodySize: 512)
        : ParserLimits()
    let step = Int(mode & 0x7F) + 1
    var parser = RequestParser(limits: limits)
    var buffer: [UInt8] = []
    var readIndex = 0
    var bodyBytes = 0
    var from = 0
    while from < bytes.count {
        let to = min(bytes.count, from + step)
        buffer += bytes[from..<to]
        from = to
        while true {
            let start = readIndex
            let result: (ParseEvent, Int)
            do {
                result = try buffer.withUnsafeBufferPointer { all throws(ParseError) in
                    try parser.parse(UnsafeBufferPointer(rebasing: all[start...]))
                }
            } catch {
                precondition([400, 413, 414, 417, 431, 501, 505].contains(error.statusCode))
                return 0
            }
            let (event, consumed) = result
            precondition(consumed >= 0 && start + consumed <= buffer.count, "consumed past the input")
            readIndex += consumed
            switch event {
            case .needMore:
                break
            case .head(let head):
                precondition(head.fields.count <= limits.maxHeaderCount)
                precondition(head.chunked != (head.contentLength != nil), "exactly one framing")
                precondition((head.contentLength ?? 0) <= limits.maxBodySize)
                precondition(head.target.utf8.first == UInt8(ascii: "/") || head.target == "*")
                bodyBytes = 0
                continue
            case .body(let range):
                precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count - start && !range.isEmpty)
                bodyBytes += range.count
                precondition(bodyBytes <= limits.maxBodySize, "body over the limit")
                continue
            case .end:
                continue
            }
            break
        }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
        }
    }
    return 0
}
