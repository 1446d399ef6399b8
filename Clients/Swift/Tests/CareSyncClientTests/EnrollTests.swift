import Foundation
import Testing
@testable import CareSyncClient

/// Enrolment against a live server: a therapist makes a code, the SDK and the agent redeem it once for a device token.
@Suite struct EnrollTests {
    @Test func theSDKRedeemsTheScannedLinkOnceForADeviceToken() async throws {
        let server = try LiveServer()
        let offer = try await server.therapist().createEnrolment(patient: "alice")
        #expect(offer.url.hasSuffix("/enrol#\(offer.code)") && offer.qrSvg?.hasPrefix("<svg") == true)
        #expect(CareSyncClient.server(ofEnrolmentLink: offer.url)?.host == server.url.host)
        let enrollment = try await CareSyncClient.enroll(baseURL: server.url, code: offer.url, source: "org.example.watch",
                                                         displayName: "Apple Watch")
        #expect(enrollment.patient == "alice" && enrollment.source == "org.example.watch" && enrollment.displayName == "Apple Watch")
        let me = try await CareSyncClient.enrolled(enrollment, baseURL: server.url).whoami()
        #expect(me.role == "device" && me.patient == "alice" && me.source == "org.example.watch")
        await #expect(throws: Problem.self) {
            _ = try await server.device().enroll(code: offer.code, source: "org.example.watch", displayName: "Apple Watch")
        }
        do {
            _ = try await CareSyncClient.enroll(baseURL: server.url, code: offer.code.lowercased(), source: "org.example.watch", displayName: "x")
            Issue.record("a used code was redeemed again")
        } catch let problem as Problem {
            #expect(problem.status == 400 && problem.code == "invalidEnrolmentCode")
        }
    }

    @Test func theAgentPrintsTheTokenOfARedeemedCodeAndRefusesItAgain() async throws {
        let server = try LiveServer()
        let offer = try await server.therapist().createEnrolment(patient: "alice")
        let (status, out, err) = try AgentRun.run(["enroll", offer.code, "--source", "org.example.ring", "--display-name", "Smart ring",
                                                   "--url", server.url.absoluteString], server: server)
        #expect(status == 0, "\(err)")
        let token = out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("cs_") && err.contains("Smart ring") && !err.contains(token))
        let me = try await CareSyncClient(baseURL: server.url, token: token).whoami()
        #expect(me.role == "device" && me.patient == "alice" && me.source == "org.example.ring")
        let (again, _, refusal) = try AgentRun.run(["enroll", offer.url, "--source", "org.example.ring"], server: server)
        #expect(again == 2 && refusal.contains("invalidEnrolmentCode"))
    }
}
