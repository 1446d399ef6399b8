extension CareSyncAPI {
    /// The FHIR R4 controller over this API's stores, reach check, authentication and audit log.
    var fhir: FHIRController {
        FHIRController(store: store, access: access, authenticator: authenticator,
                       authenticate: { [self] request, context in try await self.authenticate(request, context) },
                       audit: audit, executor: executor, clock: clock, publicURL: limits.fhirPublicURL)
    }
}
