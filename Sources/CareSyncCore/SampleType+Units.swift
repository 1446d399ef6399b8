/// Units a type accepts, and conversion between its canonical unit and the unit a client uses.
extension SampleType {
    /// The type for an api.md identifier (`stepCount`), or nil when unknown.
    public init?(identifier: String) { self.init(rawValue: identifier) }

    /// Resolves a unit symbol a client gave for this type, or says what is wrong with it.
    ///
    /// Quantity types need a compatible unit; category types take none.
    public func resolveUnit(_ symbol: String?) -> UnitResolution {
        guard let canonical = canonicalUnit else {
            return symbol == nil ? .resolved(nil) : .problem("type '\(rawValue)' takes no unit, got '\(symbol!)'")
        }
        guard let symbol else { return .problem("unit is required for type '\(rawValue)'") }
        guard let unit = HealthUnit.named(symbol) else { return .problem("unknown unit '\(symbol)' for type '\(rawValue)'") }
        guard unit.isCompatible(with: canonical) else {
            return .problem("unit '\(symbol)' is not compatible with type '\(rawValue)' (canonical unit '\(canonical.symbol)')")
        }
        return .resolved(unit)
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
}
