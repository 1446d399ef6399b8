import Foundation
import CareSyncHTTP
import Logging
import Testing
@testable import CareSyncServer

@Suite struct RequestLogMiddlewareTests {
    @Test func logsTheMatchedPatternStatusAndDurationNeverThePath() async throws {
        var router = Router()
        router.get("/v1/patients/{patientId}/changes") { _, _ in .text("[]") }
        router.get("/v1/patients/{patientId}/status") { _, _ in .text("{}") }
        router.get("/boom") { _, _ in throw HTTPError.notFound("nope") }
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "test", format: .json, level: .info, sink: collector.sink)
        let client = InMemoryClient(responder: router.wrapped(by: RequestLogMiddleware()), logger: logger)

        #expect(await client.send(.get, "/v1/patients/P-1/changes?wait=0").status == .ok)
        #expect(await client.send(.get, "/v1/patients/P-1/status").status == .ok)
        #expect(await client.send(.get, "/boom").status == .notFound)
        #expect(await client.send(.get, "/v1/patients/P-1/nowhere").status == .notFound)
        #expect(await client.send(.post, "/v1/patients/P-1/status").status == .methodNotAllowed)

        let lines = collector.lines.filter { $0.contains("\"http.request\"") }
        #expect(lines.count == 5, "\(collector.lines)")
        #expect(lines.allSatisfy { !$0.contains("P-1") })
        let routes = lines.map { line in line.range(of: #""route":"[^"]*""#, options: .regularExpression).map { String(line[$0]) } }
        #expect(routes == [#""route":"/v1/patients/{patientId}/changes""#, #""route":"/v1/patients/{patientId}/status""#,
                           #""route":"/boom""#, #""route":"other""#, #""route":"other""#], "\(lines)")
        let statuses = lines.map { line in line.range(of: #""http.status":"[0-9]+""#, options: .regularExpression).map { String(line[$0]) } }
        #expect(statuses == ["200", "200", "404", "404", "405"].map { #""http.status":""# + $0 + "\"" }, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("\"http.duration_us\"") && $0.contains("\"request.id\"") })
    }

    @Test func aRequestRefusedBeforeTheRouterIsLoggedOnceWithItsRoute() async throws {
        var router = Router()
        router.get("/v1/patients/{patientId}/changes") { _, _ in .text("[]") }
        let refuseAll = ClosureHeadFilter { head, _ in
            if head.headers[.authorization] == nil { throw HTTPError.missingToken }
        }
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "test", format: .json, level: .info, sink: collector.sink)
        let client = InMemoryClient(responder: router.wrapped(by: RequestLogMiddleware()),
                                    headFilter: RequestLogHeadFilter(refuseAll, router: router), logger: logger)

        let refused = await client.send(.get, "/v1/patients/P-1/changes")
        #expect(refused.status == .unauthorized)
        #expect(refused.headers[.wwwAuthenticate] != nil)
        #expect(await client.send(.get, "/v1/patients/P-1/changes", headers: [.authorization: "Bearer x"]).status == .ok)
        #expect(await client.send(.get, "/elsewhere").status == .unauthorized)

        let lines = collector.lines.filter { $0.contains("\"http.request\"") }
        #expect(lines.count == 3, "\(collector.lines)")
        #expect(lines[0].contains(#""route":"/v1/patients/{patientId}/changes""#) && lines[0].contains(#""http.status":"401""#), "\(lines)")
        #expect(lines[1].contains(#""http.status":"200""#), "\(lines)")
        #expect(lines[2].contains(#""route":"other""#) && lines[2].contains(#""http.status":"401""#), "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("P-1") })
    }
}
