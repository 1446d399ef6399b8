import Foundation
import Testing
@testable import CareSyncServer

/// Standard Webhooks signing, checked against the reference libraries' own vector.
@Suite struct WebhookSignatureTests {
    /// `test_sign_function` of standard-webhooks' Python library (libraries/python/tests/test_webhooks.py).
    @Test func theStandardWebhooksVectorSigns() {
        let signature = WebhookSignature.sign(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                              timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        // The prefix is optional, as in the reference libraries.
        #expect(WebhookSignature.sign(secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                      timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8)) == signature)
    }

    @Test func everyPartOfTheMessageIsSigned() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", body = Array(#"{"test": 2432232314}"#.utf8)
        let base = WebhookSignature.sign(secret: secret, id: "msg_1", timestamp: 1, body: body)
        #expect(WebhookSignature.sign(secret: secret, id: "msg_2", timestamp: 1, body: body) != base)
        #expect(WebhookSignature.sign(secret: secret, id: "msg_1", timestamp: 2, body: body) != base)
        #expect(WebhookSignature.sign(secret: secret, id: "msg_1", timestamp: 1, body: body + [0x20]) != base)
        #expect(WebhookSignature.sign(secret: "whsec_AAAA", id: "msg_1", timestamp: 1, body: body) != base)
    }

    @Test func aNewSecretIsWhsecAndBase64OfThirtyTwoRandomBytes() throws {
        let a = WebhookSignature.generateSecret(), b = WebhookSignature.generateSecret()
        #expect(a.hasPrefix("whsec_") && a != b)
        #expect(try #require(Data(base64Encoded: String(a.dropFirst(6)))).count == 32)
        #expect(WebhookSignature.key(of: a)?.count == 32)
        #expect(WebhookSignature.key(of: "whsec_%%%") == nil && WebhookSignature.key(of: "whsec_") == nil)
    }
}
