import CareSyncLocking

/// The patient ids erased on the database, as this instance last read them, with the erasure count they go with.
///
/// A write group reads `store_head.erasures` with the head row's lock (`ChangeOrdering.begin`). An erasure raises it
/// while holding that row, so a group that starts after an erasure committed reads a new count and reads
/// `erased_patients` again here; then its writes refuse the id without a round trip (`PostgresWriter.refuseErased`).
final class PostgresErasedPatients: Sendable {
    private let known = Locked<(erasures: Int64, ids: Set<String>)?>(nil)

    /// The erased ids as of `erasures` committed erasures, read again from `db` when that count is not the one known.
    func ids(_ db: PostgresConnection, erasures: Int64) throws -> Set<String> {
        if let known = known.withLock({ $0 }), known.erasures == erasures { return known.ids }
        let ids = Set(try db.query("SELECT id FROM erased_patients").map { try $0.string(0) })
        known.withLock { $0 = (erasures, ids) }
        return ids
    }
}
