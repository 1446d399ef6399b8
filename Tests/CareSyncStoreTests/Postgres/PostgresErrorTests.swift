import CareSyncCore
import Testing
@testable import CareSyncPostgres

/// Which PostgreSQL failures the API answers 503 (they pass with a failover or a restart) and which 500.
struct PostgresErrorTests {
    @Test func failuresThatPassAreUnavailableAndBugsAreNot() {
        for kind: PostgresError.Kind in [.connectionFailed, .connectionLost, .commitOutcomeUnknown, .readOnly, .queryCanceled] {
            #expect(PostgresError(kind: kind, message: "").isStoreUnavailable, "\(kind)")
        }
        for kind: PostgresError.Kind in [.uniqueViolation, .serializationFailure, .deadlockDetected, .other] {
            #expect(!PostgresError(kind: kind, message: "").isStoreUnavailable, "\(kind)")
        }
        #expect(PostgresError.kind(sqlState: "25006") == .readOnly)
    }
}
