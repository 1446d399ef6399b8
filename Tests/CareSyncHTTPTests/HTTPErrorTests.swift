import Foundation
import HTTPTypes
import Testing
@testable import CareSyncHTTP

@Suite struct HTTPErrorTests {
    @Test func rendersEveryRFC9457Field() throws {
        let error = HTTPError.validationFailed(
            [FieldError(index: 2, field: "unit", message: "kg is not a length \"unit\""), FieldError(message: "x")],
            detail: "2 samples are invalid")
        let response = error.response()
        #expect(response.status.code == 422)
        #expect(response.headers[.contentType] == "application/problem+json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body.bytes ?? [])) as? [String: Any])
        #expect(json["type"] as? String == "https://caresync.example/problems/validationFailed")
        #expect(json["title"] as? String == "Validation failed")
        #expect(json["status"] as? Int == 422)
        #expect(json["detail"] as? String == "2 samples are invalid")
        #expect(json["code"] as? String == "validationFailed")
        let errors = try #require(json["errors"] as? [[String: Any]])
        #expect(errors.count == 2)
        #expect(errors[0]["index"] as? Int == 2)
        #expect(errors[0]["field"] as? String == "unit")
        #expect(errors[0]["message"] as? String == "kg is not a length \"unit\"")
        // Every item has all three members; an absent index or field is null, not missing.
        #expect(errors[1]["index"] is NSNull)
        #expect(errors[1]["field"] is NSNull)
        #expect(errors[1]["message"] as? String == "x")
    }

    @Test func everyProblemHasAllSixMembersAndTheTypeOfItsCode() throws {
        for error in [HTTPError(.requestTimeout, code: .requestTimeout), .internal, .notFound(), .unavailable()] {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(error.jsonText.utf8)) as? [String: Any])
            #expect(Set(json.keys) == ["type", "title", "status", "detail", "code", "errors"])
            #expect(json["type"] as? String == "https://caresync.example/problems/" + error.code.rawValue)
            #expect((json["detail"] as? String)?.isEmpty == false)
        }
    }

    @Test func unavailableAndTooManyRequestsCarryRetryAfter() {
        #expect(HTTPError.unavailable("busy").headers[.retryAfter] == "1")
        #expect(HTTPError(.tooManyRequests, code: "tooManyRequests", headers: [.retryAfter: "7"]).headers[.retryAfter] == "7")
        #expect(HTTPError.notFound().headers[.retryAfter] == nil)
    }

    @Test func quotesControlCharacters() throws {
        let text = HTTPError(.badRequest, code: .invalidJSON, detail: "line\n\u{1}tab\t\\").jsonText
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["detail"] as? String == "line\n\u{1}tab\t\\")
    }

    @Test func gzipRoundTripAndBomb() throws {
        let original = Array(String(repeating: "weekly report ", count: 500).utf8)
        let packed = try #require(Gzip.compress(original))
        #expect(packed.count < original.count / 10)
        #expect(try Gzip.decompress(packed, limit: original.count) == original)
        #expect(throws: Gzip.Failure.tooLarge) { try Gzip.decompress(packed, limit: original.count - 1) }
        #expect(throws: Gzip.Failure.corrupt) { try Gzip.decompress(Array(packed.dropLast(9)), limit: 1 << 20) }
        #expect(Gzip.accepts("br, gzip;q=0.5"))
        #expect(!Gzip.accepts("gzip;q=0, br"))
    }

    @Test func gzipRequestBodiesAreInflatedInMemory() async throws {
        let client = InMemoryClient(responder: TestServer.router(), configuration: HTTPServer.Configuration(maxBodySize: 4096))
        let plain = Array("{\"samples\":[]}".utf8)
        let ok = await client.send(.post, "/echo", headers: [.contentEncoding: "gzip"], body: try #require(Gzip.compress(plain)))
        #expect(ok.body == plain)
        let bomb = try #require(Gzip.compress([UInt8](repeating: 0, count: 100_000)))
        let refused = await client.send(.post, "/echo", headers: [.contentEncoding: "gzip"], body: bomb)
        #expect(refused.status == .contentTooLarge)
        #expect(refused.text.contains("payloadTooLarge"))
        let brotli = await client.send(.post, "/echo", headers: [.contentEncoding: "br"], body: plain)
        #expect(brotli.status == .unsupportedMediaType)
    }
}

@Suite struct ResponseEncoderTests {
    @Test func bareCodesGetTheirStandardReasonPhrase() {
        let head = ResponseEncoder.head(
            status: HTTPResponse.Status(code: 409), headers: [:], framing: .length(0), close: false, http10KeepAlive: false)
        #expect(String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 409 Conflict\r\n"))
        #expect(ResponseEncoder.reason(for: 422) == "Unprocessable Content")
        #expect(ResponseEncoder.reason(for: 299) == "Status 299")
    }

    @Test func serverOwnedFieldsAreNotTakenFromTheApplication() {
        let head = String(decoding: ResponseEncoder.head(
            status: .ok, headers: [.contentLength: "999", .connection: "keep-alive", .contentType: "text/plain"],
            framing: .length(5), close: true, http10KeepAlive: false), as: UTF8.self)
        #expect(head.contains("Content-Type: text/plain\r\n"))
        #expect(head.contains("Content-Length: 5\r\n"))
        #expect(!head.contains("999"))
        #expect(head.contains("Connection: close\r\n"))
        #expect(!head.contains("keep-alive"))
        for name in ["Date", "Keep-Alive", "Transfer-Encoding", "TRANSFER-ENCODING", "content-length", "Connection"] {
            #expect(ResponseEncoder.isOwned(HTTPField.Name(name)!), "\(name)")
        }
        for name in ["Dates", "Content-Type", "Content-Location", "Connections", "X-Request-ID", "Vary"] {
            #expect(!ResponseEncoder.isOwned(HTTPField.Name(name)!), "\(name)")
        }
    }

    @Test func theRequestIDIsWrittenAfterTheApplicationsFieldsUnlessTheyNameOne() {
        let added = String(decoding: ResponseEncoder.head(
            status: .ok, headers: [.contentType: "text/plain"], requestID: "r-1", framing: .length(0), close: false,
            http10KeepAlive: false), as: UTF8.self)
        #expect(added.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Request-ID: r-1\r\nDate: "), "\(added)")
        let own = String(decoding: ResponseEncoder.head(
            status: .ok, headers: [HTTPField.Name("x-request-id")!: "mine"], requestID: "r-2", framing: .length(0),
            close: false, http10KeepAlive: false), as: UTF8.self)
        #expect(own.contains("x-request-id: mine\r\n") && !own.contains("r-2"), "\(own)")
    }
}
