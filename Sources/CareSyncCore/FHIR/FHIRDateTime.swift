import Foundation

/// FHIR `dateTime` text of an instant in a time zone: local time to the second and the zone's offset.
public enum FHIRDateTime {
    /// `2020-10-25T00:00:00+02:00`; UTC with `Z` when the offset is not whole minutes (local mean time before ~1900).
    public static func format(_ date: Date, in zone: TimeZone) -> String {
        let raw = zone.secondsFromGMT(for: date)
        let offset = raw % 60 == 0 ? raw : 0
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = Int(local - days * 86_400)
        let time = RFC3339.pad(seconds / 3600, 2) + ":" + RFC3339.pad(seconds / 60 % 60, 2) + ":" + RFC3339.pad(seconds % 60, 2)
        let zoneText = raw != offset ? "Z"
            : (offset < 0 ? "-" : "+") + RFC3339.pad(abs(offset) / 3600, 2) + ":" + RFC3339.pad(abs(offset) / 60 % 60, 2)
        return CalendarDay(daysSince1970: Int(days)).description + "T" + time + zoneText
    }
}
