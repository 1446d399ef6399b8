import Foundation

/// A one-dimensional array parameter in PostgreSQL's binary format: the element type and the elements
/// (`.null` for a NULL element). One parameter carries a whole batch, so a batch costs one round trip.
///
/// ```swift
/// try db.query("SELECT uuid FROM samples WHERE uuid = ANY($1)", [.array(uuids)])
/// ```
public struct PostgresArray: Hashable, Sendable {
    /// The elements' type OID (`PostgresType`).
    let elementType: UInt32
    /// The elements, each of `elementType` or `.null`.
    let elements: [PostgresValue]

    /// The array type's OID (`pg_type.typarray` of the element type).
    var typeOID: UInt32 {
        switch elementType {
        case PostgresType.bool: 1000
        case PostgresType.bytea: 1001
        case PostgresType.int8: 1016
        case PostgresType.text: 1009
        case PostgresType.float8: 1022
        case PostgresType.uuid: 2951
        default: preconditionFailure("no array type for element oid \(elementType)")
        }
    }

    /// Appends `array_recv`'s format: dimensions, NULL flag, element type, bounds, then each element's length and bytes.
    func encode(into buffer: inout [UInt8]) {
        func append(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) } }
        append(elements.isEmpty ? 0 : 1)
        append(elements.contains(.null) ? 1 : 0)
        append(Int32(bitPattern: elementType))
        guard !elements.isEmpty else { return }
        append(Int32(elements.count))
        append(1)
        for element in elements {
            guard element != .null else { append(-1); continue }
            let lengthAt = buffer.count
            append(0)
            element.encode(into: &buffer)
            if case .text = element { buffer.removeLast() }  // binary text has no terminating NUL
            let length = Int32(buffer.count - lengthAt - 4).bigEndian
            withUnsafeBytes(of: length) { buffer.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
        }
    }
}

extension PostgresValue {
    /// A `bigint[]`; nil elements are NULL.
    public static func array(_ values: [Int64?]) -> PostgresValue { array(PostgresType.int8, values.map { .int64($0) }) }
    /// A `double precision[]`; nil elements are NULL.
    public static func array(_ values: [Double?]) -> PostgresValue { array(PostgresType.float8, values.map { .double($0) }) }
    /// A `text[]`; nil elements are NULL.
    public static func array(_ values: [String?]) -> PostgresValue { array(PostgresType.text, values.map { .text($0) }) }
    /// A `boolean[]`.
    public static func array(_ values: [Bool]) -> PostgresValue { array(PostgresType.bool, values.map { .bool($0) }) }
    /// A `uuid[]`.
    public static func array(_ values: [UUID]) -> PostgresValue { array(PostgresType.uuid, values.map { .uuid($0) }) }

    private static func array(_ elementType: UInt32, _ elements: [PostgresValue]) -> PostgresValue {
        .array(PostgresArray(elementType: elementType, elements: elements))
    }
}
