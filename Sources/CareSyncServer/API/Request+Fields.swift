import CareSyncHTTP
import HTTPTypes

/// The request fields handlers read, by name.
extension Request {
    /// The first value of a header field, or nil (names compare case-insensitively).
    func header(_ name: String) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        return head.headers[values: field].first
    }

    /// The first value of a query item ("" for an item without `=`), or nil.
    func query(_ name: String) -> String? {
        head.query.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// A list parameter: its comma-separated items, from one occurrence (`types=a,b`) or several (`types=a&types=b`,
    /// as clients that ignore `explode: false` send it), joined with commas; nil when absent.
    func queryList(_ name: String) -> String? {
        let values = head.query.filter { $0.name == name }.map { $0.value ?? "" }
        return values.isEmpty ? nil : values.joined(separator: ",")
    }
}

extension HTTPResponse.Status {
    /// The status of `code` with its standard reason phrase.
    static func standard(_ code: Int) -> HTTPResponse.Status {
        let known: [HTTPResponse.Status] = [
            .ok, .created, .noContent, .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .conflict, .gone,
            .contentTooLarge, .unsupportedMediaType, .unprocessableContent, .tooManyRequests, .internalServerError, .serviceUnavailable,
        ]
        return known.first { $0.code == code } ?? HTTPResponse.Status(code: code)
    }
}

extension Response {
    /// A JSON answer from a `JSONValue`.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        json(value.serialized(), status: status, headers: headers)
    }
}
