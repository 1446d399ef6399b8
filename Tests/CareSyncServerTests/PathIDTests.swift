import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// Path ids that break their rule (NUL, CR/LF, kilobytes) are refused before any lookup, and their audit record
/// names them only by a short hash (issue 25, item 4).
@Suite(.serialized) struct PathIDTests {
    /// The audit records of every request so far, newest first.
    static func auditRows(_ server: TestServer) throws -> [AuditRecord] {
        try server.app.api.access.audit(AuditQuery(limit: 1000))
    }

    static func expectHashed(_ record: AuditRecord?, of raw: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(record?.patient == PathID.hashed(raw), sourceLocation: sourceLocation)
        #expect(record?.patient?.utf8.count == 23, sourceLocation: sourceLocation)
        #expect(record?.status == 404, sourceLocation: sourceLocation)
    }

    @Test func aNULInAPatientIdNeverReachesTheLookup() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let write = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                              json: ["samples": [Fixtures.walkTestSample(432)]])
            #expect(write.status == 200)
            let reply = try await server.send("GET", "/v1/patients/alice%00junk/changes", token: t.therapist)
            reply.expectProblem(404, "notFound")
            #expect(!reply.text.contains("432"))
            Self.expectHashed(try Self.auditRows(server).first, of: "alice\u{0}junk")
        }
    }

    @Test func lineBreaksAndNULsNeverReachTheAuditLog() async throws {
        try await TestServer.with { server in
            let raw = "x\r\n2026-01-01 admin deleted everything\u{0}tail"
            let reply = try await server.send("GET", "/v1/patients/x%0D%0A2026-01-01%20admin%20deleted%20everything%00tail/changes",
                                              token: server.tokens.aliceDevice)
            reply.expectProblem(404, "notFound")
            let rows = try Self.auditRows(server)
            Self.expectHashed(rows.first, of: raw)
            #expect(rows.first?.action == "changes.read")
            #expect(!rows.contains { ($0.patient ?? "").contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\u{0}" }) })
        }
    }

    @Test func oversizedIdsAreRecordedInTwentyThreeBytes() async throws {
        try await TestServer.with { server in
            let raw = String(repeating: "a", count: 7_000)
            for path in ["/v1/patients/\(raw)/changes", "/v1/patients/\(raw)/weekly-reports", "/v1/patients/\(raw)"] {
                let reply = try await server.send("GET", path, token: server.tokens.therapist)
                reply.expectProblem(404, "notFound")
                Self.expectHashed(try Self.auditRows(server).first, of: raw)
            }
            let admin = try await server.send("GET", "/v1/patients/\(raw)", token: server.tokens.admin)
            admin.expectProblem(404, "notFound")
            #expect(try Self.auditRows(server).first?.action == "admin.patient.read")
            Self.expectHashed(try Self.auditRows(server).first, of: raw)
        }
    }

    @Test func otherPathIdsAreCheckedBeforeTheirLookup() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let token = try #require(try server.app.api.access.tokens().first { $0.role == .device && $0.revokedAt == nil })
            for path in ["/v1/tokens/\(token.id)%00junk", "/v1/webhooks/wh_0123456789abcdef%0A", "/v1/care-teams/physio%00x/patients"] {
                let method = path.hasPrefix("/v1/tokens") ? "DELETE" : path.hasPrefix("/v1/webhooks") ? "GET" : "POST"
                let reply = try await server.send(method, path, token: t.admin, json: method == "POST" ? ["patientId": "bob"] : nil)
                reply.expectProblem(404, "notFound")
            }
            // The NUL did not cut the token id: the token is not revoked, and bob joined no team.
            #expect(try server.app.api.access.tokens().first { $0.id == token.id }?.revokedAt == nil)
            #expect(try server.app.api.access.careTeams().first { $0.name == "physio" }?.patients == ["alice"])
        }
    }
}
