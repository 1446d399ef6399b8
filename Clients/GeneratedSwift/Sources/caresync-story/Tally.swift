import Foundation

/// A failed expectation of the story, with what was expected and what came.
struct StoryFailure: Error, CustomStringConvertible {
    let description: String
}

/// Fails the current step with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw StoryFailure(description: message()) }
}

/// Counts passed and failed steps, and the problem codes and statuses the generated client decoded.
@MainActor final class Tally {
    private(set) var passed = 0
    private(set) var failed = 0
    /// Every problem code decoded so far.
    var codes: Set<Components.Schemas.ProblemCode> = []
    /// Every problem status decoded so far.
    var statuses: Set<Int> = []

    /// Runs one step: prints `ok` or `FAIL` with the reason; a thrown error fails only this step.
    func step(_ name: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            passed += 1
            print("ok - \(name)")
        } catch {
            failed += 1
            print("FAIL - \(name): \(error)")
        }
    }
}
