import Foundation

/// A failed expectation of the story, with what was expected and what came.
struct StoryFailure: Error, CustomStringConvertible {
    let description: String
}

/// Fails the current step with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw StoryFailure(description: message()) }
}
