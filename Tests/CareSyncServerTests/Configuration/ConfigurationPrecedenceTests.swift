import Foundation
import Testing
@testable import CareSyncServer

@Suite struct ConfigurationPrecedenceTests {
    @Test func defaultsAreTheContractDefaults() throws {
        let configuration = try Configuration.load(environment: [:])
        #expect(configuration == Configuration())
        #expect(configuration.port == 8080)
        #expect(configuration.databasePath == "./data/caresync.sqlite")
        #expect(configuration.limits.bodyBytes == 8 * 1024 * 1024)
        #expect(configuration.limits.samplesPerRequest == 5_000)
        #expect(configuration.limits.requestLineBytes == 8 * 1024)
        #expect(configuration.limits.headerBytes == 16 * 1024)
        #expect(configuration.limits.headerCount == 100)
        #expect(configuration.gzipThresholdBytes == 1024)
        #expect(configuration.idempotencyRetentionHours == 24)
        #expect(configuration.logFormat == .text)
    }

    /// Every combination of file, environment and flag setting the port: the highest present source wins.
    @Test(arguments: 0..<8)
    func flagBeatsEnvironmentBeatsFileBeatsDefault(mask: Int) throws {
        let useFile = mask & 1 != 0, useEnvironment = mask & 2 != 0, useFlag = mask & 4 != 0
        let file = try TemporaryFile.make(contents: #"{"port": 1111}"#)
        defer { file.remove() }
        let configuration = try Configuration.load(
            configFile: useFile ? file.path : nil,
            environment: useEnvironment ? ["CARESYNC_PORT": "2222"] : [:],
            flags: useFlag ? [.port: "3333"] : [:])
        let expected = useFlag ? 3333 : useEnvironment ? 2222 : useFile ? 1111 : 8080
        #expect(configuration.port == expected, "mask \(mask)")
    }

    /// A non-default value for every key, as text and as the JSON literal it must become.
    static let changedValues: [(ConfigurationKey, text: String, json: String)] = [
        (.host, "0.0.0.0", #""0.0.0.0""#), (.port, "9090", "9090"), (.database, "/data/cs.sqlite", #""/data/cs.sqlite""#),
        (.databaseURL, "postgresql://caresync@db/caresync", #""postgresql://caresync@db/caresync""#),
        (.sqliteSynchronous, "normal", #""normal""#), (.migrationsDirectory, "/app/migrations", #""/app/migrations""#),
        (.limitsBodyBytes, "1048576", "1048576"), (.limitsSamplesPerRequest, "100", "100"), (.limitsReportsPerPatient, "50", "50"),
        (.limitsRequestLineBytes, "4096", "4096"), (.limitsHeaderBytes, "8192", "8192"), (.limitsHeaderCount, "50", "50"),
        (.timeoutsHeaderReadSeconds, "2.5", "2.5"), (.timeoutsBodyReadSeconds, "7", "7"),
        (.timeoutsIdleSeconds, "15", "15"), (.timeoutsWriteSeconds, "3", "3"), (.workers, "4", "4"),
        (.maxConnections, "64", "64"), (.maxConnectionsPerAddress, "0", "0"), (.reservedProbeConnections, "2", "2"),
        (.maxRequestsInFlight, "2048", "2048"), (.maxParkedPolls, "20000", "20000"),
        (.gzipThresholdBytes, "0", "0"), (.gzipLevel, "6", "6"), (.retentionTombstoneDays, "30", "30"),
        (.retentionIdempotencyHours, "48", "48"), (.alertsEvaluationSeconds, "60", "60"),
        (.rateLimitTokenRequestsPerSecond, "10", "10"), (.rateLimitTokenBurst, "20", "20"),
        (.rateLimitFailedAuthPerMinute, "0", "0"), (.rateLimitFailedAuthBurst, "5", "5"),
        (.rateLimitWaitsPerToken, "3", "3"),
        (.fhirPublicUrl, "https://caresync.example.org", #""https://caresync.example.org""#),
        (.exportDirectory, "/var/lib/caresync/exports", #""/var/lib/caresync/exports""#), (.exportExpiryMinutes, "15", "15"),
        (.enrolmentCodeMinutes, "20", "20"), (.enrolmentPublicUrl, "https://caresync.example.org", #""https://caresync.example.org""#),
        (.enrolmentRedeemPerMinute, "5", "5"), (.enrolmentRedeemBurst, "3", "3"),
        (.publicOrigins, "https://caresync.example.org", #""https://caresync.example.org""#),
        (.trustedProxies, "10.0.0.0/8", #""10.0.0.0/8""#),
        (.sessionsIdleMinutes, "15", "15"), (.sessionsAbsoluteHours, "8", "8"), (.invitationsLifetimeHours, "24", "24"),
        (.webAuthnRelyingPartyID, "care.clinic.example", #""care.clinic.example""#), (.webAuthnRelyingPartyName, "Clinic", #""Clinic""#),
        (.webAuthnOrigins, "https://care.clinic.example", #""https://care.clinic.example""#),
        (.webhooksAllowPrivateAddresses, "true", "true"), (.webhooksTimeoutSeconds, "3", "3"),
        (.webhooksRetryInitialSeconds, "0.25", "0.25"), (.webhooksRetryMaxSeconds, "60", "60"), (.webhooksRetryForHours, "1", "1"),
        (.webhooksDeliveryRetentionDays, "30", "30"),
        (.webhooksMaxPendingDeliveries, "500", "500"),
        (.oidcIssuer, "https://login.clinic.example/tenant", #""https://login.clinic.example/tenant""#),
        (.oidcClientId, "caresync", #""caresync""#), (.oidcClientSecret, "s3cret", #""(set)""#),
        (.oidcClientSecretFile, "/run/secrets/oidc", #""/run/secrets/oidc""#),
        (.oidcRedirectUri, "https://caresync.example.org/v1/oidc/callback", #""https://caresync.example.org/v1/oidc/callback""#),
        (.oidcDisplayName, "Sign in with Entra ID", #""Sign in with Entra ID""#), (.oidcScopes, "openid email", #""openid email""#),
        (.oidcClockSkewSeconds, "30", "30"),
        (.streamKeepAliveSeconds, "0.5", "0.5"), (.streamLifetimeSeconds, "60", "60"), (.logLevel, "debug", #""debug""#), (.logFormat, "json", #""json""#),
    ]

    @Test func everyKeyHasAChangedValueInTheTable() {
        #expect(Set(Self.changedValues.map(\.0)) == Set(ConfigurationKey.allCases))
        for (key, _, json) in Self.changedValues {
            #expect(key.jsonValue(in: Configuration()) != json, "\(key) default equals its changed value")
        }
    }

    @Test(arguments: changedValues)
    func everyKeyIsSettableFromEachSource(key: ConfigurationKey, text: String, json: String) throws {
        let fromEnvironment = try Configuration.load(environment: [key.environmentVariable: text])
        #expect(key.jsonValue(in: fromEnvironment) == json)
        let fromFlag = try Configuration.load(environment: [:], flags: [key: text])
        #expect(key.jsonValue(in: fromFlag) == json)
        let fromNamedFlag = try Configuration.load(environment: [:], namedFlags: [key.flagName: text])
        #expect(key.jsonValue(in: fromNamedFlag) == json)

        let file = try TemporaryFile.make(contents: Self.nestedJSON(key: key, literal: json))
        defer { file.remove() }
        let fromFile = try Configuration.load(configFile: file.path, environment: [:])
        #expect(key.jsonValue(in: fromFile) == json)
        // Only the one key changed.
        for other in ConfigurationKey.allCases where other != key {
            #expect(other.jsonValue(in: fromFile) == other.jsonValue(in: Configuration()))
        }
    }

    @Test func environmentVariableNamesFollowTheKeys() {
        #expect(ConfigurationKey.database.environmentVariable == "CARESYNC_DATABASE")
        #expect(ConfigurationKey.databaseURL.environmentVariable == "CARESYNC_DATABASE_URL")
        #expect(ConfigurationKey.limitsBodyBytes.environmentVariable == "CARESYNC_LIMITS_BODY_BYTES")
        #expect(ConfigurationKey.retentionTombstoneDays.environmentVariable == "CARESYNC_RETENTION_TOMBSTONE_DAYS")
        #expect(ConfigurationKey.logFormat.flagName == "log-format")
        #expect(ConfigurationKey(name: "limits-body-bytes") == .limitsBodyBytes)
        #expect(ConfigurationKey(name: "limits.bodyBytes") == .limitsBodyBytes)
    }

    @Test func configFileFromEnvironmentAndExplicitPathWins() throws {
        let viaEnvironment = try TemporaryFile.make(contents: #"{"port": 4000}"#)
        defer { viaEnvironment.remove() }
        let explicit = try TemporaryFile.make(contents: #"{"port": 5000}"#)
        defer { explicit.remove() }
        let environment = ["CARESYNC_CONFIG": viaEnvironment.path]
        #expect(try Configuration.load(environment: environment).port == 4000)
        #expect(try Configuration.load(configFile: explicit.path, environment: environment).port == 5000)
    }

    @Test func exampleFileDocumentsEveryKeyWithItsDefault() throws {
        let example = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/caresync.example.json").path
        let text = try String(contentsOfFile: example, encoding: .utf8)
        #expect(try Configuration.load(configFile: example, environment: [:]) == Configuration())
        // `database` is a path or {"url": …}, never both: the example shows the path (the default) and its comment the URL.
        for key in ConfigurationKey.allCases where key != .databaseURL {
            let leaf = key.rawValue.split(separator: ".").last!
            #expect(text.contains("\"\(leaf)\": \(key.jsonValue(in: Configuration()))"), "\(key.rawValue) missing")
        }
    }

    /// `{"limits": {"bodyBytes": 5}}` for `limits.bodyBytes`.
    static func nestedJSON(key: ConfigurationKey, literal: String) -> String {
        let parts = key.rawValue.split(separator: ".")
        var json = "{\"\(parts.last!)\": \(literal)}"
        for part in parts.dropLast().reversed() { json = "{\"\(part)\": \(json)}" }
        return json
    }
}
