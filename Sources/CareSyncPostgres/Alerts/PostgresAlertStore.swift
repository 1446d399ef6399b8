import CareSyncCore
import Foundation

/// Care teams' alert rules and their alerts in the PostgreSQL database (migration 0011, the tables of SQLite's 0019); each
/// write records its webhook outbox entries in its transaction. The unique index on unresolved alerts keeps two writers
/// from raising one alert twice.
public final class PostgresAlertStore: AlertStore {
    let database: PostgresDatabase

    /// A store over an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    /// The columns `decode` reads, in order.
    static let columns = """
        id, care_team, patient_id, rule, subject, state, raised_at, acknowledged_at, acknowledged_by, resolved_at, resolved_by, rearmed_at
        """

    public func rules(careTeam: String) throws -> AlertRules? {
        try database.read { db in
            try db.query("""
                SELECT device_silent_enabled, device_silent_hours, period_cannot_reach16_enabled, period_behind_pace_enabled,
                       weekly_steps_drop_enabled, weekly_steps_drop_percent, walk_test_drop_enabled, walk_test_drop_meters
                FROM alert_rules WHERE care_team = $1
                """, [.text(careTeam)]).first { s in
                var r = AlertRules()
                r.deviceSilentEnabled = try s.bool(0); r.deviceSilentHours = Int(try s.int64(1))
                r.periodCannotReach16Enabled = try s.bool(2); r.periodBehindPaceEnabled = try s.bool(3)
                r.weeklyStepsDropEnabled = try s.bool(4); r.weeklyStepsDropPercent = try s.double(5)
                r.walkTestDropEnabled = try s.bool(6); r.walkTestDropMeters = try s.double(7)
                return r
            }
        }
    }

    public func setRules(_ r: AlertRules, careTeam: String) throws {
        _ = try database.write { db in
            try db.query("""
                INSERT INTO alert_rules (care_team, device_silent_enabled, device_silent_hours, period_cannot_reach16_enabled,
                  period_behind_pace_enabled, weekly_steps_drop_enabled, weekly_steps_drop_percent, walk_test_drop_enabled,
                  walk_test_drop_meters) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                ON CONFLICT (care_team) DO UPDATE SET device_silent_enabled = excluded.device_silent_enabled,
                  device_silent_hours = excluded.device_silent_hours, period_cannot_reach16_enabled = excluded.period_cannot_reach16_enabled,
                  period_behind_pace_enabled = excluded.period_behind_pace_enabled, weekly_steps_drop_enabled = excluded.weekly_steps_drop_enabled,
                  weekly_steps_drop_percent = excluded.weekly_steps_drop_percent, walk_test_drop_enabled = excluded.walk_test_drop_enabled,
                  walk_test_drop_meters = excluded.walk_test_drop_meters
                """, [.text(careTeam), .bool(r.deviceSilentEnabled), .int64(Int64(r.deviceSilentHours)), .bool(r.periodCannotReach16Enabled),
                      .bool(r.periodBehindPaceEnabled), .bool(r.weeklyStepsDropEnabled), .double(r.weeklyStepsDropPercent),
                      .bool(r.walkTestDropEnabled), .double(r.walkTestDropMeters)])
        }
    }

    public func alerts(_ q: AlertQuery) throws -> [Alert] {
        try database.read { db in
            try db.query("""
                SELECT \(Self.columns) FROM alerts
                WHERE ($1::text IS NULL OR care_team = $1) AND ($2::text IS NULL OR patient_id = $2) AND ($3::text IS NULL OR state = $3)
                  AND ($5::bigint = 0 OR patient_id IN (SELECT patient_id FROM care_team_patients WHERE care_team = $1))
                ORDER BY raised_at DESC, id LIMIT $4
                """, [.text(q.careTeam), .text(q.patient), .text(q.state?.rawValue), .int64(Int64(q.limit)),
                      .int64(q.membersOnly ? 1 : 0)]).map(Self.decode)
        }
    }

    public func alert(id: String) throws -> Alert? {
        try database.read { db in try Self.alert(db, id: id, locking: false) }
    }

    public func current(careTeam: String, patient: String) throws -> [Alert] {
        try database.read { db in
            try db.query("""
                SELECT \(Self.columns) FROM alerts WHERE care_team = $1 AND patient_id = $2
                  AND (state <> 'resolved' OR (resolved_by IS NOT NULL AND rearmed_at IS NULL)) ORDER BY raised_at, id
                """, [.text(careTeam), .text(patient)]).map(Self.decode)
        }
    }

    public func apply(_ plan: AlertPlan) throws -> [AlertEvent] {
        let now = PostgresValue.int64(SyncRules.milliseconds(plan.now))
        return try database.write { db in
            var events: [AlertEvent] = []
            for id in plan.resolve {
                let resolved = try db.query("""
                    UPDATE alerts SET state = 'resolved', resolved_at = $1 WHERE id = $2 AND state <> 'resolved' RETURNING \(Self.columns)
                    """, [now, .text(id)]).map(Self.decode)
                events += resolved.map { AlertEvent(.resolved, $0, at: plan.now) }
            }
            for id in plan.rearm {
                try db.query("UPDATE alerts SET rearmed_at = $1 WHERE id = $2 AND rearmed_at IS NULL", [now, .text(id)])
            }
            // A patient erased since the evaluation read their figures gets no alert (nor its webhook event).
            for a in plan.raise where try !PostgresErasureStore.eraser.holdingWasErased(db, a.patient) {
                let inserted = try db.query("""
                    INSERT INTO alerts (id, care_team, patient_id, rule, subject, state, raised_at) VALUES ($1, $2, $3, $4, $5, 'open', $6)
                    ON CONFLICT DO NOTHING RETURNING id
                    """, [.text(a.id), .text(a.careTeam), .text(a.patient), .text(a.key.rule.rawValue), .text(a.key.subject),
                          .int64(SyncRules.milliseconds(a.raisedAt))]).count
                if inserted == 1 { events.append(AlertEvent(.raised, a, at: plan.now)) }
            }
            try Self.recordOutbox(db, events)
            return events
        }
    }

    public func acknowledge(id: String, by token: String, at: Date) throws -> Alert? {
        try database.write { db in
            guard let alert = try Self.alert(db, id: id, locking: true) else { return nil }
            guard alert.state != .resolved else { throw AlertStoreError.alreadyResolved }
            try db.query("UPDATE alerts SET state = 'acknowledged', acknowledged_at = $1, acknowledged_by = $2 WHERE id = $3 AND state = 'open'",
                         [.int64(SyncRules.milliseconds(at)), .text(token), .text(id)])
            return try Self.alert(db, id: id, locking: false)
        }
    }

    public func resolve(id: String, by token: String, at: Date) throws -> Alert? {
        try database.write { db in
            guard let alert = try Self.alert(db, id: id, locking: true) else { return nil }
            guard alert.state != .resolved else { throw AlertStoreError.alreadyResolved }
            try db.query("UPDATE alerts SET state = 'resolved', resolved_at = $1, resolved_by = $2 WHERE id = $3",
                         [.int64(SyncRules.milliseconds(at)), .text(token), .text(id)])
            try Self.recordOutbox(db, [AlertEvent(.resolved, alert, at: at)])
            return try Self.alert(db, id: id, locking: false)
        }
    }

    /// One alert read in `db`'s transaction, its row locked when `locking`.
    static func alert(_ db: PostgresConnection, id: String, locking: Bool) throws -> Alert? {
        try db.query("SELECT \(columns) FROM alerts WHERE id = $1\(locking ? " FOR UPDATE" : "")", [.text(id)]).first(decode)
    }

    /// Records the events in the webhook outbox, in the caller's transaction; nothing while no subscription exists. Like
    /// every outbox writer it holds the head row first (taken last in the transaction, after the alert rows), so outbox ids
    /// are taken in commit order and a subscription created meanwhile is seen (`PostgresOutbox.watermark`).
    static func recordOutbox(_ db: PostgresConnection, _ events: [AlertEvent]) throws {
        guard !events.isEmpty else { return }
        _ = try db.query("SELECT seq FROM store_head FOR UPDATE")
        guard try db.query("SELECT 1 FROM webhook_subscriptions LIMIT 1").count == 1 else { return }
        for e in events {
            try db.query("""
                INSERT INTO webhook_outbox (patient, seq, anchor, created_at_ms, event, alert_id, alert_rule, alert_care_team)
                VALUES ($1, 0, '', $2, $3, $4, $5, $6)
                """, [.text(e.patient), .int64(SyncRules.milliseconds(e.time)), .text(e.kind.rawValue), .text(e.alertID),
                      .text(e.rule.rawValue), .text(e.careTeam)])
        }
    }

    /// An alert from a row of `columns`.
    static func decode(_ s: PostgresRow) throws -> Alert {
        guard let rule = AlertRule(rawValue: try s.string(3)), let state = AlertState(rawValue: try s.string(5)) else {
            throw PostgresStoreCorruption("unknown alert rule or state")
        }
        var a = Alert(id: try s.string(0), careTeam: try s.string(1), patient: try s.string(2),
                      key: AlertKey(rule: rule, subject: try s.string(4)), raisedAt: SyncRules.date(milliseconds: try s.int64(6)))
        a.state = state
        a.acknowledgedAt = try s.optionalInt64(7).map(SyncRules.date(milliseconds:)); a.acknowledgedBy = try s.optionalString(8)
        a.resolvedAt = try s.optionalInt64(9).map(SyncRules.date(milliseconds:)); a.resolvedBy = try s.optionalString(10)
        a.rearmedAt = try s.optionalInt64(11).map(SyncRules.date(milliseconds:))
        return a
    }
}
