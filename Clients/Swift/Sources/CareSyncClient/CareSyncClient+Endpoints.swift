import Foundation

extension CareSyncClient {
    /// One page of `patient`'s change feed after `anchor` (nil: from the beginning).
    /// `wait` long-polls up to that many seconds (0–60) and gives the request a timeout of `wait` + 10 s.
    public func changes(patient: String, anchor: String?, filter: FeedFilter = FeedFilter(),
                        limit: Int? = nil, wait: Int? = nil) async throws -> ChangePage {
        var query: [(String, String)] = []
        if let anchor, !anchor.isEmpty { query.append(("anchor", anchor)) }
        query += filter.parameters
        if let limit { query.append(("limit", String(limit))) }
        var timeout: TimeInterval?
        if let wait, wait > 0 {
            query.append(("wait", String(wait)))
            timeout = TimeInterval(wait + 10)
        }
        return try await send(Call(method: "GET", path: ["v1", "patients", patient, "changes"], query: query, timeout: timeout),
                              as: ChangePage.self)
    }

    /// Posts one batch of at most 5,000 samples with `idempotencyKey` (a retry reuses it).
    public func upsert(patient: String, samples: [SampleDraft], idempotencyKey: String = UUID().uuidString) async throws -> UpsertAnswer {
        let body = try JSONEncoder.careSync().encode(["samples": samples])
        return try await send(Call(method: "POST", path: ["v1", "patients", patient, "samples"], body: body,
                                   idempotencyKey: idempotencyKey), as: UpsertAnswer.self)
    }

    /// Deletes the caller's own samples by uuid and/or sync identifier (at most 5,000 targets).
    public func delete(patient: String, uuids: [UUID] = [], syncIdentifiers: [String] = [],
                       idempotencyKey: String = UUID().uuidString) async throws -> DeleteAnswer {
        struct Body: Encodable { var uuids: [UUID]; var syncIdentifiers: [String] }
        let body = try JSONEncoder.careSync().encode(Body(uuids: uuids, syncIdentifiers: syncIdentifiers))
        return try await send(Call(method: "POST", path: ["v1", "patients", patient, "samples", "delete"], body: body,
                                   idempotencyKey: idempotencyKey), as: DeleteAnswer.self)
    }

    /// Posts one version of a weekly report.
    public func post(patient: String, report: WeeklyReportDraft, idempotencyKey: String = UUID().uuidString) async throws -> WeeklyReportAnswer {
        let body = try JSONEncoder.careSync().encode(report)
        return try await send(Call(method: "POST", path: ["v1", "patients", patient, "weekly-reports"], body: body,
                                   idempotencyKey: idempotencyKey), as: WeeklyReportAnswer.self)
    }

    /// The current version of a report, or nil when there is none (404): `source`'s, else the caller's own, else the
    /// only source's (several sources and none the caller's: a `conflict` problem; name one with `source`).
    public func weeklyReport(patient: String, syncIdentifier: String, source: String? = nil) async throws -> WeeklyReport? {
        do {
            return try await send(Call(method: "GET", path: ["v1", "patients", patient, "weekly-reports", syncIdentifier],
                                       query: source.map { [("source", $0)] } ?? []),
                                  as: WeeklyReport.self)
        } catch let problem as Problem where problem.code == "notFound" {
            return nil
        }
    }

    /// The patient's reports whose week starts in [`from`, `to`] (calendar days, `YYYY-MM-DD`), every page of them.
    public func weeklyReports(patient: String, from: String? = nil, to: String? = nil) async throws -> [WeeklyReport] {
        struct Body: Decodable { var reports: [WeeklyReport]; var next: String? }
        var base: [(String, String)] = []
        if let from { base.append(("from", from)) }
        if let to { base.append(("to", to)) }
        var reports: [WeeklyReport] = []
        var cursor: String?
        repeat {
            let query = base + (cursor.map { [("cursor", $0)] } ?? [])
            let page = try await send(Call(method: "GET", path: ["v1", "patients", patient, "weekly-reports"], query: query),
                                      as: Body.self)
            reports += page.reports
            cursor = page.next
        } while cursor != nil
        return reports
    }

    /// Statistics over buckets, `HKStatisticsCollectionQuery` on the server.
    public func statistics(patient: String, _ query: StatisticsQuery) async throws -> StatisticsResult {
        try await send(Call(method: "GET", path: ["v1", "patients", patient, "statistics"], query: query.parameters),
                       as: StatisticsResult.self)
    }
}

/// Filters of a change feed; keep the same ones for the life of an anchor.
public struct FeedFilter: Sendable, Hashable {
    /// Only these types (nil: every type).
    public var types: [String]?
    /// Only changes written by this source.
    public var source: String?
    /// Sample time range.
    public var from: Date?
    /// Sample time range.
    public var to: Date?
    /// Answer values in this unit where it fits.
    public var unit: String?

    /// A filter from its fields; no argument means every change.
    public init(types: [String]? = nil, source: String? = nil, from: Date? = nil, to: Date? = nil, unit: String? = nil) {
        self.types = types
        self.source = source
        self.from = from
        self.to = to
        self.unit = unit
    }

    var parameters: [(String, String)] {
        var p: [(String, String)] = []
        if let types { p.append(("types", types.joined(separator: ","))) }
        if let source { p.append(("source", source)) }
        if let from { p.append(("from", Instant.format(from))) }
        if let to { p.append(("to", Instant.format(to))) }
        if let unit { p.append(("unit", unit)) }
        return p
    }
}
