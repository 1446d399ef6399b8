/// How a PostgreSQL store numbers its changes so that the feed never skips or repeats one.
///
/// `.headRow` is the store's scheme: every write transaction first locks the one row of `store_head`
/// (`SELECT … FOR UPDATE`), numbers its changes from the `seq` it read, and writes the new `seq` back
/// before it commits. The next writer can only read `seq` once this one committed, so sequences follow
/// commit order, and a reader's snapshot that holds sequence N holds every change up to N. Writers
/// queue on that row (group commit lets one turn serve many requests). docs/store.md explains the choice.
///
/// `.plainSequence` is the scheme it replaces, kept as the negative control of the ordering test: a
/// `nextval` per change, no lock. Two transactions take 1 and 2, the second commits first, a reader
/// pages up to 2, then 1 commits below the reader's anchor and is never seen. Never use it in a store.
enum ChangeOrdering: Sendable {
    case headRow
    case plainSequence

    /// What a write transaction knows when it starts: the head it numbers from (nil: ask per change), the purge
    /// horizon, and how many erasures committed (`PostgresErasedPatients`). Takes the row lock under `.headRow`.
    func begin(_ db: PostgresConnection) throws -> (head: Int64?, horizon: Int64, erasures: Int64) {
        switch self {
        case .headRow:
            let row = try db.query("SELECT seq, purge_horizon, erasures FROM store_head FOR UPDATE")
            return try row.first { (try $0.int64(0), try $0.int64(1), try $0.int64(2)) } ?? { throw missingHead }()
        case .plainSequence:
            let row = try db.query("SELECT purge_horizon, erasures FROM store_head")
            return try row.first { (nil, try $0.int64(0), try $0.int64(1)) } ?? { throw missingHead }()
        }
    }

    /// The sequence of the next change, when `begin` gave no head.
    func next(_ db: PostgresConnection) throws -> Int64 {
        try db.query("SELECT nextval('plain_change_seq')").first { try $0.int64(0) } ?? 0
    }

    /// Records the head a write transaction reached, before it commits (sent ahead).
    func finish(_ db: PostgresConnection, head: Int64) throws {
        guard self == .headRow else { return }
        try db.send("UPDATE store_head SET seq = $1", [.int64(head)])
    }

    /// The head and purge horizon as of a reader's snapshot.
    func head(_ db: PostgresConnection) throws -> (head: Int64, horizon: Int64) {
        let sql = switch self {
        case .headRow: "SELECT seq, purge_horizon FROM store_head"
        case .plainSequence: """
            SELECT greatest((SELECT max(seq) FROM samples), (SELECT max(seq) FROM tombstones), 0), purge_horizon FROM store_head
            """
        }
        return try db.query(sql).first { (try $0.int64(0), try $0.int64(1)) } ?? { throw missingHead }()
    }

    private var missingHead: PostgresError { PostgresError(kind: .other, message: "store_head has no row: is the schema migrated?") }
}
