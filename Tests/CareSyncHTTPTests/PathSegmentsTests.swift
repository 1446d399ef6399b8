import CareSyncHTTP
import Testing

/// `PathSegments.of`: a path cut on `/`, the leading one dropped, empty segments kept.
@Suite struct PathSegmentsTests {
    @Test(arguments: [
        ("/a/b/", ["a", "b", ""]), ("/", [""]), ("", [""]), ("a/b", ["a", "b"]), ("//x", ["", "x"]),
        ("/v1/patients/p%201/changes", ["v1", "patients", "p%201", "changes"]), ("/é/ü", ["é", "ü"]),
    ])
    func cutsOnSlashes(path: String, expected: [String]) {
        #expect(PathSegments.of(path[...]).map(String.init) == expected)
    }
}
