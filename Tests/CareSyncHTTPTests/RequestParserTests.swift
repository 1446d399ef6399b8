import Testing
@testable import CareSyncHTTP

@Suite struct RequestParserTests {
    static let valid: [String] = [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /v1/patients/p1/changes?anchor=abc&wait=5 HTTP/1.1\r\nHost: example.org\r\nAccept: */*\r\nX-Empty:\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
        "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value;q=\"a\\\"b\"\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
        "\r\nGET /x HTTP/1.0\r\n\r\n",
        "GET http://example.org/p?q=1 HTTP/1.1\r\nHost: example.org\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nokGET /3 HTTP/1.1\r\nHost: a\r\n\r\n",
    ]

    @Test(arguments: valid)
    func splittingAtEveryByteGivesTheSameResult(_ text: String) {
        let whole = ParserHarness.run(text)
        #expect(whole.error == nil)
        #expect(!whole.heads.isEmpty)
        #expect(whole.heads.count == whole.bodies.count)
        #expect(whole.leftover == 0)
        for cut in 1..<text.utf8.count {
            #expect(ParserHarness.run(text, cuts: [cut]) == whole, "cut at \(cut)")
        }
        #expect(ParserHarness.run(text, cuts: Array(1..<text.utf8.count)) == whole, "byte by byte")
    }

    @Test func parsesHeadFieldsAndBody() throws {
        let outcome = ParserHarness.run(Self.valid[3])
        let head = try #require(outcome.heads.first)
        #expect(head.method == "POST")
        #expect(head.target == "/echo")
        #expect(head.chunked)
        #expect(head.contentLength == nil)
        #expect(head.fields.map(\.name) == ["Host", "Transfer-Encoding"])
        #expect(outcome.bodies == [Array("hello world".utf8)])
    }

    @Test func keepAliveFollowsVersionAndConnection() throws {
        #expect(ParserHarness.run("GET / HTTP/1.1\r\nHost: a\r\n\r\n").heads.first?.keepAlive == true)
        #expect(ParserHarness.run("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").heads.first?.keepAlive == false)
        #expect(ParserHarness.run("GET / HTTP/1.0\r\n\r\n").heads.first?.keepAlive == false)
        #expect(ParserHarness.run("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").heads.first?.keepAlive == true)
    }

    @Test func absoluteFormBecomesOriginForm() {
        #expect(ParserHarness.run(Self.valid[5]).heads.first?.target == "/p?q=1")
        #expect(ParserHarness.run("GET http://h HTTP/1.1\r\nHost: h\r\n\r\n").heads.first?.target == "/")
    }

    @Test func expectContinueIsRecognised() {
        let head = ParserHarness.run("POST /e HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\n").heads.first
        #expect(head?.expectContinue == true)
    }

    @Test func limitsGive414And431() {
        let limits = ParserLimits(maxRequestLineLength: 64, maxHeaderSize: 128, maxHeaderCount: 3, maxBodySize: 10)
        let longLine = "GET /" + String(repeating: "a", count: 64) + " HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(ParserHarness.run(longLine, limits: limits).error == .uriTooLong)
        // Without any LF yet: detected before the line ends.
        #expect(ParserHarness.run(String(repeating: "a", count: 100), limits: limits).error == .uriTooLong)
        let manyFields = "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
        #expect(ParserHarness.run(manyFields, limits: limits).error == .headersTooLarge)
        let bigField = "GET / HTTP/1.1\r\nHost: a\r\nA: " + String(repeating: "x", count: 200) + "\r\n\r\n"
        #expect(ParserHarness.run(bigField, limits: limits).error == .headersTooLarge)
        #expect(ParserHarness.run("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits).error == .bodyTooLarge)
        let chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nabcdef\r\n0\r\n\r\n"
        #expect(ParserHarness.run(chunked, limits: limits).error == .bodyTooLarge)
    }

    @Test(arguments: SmugglingCase.all)
    func rejectsMalformedFraming(_ testCase: SmugglingCase) {
        let outcome = ParserHarness.run(testCase.raw)
        #expect(outcome.error?.statusCode == testCase.status, "\(testCase.name)")
        // The error is the first thing reported: no head of a smuggled request before it.
        #expect(outcome.heads.count <= 1)
    }

    @Test func parserRefusesToContinueAfterAnError() {
        var parser = RequestParser()
        let bad = Array("GET / HTTP/1.1\r\nHost : a\r\n\r\n".utf8)
        #expect(throws: ParseError.self) { _ = try bad.withUnsafeBufferPointer { try parser.parse($0) } }
        let good = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        #expect(throws: ParseError.self) { _ = try good.withUnsafeBufferPointer { try parser.parse($0) } }
    }
}
