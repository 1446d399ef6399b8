/// A food's components: at least one of its dietary types, each once, each a finite number in its own unit.
extension SampleValidator {
    /// The canonical values of a component-set correlation draft (food) by type, or nil after appending a problem
    /// for `value` given, `components` missing or empty, a component unknown, not of the correlation, not finite or
    /// out of its type's range, or a unit in `componentUnits` missing, unknown or of the wrong dimension.
    static func componentSet(_ draft: SampleDraft, type: SampleType, index: Int?,
                             problems: inout [ValidationProblem]) -> [SampleType: Double]? {
        let before = problems.count
        func problem(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }
        let name = type.rawValue
        if draft.value != nil {
            problem("value", "is not taken by correlation type '\(name)': give its components instead")
        }
        let units = draft.componentUnits ?? [:]
        guard let given = draft.components else {
            problem("components", "is required for correlation type '\(name)': an object of at least one of its component "
                    + "types (GET /v1/types), each with its unit in componentUnits")
            return nil
        }
        if given.isEmpty { problem("components", "must hold at least one component of '\(name)', such as \(type.components[0])") }
        var values: [SampleType: Double] = [:]
        for key in given.keys.sorted() {
            guard let component = SampleType(identifier: key) else {
                problem("components.\(key)", "unknown type '\(key)'; the components of '\(name)' are its types in GET /v1/types")
                continue
            }
            guard type.components.contains(component) else {
                problem("components.\(key)", "'\(key)' is not a component of '\(name)', which holds dietary quantity types only")
                continue
            }
            let raw = given[key]!
            guard raw.isFinite else { problem("components.\(key)", "must be a finite number"); continue }
            guard let symbol = units[key] else {
                problem("componentUnits.\(key)", "is required: the unit of components.\(key), such as '\(component.canonicalUnit?.symbol ?? "")'")
                continue
            }
            let unit: HealthUnit?
            switch component.resolveUnit(symbol) {
            case let .resolved(resolved): unit = resolved
            case let .problem(message): problem("componentUnits.\(key)", message); continue
            }
            let converted = component.canonicalValue(raw, from: unit)
            guard converted.isFinite else { problem("components.\(key)", "is out of range once converted"); continue }
            if let range = component.definition.range, !range.contains(converted) {
                problem("components.\(key)", rangeMessage(component))
                continue
            }
            values[component] = converted
        }
        for key in units.keys.sorted() where given[key] == nil {
            problem("componentUnits.\(key)", "names no component: give components.\(key) too, or leave it out")
        }
        guard problems.count == before else { return nil }
        return values
    }
}
