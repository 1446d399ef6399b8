/// Why a sync operation was refused; the HTTP layer maps each case to a status and `code`.
public enum SyncError: Error, Hashable, Sendable {
    /// The anchor is malformed or belongs to another store: 400 `invalidAnchor`.
    case invalidAnchor
    /// The anchor is older than the tombstone retention horizon: 410 `anchorExpired`.
    case anchorExpired
    /// Input broke a rule; each problem names its index and field: 422 `validationFailed`.
    case validationFailed([ValidationProblem])
    /// A client uuid already names a sample with other content: 409 `conflict`.
    case conflict(String)
    /// No such patient, report or record: 404 `notFound`.
    case notFound
}

/// One problem in a request body: which item (`index`, nil for the body itself), which field, what is wrong.
public struct ValidationProblem: Hashable, Sendable {
    /// The item's position in the request.
    public var index: Int?
    /// The field at fault, such as `syncVersion` or `metadata.wasUserEntered`.
    public var field: String
    /// What is wrong, for people.
    public var message: String

    /// Creates a value from its fields.
    public init(index: Int?, field: String, message: String) {
        self.index = index; self.field = field; self.message = message
    }
}
