import CareSyncCore

/// The monthly worksheet as CSV (RFC 4180), safe to open in a spreadsheet: a cell that starts with `=`, `+`, `-`, `@`,
/// a tab or a carriage return is prefixed with `'`, so no cell is read as a formula (OWASP, "CSV Injection").
enum WorksheetCSV {
    /// The header row.
    static let header = ["patient", "month", "episode", "period", "period_first_day", "period_end_day", "period_state",
                         "days_with_data", "month_minutes", "minutes_band", "left_team_on"]

    /// One line per period ending in the month; a patient with none gets one line with empty period cells.
    static func render(_ rows: [WorksheetRow], month: String) -> String {
        var lines = [line(header)]
        for row in rows {
            let minutes = [String(row.minutes.total), row.minutes.band.rawValue, row.leftTeamOn?.description ?? ""]
            if row.periods.isEmpty { lines.append(line([row.patient, month, "", "", "", "", "", ""] + minutes)) }
            for p in row.periods {
                lines.append(line([row.patient, month, String(p.episode), String(p.period.number), p.period.first.description,
                                   p.endDay.description, p.period.state.rawValue, String(p.period.daysWithData)] + minutes))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// One CSV line of neutralised, quoted-when-needed cells.
    static func line(_ cells: [String]) -> String { cells.map { quote(neutralise($0)) }.joined(separator: ",") }

    /// `'` before a cell a spreadsheet would take for a formula.
    static func neutralise(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return cell }
        return "'" + cell
    }

    /// The cell in double quotes (inner quotes doubled) when it holds a comma, a quote or a line break.
    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
