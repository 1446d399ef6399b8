import CareSyncCore

extension PostgresMonitoringStore {
    public func setGoal(_ g: PatientGoal) throws {
        _ = try database.write { db in
            try PostgresErasureStore.eraser.refuseErased(db, g.patient)
            try db.query("""
                INSERT INTO patient_goals (patient_id, kind, target, set_by, set_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (patient_id, kind) DO UPDATE SET target = excluded.target, set_by = excluded.set_by, set_at = excluded.set_at
                """, [.text(g.patient), .text(g.kind.rawValue), .double(g.target), .text(g.setBy), .int64(SyncRules.milliseconds(g.setAt))])
        }
    }

    public func goals(patient: String) throws -> [PatientGoal] {
        try database.read { db in
            try db.query("SELECT patient_id, kind, target, set_by, set_at FROM patient_goals WHERE patient_id = $1 ORDER BY kind",
                         [.text(patient)]).map { r in
                guard let kind = GoalKind(rawValue: try r.string(1)) else { throw PostgresStoreCorruption("unknown goal kind") }
                return PatientGoal(patient: try r.string(0), kind: kind, target: try r.double(2), setBy: try r.string(3),
                                   setAt: SyncRules.date(milliseconds: try r.int64(4)))
            }
        }
    }
}
