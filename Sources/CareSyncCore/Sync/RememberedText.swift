import Foundation

/// The values made from the last few distinct texts of one column, found again by comparing bytes: both stores
/// decode a page's rows through it, as a page's samples mostly come from a few devices with the same metadata.
/// Inlinable, so each store specializes it for its value types instead of asking the runtime for tuple metadata
/// on every row.
public struct RememberedText<Value> {
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var next = 0

    /// One remembered text and the value made from it.
    @usableFromInline struct Entry {
        @usableFromInline let text: [UInt8]
        @usableFromInline let value: Value

        @inlinable init(text: [UInt8], value: Value) {
            self.text = text
            self.value = value
        }
    }

    /// Nothing remembered yet.
    @inlinable public init() {}
    /// How many texts are remembered (a handful of devices and metadata shapes per page).
    @inlinable public static var capacity: Int { 4 }

    /// The value of `text`: remembered, or made by `make` and remembered in place of the oldest.
    @inlinable
    public mutating func value(for text: UnsafeRawBufferPointer, make: (UnsafeRawBufferPointer) throws -> Value) rethrows -> Value {
        // Through the buffer, so the entries are compared in place rather than copied (a retain each).
        let found = entries.withUnsafeBufferPointer { entries in
            entries.firstIndex { entry in
                entry.text.count == text.count
                    && (text.isEmpty || entry.text.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 })
            }
        }
        if let found { return entries[found].value }
        let value = try make(text)
        let entry = Entry(text: [UInt8](text), value: value)
        if entries.count < Self.capacity { entries.append(entry) } else { entries[next] = entry }
        next = (next + 1) % Self.capacity
        return value
    }
}
