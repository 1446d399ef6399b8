import CareSyncCore

/// The type catalogue on the wire (`GET /v1/types`): what a client needs to write and query each type.
enum TypeCatalogueWire {
    /// The whole answer, encoded once: the catalogue never changes while the server runs.
    static let body: [UInt8] = JSONValue.object(["types": .array(SampleType.all.map(encode))]).serialized()

    /// One type: identifier, kind, aggregation style, canonical unit, the dimensions its units may have and
    /// example unit strings, molar mass, allowed category values, a correlation's components and whether a sample
    /// holds any of them in their own units (`componentSet`, food) or all in the type's unit (blood pressure), a quantity's
    /// value range in its canonical unit (`minimum`, `maximum`; null where open) and the statistics options it takes.
    static func encode(_ type: SampleType) -> JSONValue {
        let definition = type.definition
        return [
            "identifier": .string(type.rawValue),
            "kind": .string(type.kind.rawValue),
            "aggregation": .optional(type.aggregation?.rawValue),
            "canonicalUnit": .optional(type.canonicalUnit?.symbol),
            "dimensions": .array(type.dimensions.map { .string($0.description) }),
            "exampleUnits": .array(type.compatibleUnitExamples.map { .string($0) }),
            "molarMass": .optional(definition.molarMass),
            "allowedValues": type.kind == .category
                ? .array(definition.values.map { ["value": .number(Double($0.value)), "name": .string($0.name)] }) : .null,
            "components": type.kind == .correlation ? .array(type.components.map { .string($0.rawValue) }) : .null,
            "componentSet": type.kind == .correlation ? .bool(definition.hasComponentSet) : .null,
            "minimum": .optional(definition.range?.minimum),
            "maximum": .optional(definition.range?.maximum),
            "statisticsOptions": .array(statisticsOptions(type).names.map { .string($0) }),
        ]
    }

    /// The options `GET …/statistics` accepts for the type (durationByValue for categories, none for correlations).
    static func statisticsOptions(_ type: SampleType) -> StatisticsOptions {
        switch type.aggregation {
        case nil: type.kind == .category ? [.durationByValue, .separateBySource] : []
        case .cumulative?: [.cumulativeSum, .separateBySource]
        case .some: StatisticsOptions.discreteOptions.union(.separateBySource)
        }
    }
}
