/// One entry of a problem's `errors` array: which item and field is wrong, and why.
public struct FieldError: Sendable, Hashable, Codable {
    /// Index of the offending item in the request's array, if the problem is about an array element.
    public var index: Int?
    /// The JSON field name (or dotted path) at fault, if any.
    public var field: String?
    /// A human-readable explanation.
    public var message: String

    /// Creates a field error.
    public init(index: Int? = nil, field: String? = nil, message: String) {
        self.index = index
        self.field = field
        self.message = message
    }
}
