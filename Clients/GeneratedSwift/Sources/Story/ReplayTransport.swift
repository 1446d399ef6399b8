import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that answers every request with one captured response: a status that a URLSession cannot
/// provoke (malformed framing, an HTTP version, a slow head) is captured over a raw socket and then decoded
/// by the generated client as if it had arrived for that operation.
struct ReplayTransport: ClientTransport {
    /// The captured answer.
    let captured: RawResponse

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var fields = HTTPFields()
        for (name, value) in captured.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return (HTTPResponse(status: .init(code: captured.status), headerFields: fields), HTTPBody(captured.body))
    }
}
