import Foundation

/// One write transaction of a sync store: the request's sync writes and its audit record commit together
/// or not at all. Valid only inside the `SyncStore.write(idempotency:_:)` body that received it.
public protocol SyncTransaction {
    /// Applies samples from `source` for `patient`, in order, by HealthKit's sync identifier / version rules.
    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult]
    /// Deletes samples of `source` by uuid and by sync identifier; each deletion leaves a tombstone.
    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> [DeleteItemResult]
    /// Posts a weekly report by the derived-identifier rules.
    func upsertReport(_ report: WeeklyReportInput, patient: String, source: String,
                      now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport)
    /// How many reports the patient holds besides (source, syncIdentifier) itself, in this transaction.
    func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int
    /// Deletes a report of `source` and tombstones its samples; false when there was none.
    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool
    /// The anchor at the head of the change log, this transaction's changes included.
    func headAnchor() throws -> Anchor
    /// Records who did what, in this transaction: a stored write always has its record.
    func appendAudit(_ record: AuditRecord) throws
}

/// What a write body hands back: its value, and the answer to record under an `Idempotency-Key`.
public struct WriteAnswer<Value: Sendable>: Sendable {
    /// The body's result, for the caller.
    public var value: Value
    /// The HTTP status of the answer.
    public var status: Int
    /// The answer's body bytes, replayed to a retry with the same key.
    public var response: [UInt8]
    /// An answer.
    public init(value: Value, status: Int, response: [UInt8]) {
        self.value = value; self.status = status; self.response = response
    }
}

/// A keyed write's claim: the key, the request it belongs to, and how long its answer is kept.
public struct IdempotencyClaim: Sendable {
    /// The key in its caller's scope.
    public var key: IdempotencyKey
    /// A hash of the request (method, path, body).
    public var requestHash: [UInt8]
    /// The time of the request.
    public var now: Date
    /// How long the answer is replayed.
    public var lifetime: TimeInterval
    /// The patient the answer is about, if any: an erasure removes the answers of its patient.
    public var patient: String?
    /// A claim.
    public init(key: IdempotencyKey, requestHash: [UInt8], now: Date, lifetime: TimeInterval, patient: String? = nil) {
        self.key = key; self.requestHash = requestHash; self.now = now; self.lifetime = lifetime; self.patient = patient
    }
}

extension IdempotencyClaim {
    /// The keyed-write rule, inside the store's write transaction: `stored` (the key's unexpired record) of the same
    /// request is replayed and of another request refused; with none, `body` runs and `save` records its answer.
    public func perform<Value>(stored: IdempotencyRecord?, _ body: () throws -> WriteAnswer<Value>,
                               save: (IdempotencyRecord) throws -> Void) throws -> IdempotentWriteResult<Value> {
        if let stored { return stored.requestHash == requestHash ? .replayed(stored) : .keyReused }
        let answer = try body()
        try save(IdempotencyRecord(requestHash: requestHash, status: answer.status, response: answer.response,
                                   createdAt: now, expiresAt: now.addingTimeInterval(lifetime)))
        return .performed(answer.value)
    }
}
