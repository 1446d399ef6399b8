import CareSyncJSON
import Logging

extension LogLineFormatter {
    /// The `http.request` line of `record`, byte for byte what ``line(time:level:label:message:metadata:)`` writes for
    /// ``RequestLogRecord/metadata`` (keys in the same sorted order, the same quoting; every key passes ``LogPrivacy``),
    /// written straight into one byte buffer: no dictionary, no sorting, no string concatenation.
    func requestLine(time: String, level: Logger.Level, label: String, record: RequestLogRecord) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        let json = format == .json
        if json {
            Self.append(#"{"time":"#, to: &out)
            JSONString.write(time, into: &out)
            Self.append(#","level":"#, to: &out)
            JSONString.write(level.rawValue, into: &out)
            Self.append(#","logger":"#, to: &out)
            JSONString.write(label, into: &out)
            Self.append(#","message":"http.request""#, to: &out)
        } else {
            Self.append(time, to: &out)
            out.append(UInt8(ascii: " "))
            Self.append(Self.upperCased(level), to: &out)
            out.append(UInt8(ascii: " "))
            Self.append(label, to: &out)
            Self.append(": http.request", to: &out)
        }
        func number(_ key: String, _ value: Int64) {
            Self.append(json ? ",\"" : " ", to: &out)
            Self.append(key, to: &out)
            Self.append(json ? "\":\"" : "=", to: &out)
            Self.appendDecimal(value, to: &out)
            if json { out.append(UInt8(ascii: "\"")) }
        }
        func string(_ key: String, _ value: String) {
            if json {
                out.append(UInt8(ascii: ","))
                JSONString.write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                JSONString.write(value, into: &out)
            } else {
                out.append(UInt8(ascii: " "))
                Self.append(key, to: &out)
                out.append(UInt8(ascii: "="))
                Self.appendText(value, to: &out)
            }
        }
        // The order of `metadata.keys.sorted()` in the generic line.
        number("http.duration_us", record.durationMicroseconds)
        string("http.method", record.method)
        number("http.request_bytes", Int64(record.requestBytes))
        if let bytes = record.responseBytes { number("http.response_bytes", Int64(bytes)) }
        number("http.status", Int64(record.status))
        string("request.id", record.requestID)
        string("route", record.route)
        if let token = record.tokenID { string("token.id", token) }
        if json { out.append(UInt8(ascii: "}")) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `text` in one copy.
    static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends `value` as ``text(_:)`` writes it: as it is when every byte is printable ASCII other than `"` and `=`
    /// (ids, methods, route templates; checked byte by byte, not character by character), else through ``text(_:)``.
    static func appendText(_ value: String, to out: inout [UInt8]) {
        var value = value
        let plain = value.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { append(text(.string(value)), to: &out) }
    }

    /// The level as the text format writes it (`INFO`), without uppercasing a string per line.
    static func upperCased(_ level: Logger.Level) -> String {
        switch level {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }

    /// Appends `value` in decimal, as `String(value)` writes it.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for UInt64's 20 digits, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: buffer[(24 - count)..<24])
        }
    }
}
