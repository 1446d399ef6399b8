import CareSyncCore
import Foundation

/// Care teams' alert rules and their alerts in the SQLite database (`migrations/0019_alerts.sql`); each write records its
/// webhook outbox entries in its transaction.
public final class SQLiteAlertStore: AlertStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    /// The columns `decode` reads, in order.
    static let columns = """
        id, care_team, patient_id, rule, subject, state, raised_at_ms, acknowledged_at_ms, acknowledged_by, resolved_at_ms,
        resolved_by, rearmed_at_ms
        """

    public func rules(careTeam: String) throws -> AlertRules? {
        try database.read { db in
            try db.fetchAll("""
                SELECT device_silent_enabled, device_silent_hours, period_cannot_reach16_enabled, period_behind_pace_enabled,
                       weekly_steps_drop_enabled, weekly_steps_drop_percent, walk_test_drop_enabled, walk_test_drop_meters
                FROM alert_rules WHERE care_team = ?
                """, [.text(careTeam)]) { s in
                var r = AlertRules()
                r.deviceSilentEnabled = s.int64(0) != 0; r.deviceSilentHours = Int(s.int64(1))
                r.periodCannotReach16Enabled = s.int64(2) != 0; r.periodBehindPaceEnabled = s.int64(3) != 0
                r.weeklyStepsDropEnabled = s.int64(4) != 0; r.weeklyStepsDropPercent = s.double(5)
                r.walkTestDropEnabled = s.int64(6) != 0; r.walkTestDropMeters = s.double(7)
                return r
            }.first
        }
    }

    public func setRules(_ r: AlertRules, careTeam: String) throws {
        let flag = { (b: Bool) in SQLValue.integer(b ? 1 : 0) }
        try database.write { db in
            try db.execute("""
                INSERT OR REPLACE INTO alert_rules (care_team, device_silent_enabled, device_silent_hours, period_cannot_reach16_enabled,
                  period_behind_pace_enabled, weekly_steps_drop_enabled, weekly_steps_drop_percent, walk_test_drop_enabled,
                  walk_test_drop_meters) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(careTeam), flag(r.deviceSilentEnabled), .integer(Int64(r.deviceSilentHours)), flag(r.periodCannotReach16Enabled),
                      flag(r.periodBehindPaceEnabled), flag(r.weeklyStepsDropEnabled), .real(r.weeklyStepsDropPercent),
                      flag(r.walkTestDropEnabled), .real(r.walkTestDropMeters)])
        }
    }

    public func alerts(_ q: AlertQuery) throws -> [Alert] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(Self.columns) FROM alerts
                WHERE (?1 IS NULL OR care_team = ?1) AND (?2 IS NULL OR patient_id = ?2) AND (?3 IS NULL OR state = ?3)
                  AND (?5 = 0 OR patient_id IN (SELECT patient_id FROM care_team_patients WHERE care_team = ?1))
                ORDER BY raised_at_ms DESC, id LIMIT ?4
                """, [.text(q.careTeam), .text(q.patient), .text(q.state?.rawValue), .integer(Int64(q.limit)),
                      .integer(q.membersOnly ? 1 : 0)], Self.decode)
        }
    }

    public func alert(id: String) throws -> Alert? {
        try database.read { db in try Self.alert(db, id: id) }
    }

    public func current(careTeam: String, patient: String) throws -> [Alert] {
        try database.read { db in
            try db.fetchAll("""
                SELECT \(Self.columns) FROM alerts WHERE care_team = ? AND patient_id = ?
                  AND (state <> 'resolved' OR (resolved_by IS NOT NULL AND rearmed_at_ms IS NULL)) ORDER BY raised_at_ms, id
                """, [.text(careTeam), .text(patient)], Self.decode)
        }
    }

    public func apply(_ plan: AlertPlan) throws -> [AlertEvent] {
        let now = SQLValue.integer(SyncRules.milliseconds(plan.now))
        return try database.write { db in
            var events: [AlertEvent] = []
            for id in plan.resolve {
                try db.execute("UPDATE alerts SET state = 'resolved', resolved_at_ms = ? WHERE id = ? AND state <> 'resolved'", [now, .text(id)])
                if db.changes == 1, let alert = try Self.alert(db, id: id) { events.append(AlertEvent(.resolved, alert, at: plan.now)) }
            }
            for id in plan.rearm {
                try db.execute("UPDATE alerts SET rearmed_at_ms = ? WHERE id = ? AND rearmed_at_ms IS NULL", [now, .text(id)])
            }
            // A patient erased since the evaluation read their figures gets no alert (nor its webhook event).
            for a in plan.raise where try !SQLiteErasureStore.eraser.holdingWasErased(db, a.patient) {
                try db.execute("""
                    INSERT INTO alerts (id, care_team, patient_id, rule, subject, state, raised_at_ms) VALUES (?, ?, ?, ?, ?, 'open', ?)
                    ON CONFLICT DO NOTHING
                    """, [.text(a.id), .text(a.careTeam), .text(a.patient), .text(a.key.rule.rawValue), .text(a.key.subject),
                          .integer(SyncRules.milliseconds(a.raisedAt))])
                if db.changes == 1 { events.append(AlertEvent(.raised, a, at: plan.now)) }
            }
            try Self.recordOutbox(db, events)
            return events
        }
    }

    public func acknowledge(id: String, by token: String, at: Date) throws -> Alert? {
        try database.write { db in
            guard let alert = try Self.alert(db, id: id) else { return nil }
            guard alert.state != .resolved else { throw AlertStoreError.alreadyResolved }
            try db.execute("UPDATE alerts SET state = 'acknowledged', acknowledged_at_ms = ?, acknowledged_by = ? WHERE id = ? AND state = 'open'",
                           [.integer(SyncRules.milliseconds(at)), .text(token), .text(id)])
            return try Self.alert(db, id: id)
        }
    }

    public func resolve(id: String, by token: String, at: Date) throws -> Alert? {
        try database.write { db in
            guard let alert = try Self.alert(db, id: id) else { return nil }
            guard alert.state != .resolved else { throw AlertStoreError.alreadyResolved }
            try db.execute("UPDATE alerts SET state = 'resolved', resolved_at_ms = ?, resolved_by = ? WHERE id = ?",
                           [.integer(SyncRules.milliseconds(at)), .text(token), .text(id)])
            try Self.recordOutbox(db, [AlertEvent(.resolved, alert, at: at)])
            return try Self.alert(db, id: id)
        }
    }

    /// One alert read in `db`'s transaction.
    static func alert(_ db: Connection, id: String) throws -> Alert? {
        try db.fetchAll("SELECT \(columns) FROM alerts WHERE id = ?", [.text(id)], decode).first
    }

    /// Records the events in the webhook outbox, in the caller's transaction; nothing while no subscription exists.
    static func recordOutbox(_ db: Connection, _ events: [AlertEvent]) throws {
        guard !events.isEmpty, try db.scalarInt64("SELECT EXISTS (SELECT 1 FROM webhook_subscriptions)") == 1 else { return }
        for e in events {
            try db.execute("""
                INSERT INTO webhook_outbox (patient, seq, anchor, created_at_ms, event, alert_id, alert_rule, alert_care_team)
                VALUES (?, 0, '', ?, ?, ?, ?, ?)
                """, [.text(e.patient), .integer(SyncRules.milliseconds(e.time)), .text(e.kind.rawValue), .text(e.alertID),
                      .text(e.rule.rawValue), .text(e.careTeam)])
        }
    }

    /// An alert from a row of `columns`.
    static func decode(_ s: Statement) throws -> Alert {
        guard let rule = AlertRule(rawValue: s.string(3)), let state = AlertState(rawValue: s.string(5)) else {
            throw StoreCorruption("unknown alert rule or state")
        }
        var a = Alert(id: s.string(0), careTeam: s.string(1), patient: s.string(2), key: AlertKey(rule: rule, subject: s.string(4)),
                      raisedAt: SyncRules.date(milliseconds: s.int64(6)))
        a.state = state
        a.acknowledgedAt = s.optionalInt64(7).map(SyncRules.date(milliseconds:)); a.acknowledgedBy = s.optionalString(8)
        a.resolvedAt = s.optionalInt64(9).map(SyncRules.date(milliseconds:)); a.resolvedBy = s.optionalString(10)
        a.rearmedAt = s.optionalInt64(11).map(SyncRules.date(milliseconds:))
        return a
    }
}
