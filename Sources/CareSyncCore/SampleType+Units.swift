/// Units a type accepts, and conversion between its canonical unit and the unit a client uses.
extension SampleType {
    /// The dimensions a unit of this type may have: the canonical unit's, and for a type with a molar mass
    /// (blood glucose) also amount per volume, read through that molar mass. Empty for category types.
    public var dimensions: [UnitDimension] {
        guard let canonical = canonicalUnit else { return [] }
        guard definition.molarMass != nil, canonical.dimension[.mass] == 1 else { return [canonical.dimension] }
        return [canonical.dimension, canonical.dimension * UnitDimension(.mass).raised(to: -1) * UnitDimension(.amount)]
    }

    /// Reads a unit string for this type: a bare `mol` takes the type's molar mass.
    public func unit(_ symbol: String) throws(UnitParseError) -> HealthUnit {
        try HealthUnit.parse(symbol, molarMass: definition.molarMass)
    }

    /// Resolves a unit symbol a client gave for this type, or says what is wrong with it, naming the
    /// type, the unit and units that would fit.
    ///
    /// Quantity types need a compatible unit; category types take none.
    public func resolveUnit(_ symbol: String?) -> UnitResolution {
        guard let canonical = canonicalUnit else {
            return symbol == nil ? .resolved(nil) : .problem("type '\(rawValue)' is a category type and takes no unit, got '\(symbol!)'")
        }
        guard let symbol else {
            return .problem("unit is required for type '\(rawValue)' (\(measures)), such as '\(canonical.symbol)'")
        }
        let unit: HealthUnit
        do {
            unit = try self.unit(symbol)
        } catch {
            return .problem("unit '\(symbol)' is not a HealthKit unit string (\(error)); type '\(rawValue)' takes \(measures), "
                            + "such as \(compatibleExamples)")
        }
        guard unit.isCompatible(with: canonical) else { return .problem(incompatibility(unit)) }
        return .resolved(unit)
    }

    /// Why `unit` does not fit this quantity type: the unit, what it measures, the type and units that would fit.
    public func incompatibility(_ unit: HealthUnit) -> String {
        "unit '\(unit.symbol)' (\(unit.dimension)) is not compatible with type '\(rawValue)', which takes \(measures) "
            + "(canonical unit '\(canonicalUnit?.symbol ?? "none")'); compatible units include \(compatibleExamples)"
    }

    /// The unit to answer in: `symbol` when given (compatible, else `validationFailed` on field `unit`),
    /// otherwise the canonical unit; nil for category types without a requested unit.
    public func outputUnit(named symbol: String?) throws -> HealthUnit? {
        if symbol == nil { return canonicalUnit }
        switch resolveUnit(symbol) {
        case let .resolved(unit): return unit
        case let .problem(message): throw SyncError.validationFailed([ValidationProblem(index: nil, field: "unit", message: message)])
        }
    }

    /// The unit to give a sample of this type in when a client asked for `requested` in an answer of many
    /// types (feed, reports): `requested` when it fits (read with the type's molar mass), else the canonical unit.
    public func answerUnit(_ requested: HealthUnit?) -> HealthUnit? {
        guard let canonical = canonicalUnit else { return nil }
        guard let requested else { return canonical }
        if requested.isCompatible(with: canonical) { return requested }
        if definition.molarMass != nil, let reread = try? unit(requested.symbol), reread.isCompatible(with: canonical) {
            return reread
        }
        return canonical
    }

    /// A value given in `unit` converted to this type's canonical unit (unchanged for category types).
    public func canonicalValue(_ value: Double, from unit: HealthUnit?) -> Double {
        guard let unit, let canonical = canonicalUnit else { return value }
        return unit.convert(value, to: canonical)
    }

    /// A stored canonical value converted to `unit` (unchanged for nil or category types).
    public func value(_ canonical: Double, in unit: HealthUnit?) -> Double {
        guard let unit, let canonicalUnit else { return canonical }
        return canonicalUnit.convert(canonical, to: unit)
    }

    /// What the type measures, for messages: `length`, or `mass/volume or amount/volume`.
    var measures: String { dimensions.map(\.description).joined(separator: " or ") }

    /// Example units that fit this type, quoted, for messages.
    var compatibleExamples: String { compatibleUnitExamples.map { "'\($0)'" }.joined(separator: ", ") }

    /// Unit strings that fit this type, the canonical one first; empty for category types.
    public var compatibleUnitExamples: [String] {
        guard let canonical = canonicalUnit else { return [] }
        let others = TypeCatalogue.exampleUnits.filter { $0 != canonical.symbol && (try? unit($0))?.isCompatible(with: canonical) == true }
        return [canonical.symbol] + others
    }
}
