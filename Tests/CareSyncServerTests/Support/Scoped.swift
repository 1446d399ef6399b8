/// Runs `body` with `resource`, then awaits `close(resource)` whatever the body does: returns, throws or is cancelled
/// (the shape of HummingbirdTesting's `app.test`). Every test server, receiver and second instance is scoped by it.
func withScoped<Resource: Sendable, Result>(_ resource: Resource, close: (Resource) async -> Void,
                                           _ body: (Resource) async throws -> Result) async throws -> Result {
    let result: Result
    do {
        result = try await body(resource)
    } catch {
        await close(resource)
        throw error
    }
    await close(resource)
    return result
}
