import CareSyncCore
import CareSyncHTTP
import Foundation

extension EnrolmentController {
    /// The one refusal of a code that is malformed, wrong, expired, cancelled or used already: alike in status and body,
    /// so an attempt learns nothing but "no".
    static let refusedCode = HTTPError(.badRequest, code: .invalidEnrolmentCode,
                                       detail: "This enrolment code is wrong, expired or used already; ask for a new one.")

    /// The longest display name, in bytes.
    static let maxDisplayNameBytes = 100

    /// POST /v1/enrolments/redeem (no token): `{code, source, displayName}` → a device token of the code's patient and
    /// that source, shown this once. Every attempt spends from its address's budget and leaves an audit record
    /// (by the new token when it succeeds, `-` when refused), never the code.
    func redeem(_ request: Request, _ context: APIContext) async throws -> Response {
        let address = request.remoteAddress.map(PeerAddress.host(of:)) ?? AccessGate.unknownAddress
        if let seconds = redeemBudget.spend(address) {
            gate.metrics.rateLimited(reason: "enrolmentRedeem")
            try? await gate.audit.commit(Self.record(token: nil, patient: nil, status: 429, time: clock.now()))
            throw HTTPError.tooManyRequests("Too many enrolment attempts from this address; retry later.", retryAfter: seconds)
        }
        do {
            let (reply, token) = try await redeemAdmitted(request)
            try await gate.audit.commit(Self.record(token: token, patient: token.patient, status: 201, time: clock.now()))
            return reply
        } catch {
            try? await gate.audit.commit(Self.record(token: nil, patient: nil, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
    }

    private func redeemAdmitted(_ request: Request) async throws -> (Response, TokenRecord) {
        let store = try requireStore()
        let body = try request.jsonBody()
        guard case .object = body else { throw HTTPError.invalidParameter("code", "send a JSON object with code, source and displayName") }
        var problems: [ValidationProblem] = []
        let source = body["source"]?.stringValue, displayName = body["displayName"]?.stringValue
        if source == nil { problems.append(ValidationProblem(index: nil, field: "source", message: "a source name (a string) is required")) }
        if let source, let problem = SourceRule.problem(source) { problems.append(ValidationProblem(index: nil, field: "source", message: problem)) }
        if let problem = Self.displayNameProblem(displayName) { problems.append(ValidationProblem(index: nil, field: "displayName", message: problem)) }
        if body["code"]?.stringValue == nil { problems.append(ValidationProblem(index: nil, field: "code", message: "the enrolment code (a string) is required")) }
        guard problems.isEmpty, let source, let displayName, let text = body["code"]?.stringValue else { throw HTTPError.validation(problems) }
        guard let code = EnrolmentCode.normalized(text) else { throw Self.refusedCode }
        let now = clock.now(), hash = TokenSecret.hash(code), admin = self.admin
        return try await calls.blocking {
            guard let enrolment = try store.claimEnrolment(codeHash: hash, at: now) else { throw Self.refusedCode }
            let made: (record: TokenRecord, secret: String)
            do {
                made = try admin.createToken(TokenSpec(role: .device, patient: enrolment.patient, source: source), now: now)
            } catch {
                try? store.releaseEnrolment(id: enrolment.id)  // the code was right: it stays usable with another source
                throw error
            }
            try store.completeEnrolment(id: enrolment.id, device: DeviceSourceRecord(
                patient: enrolment.patient, source: source, displayName: displayName, tokenID: made.record.id, enrolledAt: now))
            return (Response.json(EnrolmentWire.redeemed(made.record, secret: made.secret, displayName: displayName), status: .created), made.record)
        }
    }

    /// What is wrong with a display name, or nil: 1–100 bytes, no control or format characters, not only spaces.
    static func displayNameProblem(_ name: String?) -> String? {
        guard let name else { return "a display name (a string) is required" }
        if name.utf8.count > maxDisplayNameBytes || name.allSatisfy(\.isWhitespace) { return "a display name is 1–\(maxDisplayNameBytes) bytes, not only spaces" }
        if InvisibleCharacters.occur(in: name) { return "a display name must not contain control or format characters (Unicode categories Cc, Cf, Zl, Zp)" }
        return nil
    }

    /// The audit record of one redemption attempt: by the token it made, or by `-` when refused.
    static func record(token: TokenRecord?, patient: String?, status: Int, time: Date) -> AuditRecord {
        AuditRecord(time: time, tokenID: token?.id ?? "-", role: .device, patient: patient, action: "enrolments.redeem",
                    count: token == nil ? 0 : 1, status: status)
    }
}
