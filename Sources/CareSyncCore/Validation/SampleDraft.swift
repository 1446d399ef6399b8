/// A sample as decoded from JSON, before validation: every field optional, strings unparsed.
public struct SampleDraft: Hashable, Sendable {
    /// A client uuid, when the client assigns its own.
    public var uuid: String?
    /// The type identifier, such as `stepCount`.
    public var type: String?
    /// The value in `unit`; none for correlation types.
    public var value: Double?
    /// A correlation's component values in `unit` (a food's in `componentUnits`), by component type; none otherwise.
    public var components: [String: Double]?
    /// A food's unit of each component, by component type (`dietaryEnergyConsumed: kcal`); none otherwise.
    public var componentUnits: [String: String]?
    /// The unit symbol; none for category types.
    public var unit: String?
    /// RFC 3339 start, with offset.
    public var start: String?
    /// RFC 3339 end, with offset.
    public var end: String?
    /// HealthKit's `HKMetadataKeySyncIdentifier`.
    public var syncIdentifier: String?
    /// HealthKit's `HKMetadataKeySyncVersion`; required exactly when `syncIdentifier` is given.
    public var syncVersion: Int64?
    /// Free metadata: strings, numbers, booleans.
    public var metadata: [String: MetadataValue]?

    /// Creates a draft.
    public init(uuid: String? = nil, type: String? = nil, value: Double? = nil, components: [String: Double]? = nil,
                componentUnits: [String: String]? = nil, unit: String? = nil,
                start: String? = nil, end: String? = nil, syncIdentifier: String? = nil, syncVersion: Int64? = nil,
                metadata: [String: MetadataValue]? = nil) {
        self.uuid = uuid; self.type = type; self.value = value; self.components = components; self.componentUnits = componentUnits
        self.unit = unit; self.start = start; self.end = end
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.metadata = metadata
    }
}
