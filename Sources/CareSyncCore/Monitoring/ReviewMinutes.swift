import Foundation

/// Minutes a therapist spent reviewing data or interacting with a patient on one day; no free text.
public struct ReviewMinutes: Hashable, Sendable {
    /// Assigned by the store, increasing.
    public var id: Int64
    /// The patient.
    public var patient: String
    /// The day the time was spent (patient's calendar).
    public var day: CalendarDay
    /// The minutes, 1…240.
    public var minutes: Int
    /// What the time was spent on.
    public var category: ReviewCategory
    /// The token that logged it.
    public var loggedBy: String
    /// When it was logged (server time).
    public var loggedAt: Date

    /// The most minutes one entry may carry.
    public static let maximumMinutes = 240

    /// An entry; the store assigns `id`.
    public init(id: Int64 = 0, patient: String, day: CalendarDay, minutes: Int, category: ReviewCategory, loggedBy: String, loggedAt: Date) {
        self.id = id; self.patient = patient; self.day = day; self.minutes = minutes; self.category = category
        self.loggedBy = loggedBy; self.loggedAt = loggedAt
    }
}

/// The fixed set of what review time is spent on (never free text: audit and logs carry only these names).
public enum ReviewCategory: String, CaseIterable, Hashable, Sendable {
    /// Reviewing the patient's synced data.
    case dataReview
    /// A call or video visit with the patient.
    case patientCall
    /// Asynchronous messages with the patient.
    case messaging
    /// Adjusting the care plan or the home programme.
    case carePlan
    /// Coordinating with other clinicians.
    case coordination
}

/// A calendar month's review time and the band it falls in.
public struct MonthlyMinutes: Hashable, Sendable {
    /// The month's year.
    public var year: Int
    /// The month, 1…12.
    public var month: Int
    /// Its total minutes.
    public var total: Int
    /// The band of the total.
    public var band: MinutesBand { MinutesBand(total: total) }
    /// A month's total.
    public init(year: Int, month: Int, total: Int) { self.year = year; self.month = month; self.total = total }

    /// `YYYY-MM`.
    public var monthText: String { RFC3339.pad(year, 4) + "-" + RFC3339.pad(month, 2) }

    /// The totals of `entries` per calendar month, ascending.
    public static func totals(_ entries: [ReviewMinutes]) -> [MonthlyMinutes] {
        Dictionary(grouping: entries) { [$0.day.year, $0.day.month] }
            .map { MonthlyMinutes(year: $0.key[0], month: $0.key[1], total: $0.value.reduce(0) { $0 + $1.minutes }) }
            .sorted { ($0.year, $0.month) < ($1.year, $1.month) }
    }
}

/// The band a month's minutes fall in (docs/monitoring.md names what each supports; the server decides no billing).
public enum MinutesBand: String, Hashable, Sendable {
    /// 0–9 minutes.
    case under10
    /// 10–19 minutes.
    case from10to19 = "10to19"
    /// 20–39 minutes.
    case from20to39 = "20to39"
    /// 40 minutes or more.
    case atLeast40 = "40plus"

    /// The band of `total` minutes.
    public init(total: Int) {
        switch total {
        case ..<10: self = .under10
        case 10..<20: self = .from10to19
        case 20..<40: self = .from20to39
        default: self = .atLeast40
        }
    }
}
