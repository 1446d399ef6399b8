import Foundation

/// A sample as the server sends it (feeds, reports, write answers).
public struct Sample: Codable, Sendable, Hashable {
    /// The server's identifier of this stored sample.
    public var uuid: UUID
    /// The type, a HealthKit identifier without its prefix (`stepCount`).
    public var type: String
    /// The value, in `unit`; for a blood pressure pair its systolic, for a food its number of components (read `components`).
    public var value: Double
    /// A correlation's values by component type: a blood pressure pair's two in `unit` (`bloodPressureSystolic`,
    /// `bloodPressureDiastolic`), a food's dietary ones in `componentUnits`; nil for every other type.
    public var components: [String: Double]?
    /// A food's unit of each component (each type's canonical unit: `kcal`, `g`, `mL`); nil for every other type.
    public var componentUnits: [String: String]?
    /// The unit; nil for category types.
    public var unit: String?
    /// When the sample starts.
    public var start: Date
    /// When the sample ends.
    public var end: Date
    /// The writer's sync identifier, if any.
    public var syncIdentifier: String?
    /// The version paired with `syncIdentifier`.
    public var syncVersion: Int?
    /// The writing token's source.
    public var source: String
    /// Metadata; empty when none.
    public var metadata: [String: MetadataValue]

    /// A sample from its fields.
    public init(uuid: UUID, type: String, value: Double, components: [String: Double]? = nil, componentUnits: [String: String]? = nil,
                unit: String?, start: Date, end: Date, syncIdentifier: String? = nil, syncVersion: Int? = nil, source: String,
                metadata: [String: MetadataValue] = [:]) {
        self.uuid = uuid
        self.type = type
        self.value = value
        self.components = components
        self.componentUnits = componentUnits
        self.unit = unit
        self.start = start
        self.end = end
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
        self.source = source
        self.metadata = metadata
    }
}

/// A sample to write (`POST …/samples`); the server assigns what is left nil.
public struct SampleDraft: Codable, Sendable, Hashable {
    /// A client uuid no other sample ever had, or nil to let the server assign one.
    public var uuid: UUID?
    /// The type (`stepCount`).
    public var type: String
    /// The value, finite; not sent for a correlation (`components` is).
    public var value: Double
    /// A correlation's values by component type: a blood pressure pair's two in `unit`, a food's dietary ones in
    /// `componentUnits`; nil for every other type. See ``bloodPressure(systolic:diastolic:unit:start:end:syncIdentifier:syncVersion:metadata:)``
    /// and ``food(_:units:start:end:syncIdentifier:syncVersion:metadata:)``.
    public var components: [String: Double]?
    /// A food's unit of each component (`dietaryEnergyConsumed: kcal`); nil for every other type.
    public var componentUnits: [String: String]?
    /// The unit, compatible with the type; nil for `sleepAnalysis` and for a food.
    public var unit: String?
    /// When the sample starts.
    public var start: Date
    /// When the sample ends, not before `start`.
    public var end: Date
    /// A sync identifier, unique per (patient, source) among live samples.
    public var syncIdentifier: String?
    /// Required with `syncIdentifier`; a higher version replaces the stored one.
    public var syncVersion: Int?
    /// Metadata (at most 64 keys, 4 KiB).
    public var metadata: [String: MetadataValue]?

    /// A draft from its fields.
    public init(uuid: UUID? = nil, type: String, value: Double, components: [String: Double]? = nil,
                componentUnits: [String: String]? = nil, unit: String?,
                start: Date, end: Date, syncIdentifier: String? = nil, syncVersion: Int? = nil,
                metadata: [String: MetadataValue]? = nil) {
        self.uuid = uuid
        self.type = type
        self.value = value
        self.components = components
        self.componentUnits = componentUnits
        self.unit = unit
        self.start = start
        self.end = end
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
        self.metadata = metadata
    }
}

extension SampleDraft {
    /// A blood pressure pair (HealthKit's `bloodPressure` correlation): one sample with two components.
    public static func bloodPressure(systolic: Double, diastolic: Double, unit: String = "mmHg", start: Date, end: Date,
                                     syncIdentifier: String? = nil, syncVersion: Int? = nil,
                                     metadata: [String: MetadataValue]? = nil) -> SampleDraft {
        SampleDraft(type: "bloodPressure", value: systolic,
                    components: ["bloodPressureSystolic": systolic, "bloodPressureDiastolic": diastolic], unit: unit,
                    start: start, end: end, syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata)
    }

    /// A food (HealthKit's food correlation): one sample of dietary quantities by type, each in its unit in `units`
    /// (`["dietaryEnergyConsumed": 250], units: ["dietaryEnergyConsumed": "kcal"]`).
    public static func food(_ components: [String: Double], units: [String: String], start: Date, end: Date,
                            syncIdentifier: String? = nil, syncVersion: Int? = nil,
                            metadata: [String: MetadataValue]? = nil) -> SampleDraft {
        SampleDraft(type: "food", value: Double(components.count), components: components, componentUnits: units, unit: nil,
                    start: start, end: end, syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata)
    }

    private enum CodingKeys: String, CodingKey {
        case uuid, type, value, components, componentUnits, unit, start, end, syncIdentifier, syncVersion, metadata
    }

    /// Encodes the draft as `POST …/samples` takes it: a correlation sends `components` and no `value`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(uuid, forKey: .uuid)
        try container.encode(type, forKey: .type)
        if let components { try container.encode(components, forKey: .components) } else { try container.encode(value, forKey: .value) }
        try container.encodeIfPresent(componentUnits, forKey: .componentUnits)
        try container.encodeIfPresent(unit, forKey: .unit)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encodeIfPresent(syncIdentifier, forKey: .syncIdentifier)
        try container.encodeIfPresent(syncVersion, forKey: .syncVersion)
        try container.encodeIfPresent(metadata, forKey: .metadata)
    }
}

/// A deleted object (tombstone) in the feed, the server side of `HKDeletedObject`.
public struct DeletedObject: Codable, Sendable, Hashable {
    /// The deleted sample's uuid.
    public var uuid: UUID
    /// The deleted sample's type.
    public var type: String
    /// The deleted sample's start.
    public var start: Date
    /// The deleted sample's end.
    public var end: Date
    /// The deleted sample's source.
    public var source: String
    /// The deleted sample's sync identifier.
    public var syncIdentifier: String?
    /// The deleted sample's sync version.
    public var syncVersion: Int?
    /// The server's clock at the deletion.
    public var deletedAt: Date
}

/// One page of the anchored change feed.
public struct ChangePage: Codable, Sendable, Hashable {
    /// Samples added since the anchor sent.
    public var samples: [Sample]
    /// Samples deleted since the anchor sent.
    public var deletedObjects: [DeletedObject]
    /// Where to read on from; store it once the page is applied.
    public var anchor: String
    /// More changes follow now.
    public var hasMore: Bool
}
