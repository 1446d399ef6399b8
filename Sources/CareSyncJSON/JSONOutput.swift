/// Where `JSONString` writes: a growable byte buffer (`[UInt8]` here; the API's `ByteBuffer`).
public protocol JSONOutput: ~Copyable {
    /// Makes room for `count` more bytes, so the next appends need no check.
    mutating func reserve(_ count: Int)
    /// Appends one byte; room was reserved.
    mutating func appendUnchecked(_ byte: UInt8)
    /// Appends `bytes`; room was reserved.
    mutating func appendUnchecked(_ bytes: UnsafeRawBufferPointer)
}

extension Array: JSONOutput where Element == UInt8 {
    /// Reserves room for `count` more bytes.
    @inlinable public mutating func reserve(_ count: Int) { reserveCapacity(self.count + count) }
    /// Appends one byte.
    @inlinable public mutating func appendUnchecked(_ byte: UInt8) { append(byte) }
    /// Appends `bytes`.
    @inlinable public mutating func appendUnchecked(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}
