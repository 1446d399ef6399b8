import CareSyncCore

extension SQLiteMonitoringStore {
    public func setGoal(_ g: PatientGoal) throws {
        try database.write { db in
            try SQLiteErasureStore.eraser.refuseErased(db, g.patient)
            try db.execute("""
                INSERT INTO patient_goals (patient_id, kind, target, set_by, set_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (patient_id, kind) DO UPDATE SET target = excluded.target, set_by = excluded.set_by, set_at = excluded.set_at
                """, [.text(g.patient), .text(g.kind.rawValue), .real(g.target), .text(g.setBy), .integer(SyncRules.milliseconds(g.setAt))])
        }
    }

    public func goals(patient: String) throws -> [PatientGoal] {
        try database.read { db in
            try db.fetchAll("SELECT patient_id, kind, target, set_by, set_at FROM patient_goals WHERE patient_id = ? ORDER BY kind",
                            [.text(patient)]) { s in
                guard let kind = GoalKind(rawValue: s.string(1)) else { throw StoreCorruption("unknown goal kind") }
                return PatientGoal(patient: s.string(0), kind: kind, target: s.double(2), setBy: s.string(3),
                                   setAt: SyncRules.date(milliseconds: s.int64(4)))
            }
        }
    }
}
