import CareSyncHTTP
import CareSyncCore
import Foundation

/// Remote monitoring: episodes a therapist starts and ends, their 30-day periods with days with data, and review
/// minutes per calendar month (docs/monitoring.md).
struct MonitoringController: Sendable {
    let gate: AccessGate
    let store: any SyncStore
    let access: any AccessStore
    /// Nil when the server was built without one: the routes exist and answer 503.
    let monitoring: (any MonitoringStore)?
    let calls: StoreCalls
    let clock: ServerClock

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/v1/patients/{patientId}/monitoring", getMonitoring),
            APIRoute(.post, "/v1/patients/{patientId}/monitoring/episodes", startEpisode),
            APIRoute(.post, "/v1/patients/{patientId}/monitoring/episodes/current/end", endEpisode),
            APIRoute(.post, "/v1/patients/{patientId}/monitoring/minutes", logMinutes),
            APIRoute(.get, "/v1/patients/{patientId}/monitoring/minutes", getMinutes),
        ]
    }

    /// The monitoring store, or 503.
    func requireStore() throws -> any MonitoringStore {
        guard let monitoring else { throw HTTPError.unavailable("Monitoring is not available on this server.") }
        return monitoring
    }

    /// The patient's record (404 when missing) and today in its zone.
    func patientAndToday(_ patient: String) async throws -> (PatientRecord, CalendarDay) {
        let access = self.access, now = clock.now()
        guard let record = try await calls.blocking({ try access.patient(id: patient) }) else { throw HTTPError.notFound("No such patient.") }
        let zone = TimeZone(identifier: record.timeZone) ?? TimeZone(identifier: "UTC")!
        return (record, DeviceDays.day(of: now, in: zone))
    }

    /// GET /v1/patients/{patientId}/monitoring: every episode, oldest first, with its periods.
    func getMonitoring(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "monitoring.read") { principal, patient in
            let monitoring = try self.requireStore()
            let reader = MonitoringReader(store: self.store, access: self.access, monitoring: monitoring)
            let access = self.access, now = self.clock.now()
            let (record, today) = try await self.patientAndToday(patient)
            let episodes = try await self.calls.blocking {
                try reader.episodes(of: record, devices: StatusController.devices(of: patient, in: try access.tokens()),
                                    readable: principal.readable(nil), now: now)
            }
            return (Response.json(["patient": .string(patient), "timeZone": .string(record.timeZone), "today": .string(today.description),
                                   "episodes": .array(episodes.map { MonitoringWire.encode($0.episode, periods: $0.periods) })]), episodes.count)
        }
    }

    /// POST /v1/patients/{patientId}/monitoring/episodes: starts an episode on `startDay` (a therapist only).
    func startEpisode(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "monitoring.episode.start") { principal, patient in
            try Self.requireTherapist(principal)
            let monitoring = try self.requireStore()
            let body = try request.jsonBody()
            let (_, today) = try await self.patientAndToday(patient)
            let start = try Self.day(body, "startDay", notAfter: today, notBefore: today.adding(days: -366))
            let episode = MonitoringEpisode(patient: patient, startDay: start, startedBy: principal.tokenID, startedAt: self.clock.now())
            let stored = try await self.conflicts { try await self.calls.blocking { try monitoring.startEpisode(episode) } }
            return (Response.json(MonitoringWire.encode(stored, periods: nil), status: .created), 1)
        }
    }

    /// POST /v1/patients/{patientId}/monitoring/episodes/current/end: ends the open episode; `endDay` is its last day.
    func endEpisode(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "monitoring.episode.end") { principal, patient in
            try Self.requireTherapist(principal)
            let monitoring = try self.requireStore()
            let body = try request.jsonBody()
            let (_, today) = try await self.patientAndToday(patient)
            let open = try await self.calls.blocking { try monitoring.episodes(patient: patient).first(where: \.isOpen) }
            guard let open else { throw HTTPError.conflict("The patient has no open monitoring episode.") }
            let end = try Self.day(body, "endDay", notAfter: today, notBefore: open.startDay)
            let tokenID = principal.tokenID, now = self.clock.now()
            let ended = try await self.calls.blocking { try monitoring.endEpisode(patient: patient, endDay: end, by: tokenID, at: now) }
            guard let ended else { throw HTTPError.conflict("The patient has no open monitoring episode.") }
            return (Response.json(MonitoringWire.encode(ended, periods: nil)), 1)
        }
    }

    /// Runs `body`, answering the monitoring store's refusals as 409.
    func conflicts<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch MonitoringStoreError.openEpisodeExists {
            throw HTTPError.conflict("The patient already has an open monitoring episode; end it first.")
        } catch MonitoringStoreError.overlapsEarlierEpisode(let last) {
            throw HTTPError.conflict("An earlier episode ran through \(last); a new one starts after it.")
        }
    }

    /// 403 unless the caller is a therapist: devices and admins do not run monitoring.
    static func requireTherapist(_ principal: Principal) throws {
        guard principal.role == .therapist else { throw HTTPError.forbidden("Only a therapist may do this.") }
    }

    /// The `YYYY-MM-DD` member `field` of `body`, within bounds, or a 422 naming it.
    static func day(_ body: JSONValue, _ field: String, notAfter latest: CalendarDay, notBefore earliest: CalendarDay) throws -> CalendarDay {
        guard let text = body[field]?.stringValue, let day = CalendarDay(parsing: text) else {
            throw HTTPError.invalidParameter(field, "is required: a day, YYYY-MM-DD")
        }
        guard day <= latest else { throw HTTPError.invalidParameter(field, "must not be after today in the patient's time zone (\(latest))") }
        guard day >= earliest else { throw HTTPError.invalidParameter(field, "must not be before \(earliest)") }
        return day
    }
}
