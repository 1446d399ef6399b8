/// Reads HealthKit unit strings, as `HKUnit(from:)` does: named units with SI prefixes, products
/// (`*`, `.` or `·`), one quotient (everything after `/` is the denominator: `mL/kg*min` is
/// `mL/(kg·min)`), powers (`m/s^2`, `s^-1`), parentheses, and moles with a molar mass (`mmol<180.15588>`).
///
/// A bare `mol` takes `molarMass` (g/mol) when one is given, so a type with a molar mass reads `mmol/L`
/// as a concentration by mass; otherwise it is an amount of substance.
struct UnitParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private let molarMass: Double?

    /// The dimension, scale and offset of a whole unit string; `UnitParseError` names what is wrong.
    static func parse(_ text: String, molarMass: Double?) throws(UnitParseError) -> UnitAtom {
        var parser = UnitParser(scalars: Array(text.unicodeScalars), molarMass: molarMass)
        guard !parser.scalars.isEmpty else { throw UnitParseError("is empty") }
        let unit = try parser.expression()
        guard parser.position == parser.scalars.count else {
            throw UnitParseError("unexpected '\(parser.scalars[parser.position])' at position \(parser.position + 1)")
        }
        return unit
    }

    private init(scalars: [Unicode.Scalar], molarMass: Double?) {
        self.scalars = scalars; self.molarMass = molarMass
    }

    private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    /// product [ '/' product ]
    private mutating func expression() throws(UnitParseError) -> UnitAtom {
        let numerator = try product()
        guard next == "/" else { return numerator }
        position += 1
        let denominator = try product()
        if next == "/" { throw UnitParseError("has a second '/'; group the denominator in parentheses") }
        return try Self.combine(numerator, Self.power(denominator, -1))
    }

    /// power { ('*' | '.' | '·') power }
    private mutating func product() throws(UnitParseError) -> UnitAtom {
        var unit = try power()
        while let c = next, c == "*" || c == "." || c == "·" {
            position += 1
            unit = try Self.combine(unit, try power())
        }
        return unit
    }

    /// atom [ '^' ['-'] digits ]
    private mutating func power() throws(UnitParseError) -> UnitAtom {
        let base = try atom()
        guard next == "^" else { return base }
        position += 1
        var negative = false
        if next == "-" { negative = true; position += 1 }
        let start = position
        while let c = next, ("0"..."9").contains(c) { position += 1 }
        guard position > start, position - start <= 2, let exponent = Int(String(String.UnicodeScalarView(scalars[start..<position]))) else {
            throw UnitParseError("needs a whole exponent after '^'")
        }
        return try Self.power(base, negative ? -exponent : exponent)
    }

    /// '(' expression ')' | name [ '<' molar mass '>' ]
    private mutating func atom() throws(UnitParseError) -> UnitAtom {
        if next == "(" {
            position += 1
            let inner = try expression()
            guard next == ")" else { throw UnitParseError("misses a ')'") }
            position += 1
            return try Self.power(inner, 1)
        }
        let start = position
        while let c = next, c.properties.isAlphabetic || c == "_" || c == "%" { position += 1 }
        guard position > start else {
            throw next.map { UnitParseError("unexpected '\($0)' at position \(position + 1)") } ?? UnitParseError("ends too early")
        }
        let name = String(String.UnicodeScalarView(scalars[start..<position]))
        guard let atom = UnitAtom.resolve(name) else { throw UnitParseError("'\(name)' is not a HealthKit unit") }
        var mass = molarMass
        if next == "<" {
            guard atom.dimension.isOnly(.amount) else { throw UnitParseError("only moles take a molar mass, not '\(name)'") }
            position += 1
            let numberStart = position
            while next != nil && next != ">" { position += 1 }
            guard next == ">", let given = Double(String(String.UnicodeScalarView(scalars[numberStart..<position]))),
                  given.isFinite, given > 0 else {
                throw UnitParseError("needs a positive molar mass in g/mol between '<' and '>', such as mmol<180.15588000005408>")
            }
            position += 1
            mass = given
        }
        guard atom.dimension.isOnly(.amount), let mass else { return atom }
        // A mole of a substance of molar mass M weighs M grams: the unit becomes a mass.
        return UnitAtom(dimension: UnitDimension(.mass), scale: atom.scale * mass)
    }

    /// The product of two units. A unit with an offset (degC, degF) is valid only alone: in a product its zero
    /// would be lost (`degC*degC/degC` is not degC), so it is refused.
    private static func combine(_ a: UnitAtom, _ b: UnitAtom) throws(UnitParseError) -> UnitAtom {
        guard a.offset == 0, b.offset == 0 else { throw offsetAlone }
        return UnitAtom(dimension: a.dimension * b.dimension, scale: a.scale * b.scale)
    }

    /// A unit raised to a power; a unit with an offset (temperature) takes only the power 1.
    private static func power(_ a: UnitAtom, _ exponent: Int) throws(UnitParseError) -> UnitAtom {
        if exponent == 1 { return UnitAtom(dimension: a.dimension, scale: a.scale, offset: a.offset) }
        guard a.offset == 0 else { throw offsetAlone }
        var scale = 1.0
        for _ in 0..<abs(exponent) { scale *= a.scale }
        return UnitAtom(dimension: a.dimension.raised(to: exponent), scale: exponent < 0 ? 1 / scale : scale)
    }
}

extension UnitParser {
    /// The refusal of degC or degF inside a product, a quotient or a power.
    static let offsetAlone = UnitParseError("uses degC or degF with other units or a power; a temperature with an offset is valid only alone (use K in compound units)")
}

/// Why a unit string is not one HealthKit reads.
public struct UnitParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for people.
    public let description: String
    init(_ description: String) { self.description = description }
}
