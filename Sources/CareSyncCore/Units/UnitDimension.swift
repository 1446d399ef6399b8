/// What a unit measures, as exponents of base quantities: `m/s^2` is length¹·time⁻².
///
/// Two units convert into each other exactly when their dimensions are equal (HealthKit's
/// `is(compatibleWith:)`). HealthKit's own families that are not physical products (count, percent,
/// international units, sound and hearing levels, effort scores) are bases of their own, so `count`
/// is not `%` and `count/min` is not `Hz`.
public struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// A base quantity.
    public enum Base: Int, CaseIterable, Sendable {
        case length, mass, time, temperature, amount, current, angle
        case count, percent, internationalUnit, soundPressureLevel, hearingLevel, effortScore

        /// The name used in descriptions.
        public var name: String {
            switch self {
            case .internationalUnit: "pharmacology"
            default: "\(self)"
            }
        }
    }

    /// The exponent of each base, indexed by `Base.rawValue`.
    private(set) var exponents: [Int8]

    /// A dimensionless quantity (no base), the identity of products.
    public static let none = UnitDimension(exponents: [Int8](repeating: 0, count: Base.allCases.count))

    /// One base to the first power.
    public init(_ base: Base) {
        self = .none
        exponents[base.rawValue] = 1
    }

    private init(exponents: [Int8]) { self.exponents = exponents }

    /// The exponent of `base`.
    public subscript(base: Base) -> Int { Int(exponents[base.rawValue]) }

    /// The dimension of a product of units.
    public static func * (a: UnitDimension, b: UnitDimension) -> UnitDimension {
        UnitDimension(exponents: zip(a.exponents, b.exponents).map { $0 &+ $1 })
    }

    /// The dimension of a unit raised to `power`.
    public func raised(to power: Int) -> UnitDimension {
        UnitDimension(exponents: exponents.map { Int8(clamping: Int($0) * power) })
    }

    /// Whether this is one base to the first power, such as temperature alone (where offsets apply).
    public func isOnly(_ base: Base) -> Bool { self == UnitDimension(base) }

    /// A name people know (`mass/volume`, `energy`), else the product of bases (`length·time^-3`).
    public var description: String {
        if let name = Self.names[self] { return name }
        let up = Base.allCases.filter { self[$0] > 0 }.map { term($0, self[$0]) }
        let down = Base.allCases.filter { self[$0] < 0 }.map { term($0, -self[$0]) }
        let top = up.isEmpty ? "1" : up.joined(separator: "·")
        return down.isEmpty ? top : top + "/" + (down.count == 1 ? down[0] : "(" + down.joined(separator: "·") + ")")
    }

    private func term(_ base: Base, _ power: Int) -> String { power == 1 ? base.name : "\(base.name)^\(power)" }

    /// Derived dimensions by the names HealthKit's documentation uses.
    static let names: [UnitDimension: String] = {
        let length = UnitDimension(.length), mass = UnitDimension(.mass), time = UnitDimension(.time)
        let volume = length.raised(to: 3), energy = mass * length.raised(to: 2) * time.raised(to: -2)
        let current = UnitDimension(.current), count = UnitDimension(.count), amount = UnitDimension(.amount)
        var names: [UnitDimension: String] = [:]
        for base in Base.allCases { names[UnitDimension(base)] = base.name }
        names[volume] = "volume"
        names[energy] = "energy"
        names[energy * time.raised(to: -1)] = "power"
        names[mass * length.raised(to: -1) * time.raised(to: -2)] = "pressure"
        names[length * time.raised(to: -1)] = "speed"
        names[length * time.raised(to: -2)] = "acceleration"
        names[count * time.raised(to: -1)] = "count/time"
        names[time.raised(to: -1)] = "frequency"
        names[mass * volume.raised(to: -1)] = "mass/volume"
        names[amount * volume.raised(to: -1)] = "amount/volume"
        names[volume * time.raised(to: -1)] = "volume/time"
        names[volume * mass.raised(to: -1) * time.raised(to: -1)] = "volume/(mass·time)"
        names[energy * mass.raised(to: -1) * time.raised(to: -1)] = "energy/(mass·time)"
        names[energy * current.raised(to: -1) * time.raised(to: -1)] = "electricPotential"
        names[current.raised(to: 2) * time.raised(to: 3) * mass.raised(to: -1) * length.raised(to: -2)] = "conductance"
        return names
    }()
}
