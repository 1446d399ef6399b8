/// A UCUM unit for `valueQuantity`, and how a canonical CareSync value converts into it.
public struct UCUMUnit: Hashable, Sendable {
    /// The UCUM code (`mm[Hg]`, `/min`, `Cel`).
    public var code: String
    /// The human-readable unit (`Quantity.unit`).
    public var display: String
    /// The factor from the catalogue's canonical unit (100 for a HealthKit fraction shown in `%`, or `m` shown in `cm`).
    public var scale: Double

    /// A unit from its parts.
    public init(_ code: String, display: String? = nil, scale: Double = 1) {
        self.code = code; self.display = display ?? code; self.scale = scale
    }

    /// `canonical` in this unit, rounded to 12 significant digits so scaling adds no binary noise (97, not 97.00000000000001).
    public func value(fromCanonical canonical: Double) -> Double {
        let scaled = canonical * scale
        guard scaled != 0, scaled.isFinite else { return scaled }
        // A whole number below 10^12 prints exactly in 12 significant digits: nothing to round (steps, most rates).
        if scaled == scaled.rounded(), abs(scaled) < 1e12 { return scaled }
        return Double(String(format: "%.12g", scaled)) ?? scaled
    }

    /// The UCUM unit of each catalogue canonical unit (HealthKit unit string → UCUM), for types without a unit of their own.
    public static func forCanonical(_ symbol: String) -> UCUMUnit? {
        byCanonical[symbol]
    }

    /// HealthKit unit strings of the catalogue and their UCUM units.
    static let byCanonical: [String: UCUMUnit] = [
        "kcal": UCUMUnit("kcal"), "min": UCUMUnit("min"), "count": UCUMUnit("1", display: "count"),
        "degC": UCUMUnit("Cel"), "%": UCUMUnit("%", scale: 100), "mg/dL": UCUMUnit("mg/dL"),
        "mmHg": UCUMUnit("mm[Hg]", display: "mmHg"), "kg": UCUMUnit("kg"), "m/s": UCUMUnit("m/s"),
        "count/min": UCUMUnit("/min"), "W": UCUMUnit("W"), "g": UCUMUnit("g"), "mL": UCUMUnit("mL"),
        "m": UCUMUnit("m"), "cm": UCUMUnit("cm"), "S": UCUMUnit("S"), "dBASPL": UCUMUnit("dB[SPL]", display: "dB SPL"),
        "appleEffortScore": UCUMUnit("{score}", display: "effort score"), "L": UCUMUnit("L"), "ms": UCUMUnit("ms"),
        "IU": UCUMUnit("[IU]", display: "IU"), "L/min": UCUMUnit("L/min"),
        "kcal/(kg*hr)": UCUMUnit("kcal/(kg.h)"), "mL/(kg*min)": UCUMUnit("mL/(kg.min)"),
    ]
}
