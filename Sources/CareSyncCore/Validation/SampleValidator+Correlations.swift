/// A correlation's components: both or nothing, each a finite number in the sample's one unit.
extension SampleValidator {
    /// The canonical values of a correlation draft's components in stored order (systolic, diastolic), or
    /// nil after appending a problem for `value` given, `components` missing, a component missing, unknown
    /// or not finite. `unit` is the resolved unit of the whole correlation (nil when it had a problem).
    static func correlationValues(_ draft: SampleDraft, type: SampleType, unit: HealthUnit?, index: Int?,
                                  problems: inout [ValidationProblem]) -> (Double, Double)? {
        let before = problems.count
        func problem(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }
        let names = type.components.map(\.rawValue)
        let pair = names.joined(separator: " and ")
        if draft.value != nil {
            problem("value", "is not taken by correlation type '\(type.rawValue)': give components \(pair) instead")
        }
        guard let given = draft.components else {
            problem("components", "is required for correlation type '\(type.rawValue)': an object with \(pair), in unit")
            return nil
        }
        for key in given.keys.sorted() where !names.contains(key) {
            problem("components.\(key)", "is not a component of '\(type.rawValue)', which has \(pair)")
        }
        var values: [Double] = []
        for name in names {
            guard let raw = given[name] else {
                problem("components.\(name)", "is required: a '\(type.rawValue)' stores \(pair) together, never one alone")
                continue
            }
            guard raw.isFinite else { problem("components.\(name)", "must be a finite number"); continue }
            let converted = type.canonicalValue(raw, from: unit)
            guard converted.isFinite else { problem("components.\(name)", "is out of range once converted"); continue }
            if let component = SampleType(identifier: name), let range = component.definition.range, !range.contains(converted) {
                problem("components.\(name)", rangeMessage(component))
                continue
            }
            values.append(converted)
        }
        guard problems.count == before, unit != nil, values.count == 2 else { return nil }
        return (values[0], values[1])
    }
}
