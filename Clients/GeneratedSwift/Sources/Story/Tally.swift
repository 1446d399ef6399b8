import Foundation

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
