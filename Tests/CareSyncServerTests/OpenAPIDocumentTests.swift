import Foundation
import Testing
import CareSyncCore
import CareSyncHTTP
import CareSyncReferenceModel
@testable import CareSyncServer

/// The OpenAPI document is valid JSON, OpenAPI 3.1, lists exactly the routes the server serves, and is typed
/// the way generated clients need it (problems, statuses, headers, instants, lists).
@Suite struct OpenAPIDocumentTests {
    let doc: JSONValue

    init() throws { doc = try JSONValue.parse(OpenAPIDocument.bytes) }

    /// Every operation as (method, path, operation object).
    var operations: [(method: String, path: String, operation: JSONValue)] {
        let paths = doc["paths"]?.objectValue ?? [:]
        return paths.flatMap { path, item in
            (item.objectValue ?? [:]).map { (method: $0.key.uppercased(), path: path, operation: $0.value) }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    /// The value a local `#/…` reference points at, or the value itself when it is no reference.
    func resolve(_ value: JSONValue) -> JSONValue {
        guard let ref = value["$ref"]?.stringValue, ref.hasPrefix("#/") else { return value }
        var node: JSONValue? = doc
        for part in ref.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node.map(resolve) ?? .null
    }

    @Test func documentMatchesTheRoutes() throws {
        #expect(doc["openapi"] == "3.1.0")
        let documented = Set(operations.map { "\($0.method) \($0.path)" })
        let access = InMemoryAccessStore(), sync = InMemorySyncStore(access: access)
        let api = CareSyncAPI(store: FailingStore(storeID: "doc"), access: access, webhooks: InMemoryWebhookStore(sync: sync, access: access))
        let served = Set(api.routes.map { "\($0.method) \($0.pattern)" })
        #expect(documented == served)
    }

    @Test func theSampleTypeEnumIsTheCatalogue() throws {
        let types = doc["components"]?["schemas"]?["SampleType"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(types == SampleType.all.map(\.rawValue))
        let options = doc["components"]?["schemas"]?["StatisticsOption"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(options == StatisticsOptions.byName.map(\.name))
    }

    @Test func everyErrorCodeIsInTheProblemSchema() throws {
        let problem = try #require(doc["components"]?["schemas"]?["Problem"])
        let codes = resolve(try #require(problem["properties"]?["code"]))["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(codes == ProblemCode.all.map(\.rawValue))
        let required = Set(problem["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(required == ["type", "title", "status", "detail", "code", "errors"])
        let item = resolve(try #require(problem["properties"]?["errors"]?["items"]))
        #expect(Set(item["required"]?.arrayValue?.compactMap(\.stringValue) ?? []) == ["index", "field", "message"])
    }

    @Test func operationsDeclareTheirStatusesThroughSharedResponses() throws {
        for (method, path, operation) in operations {
            let responses = try #require(operation["responses"]?.objectValue, "\(method) \(path)")
            var expected = Self.httpLayerStatuses
            if path.hasPrefix("/v1/"), !CareSyncAPI.unauthenticatedPaths.contains(path) { expected.insert("401") }
            #expect(expected.isSubset(of: Set(responses.keys)), "\(method) \(path) lacks \(expected.subtracting(responses.keys).sorted())")
            for (status, response) in responses where status.hasPrefix("4") || status.hasPrefix("5") {
                let ref = response["$ref"]?.stringValue ?? ""
                #expect(ref.hasPrefix("#/components/responses/"), "\(method) \(path) \(status) is not a shared response")
            }
        }
    }

    @Test func sharedResponsesAreProblemsWithTheirHeaders() throws {
        let responses = try #require(doc["components"]?["responses"]?.objectValue)
        var byStatus: [String: JSONValue] = [:]
        for (_, operation) in operations.map({ ($0.path, $0.operation) }) {
            for (status, response) in operation["responses"]?.objectValue ?? [:] where status.hasPrefix("4") || status.hasPrefix("5") {
                byStatus[status] = resolve(response)
            }
        }
        // 405 is answered only for methods the document does not list, so no operation refers to it.
        byStatus["405"] = responses["MethodNotAllowed"]
        #expect(Set(byStatus.keys) == Self.problemStatuses)
        for (status, response) in byStatus {
            let schema = response["content"]?["application/problem+json"]?["schema"]?["$ref"]?.stringValue
            #expect(schema == "#/components/schemas/Problem", "\(status)")
            let headers = Set((response["headers"]?.objectValue ?? [:]).keys)
            #expect(headers == (Self.problemHeaders[status] ?? []), "\(status) headers \(headers)")
            for name in headers {
                #expect(resolve(response["headers"]![name]!)["required"] == true, "\(status) \(name)")
            }
        }
    }

    @Test func instantsAreDateTimesWithMillisecondsAndDaysAreDates() throws {
        var instants = 0
        for (method, path, operation) in operations {
            for (status, response) in operation["responses"]?.objectValue ?? [:] {
                walk(resolve(response), at: "\(method) \(path) \(status)") { schema, at in
                    if schema["format"] == "date-time" {
                        instants += 1
                        #expect(schema["pattern"]?.stringValue == Self.instantPattern, "\(at)")
                    }
                    if let name = at.split(separator: ".").last, ["day", "weekStart"].contains(String(name)) {
                        #expect(schema["format"] == "date", "\(at)")
                    }
                }
            }
        }
        #expect(instants > 0)
    }

    @Test func responsesHaveNoUntypedObjects() throws {
        for (method, path, operation) in operations where path != "/openapi.json" {
            for (status, response) in operation["responses"]?.objectValue ?? [:] {
                walk(resolve(response), at: "\(method) \(path) \(status)") { schema, at in
                    guard schema["type"] == "object" || schema["properties"] != nil else { return }
                    let typedExtra = schema["additionalProperties"].map { $0.objectValue?.isEmpty == false } ?? false
                    #expect(schema["properties"]?.objectValue?.isEmpty == false || typedExtra, "untyped object at \(at)")
                }
            }
        }
    }

    @Test func metadataValuesAreStringsNumbersOrBooleans() throws {
        let metadata = try #require(doc["components"]?["schemas"]?["Metadata"])
        let kinds = metadata["additionalProperties"]?["anyOf"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
        #expect(kinds == ["string", "number", "boolean"])
    }

    @Test func commaListsAreFormArraysWithoutExplode() throws {
        var lists: [String] = []
        for (method, path, operation) in operations {
            for parameter in (operation["parameters"]?.arrayValue ?? []).map(resolve) where parameter["in"] == "query" {
                let name = parameter["name"]?.stringValue ?? ""
                guard resolve(parameter["schema"] ?? .null)["type"] == "array" else {
                    #expect(!Self.commaLists.contains(name), "\(method) \(path) \(name) is a comma list but not an array")
                    continue
                }
                lists.append(name)
                #expect(parameter["style"] == "form" && parameter["explode"] == false, "\(method) \(path) \(name)")
            }
        }
        #expect(Set(lists) == Self.commaLists)
    }

    @Test func aGeneratedClientCanUseTheServersAndOperationIDs() throws {
        let url = try #require(doc["servers"]?.arrayValue?.first?["url"]?.stringValue)
        #expect(URL(string: url)?.scheme == "http" && URL(string: url)?.host != nil)
        let ids = operations.compactMap { $0.operation["operationId"]?.stringValue }
        #expect(ids.count == operations.count && Set(ids).count == ids.count)
        for id in ids {
            #expect(id.first?.isLowercase == true && id.allSatisfy { $0.isLetter || $0.isNumber }, "\(id)")
        }
    }

    /// Calls `visit` on `schema` and on every schema inside it, following references (once each).
    func walk(_ schema: JSONValue, at path: String, seen: Set<String> = [], visit: (JSONValue, String) -> Void) {
        var seen = seen
        if let ref = schema["$ref"]?.stringValue {
            guard seen.insert(ref).inserted else { return }
            walk(resolve(schema), at: path, seen: seen, visit: visit)
            return
        }
        guard let object = schema.objectValue else { return }
        visit(schema, path)
        for (key, value) in object {
            switch key {
            case "properties", "content":
                for (name, child) in value.objectValue ?? [:] { walk(child, at: "\(path).\(name)", seen: seen, visit: visit) }
            case "items", "additionalProperties", "schema":
                walk(value, at: path, seen: seen, visit: visit)
            case "anyOf", "oneOf", "allOf":
                for child in value.arrayValue ?? [] { walk(child, at: path, seen: seen, visit: visit) }
            default: break
            }
        }
    }

    /// Statuses the HTTP layer can answer to any request.
    static let httpLayerStatuses: Set<String> = ["400", "408", "413", "414", "415", "417", "429", "431", "500", "501", "503", "505"]
    /// Every problem status the server can send.
    static let problemStatuses: Set<String> = httpLayerStatuses.union(["401", "403", "404", "405", "409", "410", "422"])
    /// The header fields each problem status carries.
    static let problemHeaders: [String: Set<String>] = ["401": ["WWW-Authenticate"], "405": ["Allow"], "429": ["Retry-After"], "503": ["Retry-After"]]
    /// Every instant the server writes: UTC with exactly three fractional digits.
    static let instantPattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"
    /// Query parameters that take a comma list.
    static let commaLists: Set<String> = ["types", "options", "sources", "priority"]
}
