import CareSyncCore
import CareSyncHTTP
import CareSyncTestSupport
import Crypto
import Foundation
import HTTPTypes
@testable import CareSyncServer

/// An OpenID Connect provider on a loopback port for the flow tests: discovery, a JWKS the test changes, and a token
/// endpoint that answers with the ID token the test prepared, after checking the PKCE verifier and client credentials.
final class FakeProvider: Sendable {
    /// A signing key of the provider.
    struct Key: Sendable {
        let kid: String
        /// The private key's raw bytes (swift-crypto's keys are not `Sendable`).
        let raw: [UInt8]
        var key: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: raw) }
        static func make(_ kid: String) -> Key { Key(kid: kid, raw: Array(P256.Signing.PrivateKey().rawRepresentation)) }
        var jwk: JSONValue {
            let raw = Array(key.publicKey.x963Representation.dropFirst())
            return ["kty": "EC", "crv": "P-256", "kid": .string(kid), "alg": "ES256", "use": "sig",
                    "x": .string(Base64URL.encode(Array(raw[0..<32]))), "y": .string(Base64URL.encode(Array(raw[32...])))]
        }
    }

    /// What the token endpoint answers next: claims signed by `key` (the `nonce` is filled in by the test).
    struct NextToken: Sendable {
        var claims: JSONValue
        var key: Key
    }

    let receiver: WebhookReceiver
    /// The keys the JWKS lists now.
    let published = Shared<[Key]>([])
    /// The next token answer; nil answers 400 invalid_grant.
    let next = Shared<NextToken?>(nil)
    /// The code challenge the test expects the verifier to match.
    let challenge = Shared<String?>(nil)

    /// Listens on a free loopback port.
    init() throws {
        let published = self.published, next = self.next, challenge = self.challenge
        let box = Shared<String>("")
        let receiver = try WebhookReceiver { _, request in
            let issuer = box.current
            switch request.path {
            case "/.well-known/openid-configuration":
                return Response.json(["issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
                                      "token_endpoint": .string(issuer + "/token"), "jwks_uri": .string(issuer + "/jwks")])
            case "/jwks":
                return Response.json(["keys": .array(published.current.map(\.jwk))])
            case "/token":
                let form = Dictionary(String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                    return (parts[0], parts.count > 1 ? parts[1] : "")
                }, uniquingKeysWith: { $1 })
                guard let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == challenge.current,
                      form["grant_type"] == "authorization_code", let token = next.update({ t -> NextToken? in defer { t = nil }; return t })
                else { return Response.json(JSONValue.object(["error": .string("invalid_grant")]), status: .badRequest) }
                return Response.json(["access_token": "unused", "token_type": "Bearer", "id_token": .string(Self.sign(token))])
            default:
                return Response(status: .notFound)
            }
        }
        let issuer = "http://127.0.0.1:\(receiver.port)"
        box.update { $0 = issuer }
        self.receiver = receiver
        self.issuer = issuer
    }

    /// The issuer URL.
    let issuer: String

    /// How many times the JWKS was fetched.
    var jwksFetches: Int { receiver.received.filter { $0.path == "/jwks" }.count }

    /// The requests to the token endpoint.
    var tokenRequests: [WebhookReceiver.Received] { receiver.received.filter { $0.path == "/token" } }

    /// A compact JWS of `token`.
    static func sign(_ token: NextToken) -> String {
        let header: JSONValue = ["alg": "ES256", "typ": "JWT", "kid": .string(token.key.kid)]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(token.claims.serialized())
        let signature = try! token.key.key.signature(for: Array(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(Array(signature))
    }

    func stop() async { await receiver.stop() }
}
