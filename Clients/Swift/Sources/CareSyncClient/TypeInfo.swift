import Foundation

/// One entry of the type catalogue (`GET /v1/types`).
public struct TypeInfo: Codable, Sendable, Hashable {
    /// A category type's allowed value.
    public struct AllowedValue: Codable, Sendable, Hashable {
        /// The value's name (`asleepCore`).
        public var name: String
        /// The integer sent as the sample's value.
        public var value: Int
    }
    /// The type (`stepCount`).
    public var identifier: String
    /// `quantity`, `category` or `correlation`.
    public var kind: String
    /// The aggregation style of a quantity type (`cumulative` …); nil for category types.
    public var aggregation: String?
    /// The unit values are stored in; nil for category types.
    public var canonicalUnit: String?
    /// A category type's values; nil for quantity types.
    public var allowedValues: [AllowedValue]?
    /// A correlation's component types (a food's: every dietary quantity type); nil for other types.
    public var components: [String]? = nil
    /// Whether a correlation holds any of its components, each in its own unit (food), not all in one unit.
    public var componentSet: Bool? = nil
}

extension CareSyncClient {
    /// The server's type catalogue.
    public func types() async throws -> [TypeInfo] {
        struct Body: Decodable { var types: [TypeInfo] }
        return try await send(Call(method: "GET", path: ["v1", "types"]), as: Body.self).types
    }
}
