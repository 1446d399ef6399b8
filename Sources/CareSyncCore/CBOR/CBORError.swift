/// Why `CBORDecoder` refused its input. Every case means: untrusted bytes that are not the CBOR we accept.
public enum CBORError: Error, Hashable, Sendable {
    /// The input ended inside an item (a header, an argument or a length that claims more bytes than remain).
    case truncated(offset: Int)
    /// Bytes remain after the one top-level item.
    case trailingBytes(offset: Int)
    /// An indefinite length (additional information 31) or a reserved one (28–30).
    case unsupportedLength(offset: Int)
    /// A major type 6 tag, a float or a simple value other than false, true and null.
    case unsupportedItem(offset: Int)
    /// Arrays and maps nested deeper than the decoder's limit.
    case tooDeep(offset: Int)
    /// A text string that is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A map holding the same key twice.
    case duplicateKey(offset: Int)
}
