import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

/// Generated clients as an app builds them: the runtime's fractional-seconds date transcoder, a bearer token.
enum Clients {
    /// The configuration every client uses: no hand-written date or decoding fix, only the runtime's option.
    static let configuration = Configuration(dateTranscoder: .iso8601WithFractionalSeconds)

    /// A client for `url` sending `token`, with `extra` middlewares after the token's.
    static func make(_ url: URL, token: String?, _ extra: [any ClientMiddleware] = []) -> Client {
        let auth: [any ClientMiddleware] = token.map { [BearerTokenMiddleware(token: $0)] } ?? []
        return Client(serverURL: url, configuration: configuration, transport: URLSessionTransport(), middlewares: auth + extra)
    }

    /// A client that decodes `captured` as the answer to whatever it sends.
    static func replaying(_ captured: RawResponse, url: URL) -> Client {
        Client(serverURL: url, configuration: configuration, transport: ReplayTransport(captured: captured))
    }
}
