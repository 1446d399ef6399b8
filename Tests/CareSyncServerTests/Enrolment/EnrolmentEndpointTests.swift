import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Device enrolment over HTTP: a code redeemed once for a device token of its patient and source; reused, expired,
/// cancelled, wrong and guessed codes refused alike; attempts limited per address; everything audited, never the code.
@Suite(.serialized) struct EnrolmentEndpointTests {
    static func redeem(_ server: TestServer, _ code: String, source: String = "org.example.watch",
                       displayName: String = "Apple Watch") async throws -> TestReply {
        try await server.send("POST", "/v1/enrolments/redeem", json: ["code": .string(code), "source": .string(source),
                                                                       "displayName": .string(displayName)])
    }

    static func create(_ server: TestServer, patient: String = "alice", token: String) async throws -> TestReply {
        try await server.send("POST", "/v1/patients/\(patient)/enrolments", token: token, headers: [("Host", "caresync.test:8443")])
    }

    @Test func aCodeIsRedeemedOnceForADeviceTokenOfItsPatientAndSource() async throws {
        try await TestServer.with(.inMemory) { server in
            let created = try await Self.create(server, token: server.tokens.therapist)
            #expect(created.status == 201, "\(created.text)")
            let code = try #require(created.json["code"]?.stringValue)
            #expect(created.json["url"]?.stringValue == "http://caresync.test:8443/enrol#\(code)")
            #expect(created.json["qrSvg"]?.stringValue?.hasPrefix("<svg") == true)
            let redeemed = try await Self.redeem(server, code.lowercased())
            #expect(redeemed.status == 201, "\(redeemed.text)")
            #expect(redeemed.json["patient"] == "alice" && redeemed.json["source"] == "org.example.watch" && redeemed.json["role"] == "device")
            let token = try #require(redeemed.json["token"]?.stringValue)
            // The token writes alice's data under its source, and reaches no one else.
            let sample: JSONValue = ["type": "stepCount", "value": 10, "unit": "count", "start": "2024-01-01T10:00:00Z", "end": "2024-01-01T10:00:00Z"]
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: token, json: ["samples": [sample]]).status == 200)
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: token)
            #expect(feed.json["samples"]?[0]?["source"] == "org.example.watch")
            try await server.send("GET", "/v1/patients/bob/changes", token: token).expectProblem(404, "notFound")
            // Once only.
            try await Self.redeem(server, code).expectProblem(400, "invalidEnrolmentCode")
            // The display name is kept per patient and source.
            let devices = try await server.send("GET", "/v1/patients/alice/devices", token: server.tokens.therapist)
            #expect(devices.json["devices"]?[0]?["displayName"] == "Apple Watch" && devices.json["devices"]?[0]?["source"] == "org.example.watch")
            #expect(devices.json["devices"]?[0]?["tokenId"] == redeemed.json["tokenId"])
            // Its last sync is the audit log's record of its write.
            let tokenID = try #require(redeemed.json["tokenId"]?.stringValue)
            let write = try server.app.api.access.audit(AuditQuery(patient: "alice", tokenID: tokenID, limit: 20)).first { $0.action == "samples.upsert" }
            #expect(devices.json["devices"]?[0]?["lastReceivedAt"]?.stringValue == write.map { RFC3339.format($0.time) })
        }
    }

    @Test func aDeviceThatNeverSentAnythingHasNoLastSync() async throws {
        try await TestServer.with(.inMemory) { server in
            let code = try #require(try await Self.create(server, token: server.tokens.therapist).json["code"]?.stringValue)
            #expect(try await Self.redeem(server, code, source: "org.example.scale", displayName: "Scale").status == 201)
            let devices = try await server.send("GET", "/v1/patients/alice/devices", token: server.tokens.admin)
            #expect(devices.status == 200, "\(devices.text)")
            #expect(devices.json["devices"]?[0]?["source"] == "org.example.scale" && devices.json["devices"]?[0]?["lastReceivedAt"] == .null)
        }
    }

    @Test func reusedExpiredCancelledWrongAndMalformedCodesAreRefusedAlike() async throws {
        let clock = ManualClock()
        try await TestServer.with(.inMemory, clock: clock.serverClock) { server in
            let t = server.tokens
            let used = try #require(try await Self.create(server, token: t.therapist).json["code"]?.stringValue)
            #expect(try await Self.redeem(server, used).status == 201)
            let expiring = try #require(try await Self.create(server, token: t.admin).json["code"]?.stringValue)
            let cancelled = try await Self.create(server, token: t.therapist)
            let id = try #require(cancelled.json["id"]?.stringValue)
            #expect(try await server.send("DELETE", "/v1/patients/alice/enrolments/\(id)", token: t.therapist).status == 204)
            try await server.send("DELETE", "/v1/patients/alice/enrolments/\(id)", token: t.therapist).expectProblem(404, "notFound")
            clock.advance(by: 15 * 60)
            var bodies: Set<String> = []
            let withdrawn = try #require(cancelled.json["code"]?.stringValue)
            for code in [used, expiring, withdrawn, "ABCD-EFGH-JKMN", "not a code", "ABCD-EFGH-JKMU"] {
                let refused = try await Self.redeem(server, code)
                refused.expectProblem(400, "invalidEnrolmentCode")
                bodies.insert(refused.text)
            }
            #expect(bodies.count == 1)
            // Nothing was made: alice's only device source is the one redeemed.
            #expect(try server.app.api.access.tokens().filter { $0.source == "org.example.watch" }.count == 1)
        }
    }

    @Test func anExpiredCodeFailsOnlyOnceItsLifetimeHasPassed() async throws {
        let clock = ManualClock()
        try await TestServer.with(.inMemory, clock: clock.serverClock, configure: { $0.enrolment.codeMinutes = 20 }) { server in
            let created = try await Self.create(server, token: server.tokens.therapist)
            let code = try #require(created.json["code"]?.stringValue)
            #expect(created.json["expiresAt"]?.stringValue == RFC3339.format(clock.now().addingTimeInterval(20 * 60)))
            let late = try #require(try await Self.create(server, token: server.tokens.therapist).json["code"]?.stringValue)
            clock.advance(by: 20 * 60 - 1)
            #expect(try await Self.redeem(server, code).status == 201)
            clock.advance(by: 1)
            try await Self.redeem(server, late, source: "org.example.phone").expectProblem(400, "invalidEnrolmentCode")
        }
    }

    @Test func guessesFromOneAddressAreRateLimitedAndTheRightCodeWaitsToo() async throws {
        let clock = ManualClock()
        try await TestServer.with(.inMemory, clock: clock.serverClock, configure: {
            $0.enrolment.redeemPerMinute = 1
            $0.enrolment.redeemBurst = 5
        }) { server in
            let code = try #require(try await Self.create(server, token: server.tokens.therapist).json["code"]?.stringValue)
            var random = SystemRandomNumberGenerator()
            for _ in 0..<5 { try await Self.redeem(server, EnrolmentCode.generate(using: &random)).expectProblem(400, "invalidEnrolmentCode") }
            let limited = try await Self.redeem(server, code)
            limited.expectProblem(429, "tooManyRequests")
            #expect(limited.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true)
            // The code was never tried, so it still works once the address has earned an attempt back.
            #expect(try server.app.api.access.tokens().allSatisfy { $0.source != "org.example.watch" })
            clock.advance(by: 60)
            #expect(try await Self.redeem(server, code).status == 201)
            try await Self.redeem(server, code).expectProblem(429, "tooManyRequests")
        }
    }

    @Test func everyStepIsAuditedAndNoRecordOrListingCarriesTheCode() async throws {
        try await TestServer.with(.inMemory) { server in
            let created = try await Self.create(server, token: server.tokens.therapist)
            let code = try #require(created.json["code"]?.stringValue)
            _ = try await Self.redeem(server, "ABCD-EFGH-JKMN")
            let redeemed = try await Self.redeem(server, code)
            let listed = try await server.send("GET", "/v1/patients/alice/enrolments", token: server.tokens.therapist)
            #expect(listed.status == 200 && listed.json["enrolments"]?.arrayValue?.isEmpty == true)
            let records = try server.app.api.access.audit(AuditQuery(limit: 100)).reversed()
                .filter { $0.action.hasPrefix("enrolments.") }.map { "\($0.action) \($0.status) \($0.patient ?? "-") \($0.tokenID)" }
            let device = try #require(redeemed.json["tokenId"]?.stringValue)
            let therapist = try #require(TokenSecret.id(of: server.tokens.therapist))
            #expect(records == ["enrolments.create 201 alice \(therapist)", "enrolments.redeem 400 - -",
                                "enrolments.redeem 201 alice \(device)", "enrolments.read 200 alice \(therapist)"])
            let id = try #require(created.json["id"]?.stringValue)
            let stored = try #require(try server.app.api.enrolments?.enrolment(id: id))
            #expect(stored.codeHash == TokenSecret.hash(EnrolmentCode.normalized(code)!) && stored.tokenID == device)
        }
    }

    @Test func onlyATherapistInReachOrAnAdminMakesEnrolments() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            try await Self.create(server, token: t.aliceDevice).expectProblem(403, "forbidden")
            try await Self.create(server, token: t.otherTherapist).expectProblem(404, "notFound")
            try await Self.create(server, patient: "carol", token: t.admin).expectProblem(404, "notFound")
            try await server.send("POST", "/v1/patients/alice/enrolments").expectProblem(401, "unauthorized")
            #expect(try await Self.create(server, patient: "bob", token: t.admin).status == 201)
            try await server.send("GET", "/v1/patients/alice/devices", token: t.otherTherapist).expectProblem(404, "notFound")
        }
    }

    @Test func aBadSourceOrDisplayNameIsRefusedAndTheCodeStaysUsable() async throws {
        try await TestServer.with(.inMemory) { server in
            let code = try #require(try await Self.create(server, token: server.tokens.therapist).json["code"]?.stringValue)
            try await Self.redeem(server, code, source: "has space").expectProblem(422, "validationFailed")
            try await Self.redeem(server, code, displayName: "").expectProblem(422, "validationFailed")
            try await Self.redeem(server, code, displayName: "Watch\u{202E}").expectProblem(422, "validationFailed")
            // A therapist's source belongs to another writer: 409, and the code is given back.
            try await Self.redeem(server, code, source: "org.example.therapist").expectProblem(409, "conflict")
            #expect(try await Self.redeem(server, code).status == 201)
        }
    }

    @Test func eachRequiredFieldOfARedemptionIsNeeded() async throws {
        try await TestServer.with(.inMemory) { server in
            let code = try #require(try await Self.create(server, token: server.tokens.therapist).json["code"]?.stringValue)
            let full: [String: JSONValue] = ["code": .string(code), "source": "org.example.watch", "displayName": "Apple Watch"]
            for field in full.keys.sorted() {
                var body = full
                body[field] = nil
                let refused = try await server.send("POST", "/v1/enrolments/redeem", json: .object(body))
                refused.expectProblem(422, "validationFailed")
                #expect(refused.json["errors"]?.arrayValue?.compactMap { $0["field"]?.stringValue } == [field])
            }
            #expect(try await server.send("POST", "/v1/enrolments/redeem", json: .object(full)).status == 201)
        }
    }

    @Test(arguments: [20, 60, 120, 180])
    func theQRCodeOfTheAnswerReadsAsTheEnrolmentLink(originLength: Int) async throws {
        guard QRDecoder.isAvailable else {
            if QRDecoder.isRequired { Issue.record("rsvg-convert and zbarimg are required") }
            return
        }
        let origin = "https://" + String(repeating: "a", count: originLength - 12) + ".org"
        try await TestServer.with(.inMemory, configure: { $0.enrolment.publicUrl = origin }) { server in
            let created = try await Self.create(server, token: server.tokens.therapist)
            let url = try #require(created.json["url"]?.stringValue)
            #expect(url.hasPrefix(origin + "/enrol#"))
            let svg = try #require(created.json["qrSvg"]?.stringValue)
            #expect(try await QRDecoder.decode(svg: svg) == [url])
        }
    }
}
