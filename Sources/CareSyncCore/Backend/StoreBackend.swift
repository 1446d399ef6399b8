/// A database the stores live in, opened and migrated from `StoreSettings`: the API serves from its stores and
/// never learns which database holds them (implementations: `CareSyncBackends`, one per database).
public protocol StoreBackend: Sendable {
    /// Opens the database `settings` names, creating and migrating it as needed; refuses to start on one it cannot use.
    static func open(_ settings: StoreSettings) throws -> Self
    /// Applies the pending migrations; returns the names applied.
    static func migrate(_ settings: StoreSettings) throws -> [String]
    /// Copies the database consistently to `path`, even while a server runs on it.
    static func backup(_ settings: StoreSettings, to path: String) throws

    /// The sync store: feed, writes, statistics, job leases, readiness (`checkWritable`) and the change notifier.
    var sync: any SyncStore { get }
    /// Patients, care teams, tokens and the audit log.
    var access: any AccessStore { get }
    /// Webhook subscriptions and their deliveries.
    var webhooks: any WebhookStore { get }
    /// Monitoring episodes and review minutes.
    var monitoring: any MonitoringStore { get }
    /// Registered passkeys (WebAuthn credentials).
    var passkeys: any PasskeyStore { get }
    /// Care teams' alert rules and their alerts.
    var alerts: any AlertStore { get }
    /// The erasure of a patient across every table of the database.
    var erasure: any ErasureStore { get }
    /// Device enrolments and the display names of enrolled sources.
    var enrolments: any EnrolmentStore { get }
    /// Passkey challenges and OpenID Connect sign-ins in progress, shared by every instance over the database.
    var ceremonies: any PendingCeremonyStore { get }
    /// FHIR bulk export records, shared by every instance over the database.
    var bulkExports: any BulkExportStore { get }
}
