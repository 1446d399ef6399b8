import CareSyncCore
import CareSyncHTTP
import Foundation

/// The receipt of an erasure as the admin API answers it: who, when, how many items of each kind; no value.
enum ErasureWire {
    /// `{"patient","erasedAt","erasedBy","total","items":{kind: count},"cleanupComplete"}`.
    static func encode(_ receipt: ErasureReceipt) -> JSONValue {
        var items: [String: JSONValue] = [:]
        for count in receipt.counts { items[count.kind] = .number(Double(count.count)) }
        return [
            "patient": .string(receipt.request.patient),
            "erasedAt": .string(RFC3339.format(receipt.request.time)),
            "erasedBy": .string(receipt.request.tokenID),
            "total": .number(Double(receipt.total)),
            "items": .object(items),
            "cleanupComplete": .bool(receipt.cleanupComplete),
        ]
    }
}
