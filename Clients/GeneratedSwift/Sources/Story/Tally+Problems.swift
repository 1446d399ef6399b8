import Foundation

extension Tally {
    /// Checks that an operation's `output` is the typed problem response for `status` with `code`, records
    /// the code and status as decoded, and returns the problem and its declared header fields.
    @discardableResult
    func expectProblem(_ output: Any, status: Int, code: Components.Schemas.ProblemCode) throws
        -> (problem: Components.Schemas.Problem, fields: [String: String]) {
        guard let child = Mirror(reflecting: output).children.first, let label = child.label else {
            throw StoryFailure(description: "expected \(status) \(code.rawValue), got \(output)")
        }
        guard label == problemCases[status] else {
            throw StoryFailure(description: "expected the \(problemCases[status] ?? "?") case (\(status) \(code.rawValue)), got \(label): \(child.value)")
        }
        guard let answer = child.value as? any ProblemAnswer else {
            throw StoryFailure(description: "\(label) is not a problem response: \(child.value)")
        }
        let problem = try answer.problem
        try expect(problem.code == code, "expected code \(code.rawValue), got \(problem.code.rawValue) (\(problem.detail))")
        try expect(problem.status == status, "problem status \(problem.status) ≠ \(status)")
        try expect(problem._type == "https://caresync.example/problems/\(code.rawValue)", "type \(problem._type)")
        codes.insert(problem.code)
        statuses.insert(status)
        return (problem, answer.fields)
    }
}
