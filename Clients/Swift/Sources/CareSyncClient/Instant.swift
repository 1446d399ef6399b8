import Foundation

/// RFC 3339 instants as CareSync writes them (`2020-06-18T17:00:00.000Z`) and reads them (any offset).
public enum Instant {
    /// Formats `date` in UTC with exactly three fractional digits, truncating finer digits.
    public static func format(_ date: Date) -> String {
        // Round to the microsecond first, so a binary fraction just under a millisecond keeps its digit.
        let micro = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let totalMs = micro >= 0 ? micro / 1000 : -((-micro + 999) / 1000)
        let ms = ((totalMs % 1000) + 1000) % 1000
        let seconds = (totalMs - ms) / 1000
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let days = (seconds - secondOfDay) / 86_400
        let (y, m, d) = civil(fromDays: days)
        guard (0...9999).contains(y) else {
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(y), Int(m), Int(d),
                          Int(secondOfDay / 3600), Int(secondOfDay % 3600 / 60), Int(secondOfDay % 60), Int(ms))
        }
        // Digits written by hand: `String(format:)` was a tenth of an import's CPU (docs/benchmarks.md).
        var bytes = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int64, _ width: Int, at offset: Int) {
            var v = value
            for i in stride(from: offset + width - 1, through: offset, by: -1) { bytes[i] = UInt8(48 + v % 10); v /= 10 }
        }
        put(Int64(y), 4, at: 0); bytes[4] = 45; put(Int64(m), 2, at: 5); bytes[7] = 45; put(Int64(d), 2, at: 8)
        bytes[10] = 84; put(secondOfDay / 3600, 2, at: 11); bytes[13] = 58; put(secondOfDay % 3600 / 60, 2, at: 14)
        bytes[16] = 58; put(secondOfDay % 60, 2, at: 17); bytes[19] = 46; put(ms, 3, at: 20); bytes[23] = 90
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses an RFC 3339 date-time with `Z` or a `±HH:MM` offset and any number of fractional digits.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var v: Int64 = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int64(b[i] - 48)
            }
            return v
        }
        guard b.count >= 20, let y = digits(0, 4), b[4] == 45, let mo = digits(5, 2), b[7] == 45,
              let d = digits(8, 2), b[10] == 84 || b[10] == 116, let h = digits(11, 2), b[13] == 58,
              let mi = digits(14, 2), b[16] == 58, let s = digits(17, 2),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 { fraction += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45, let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == 58,
                  let om = digits(i + 4, 2), oh < 24, om < 60 {
            offset = (oh * 3600 + om * 60) * (b[i] == 45 ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let seconds = days(fromCivil: y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }
}

extension JSONDecoder {
    /// A decoder for CareSync bodies: instants as any RFC 3339 date-time with an offset.
    public static func careSync() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Instant.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 instant: \(text)")
            }
            return date
        }
        return decoder
    }
}

extension JSONEncoder {
    /// An encoder for CareSync bodies: instants in UTC with three fractional digits.
    public static func careSync() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Instant.format(date))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
