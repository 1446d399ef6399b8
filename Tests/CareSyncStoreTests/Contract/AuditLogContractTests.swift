import CareSyncCore
import Foundation
import Testing

/// Audit records written together come back as written, in order, on every store: however many one commit holds
/// (fewer than, exactly and more than the SQLite store's run of 32 a statement, and several runs with a rest).
struct AuditLogContractTests {
    static let start = Date(timeIntervalSince1970: 1_600_000_000)

    /// Record `n` of a batch: every field differs from its neighbours', the patient now and then absent.
    static func record(_ n: Int) -> AuditRecord {
        AuditRecord(time: start.addingTimeInterval(Double(n)), tokenID: String(format: "%016x", 0xa000 + n),
                    role: [Role.device, .therapist, .admin][n % 3], patient: n % 5 == 0 ? nil : "p\(n % 7)",
                    action: "action.\(n)", count: n * 3, status: 200 + n % 4)
    }

    @Test(arguments: ContractStores.pairs)
    func recordsCommittedTogetherReadBackAsWrittenInOrder(pair: ContractStorePair) async throws {
        let (_, access) = try pair.make()
        var written: [AuditRecord] = []
        for size in [1, 31, 32, 33, 75] {
            let batch = (written.count..<written.count + size).map(Self.record)
            try await access.commitAudit(batch)
            written += batch
        }
        let read = try access.audit(AuditQuery(limit: 500))
        #expect(read.count == written.count, "\(pair)")
        // Newest first, ids increasing in the order written.
        let oldestFirst = Array(read.reversed())
        #expect(zip(oldestFirst, oldestFirst.dropFirst()).allSatisfy { $0.id < $1.id }, "\(pair)")
        for (got, want) in zip(oldestFirst, written) {
            var expected = want
            expected.id = got.id
            #expect(got == expected, "\(pair)")
        }
    }
}
