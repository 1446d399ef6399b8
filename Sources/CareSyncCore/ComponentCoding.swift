/// A food's components as the stores keep them (column `components`): JSON text of an object of canonical values
/// by type identifier, keys sorted, numbers as metadata writes them (shortest round-trip form); nil (SQL NULL)
/// when there are none. Both stores read and write this one form.
public enum ComponentCoding {
    /// Stored text that is not an object of catalogue types and numbers.
    public struct Unreadable: Error, Equatable {
        /// What was wrong.
        public let reason: String
    }

    /// The JSON text of `components`; nil when empty.
    public static func encode(_ components: [SampleType: Double]) throws -> String? {
        try MetadataCoding.encode(Dictionary(uniqueKeysWithValues: components.map { ($0.key.rawValue, MetadataValue.number($0.value)) }))
    }

    /// The components of stored text (nil or empty: none).
    public static func decode(_ text: String?) throws -> [SampleType: Double] {
        var components: [SampleType: Double] = [:]
        for (name, value) in try MetadataCoding.decode(text) {
            guard let type = SampleType(rawValue: name) else { throw Unreadable(reason: "unknown component type \(name)") }
            guard case let .number(number) = value else { throw Unreadable(reason: "component \(name) is not a number") }
            components[type] = number
        }
        return components
    }
}
