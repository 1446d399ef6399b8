/// One named unit of HealthKit's unit strings (`g`, `mi`, `degF`, `mmHg`), before prefixes and algebra.
///
/// `scale` is how many coherent base units (m, g, s, K, mol, A, rad, count …) one of it is; temperatures
/// also carry the `offset` added after scaling (`degF` → K is `F × 5/9 + 255.372…`).
struct UnitAtom: Sendable {
    let dimension: UnitDimension
    let scale: Double
    var offset: Double = 0
    /// Whether HealthKit's SI prefixes (`k`, `m`, `mc` …) may precede it.
    var prefixable = false

    /// HealthKit's metric prefixes (`HKMetricPrefix`), by their unit-string spelling.
    static let prefixes: [(symbol: String, scale: Double)] = [
        ("da", 1e1), ("mc", 1e-6), ("f", 1e-15), ("p", 1e-12), ("n", 1e-9), ("m", 1e-3), ("c", 1e-2), ("d", 1e-1),
        ("h", 1e2), ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12),
    ]

    /// Every named unit HealthKit's `HKUnit(from:)` knows, by symbol (case-sensitive: `Cal` is 1000 `cal`).
    static let named: [String: UnitAtom] = {
        let length = UnitDimension(.length), mass = UnitDimension(.mass), time = UnitDimension(.time)
        let volume = length.raised(to: 3)
        let energy = mass * length.raised(to: 2) * time.raised(to: -2)  // J = 1000 g·m²/s²
        let pressure = mass * length.raised(to: -1) * time.raised(to: -2)  // Pa = 1000 g/(m·s²)
        let current = UnitDimension(.current)
        let pascal = 1000.0, joule = 1000.0, calorie = 4.184 * joule
        func metric(_ dimension: UnitDimension, _ scale: Double = 1) -> UnitAtom {
            UnitAtom(dimension: dimension, scale: scale, prefixable: true)
        }
        func plain(_ dimension: UnitDimension, _ scale: Double, offset: Double = 0) -> UnitAtom {
            UnitAtom(dimension: dimension, scale: scale, offset: offset)
        }
        return [
            // Metric units, which take prefixes.
            "m": metric(length), "g": metric(mass), "s": metric(time),
            "L": metric(volume, 1e-3), "l": metric(volume, 1e-3),
            "J": metric(energy, joule), "cal": metric(energy, calorie),
            "Pa": metric(pressure, pascal), "K": metric(UnitDimension(.temperature)),
            "mol": metric(UnitDimension(.amount)),
            "W": metric(energy * time.raised(to: -1), joule),
            "V": metric(energy * time.raised(to: -1) * current.raised(to: -1), joule),
            "S": metric(current.raised(to: 2) * time.raised(to: 3) * mass.raised(to: -1) * length.raised(to: -2), 1 / joule),
            "Hz": metric(time.raised(to: -1)),
            "rad": metric(UnitDimension(.angle)),
            // Imperial and US units (exact definitions).
            "in": plain(length, 0.0254), "ft": plain(length, 0.3048), "yd": plain(length, 0.9144),
            "mi": plain(length, 1609.344),
            "lb": plain(mass, 453.59237), "oz": plain(mass, 28.349523125), "st": plain(mass, 6350.29318),
            "fl_oz_us": plain(volume, 29.5735295625e-6), "cup_us": plain(volume, 236.5882365e-6),
            "pt_us": plain(volume, 473.176473e-6),
            "fl_oz_imp": plain(volume, 28.4130625e-6), "cup_imp": plain(volume, 284.130625e-6),
            "pt_imp": plain(volume, 568.26125e-6),
            // Time beyond the second.
            "min": plain(time, 60), "hr": plain(time, 3600), "d": plain(time, 86_400),
            // Energy: the food calorie `Cal` is the kilocalorie.
            "Cal": plain(energy, 1000 * calorie),
            // Temperature with offsets to kelvin.
            "degC": plain(UnitDimension(.temperature), 1, offset: 273.15),
            "degF": plain(UnitDimension(.temperature), 5.0 / 9.0, offset: 273.15 - 32 * 5.0 / 9.0),
            // Pressure.
            "mmHg": plain(pressure, 133.322387415 * pascal), "cmAq": plain(pressure, 98.0665 * pascal),
            "atm": plain(pressure, 101_325 * pascal), "inHg": plain(pressure, 3386.388640341 * pascal),
            // Angle.
            "deg": plain(UnitDimension(.angle), Double.pi / 180),
            // HealthKit's scalar families.
            "count": plain(UnitDimension(.count), 1), "%": plain(UnitDimension(.percent), 1),
            "IU": plain(UnitDimension(.internationalUnit), 1),
            "dBASPL": plain(UnitDimension(.soundPressureLevel), 1), "dBHL": plain(UnitDimension(.hearingLevel), 1),
            "appleEffortScore": plain(UnitDimension(.effortScore), 1),
        ]
    }()

    /// The atom for a name, with or without a metric prefix (`kcal`, `mcg`, `dL`); exact names win (`min`, `mmHg`).
    static func resolve(_ name: String) -> UnitAtom? {
        if let atom = named[name] { return atom }
        for prefix in prefixes where name.hasPrefix(prefix.symbol) {
            guard let atom = named[String(name.dropFirst(prefix.symbol.count))], atom.prefixable else { continue }
            return UnitAtom(dimension: atom.dimension, scale: atom.scale * prefix.scale, offset: 0, prefixable: false)
        }
        return nil
    }
}
