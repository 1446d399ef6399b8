import Foundation
import HTTPTypes
import Testing
@testable import CareSyncHTTP

@Suite struct RouterTests {
    struct Boom: Error {}

    static func client() -> InMemoryClient {
        var router = Router()
        router.get("/v1/patients/{patientId}/weekly-reports/{syncIdentifier}") { _, context in
            .text("\(try context.parameters.require("patientId"))|\(try context.parameters.require("syncIdentifier"))")
        }
        router.delete("/v1/patients/{patientId}/weekly-reports/{syncIdentifier}") { _, _ in Response(status: .noContent) }
        router.post("/v1/patients/{patientId}/samples") { _, _ in .text("samples") }
        router.post("/v1/patients/{patientId}/samples/delete") { _, _ in .text("delete") }
        router.post("/v1/patients/{patientId}/samples/{uuid}") { _, _ in .text("by-uuid") }
        router.get("/boom") { _, _ in throw Boom() }
        router.get("/query") { request, _ in .text(request.queryValue("from") ?? "none") }
        return InMemoryClient(responder: router, logger: TestServer.quietLogger)
    }

    @Test func pathParametersAreDecoded() async {
        let response = await Self.client().send(.get, "/v1/patients/p%201/weekly-reports/report-2020-W25%2F2020-06-18")
        #expect(response.status == .ok)
        #expect(response.text == "p 1|report-2020-W25/2020-06-18")
    }

    @Test func unknownPathIs404ProblemJSON() async throws {
        let response = await Self.client().send(.get, "/v1/nothing")
        #expect(response.status == .notFound)
        #expect(response.headers[.contentType] == "application/problem+json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["code"] as? String == "notFound")
        #expect(json["status"] as? Int == 404)
    }

    @Test func wrongMethodIs405WithAllow() async {
        let response = await Self.client().send(.put, "/v1/patients/p/weekly-reports/r")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET, DELETE, HEAD")
        #expect(response.text.contains("\"code\":\"methodNotAllowed\""))
    }

    @Test func headUsesTheGetRouteWithoutBody() async {
        let response = await Self.client().send(.head, "/v1/patients/p/weekly-reports/r")
        #expect(response.status == .ok)
        #expect(response.body.isEmpty)
    }

    @Test func literalSegmentBeatsParameter() async {
        #expect(await Self.client().send(.post, "/v1/patients/p/samples/delete").text == "delete")
        #expect(await Self.client().send(.post, "/v1/patients/p/samples/abc").text == "by-uuid")
        #expect(await Self.client().send(.post, "/v1/patients/p/samples").text == "samples")
    }

    /// A path of literals found by its own lookup still follows the rules the segment match follows.
    @Test func aPathOfLiteralsGoesToItsRouteInItsMethodOnly() async {
        var router = Router()
        router.get("/v1/patients/export") { _, context in .text("literal \(context.matchedRoute.pattern ?? "")") }
        router.post("/v1/patients/{patientId}") { _, context in .text("parameter \(try context.parameters.require("patientId"))") }
        router.get("/v1/patients/{patientId}") { _, _ in .text("parameter get") }
        let client = InMemoryClient(responder: router, logger: TestServer.quietLogger)
        #expect(await client.send(.get, "/v1/patients/export").text == "literal /v1/patients/export")
        #expect(await client.send(.post, "/v1/patients/export").text == "parameter export")
        #expect(await client.send(.get, "/v1/patients/export?x=1").text == "literal /v1/patients/export")
        let head = await client.send(.head, "/v1/patients/export")
        #expect(head.status == .ok && head.body.isEmpty)
        #expect(await client.send(.get, "/v1/patients/other").text == "parameter get")
        let put = await client.send(.put, "/v1/patients/export")
        #expect(put.status == .methodNotAllowed && put.headers[.allow] == "GET, POST, HEAD", "\(put.headers)")
        #expect(router.pattern(for: RequestHead(method: .get, target: "/v1/patients/export")) == "/v1/patients/export")
        #expect(router.pattern(for: RequestHead(method: .post, target: "/v1/patients/export")) == "/v1/patients/{patientId}")
    }

    @Test func queryKeepsPlusAndDecodesPercent() async {
        #expect(await Self.client().send(.get, "/query?from=2020-06-18T09:30:00+02:00").text == "2020-06-18T09:30:00+02:00")
        #expect(await Self.client().send(.get, "/query?x=1&from=a%20b").text == "a b")
    }

    @Test func unknownErrorsBecomeOpaque500() async {
        let response = await Self.client().send(.get, "/boom")
        #expect(response.status == .internalServerError)
        #expect(response.text.contains("\"code\":\"internal\""))
        #expect(!response.text.contains("Boom"))
    }

    @Test func headFilterRefusesBeforeTheHandler() async {
        let filter = ClosureHeadFilter { head, _ in
            if head.headers[.authorization] == nil { throw HTTPError.unauthorized() }
        }
        let client = InMemoryClient(responder: TestServer.router(), headFilter: filter)
        let refused = await client.send(.get, "/hello")
        #expect(refused.status == .unauthorized)
        #expect(refused.headers[.wwwAuthenticate] == "Bearer")
        #expect(await client.send(.get, "/hello", headers: [.authorization: "Bearer x"]).status == .ok)
    }

    @Test func headFilterCanPassValuesToTheHandler() async {
        enum Caller: ContextKey { typealias Value = String }
        let filter = ClosureHeadFilter { _, context in context.values[Caller.self] = "therapist-7" }
        let responder = ClosureResponder { _, context in .text(context.values[Caller.self] ?? "nobody") }
        #expect(await InMemoryClient(responder: responder, headFilter: filter).send(.get, "/").text == "therapist-7")
    }

    @Test func middlewareOrderIsOutermostFirst() async {
        let tag = { (name: String) in
            ClosureMiddleware { request, context, next in
                var response = try await next.respond(to: request, context: context)
                response.headers.append(HTTPField(name: HTTPField.Name("X-Order")!, value: name))
                return response
            }
        }
        let responder = TestServer.router().wrapped(by: tag("outer"), tag("inner"))
        let response = await InMemoryClient(responder: responder).send(.get, "/hello")
        #expect(response.headers[values: HTTPField.Name("X-Order")!] == ["inner", "outer"])
    }
}
