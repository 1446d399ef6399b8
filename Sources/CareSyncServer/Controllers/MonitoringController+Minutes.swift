import CareSyncHTTP
import CareSyncCore
import Foundation

extension MonitoringController {
    /// POST /v1/patients/{patientId}/monitoring/minutes: logs minutes of review on a day, in a fixed category.
    func logMinutes(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "monitoring.minutes.log") { principal, patient in
            try Self.requireTherapist(principal)
            let monitoring = try self.requireStore()
            let body = try request.jsonBody()
            let (_, today) = try await self.patientAndToday(patient)
            var problems: [ValidationProblem] = []
            var day: CalendarDay?
            do { day = try Self.day(body, "day", notAfter: today, notBefore: today.adding(days: -400)) }
            catch let e as HTTPError { problems += e.errors.map { ValidationProblem(index: $0.index, field: $0.field ?? "day", message: $0.message) } }
            let minutes = body["minutes"]?.integerValue.map(Int.init)
            if minutes.map({ !(1...ReviewMinutes.maximumMinutes).contains($0) }) ?? true {
                problems.append(ValidationProblem(index: nil, field: "minutes", message: "must be an integer in 1…\(ReviewMinutes.maximumMinutes)"))
            }
            let category = body["category"]?.stringValue.flatMap(ReviewCategory.init(rawValue:))
            if category == nil {
                problems.append(ValidationProblem(index: nil, field: "category",
                    message: "must be one of \(ReviewCategory.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            guard problems.isEmpty, let day, let minutes, let category else { throw HTTPError.validation(problems) }
            let entry = ReviewMinutes(patient: patient, day: day, minutes: minutes, category: category,
                                      loggedBy: principal.tokenID, loggedAt: self.clock.now())
            let stored = try await self.calls.blocking { try monitoring.logMinutes(entry) }
            return (Response.json(MonitoringWire.encode(stored), status: .created), 1)
        }
    }

    /// GET /v1/patients/{patientId}/monitoring/minutes?month=YYYY-MM: a month's entries, total and band.
    func getMinutes(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "monitoring.minutes.read") { _, patient in
            let monitoring = try self.requireStore()
            let (_, today) = try await self.patientAndToday(patient)
            let (first, last) = try Self.month(request.query("month"), default: today)
            let entries = try await self.calls.blocking { try monitoring.minutes(patient: patient, from: first, through: last) }
            let month = MonthlyMinutes(year: first.year, month: first.month, total: entries.reduce(0) { $0 + $1.minutes })
            return (Response.json(["month": .string(month.monthText), "total": .integer(Int64(month.total)), "band": .string(month.band.rawValue),
                                   "entries": .array(entries.map(MonitoringWire.encode))]), entries.count)
        }
    }

    /// The first and last day of the `YYYY-MM` month (default: the month of `today`), or a 422 naming `month`.
    static func month(_ text: String?, default today: CalendarDay) throws -> (CalendarDay, CalendarDay) {
        var first = CalendarDay(year: today.year, month: today.month, day: 1)
        if let text {
            guard let d = CalendarDay(parsing: text + "-01"), text.utf8.count == 7 else {
                throw HTTPError.invalidParameter("month", "must be a month, YYYY-MM")
            }
            first = d
        }
        let next = first.month == 12 ? CalendarDay(year: first.year + 1, month: 1, day: 1) : CalendarDay(year: first.year, month: first.month + 1, day: 1)
        return (first, next.adding(days: -1))
    }
}
