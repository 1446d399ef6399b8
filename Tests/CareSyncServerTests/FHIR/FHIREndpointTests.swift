import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// `/fhir/R4`: the CapabilityStatement, and Observations with the feed's authentication, reach, read types and audit.
@Suite struct FHIREndpointTests {
    /// Alice's samples: 12 heart rates a minute apart, one 30-minute step count, one blood pressure, one therapist walk test.
    static func seed(_ server: TestServer) async throws {
        let t = server.tokens
        try await server.postSamples("alice", token: t.aliceDevice,
            (0..<12).map { FHIRFixtures.sample("heartRate", Double(60 + $0), unit: "count/min", minute: $0) }
            + [FHIRFixtures.sample("stepCount", 1200, unit: "count", minute: 0, minutes: 30), Pressure.pair(120, 80, at: "10:05")])
        try await server.postSamples("alice", token: t.therapist, [FHIRFixtures.sample("sixMinuteWalkTestDistance", 420, unit: "m", minute: 60, minutes: 6)])
    }

    @Test(arguments: TestServer.Mode.allCases) func metadataNeedsNoToken(mode: TestServer.Mode) async throws {
        try await TestServer.with(mode) { server in
            let reply = try await server.fhir("/fhir/R4/metadata", token: nil)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/fhir+json")
            #expect(reply.json["resourceType"] == "CapabilityStatement" && reply.json["fhirVersion"] == "4.0.1")
            #expect(reply.json["implementation"]?["url"]?.stringValue?.hasPrefix("http://") == true)
        }
    }

    @Test func searchWithoutATokenIs401OperationOutcome() async throws {
        try await TestServer.with(.inMemory) { server in
            let reply = try await server.fhir("/fhir/R4/Observation?patient=alice", token: nil)
            #expect(reply.status == 401 && reply.outcomeIssue == "login")
            #expect(reply.header("Content-Type") == "application/fhir+json")
            #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(try await server.fhir("/fhir/R4/Observation?patient=alice", token: server.tokens.revoked).status == 401)
        }
    }

    @Test func anotherPatientIs404AsInTheFeed() async throws {
        try await TestServer.with(.inMemory) { server in
            try await Self.seed(server)
            let t = server.tokens
            for token in [t.bobDevice, t.otherTherapist, t.admin] {
                let reply = try await server.fhir("/fhir/R4/Observation?patient=alice", token: token)
                #expect(reply.status == 404 && reply.outcomeIssue == "not-found")
                #expect(try await server.send("GET", "/v1/patients/alice/changes", token: token).status == 404)
            }
            let own = try await server.fhir("/fhir/R4/Observation?patient=alice", token: t.aliceDevice)
            let id = try #require(own.resources.first?["id"]?.stringValue)
            #expect(try await server.fhir("/fhir/R4/Observation/\(id)", token: t.bobDevice).status == 404)
            #expect(try await server.fhir("/fhir/R4/Observation/\(id)", token: t.therapist).status == 200)
            #expect(try await server.fhir("/fhir/R4/Observation/not-a-uuid", token: t.therapist).status == 404)
        }
    }

    @Test func searchAnswersASearchsetOfTheReadableTypes() async throws {
        try await TestServer.with(.inMemory) { server in
            try await Self.seed(server)
            let all = try await server.fhir("/fhir/R4/Observation?patient=alice&_count=100", token: server.tokens.therapist)
            #expect(all.status == 200 && all.header("Content-Type") == "application/fhir+json")
            #expect(all.json["type"] == "searchset" && all.json["total"] == 15 && all.resources.count == 15)
            #expect(all.link("self") == "http://caresync.test/fhir/R4/Observation?patient=alice&_count=100")
            #expect(all.link("next") == nil)
            let walk = try #require(all.resources.first { $0["code"]?["coding"]?[0]?["code"] == "64098-7" })
            #expect(walk["performer"]?[0]?["display"] == "org.example.therapist")
            #expect(all.resources.first { $0["code"]?["coding"]?[0]?["code"] == "8867-4" }?["performer"] == nil)
            let narrow = try await server.fhir("/fhir/R4/Observation?patient=alice", token: server.tokens.narrow)
            #expect(narrow.json["total"] == 1 && narrow.resources.first?["code"]?["coding"]?[0]?["code"] == "64098-7")
            let id = try #require(all.resources.first { $0["code"]?["coding"]?[0]?["code"] == "8867-4" }?["id"]?.stringValue)
            #expect(try await server.fhir("/fhir/R4/Observation/\(id)", token: server.tokens.narrow).status == 404)
        }
    }

    @Test func codeAndDateNarrowTheSearch() async throws {
        try await TestServer.with(.inMemory) { server in
            try await Self.seed(server)
            func total(_ query: String) async throws -> Int? {
                let reply = try await server.fhir("/fhir/R4/Observation?patient=alice&" + query, token: server.tokens.aliceDevice)
                #expect(reply.status == 200, "\(query): \(reply.text)")
                return reply.json["total"]?.integerValue.map(Int.init)
            }
            #expect(try await total("code=http://loinc.org|8867-4") == 12)
            #expect(try await total("code=8867-4,55423-8") == 13)
            #expect(try await total("code=http://loinc.org|85354-9") == 1)
            #expect(try await total("code=urn:caresync:sample-type|stepCount") == 1)
            #expect(try await total("code=8867-4&code=55423-8") == 0)
            #expect(try await total("date=2020-06-18") == 15)
            #expect(try await total("date=2020-06-19") == 0)
            #expect(try await total("code=8867-4&date=ge2020-06-18T10:05:00Z") == 7)
            #expect(try await total("code=8867-4&date=gt2020-06-18T10:05:00Z") == 6)
            #expect(try await total("code=8867-4&date=lt2020-06-18T10:05:00Z") == 5)
            #expect(try await total("code=8867-4&date=le2020-06-18T10:05:00Z") == 6)
            #expect(try await total("code=8867-4&date=eq2020-06-18T10:05:00Z") == 1)
            #expect(try await total("code=8867-4&date=ne2020-06-18T10:05:00Z") == 11)
            #expect(try await total("code=8867-4&date=ge2020-06-18T10:02:00Z&date=lt2020-06-18T10:04:00Z") == 2)
            #expect(try await total("code=8867-4&date=ge2020-06-18T12:05:00%2B02:00") == 7)
        }
    }

    @Test(arguments: ["date", "-date"]) func pagesFollowAbsoluteNextLinks(sort: String) async throws {
        try await TestServer.with { server in
            try await Self.seed(server)
            var url: String? = "/fhir/R4/Observation?patient=alice&code=8867-4&_count=5&_sort=\(sort)"
            var values: [Double] = []
            var pages = 0
            while let next = url {
                let reply = try await server.fhir(next, token: server.tokens.aliceDevice)
                #expect(reply.status == 200, "\(reply.text)")
                pages += 1
                values += reply.resources.compactMap { $0["valueQuantity"]?["value"]?.numberValue }
                url = reply.link("next").map { link in
                    #expect(link.hasPrefix("http://127.0.0.1:\(server.port)/fhir/R4/Observation?"))
                    return String(link.dropFirst("http://127.0.0.1:\(server.port)".count))
                }
            }
            #expect(pages == 3)
            let expected = (0..<12).map { Double(60 + $0) }
            #expect(values == (sort == "date" ? expected : expected.reversed()))
        }
    }

    @Test func unknownParametersFollowPreferHandling() async throws {
        try await TestServer.with(.inMemory) { server in
            try await Self.seed(server)
            let t = server.tokens.aliceDevice
            let strict = try await server.fhir("/fhir/R4/Observation?patient=alice&_lastUpdated=gt2020&color=red", token: t, prefer: "handling=strict")
            #expect(strict.status == 400 && strict.outcomeIssue == "not-supported")
            let lenient = try await server.fhir("/fhir/R4/Observation?patient=alice&color=red&_count=3", token: t, prefer: "handling=lenient")
            #expect(lenient.status == 200 && lenient.resources.count == 3)
            #expect(lenient.link("self") == "http://caresync.test/fhir/R4/Observation?patient=alice&_count=3")
            #expect(try await server.fhir("/fhir/R4/Observation?patient=alice&color=red", token: t).status == 200)
        }
    }

    @Test func linksFollowTheConfiguredPublicOriginElseTheHost() async throws {
        try await TestServer.with(.inMemory, configure: { $0.fhirPublicUrl = "https://caresync.example.org/" }) { server in
            let reply = try await server.fhir("/fhir/R4/Observation?patient=alice", token: server.tokens.aliceDevice)
            #expect(reply.link("self") == "https://caresync.example.org/fhir/R4/Observation?patient=alice")
        }
        try await TestServer.with(.inMemory) { server in
            let reply = try await server.send("GET", "/fhir/R4/Observation?patient=alice", token: server.tokens.aliceDevice,
                                              headers: [("Host", "evil.example/x?")])
            #expect(reply.status == 400 && reply.outcomeIssue == "invalid")
        }
    }

    @Test(arguments: ["", "patient=alice&_count=0", "patient=alice&_count=x", "patient=alice&date=2020-06-18T10:00:00",
                      "patient=alice&date=xx2020", "patient=alice&code=", "patient=alice&_sort=value", "patient=alice&patient=bob",
                      "patient=alice&_cursor=nope", "patient=alice&_format=xml"])
    func badSearchesAre400OperationOutcomes(query: String) async throws {
        try await TestServer.with(.inMemory) { server in
            let reply = try await server.fhir("/fhir/R4/Observation?" + query, token: server.tokens.aliceDevice)
            #expect(reply.status == 400 && reply.outcomeIssue == "invalid", "\(query): \(reply.text)")
        }
    }

    @Test func searchesAndReadsAreAudited() async throws {
        try await TestServer.with(.inMemory) { server in
            try await Self.seed(server)
            let t = server.tokens
            _ = try await server.fhir("/fhir/R4/Observation?patient=alice&_count=4", token: t.therapist)
            _ = try await server.fhir("/fhir/R4/Observation?patient=alice", token: t.bobDevice)
            let records = try await server.send("GET", "/v1/audit?patient=alice", token: t.admin).json["records"]?.arrayValue ?? []
            let fhir = records.filter { $0["action"]?.stringValue?.hasPrefix("fhir.") == true }
            #expect(fhir.count == 2)
            #expect(fhir.contains { $0["action"] == "fhir.observations.search" && $0["status"] == 200 && $0["count"] == 4 })
            #expect(fhir.contains { $0["action"] == "fhir.observations.search" && $0["status"] == 404 && $0["count"] == 0 })
        }
    }
}

/// `fhir.publicUrl`: empty or an http(s) origin; anything else stops start-up naming the key.
@Suite struct FHIRPublicURLConfigurationTests {
    @Test(arguments: ["ftp://caresync.example.org", "caresync.example.org", "https://caresync.example.org/?q=1", "https://"])
    func otherValuesAreRefused(text: String) {
        #expect(throws: (any Error).self) { try Configuration.load(environment: ["CARESYNC_FHIR_PUBLIC_URL": text]) }
    }

    @Test func anOriginIsKept() throws {
        #expect(try Configuration.load(environment: ["CARESYNC_FHIR_PUBLIC_URL": "https://caresync.example.org"]).fhirPublicUrl
                == "https://caresync.example.org")
    }
}
