import Foundation
import CareSyncCore

/// The opaque string clients hold for an `Anchor`: base64url of `v1:<sequence>:<storeID>`.
public enum AnchorWire {
    /// Encodes an anchor for a response.
    public static func encode(_ anchor: Anchor) -> String {
        let raw = "v1:\(anchor.sequence):\(anchor.storeID)"
        return Data(raw.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes a client's anchor; a malformed one, or one from another store, throws `invalidAnchor`.
    public static func decode(_ text: String, storeID: String) throws(APIError) -> Anchor {
        guard text.utf8.count <= 256, text.utf8.allSatisfy({ isBase64URL($0) }) else { throw .invalidAnchor }
        var b64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.utf8.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), let raw = String(data: data, encoding: .utf8) else { throw .invalidAnchor }
        let parts = raw.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let seq = Int64(parts[1]), seq >= 0,
              String(parts[2]) == storeID else { throw .invalidAnchor }
        return Anchor(storeID: storeID, sequence: seq)
    }

    private static func isBase64URL(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
    }
}
