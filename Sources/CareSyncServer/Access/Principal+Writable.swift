import CareSyncCore
import CareSyncHTTP

extension Principal {
    /// 403 naming every item of a type this token may not write.
    func requireWritable(_ types: [SampleType]) throws {
        let denied = types.enumerated().filter { !mayWrite($0.element) }
        guard denied.isEmpty else {
            throw HTTPError.forbidden("This token may not write some of these types; nothing was stored.",
                errors: denied.map { ValidationProblem(index: $0.offset, field: "type", message: "this token may not write \($0.element.rawValue)") })
        }
    }
}
