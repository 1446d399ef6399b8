import Foundation
import Logging

extension ConfigurationKey {
    /// Checks `value` for this key and stores it in `configuration`; a bad value names the key and the source.
    func apply(
        _ value: ConfigurationValue, to configuration: inout Configuration, source: ConfigurationSource
    ) throws(ConfigurationError) {
        func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let number = value.integerValue, range.contains(number) else {
                throw invalid(value, source, "an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        func seconds() throws(ConfigurationError) -> Duration {
            guard let number = value.numberValue, number.isFinite, number > 0, number <= 86_400 else {
                throw invalid(value, source, "a number of seconds greater than 0 and at most 86400")
            }
            return .milliseconds(Int64((number * 1000).rounded(.up)))
        }
        func text() throws(ConfigurationError) -> String {
            guard let string = value.stringValue,
                  !string.allSatisfy(\.isWhitespace), !string.contains("\0") else {
                throw invalid(value, source, "a non-empty string")
            }
            return string
        }
        func boolean() throws(ConfigurationError) -> Bool {
            switch value {
            case .boolean(let flag): return flag
            case .text(let text) where ["true", "1", "yes"].contains(text.lowercased()): return true
            case .text(let text) where ["false", "0", "no"].contains(text.lowercased()): return false
            default: throw invalid(value, source, "true or false")
            }
        }
        func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws(ConfigurationError) -> T
        where T.RawValue == String {
            guard let string = value.stringValue, let chosen = T(rawValue: string.lowercased()) else {
                throw invalid(value, source, "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return chosen
        }

        switch self {
        case .host:
            let host = try text()
            guard !host.contains(where: \.isWhitespace) else {
                throw invalid(value, source, "a host name or IP address without spaces")
            }
            configuration.host = host
        case .port: configuration.port = try integer(0...65_535)
        case .database: configuration.databasePath = try text()
        case .databaseURL:
            let url = try text()
            guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
                throw invalid(value, source, "a postgresql:// URL")
            }
            configuration.databaseURL = url
        case .sqliteSynchronous: configuration.sqliteSynchronous = try choice(Configuration.SQLiteSynchronous.self)
        case .migrationsDirectory: configuration.migrationsDirectory = try text()
        case .limitsBodyBytes: configuration.limits.bodyBytes = try integer(1_024...1_073_741_824)
        case .limitsSamplesPerRequest: configuration.limits.samplesPerRequest = try integer(1...100_000)
        case .limitsReportsPerPatient: configuration.limits.reportsPerPatient = try integer(1...10_000_000)
        case .limitsRequestLineBytes: configuration.limits.requestLineBytes = try integer(64...1_048_576)
        case .limitsHeaderBytes: configuration.limits.headerBytes = try integer(256...1_048_576)
        case .limitsHeaderCount: configuration.limits.headerCount = try integer(1...10_000)
        case .timeoutsHeaderReadSeconds: configuration.timeouts.headerRead = try seconds()
        case .timeoutsBodyReadSeconds: configuration.timeouts.bodyRead = try seconds()
        case .timeoutsIdleSeconds: configuration.timeouts.idle = try seconds()
        case .timeoutsWriteSeconds: configuration.timeouts.write = try seconds()
        case .workers: configuration.workerCount = try integer(0...1_024)
        case .maxConnections: configuration.maxConnections = try integer(1...1_000_000)
        case .maxConnectionsPerAddress: configuration.maxConnectionsPerAddress = try integer(0...1_000_000)
        case .reservedProbeConnections: configuration.reservedProbeConnections = try integer(0...1_000)
        case .maxRequestsInFlight: configuration.maxRequestsInFlight = try integer(0...1_000_000)
        case .maxParkedPolls: configuration.maxParkedPolls = try integer(1...1_000_000)
        case .gzipThresholdBytes: configuration.gzipThresholdBytes = try integer(0...1_073_741_824)
        case .gzipLevel: configuration.gzipLevel = try integer(1...9)
        case .retentionTombstoneDays: configuration.tombstoneRetentionDays = try integer(1...36_500)
        case .retentionIdempotencyHours: configuration.idempotencyRetentionHours = try integer(24...8_760)
        case .alertsEvaluationSeconds: configuration.alertEvaluationSeconds = try integer(0...86_400)
        case .rateLimitTokenRequestsPerSecond: configuration.rateLimits.tokenRequestsPerSecond = try integer(0...10_000_000)
        case .rateLimitTokenBurst: configuration.rateLimits.tokenBurst = try integer(1...10_000_000)
        case .rateLimitFailedAuthPerMinute: configuration.rateLimits.failedAuthPerMinute = try integer(0...10_000_000)
        case .rateLimitFailedAuthBurst: configuration.rateLimits.failedAuthBurst = try integer(1...10_000_000)
        case .rateLimitWaitsPerToken: configuration.rateLimits.waitsPerToken = try integer(0...1_000_000)
        case .streamKeepAliveSeconds: configuration.stream.keepAlive = try seconds()
        case .streamLifetimeSeconds: configuration.stream.lifetime = try seconds()
        case .fhirPublicUrl:
            guard let url = value.stringValue, url.isEmpty || Configuration.isPublicOrigin(url) else {
                throw invalid(value, source, "empty, or an http:// or https:// origin such as https://caresync.example.org")
            }
            configuration.fhirPublicUrl = url
        case .exportDirectory:
            guard let path = value.stringValue, !path.contains("\0") else { throw invalid(value, source, "a folder path, or empty") }
            configuration.exportDirectory = path
        case .exportExpiryMinutes: configuration.exportExpiryMinutes = try integer(1...10_080)
        case .enrolmentCodeMinutes: configuration.enrolment.codeMinutes = try integer(1...1_440)
        case .enrolmentPublicUrl:
            guard let url = value.stringValue, url.isEmpty || Configuration.isPublicOrigin(url) else {
                throw invalid(value, source, "empty, or an http:// or https:// origin such as https://caresync.example.org")
            }
            configuration.enrolment.publicUrl = url
        case .enrolmentRedeemPerMinute: configuration.enrolment.redeemPerMinute = try integer(0...100_000)
        case .enrolmentRedeemBurst: configuration.enrolment.redeemBurst = try integer(1...100_000)
        case .publicOrigins:
            let list = Self.list(value)
            guard let list, list.allSatisfy(Configuration.isPublicOrigin) else {
                throw invalid(value, source, "comma-separated http:// or https:// origins such as https://caresync.example.org")
            }
            configuration.publicOrigins = list
        case .trustedProxies:
            let ranges = Self.list(value)?.map(AddressRange.init)
            guard let ranges, ranges.allSatisfy({ $0 != nil }) else {
                throw invalid(value, source, "comma-separated IP addresses or CIDR ranges such as 10.0.0.0/8, ::1")
            }
            configuration.trustedProxies = ranges.compactMap { $0 }
        case .sessionsIdleMinutes: configuration.sessions.idleTimeout = TimeInterval(try integer(1...1440) * 60)
        case .sessionsAbsoluteHours: configuration.sessions.absoluteTimeout = TimeInterval(try integer(1...168) * 3600)
        case .invitationsLifetimeHours: configuration.sessions.invitationLifetime = TimeInterval(try integer(1...720) * 3600)
        case .webAuthnRelyingPartyID:
            let id = try text().lowercased()
            guard WebAuthnSettings.isRelyingPartyID(id) else { throw invalid(value, source, "a host name such as care.clinic.example (no IP address, port or path)") }
            configuration.webAuthn.relyingPartyID = id
        case .webAuthnRelyingPartyName: configuration.webAuthn.relyingPartyName = try text()
        case .webAuthnOrigins:
            guard let list = Self.list(value), list.allSatisfy(WebAuthnSettings.isOrigin) else {
                throw invalid(value, source, "comma-separated origins (scheme://host[:port], no path) such as https://care.clinic.example")
            }
            configuration.webAuthn.origins = list.map { $0.lowercased() }
        case .webhooksAllowPrivateAddresses: configuration.webhooks.allowPrivateAddresses = try boolean()
        case .webhooksTimeoutSeconds: configuration.webhooks.timeout = .seconds(try integer(1...300))
        case .webhooksRetryInitialSeconds: configuration.webhooks.retryInitial = try seconds()
        case .webhooksRetryMaxSeconds: configuration.webhooks.retryMax = try seconds()
        case .webhooksRetryForHours: configuration.webhooks.retryForHours = try integer(1...8_760)
        case .webhooksDeliveryRetentionDays: configuration.webhooks.deliveryRetentionDays = try integer(1...3_650)
        case .webhooksMaxPendingDeliveries: configuration.webhooks.maxPendingDeliveries = try integer(2...10_000_000)
        case .oidcIssuer, .oidcRedirectUri:
            guard let url = value.stringValue, url.isEmpty || OpenIDConnectSettings.isProviderURL(url) else {
                throw invalid(value, source, "empty, or an https:// URL (http:// only on loopback) without query or fragment")
            }
            if self == .oidcIssuer { configuration.oidc.issuer = url } else { configuration.oidc.redirectURI = url }
        case .oidcClientId, .oidcClientSecret, .oidcClientSecretFile:
            guard let text = value.stringValue, !text.contains(where: { $0.isNewline || $0 == "\0" }), text.utf8.count <= 1024 else {
                throw invalid(value, source, "a string of at most 1024 bytes on one line")
            }
            switch self {
            case .oidcClientId: configuration.oidc.clientID = text
            case .oidcClientSecret: configuration.oidc.clientSecret = text
            default: configuration.oidc.clientSecretFile = text
            }
        case .oidcDisplayName:
            let name = try text()
            guard name.utf8.count <= 100 else { throw invalid(value, source, "a label of at most 100 bytes") }
            configuration.oidc.displayName = name
        case .oidcScopes:
            let scopes = try text()
            guard scopes.split(separator: " ").contains("openid"), scopes.allSatisfy({ $0.isASCII && !$0.isNewline && $0 != "\"" }) else {
                throw invalid(value, source, "space-separated scopes including openid")
            }
            configuration.oidc.scopes = scopes
        case .oidcClockSkewSeconds: configuration.oidc.clockSkewSeconds = try integer(0...600)
        case .logLevel: configuration.logLevel = try choice(Logger.Level.self)
        case .logFormat: configuration.logFormat = try choice(Configuration.LogFormat.self)
        }
    }

    /// This key's value in `configuration` as a JSON literal (for documentation and start-up logs).
    public func jsonValue(in configuration: Configuration) -> String {
        func string(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        func seconds(_ duration: Duration) -> String {
            let (whole, attoseconds) = duration.components
            if attoseconds == 0 { return String(whole) }
            return String(Double(whole) + Double(attoseconds) / 1e18)
        }
        switch self {
        case .host: return string(configuration.host)
        case .port: return String(configuration.port)
        case .database: return string(configuration.databasePath)
        case .databaseURL: return configuration.databaseURL.map(string) ?? "null"
        case .sqliteSynchronous: return string(configuration.sqliteSynchronous.rawValue)
        case .migrationsDirectory: return string(configuration.migrationsDirectory)
        case .limitsBodyBytes: return String(configuration.limits.bodyBytes)
        case .limitsSamplesPerRequest: return String(configuration.limits.samplesPerRequest)
        case .limitsReportsPerPatient: return String(configuration.limits.reportsPerPatient)
        case .limitsRequestLineBytes: return String(configuration.limits.requestLineBytes)
        case .limitsHeaderBytes: return String(configuration.limits.headerBytes)
        case .limitsHeaderCount: return String(configuration.limits.headerCount)
        case .timeoutsHeaderReadSeconds: return seconds(configuration.timeouts.headerRead)
        case .timeoutsBodyReadSeconds: return seconds(configuration.timeouts.bodyRead)
        case .timeoutsIdleSeconds: return seconds(configuration.timeouts.idle)
        case .timeoutsWriteSeconds: return seconds(configuration.timeouts.write)
        case .workers: return String(configuration.workerCount)
        case .maxConnections: return String(configuration.maxConnections)
        case .maxConnectionsPerAddress: return String(configuration.maxConnectionsPerAddress)
        case .reservedProbeConnections: return String(configuration.reservedProbeConnections)
        case .maxRequestsInFlight: return String(configuration.maxRequestsInFlight)
        case .maxParkedPolls: return String(configuration.maxParkedPolls)
        case .gzipThresholdBytes: return String(configuration.gzipThresholdBytes)
        case .gzipLevel: return String(configuration.gzipLevel)
        case .retentionTombstoneDays: return String(configuration.tombstoneRetentionDays)
        case .retentionIdempotencyHours: return String(configuration.idempotencyRetentionHours)
        case .alertsEvaluationSeconds: return String(configuration.alertEvaluationSeconds)
        case .rateLimitTokenRequestsPerSecond: return String(configuration.rateLimits.tokenRequestsPerSecond)
        case .rateLimitTokenBurst: return String(configuration.rateLimits.tokenBurst)
        case .rateLimitFailedAuthPerMinute: return String(configuration.rateLimits.failedAuthPerMinute)
        case .rateLimitFailedAuthBurst: return String(configuration.rateLimits.failedAuthBurst)
        case .rateLimitWaitsPerToken: return String(configuration.rateLimits.waitsPerToken)
        case .streamKeepAliveSeconds: return seconds(configuration.stream.keepAlive)
        case .streamLifetimeSeconds: return seconds(configuration.stream.lifetime)
        case .fhirPublicUrl: return string(configuration.fhirPublicUrl)
        case .exportDirectory: return string(configuration.exportDirectory)
        case .exportExpiryMinutes: return String(configuration.exportExpiryMinutes)
        case .enrolmentCodeMinutes: return String(configuration.enrolment.codeMinutes)
        case .enrolmentPublicUrl: return string(configuration.enrolment.publicUrl)
        case .enrolmentRedeemPerMinute: return String(configuration.enrolment.redeemPerMinute)
        case .enrolmentRedeemBurst: return String(configuration.enrolment.redeemBurst)
        case .publicOrigins: return string(configuration.publicOrigins.joined(separator: ","))
        case .trustedProxies: return string(configuration.trustedProxies.map(\.description).joined(separator: ","))
        case .sessionsIdleMinutes: return String(Int(configuration.sessions.idleTimeout / 60))
        case .sessionsAbsoluteHours: return String(Int(configuration.sessions.absoluteTimeout / 3600))
        case .invitationsLifetimeHours: return String(Int(configuration.sessions.invitationLifetime / 3600))
        case .webAuthnRelyingPartyID: return string(configuration.webAuthn.relyingPartyID)
        case .webAuthnRelyingPartyName: return string(configuration.webAuthn.relyingPartyName)
        case .webAuthnOrigins: return string(configuration.webAuthn.origins.joined(separator: ","))
        case .webhooksAllowPrivateAddresses: return String(configuration.webhooks.allowPrivateAddresses)
        case .webhooksTimeoutSeconds: return seconds(configuration.webhooks.timeout)
        case .webhooksRetryInitialSeconds: return seconds(configuration.webhooks.retryInitial)
        case .webhooksRetryMaxSeconds: return seconds(configuration.webhooks.retryMax)
        case .webhooksRetryForHours: return String(configuration.webhooks.retryForHours)
        case .webhooksDeliveryRetentionDays: return String(configuration.webhooks.deliveryRetentionDays)
        case .webhooksMaxPendingDeliveries: return String(configuration.webhooks.maxPendingDeliveries)
        case .oidcIssuer: return string(configuration.oidc.issuer)
        case .oidcClientId: return string(configuration.oidc.clientID)
        case .oidcClientSecret: return string(configuration.oidc.clientSecret.isEmpty ? "" : "(set)")   // never shown
        case .oidcClientSecretFile: return string(configuration.oidc.clientSecretFile)
        case .oidcRedirectUri: return string(configuration.oidc.redirectURI)
        case .oidcDisplayName: return string(configuration.oidc.displayName)
        case .oidcScopes: return string(configuration.oidc.scopes)
        case .oidcClockSkewSeconds: return String(configuration.oidc.clockSkewSeconds)
        case .logLevel: return string(configuration.logLevel.rawValue)
        case .logFormat: return string(configuration.logFormat.rawValue)
        }
    }

    /// A comma-separated list (empty items dropped); nil when `value` is not a string.
    static func list(_ value: ConfigurationValue) -> [String]? {
        value.stringValue.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// The error for a value this key does not accept.
    private func invalid(
        _ value: ConfigurationValue, _ source: ConfigurationSource, _ expected: String
    ) -> ConfigurationError {
        .invalidValue(key: rawValue, value: value.shown, source: source, expected: expected)
    }
}

extension ConfigurationValue {
    /// An integer, from JSON or from decimal text.
    var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .number(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        case .text(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A number, from JSON or from decimal text.
    var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .text(let text): Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A string, from a JSON string or text; never from a JSON number or boolean.
    var stringValue: String? {
        switch self {
        case .text(let text), .string(let text): text
        default: nil
        }
    }
}
