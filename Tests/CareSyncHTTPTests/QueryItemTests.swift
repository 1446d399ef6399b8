import CareSyncHTTP
import Testing

/// A request-target's query: split on `&` and the first `=`, percent-decoded, `+` kept, in order.
@Suite struct QueryItemTests {
    /// The query items of `target`, as (name, value) pairs.
    static func items(_ target: String) -> [QueryItem] {
        RequestHead(method: .get, target: target).query
    }

    @Test(arguments: [
        ("/p?a=1&b=x%20y&c", [QueryItem(name: "a", value: "1"), QueryItem(name: "b", value: "x y"), QueryItem(name: "c", value: nil)]),
        ("/p?&&a=&=v&", [QueryItem(name: "a", value: ""), QueryItem(name: "", value: "v")]),
        ("/p?k=a=b&k=2", [QueryItem(name: "k", value: "a=b"), QueryItem(name: "k", value: "2")]),
        ("/p?plus=a+b&bad=%zz%4&ok=%41%62", [QueryItem(name: "plus", value: "a+b"), QueryItem(name: "bad", value: "%zz%4"),
                                            QueryItem(name: "ok", value: "Ab")]),
        ("/p?é=ü&ß=%C3%A9&x", [QueryItem(name: "é", value: "ü"), QueryItem(name: "ß", value: "é"), QueryItem(name: "x", value: nil)]),
        ("/p?e\u{301}=1", [QueryItem(name: "e\u{301}", value: "1")]),
        ("/p", []),
        ("/p?", []),
    ])
    func splitsAndDecodesInOrder(target: String, expected: [QueryItem]) {
        #expect(Self.items(target) == expected)
    }

    @Test func thePathStopsAtTheFirstQuestionMark() {
        let head = RequestHead(method: .get, target: "/v1/patients/p%201/changes?anchor=a?b&limit=5")
        #expect(head.path == "/v1/patients/p%201/changes")
        #expect(head.queryValue("anchor") == "a?b")
        #expect(head.queryValue("limit") == "5")
    }
}
