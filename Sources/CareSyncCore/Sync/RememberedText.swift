import Foundation

/// The values made from the last few distinct texts of one column, found again by comparing bytes: both stores
/// decode a page's rows through it, as a page's samples mostly come from a few devices with the same metadata.
public struct RememberedText<Value> {
    private var entries: [(text: [UInt8], value: Value)] = []
    private var next = 0

    /// Nothing remembered yet.
    public init() {}
    /// How many texts are remembered (a handful of devices and metadata shapes per page).
    public static var capacity: Int { 4 }

    /// The value of `text`: remembered, or made by `make` and remembered in place of the oldest.
    public mutating func value(for text: UnsafeRawBufferPointer, make: (UnsafeRawBufferPointer) throws -> Value) rethrows -> Value {
        for entry in entries where entry.text.count == text.count {
            if text.isEmpty || entry.text.withUnsafeBytes({ memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }) {
                return entry.value
            }
        }
        let value = try make(text)
        let entry = (text: [UInt8](text), value: value)
        if entries.count < Self.capacity { entries.append(entry) } else { entries[next] = entry }
        next = (next + 1) % Self.capacity
        return value
    }
}
