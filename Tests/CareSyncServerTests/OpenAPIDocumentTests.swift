import Foundation
import Testing
import CareSyncReferenceModel
@testable import CareSyncServer

/// The OpenAPI document is valid JSON, OpenAPI 3.1, and lists exactly the routes the server serves.
@Suite struct OpenAPIDocumentTests {
    @Test func documentMatchesTheRoutes() throws {
        let doc = try JSONValue.parse(OpenAPIDocument.bytes)
        #expect(doc["openapi"] == "3.1.0")
        let paths = try #require(doc["paths"]?.objectValue)
        var documented = Set<String>()
        for (path, item) in paths {
            for method in (item.objectValue ?? [:]).keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        let api = CareSyncAPI(store: FailingStore(storeID: "doc"), access: InMemoryAccessStore())
        let served = Set(api.routes.map { "\($0.method) \($0.pattern)" })
        // Served but documented by the lead's OpenAPI restructuring (issue 16); remove once the document has it.
        let awaitingDocument: Set = ["GET /v1/types"]
        #expect(documented == served.subtracting(awaitingDocument.subtracting(documented)))
    }

    @Test func everyErrorCodeOfTheContractIsInTheProblemSchema() throws {
        let doc = try JSONValue.parse(OpenAPIDocument.bytes)
        let codes = doc["components"]?["schemas"]?["Problem"]?["properties"]?["code"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(codes) == ["invalidJSON", "validationFailed", "invalidAnchor", "anchorExpired", "unauthorized", "forbidden", "notFound",
                               "methodNotAllowed", "payloadTooLarge", "unsupportedMediaType", "conflict", "tooManyRequests", "unavailable", "internal"])
    }
}
