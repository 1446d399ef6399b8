import CareSyncCore
import Foundation

extension CareSyncAPI {
    /// The sign-in methods, OpenID Connect's start and callback (404 while `oidc.issuer` is unset) and the admin API
    /// of people's identities.
    static func openIDConnectRoutes(gate: AccessGate, calls: StoreCalls, clock: ServerClock,
                                    limits: APILimits, ceremonies: any PendingCeremonyStore) -> [APIRoute] {
        let settings = limits.openIDConnect
        let provider = settings.isEnabled ? OIDCProvider(settings: settings, clientSecret: limits.openIDConnectSecret, clock: clock) : nil
        return SignInMethodsController(openIDConnectName: settings.isEnabled ? settings.displayName : nil).routes
            + OIDCController(gate: gate, calls: calls, clock: clock, provider: provider, logins: OIDCLogins(store: ceremonies),
                             linkOrigin: limits.publicOrigins.first).routes
            + IdentitiesController(gate: gate, calls: calls, clock: clock, issuer: settings.isEnabled ? settings.issuer : nil).routes
    }
}
