import CareSyncCore
import CareSyncHTTP

/// Alerts and alert rules as JSON (docs/api.md, "Alerts").
enum AlertWire {
    /// One alert: what it is about and where it stands, never a figure.
    static func encode(_ a: Alert) -> JSONValue {
        ["id": .string(a.id), "careTeam": .string(a.careTeam), "patient": .string(a.patient), "rule": .string(a.key.rule.rawValue),
         "subject": .string(a.key.subject), "state": .string(a.state.rawValue), "raisedAt": .string(RFC3339.format(a.raisedAt)),
         "acknowledgedAt": .optional(a.acknowledgedAt.map(RFC3339.format)), "acknowledgedBy": .optional(a.acknowledgedBy),
         "resolvedAt": .optional(a.resolvedAt.map(RFC3339.format)), "resolvedBy": .optional(a.resolvedBy),
         "resolution": a.resolvedAt == nil ? .null : .string(a.resolvedBy == nil ? "conditionCleared" : "therapist")]
    }

    /// A team's rules.
    static func encode(_ r: AlertRules, careTeam: String, isDefault: Bool) -> JSONValue {
        ["careTeam": .string(careTeam), "default": .bool(isDefault),
         "rules": [
            "deviceSilent": ["enabled": .bool(r.deviceSilentEnabled), "hours": .integer(Int64(r.deviceSilentHours))],
            "periodCannotReach16": ["enabled": .bool(r.periodCannotReach16Enabled)],
            "periodBehindPace": ["enabled": .bool(r.periodBehindPaceEnabled)],
            "weeklyStepsDrop": ["enabled": .bool(r.weeklyStepsDropEnabled), "percent": .number(r.weeklyStepsDropPercent)],
            "walkTestDrop": ["enabled": .bool(r.walkTestDropEnabled), "meters": .number(r.walkTestDropMeters)],
         ]]
    }

    /// Rules from a PUT body `{"rules": {rule: {"enabled", threshold}}}`: a rule left out keeps its default; every bad
    /// member is a problem in one 422.
    static func decodeRules(_ body: JSONValue) throws -> AlertRules {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        guard let object = body.objectValue, let rules = object["rules"]?.objectValue else {
            throw HTTPError.invalidParameter("rules", "is required: an object of rules")
        }
        for key in object.keys where key != "rules" { fail(key, "is not a member of an alert-rules document") }
        var r = AlertRules()
        func rule(_ name: AlertRule, threshold: String?) -> (enabled: Bool, threshold: JSONValue?)? {
            guard let value = rules[name.rawValue] else { return nil }
            guard let member = value.objectValue else { fail("rules.\(name.rawValue)", "must be an object"); return nil }
            for key in member.keys where key != "enabled" && key != threshold { fail("rules.\(name.rawValue).\(key)", "is not a member of this rule") }
            var enabled = true
            if let e = member["enabled"] {
                if let b = e.boolValue { enabled = b } else { fail("rules.\(name.rawValue).enabled", "must be true or false") }
            }
            return (enabled, threshold.flatMap { member[$0] })
        }
        for key in rules.keys where AlertRule(rawValue: key) == nil {
            fail("rules.\(key)", "is not a rule; the rules are \(AlertRule.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let s = rule(.deviceSilent, threshold: "hours") {
            r.deviceSilentEnabled = s.enabled
            if let h = s.threshold {
                if let n = h.integerValue, AlertRules.silentHoursRange.contains(Int(n)) { r.deviceSilentHours = Int(n) } else {
                    fail("rules.deviceSilent.hours", "must be an integer in \(AlertRules.silentHoursRange.lowerBound)…\(AlertRules.silentHoursRange.upperBound)")
                }
            }
        }
        if let s = rule(.periodCannotReach16, threshold: nil) { r.periodCannotReach16Enabled = s.enabled }
        if let s = rule(.periodBehindPace, threshold: nil) { r.periodBehindPaceEnabled = s.enabled }
        if let s = rule(.weeklyStepsDrop, threshold: "percent") {
            r.weeklyStepsDropEnabled = s.enabled
            if let p = s.threshold {
                if let n = p.numberValue, AlertRules.stepsPercentRange.contains(n) { r.weeklyStepsDropPercent = n } else {
                    fail("rules.weeklyStepsDrop.percent", "must be a number in 1…100")
                }
            }
        }
        if let s = rule(.walkTestDrop, threshold: "meters") {
            r.walkTestDropEnabled = s.enabled
            if let m = s.threshold {
                if let n = m.numberValue, AlertRules.walkMetersRange.contains(n) { r.walkTestDropMeters = n } else {
                    fail("rules.walkTestDrop.meters", "must be a number in 1…1000")
                }
            }
        }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
        return r
    }
}
