import CareSyncCore

/// One statement of an erasure: it removes one kind of the patient's items, the patient id bound as parameter 1
/// (which it may use several times).
public struct ErasureStep: Sendable, Hashable {
    /// The kind of item, as the receipt names it (`samples`, `goals`, …).
    public var kind: String
    /// The DELETE statement; the rows it changes are the kind's count.
    public var sql: String
    /// A step.
    public init(kind: String, sql: String) { self.kind = kind; self.sql = sql }

    /// `DELETE FROM <table> WHERE <column> = <p1>`: every row of a table keyed by patient.
    public static func rows(_ kind: String, _ table: String, _ column: String, _ p: (Int) -> String) -> ErasureStep {
        ErasureStep(kind: kind, sql: "DELETE FROM \(table) WHERE \(column) = \(p(1))")
    }
}

/// Every statement of a patient's erasure in one dialect, run in order in one transaction by `PatientEraser`.
///
/// THE SEAM: a new table that holds rows of a patient (sessions, passkeys, enrolments, alerts, exports…) joins the
/// erasure by adding ONE line to `portable`'s `steps` below (`.rows("kind", "table", "patient_column", p)`, or an
/// `ErasureStep` with its own DELETE), before the rows it references are removed (foreign keys: tokens and the patient
/// row come last). Both dialects take the same list; a table only one backend has goes into that dialect's `extra`
/// (SQLite's `change_log`). The contract suite (`ErasureContractTests`) and the raw-file test then cover it.
public struct PatientErasurePlan: Sendable {
    /// Selects 1 when the patient exists (PostgreSQL locks the row): p1 the id.
    public var lookup: String
    /// Run after the lookup and before the steps, without parameters: PostgreSQL raises `store_head.erasures`, which
    /// waits for the write holding the head row and tells every later write to read `erased_patients` again (SQLite's
    /// single writer needs nothing).
    public var serialize: String?
    /// Holds the patient's row for the rest of another write's transaction, so an erasure waits for that write and then
    /// removes what it wrote (PostgreSQL `FOR KEY SHARE`; nil on SQLite's single writer): p1 the id.
    public var holdPatient: String?
    /// The ids of the patient's tokens, sorted: p1 the id.
    public var tokens: String
    /// The statements, in order.
    public var steps: [ErasureStep]
    /// Remembers the id as erased: p1 the id, p2 the time (ms).
    public var remember: String
    /// Selects 1 when the id was erased: p1 the id.
    public var erased: String
    /// Selects how many ids were erased.
    public var erasedCount = "SELECT count(*) FROM erased_patients"
    /// Appends one audit record: time, token id, role, patient, action, count, status.
    public var audit: String

    /// The plan in SQL both dialects take (`p(n)`: the nth parameter's marker), with a dialect's own steps and its
    /// row lock (`FOR UPDATE` on PostgreSQL, nothing on SQLite's single writer), `serialize` statement and the `hold`
    /// lock other writes take on the patient's row (`FOR KEY SHARE` on PostgreSQL).
    public static func portable(parameter p: (Int) -> String, lock: String, serialize: String? = nil, hold: String? = nil,
                                extra: [ErasureStep]) -> PatientErasurePlan {
        let deviceTokens = "SELECT id FROM tokens WHERE patient_id = \(p(1))"
        let steps: [ErasureStep] = [
            .rows("samples", "samples", "patient", p),
            .rows("tombstones", "tombstones", "patient", p),
        ] + extra + [
            .rows("checksums", "checksums", "patient", p),
            .rows("sampleSpans", "sample_spans", "patient", p),
            .rows("sampleDays", "sample_days", "patient", p),
            .rows("sampleDayZones", "sample_day_zones", "patient", p),
            .rows("reports", "weekly_reports", "patient", p),
            // Answers kept for an Idempotency-Key (they may hold values): those of any token for this patient, and
            // those of the patient's own tokens recorded before the patient column existed.
            ErasureStep(kind: "idempotencyRecords", sql: """
                DELETE FROM idempotency_records WHERE patient = \(p(1)) OR scope IN (\(deviceTokens))
                """),
            .rows("webhookOutbox", "webhook_outbox", "patient", p),
            .rows("webhookDeliveries", "webhook_deliveries", "patient", p),
            .rows("monitoringEpisodes", "monitoring_episodes", "patient_id", p),
            .rows("reviewMinutes", "review_minutes", "patient_id", p),
            .rows("goals", "patient_goals", "patient_id", p),
            .rows("alerts", "alerts", "patient_id", p),
            .rows("enrolments", "enrolments", "patient_id", p),
            .rows("deviceSources", "device_sources", "patient_id", p),
            .rows("careTeamMemberships", "care_team_patients", "patient_id", p),
            .rows("careTeamDepartures", "care_team_departures", "patient_id", p),
            // FHIR bulk exports that read the patient (a Group's too): their records go, so no instance serves their files.
            ErasureStep(kind: "bulkExports", sql: """
                DELETE FROM bulk_exports WHERE id IN (SELECT export_id FROM bulk_export_patients WHERE patient = \(p(1)))
                """),
            .rows("bulkExportPatients", "bulk_export_patients", "patient", p),
            // ↑ New tables keyed by patient go here (sessions of the patient's tokens: before `tokens`).
            ErasureStep(kind: "tokenCareTeams", sql: "DELETE FROM token_care_teams WHERE token_id IN (\(deviceTokens))"),
            .rows("tokens", "tokens", "patient_id", p),
            .rows("patient", "patients", "id", p),
        ]
        return PatientErasurePlan(
            lookup: "SELECT 1 FROM patients WHERE id = \(p(1))\(lock)",
            serialize: serialize,
            holdPatient: hold.map { "SELECT 1 FROM patients WHERE id = \(p(1))\($0)" },
            tokens: "\(deviceTokens) ORDER BY id",
            steps: steps,
            remember: "INSERT INTO erased_patients (id, erased_at) VALUES (\(p(1)), \(p(2)))",
            erased: "SELECT 1 FROM erased_patients WHERE id = \(p(1))",
            audit: """
                INSERT INTO audit_log (time, token_id, role, patient_id, action, item_count, status)
                VALUES (\((1...7).map(p).joined(separator: ", ")))
                """)
    }

    /// The tables the steps delete from (what PostgreSQL vacuums afterwards).
    public var tables: [String] {
        var seen = Set<String>()
        return steps.compactMap { step in
            let words = step.sql.split(separator: " ")
            guard let i = words.firstIndex(of: "FROM"), i + 1 < words.count else { return nil }
            let table = String(words[i + 1])
            return seen.insert(table).inserted ? table : nil
        }
    }
}
