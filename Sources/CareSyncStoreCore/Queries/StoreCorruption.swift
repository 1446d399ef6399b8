/// A row that breaks an invariant the schema and the writers keep (a bad day, an unknown type): the store is damaged.
public struct StoreCorruption: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let description: String
    /// The error with `description`.
    public init(_ description: String) { self.description = description }
}
