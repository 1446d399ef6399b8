import CareSyncCore
import CareSyncHTTP
import Foundation

/// Webhook subscriptions on the wire: the draft a `POST /v1/webhooks` carries, and a subscription with its delivery state.
enum WebhookWire {
    /// What an admin asks for.
    struct Draft: Sendable {
        var url: String
        var patients: [String]
        var careTeams: [String]
        var events: [String]
    }

    /// The draft in a request body, or every problem of its form (existence of patients and teams, and the URL's
    /// addresses, are checked against the stores afterwards).
    static func draft(_ body: JSONValue) throws -> Draft {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        func strings(_ field: String) -> [String]? {
            guard let value = body[field], value != .null else { return nil }
            guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count else {
                fail(field, "must be an array of strings"); return nil
            }
            var seen = Set<String>()
            return list.filter { seen.insert($0).inserted }
        }
        let url = body["url"]?.stringValue
        if url == nil { fail("url", "an http or https URL string is required") }
        let patients = strings("patients") ?? [], careTeams = strings("careTeams") ?? []
        let events = strings("events") ?? [WebhookSubscription.patientChanged]
        if events.isEmpty { fail("events", "must name at least one event type") }
        for event in events where !WebhookSubscription.eventTypes.contains(event) {
            fail("events", "unknown event type '\(event)'; the types are \(WebhookSubscription.eventTypes.joined(separator: ", "))")
        }
        guard problems.isEmpty, let url else { throw HTTPError.validation(problems) }
        return Draft(url: url, patients: patients, careTeams: careTeams, events: events)
    }

    /// A subscription with its delivery state, never its secret.
    static func encode(_ status: WebhookSubscriptionStatus) -> JSONValue {
        let s = status.subscription
        return [
            "id": .string(s.id), "url": .string(s.url), "patients": .array(s.patients.map(JSONValue.string)),
            "careTeams": .array(s.careTeams.map(JSONValue.string)), "events": .array(s.events.map(JSONValue.string)),
            "createdAt": .string(RFC3339.format(s.createdAt)), "paused": .bool(status.paused),
            "nextSequence": .number(Double(status.nextSequence)), "lastDeliveredSequence": .number(Double(status.lastDeliveredSequence)),
            "pendingDeliveries": .number(Double(status.pendingDeliveries)), "droppedDeliveries": .number(Double(status.droppedDeliveries)),
            "failingSince": .optional(status.failingSince.map(RFC3339.format)),
        ]
    }

    /// The body of a delivery: which patient changed and the feed's anchor after it, or which alert was raised or resolved
    /// for which patient under which rule; never a sample value or a figure.
    static func event(_ delivery: WebhookDelivery) -> [UInt8] {
        if let alert = delivery.alert {
            let body: JSONValue = [
                "type": .string(delivery.event), "timestamp": .string(RFC3339.format(delivery.eventTime)),
                "data": ["patient": .string(delivery.patient), "alertId": .string(alert.id), "rule": .string(alert.rule),
                         "careTeam": .string(alert.careTeam), "sequence": .number(Double(delivery.sequence))],
            ]
            return body.serialized()
        }
        let body: JSONValue = [
            "type": .string(WebhookSubscription.patientChanged), "timestamp": .string(RFC3339.format(delivery.eventTime)),
            "data": ["patient": .string(delivery.patient), "anchor": .string(delivery.anchor), "sequence": .number(Double(delivery.sequence))],
        ]
        return body.serialized()
    }
}
