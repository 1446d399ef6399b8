import CareSyncHTTP
import Foundation
import CareSyncCore

/// What an operator asks for when creating a token (command line or admin API).
public struct TokenSpec: Sendable, Hashable {
    /// The role of the new token.
    public var role: Role
    /// The patient of a device token.
    public var patient: String?
    /// The care teams of a therapist token.
    public var careTeams: [String]
    /// The source its writes carry; default `caresync.<role>.<id>`.
    public var source: String?
    /// Readable type names; nil means all.
    public var readTypes: [String]?
    /// Writable type names; nil means all.
    public var writeTypes: [String]?
    /// Days until it expires; nil means never.
    public var expiresInDays: Double?
    /// A token request.
    public init(role: Role, patient: String? = nil, careTeams: [String] = [], source: String? = nil,
                readTypes: [String]? = nil, writeTypes: [String]? = nil, expiresInDays: Double? = nil) {
        self.role = role; self.patient = patient; self.careTeams = careTeams; self.source = source
        self.readTypes = readTypes; self.writeTypes = writeTypes; self.expiresInDays = expiresInDays
    }
}

/// Operator actions on patients, care teams and tokens, shared by the command line and the admin API.
/// Every refusal is an `HTTPError` whose `detail` is fit to print.
public struct AccessAdmin: Sendable {
    let store: any AccessStore

    /// Operator actions over `store`.
    public init(store: any AccessStore) { self.store = store }

    /// Creates a patient with an IANA time zone (default UTC).
    @discardableResult
    public func createPatient(id: String, timeZone: String?, displayName: String = "", now: Date) throws -> PatientRecord {
        guard Self.isValidName(id, max: 64) else {
            throw HTTPError.invalidParameter("id", "a patient id is 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
        }
        let zone = timeZone ?? "UTC"
        try Self.validatePatient(timeZone: zone, displayName: displayName)
        let record = PatientRecord(id: id, timeZone: zone, createdAt: now, displayName: displayName)
        do { try store.createPatient(record) } catch AccessStoreError.alreadyExists { throw HTTPError.conflict("Patient \(id) exists already.") }
        catch AccessStoreError.erased { throw HTTPError.conflict("Patient \(id) was erased; an erased id never names a patient again.") }
        return record
    }

    /// Sets a patient's time zone and display name, each kept when nil; 404 for no such patient, 422 for bad values.
    public func updatePatient(id: String, timeZone: String?, displayName: String?) throws -> PatientRecord {
        guard let current = try store.patient(id: id) else { throw HTTPError.notFound("No such patient.") }
        let zone = timeZone ?? current.timeZone, name = displayName ?? current.displayName
        try Self.validatePatient(timeZone: zone, displayName: name)
        guard let updated = try store.updatePatient(id: id, timeZone: zone, displayName: name) else { throw HTTPError.notFound("No such patient.") }
        return updated
    }

    /// 422 for an unknown time zone or a display name over 100 bytes or with control or format characters.
    static func validatePatient(timeZone: String, displayName: String) throws {
        guard TimeZone(identifier: timeZone) != nil else { throw HTTPError.invalidParameter("timeZone", "unknown time zone '\(timeZone)'") }
        guard displayName.utf8.count <= 100, !InvisibleCharacters.occur(in: displayName) else {
            throw HTTPError.invalidParameter("displayName", "a display name is 0–100 bytes without control or format characters")
        }
    }

    /// Creates a care team.
    public func createCareTeam(name: String, now: Date) throws {
        guard Self.isValidName(name, max: 100) else {
            throw HTTPError.invalidParameter("name", "a care team name is 1–100 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
        }
        do { try store.createCareTeam(name: name, now: now) } catch AccessStoreError.alreadyExists { throw HTTPError.conflict("Care team \(name) exists already.") }
    }

    /// Adds a patient to a care team.
    public func addPatient(_ patient: String, toCareTeam name: String) throws {
        do { try store.addPatient(patient, toCareTeam: name) } catch AccessStoreError.missing(let what) { throw HTTPError.notFound("No such \(what).") }
    }

    /// Takes a patient off a care team at `now` (their departure, kept for the team's worksheet); 404 for no such team,
    /// or a patient not on it.
    public func removePatient(_ patient: String, fromCareTeam name: String, now: Date) throws {
        let removed: Bool
        do { removed = try store.removePatient(patient, fromCareTeam: name, at: now) } catch AccessStoreError.missing(let what) {
            throw HTTPError.notFound("No such \(what).")
        }
        guard removed else { throw HTTPError.notFound("Patient \(patient) is not on care team \(name).") }
    }

    /// Creates a token; returns its record and the secret string, which is never stored or shown again.
    public func createToken(_ spec: TokenSpec, now: Date) throws -> (record: TokenRecord, secret: String) {
        var problems: [ValidationProblem] = []
        func fail(_ field: String, _ message: String) { problems.append(ValidationProblem(index: nil, field: field, message: message)) }
        switch spec.role {
        case .device:
            if spec.patient == nil { fail("patient", "a device token needs a patient") }
            if !spec.careTeams.isEmpty { fail("careTeams", "a device token has no care team") }
        case .therapist:
            if spec.careTeams.isEmpty { fail("careTeams", "a therapist token needs at least one care team") }
            if spec.patient != nil { fail("patient", "a therapist token reaches patients through care teams") }
        case .admin:
            if spec.patient != nil || !spec.careTeams.isEmpty { fail("role", "an admin token has no patient or care team") }
        }
        if let p = spec.patient, try store.patient(id: p) == nil { fail("patient", "no patient \(p)") }
        if !spec.careTeams.isEmpty {
            let known = Set(try store.careTeams().map(\.name))
            for t in spec.careTeams where !known.contains(t) { fail("careTeams", "no care team \(t)") }
        }
        if let s = spec.source, let problem = SourceRule.problem(s) { fail("source", problem) }
        let readTypes = parseTypes(spec.readTypes, field: "readTypes", fail: fail)
        let writeTypes = parseTypes(spec.writeTypes, field: "writeTypes", fail: fail)
        if let days = spec.expiresInDays, !(days > 0 && days <= 3650) { fail("expiresInDays", "must be between 0 and 3650 days") }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
        // A source belongs to one writer: it decides which samples a token may replace and delete.
        if let s = spec.source, let reason = try store.tokens().lazy.filter({ $0.source == s }).compactMap({ SourceRule.conflict(spec, with: $0) }).first {
            throw HTTPError.conflict("Source \(s) belongs to another writer: \(reason). Choose another source.")
        }

        let (id, secret) = TokenSecret.generate()
        let record = TokenRecord(id: id, secretHash: TokenSecret.hash(secret), role: spec.role, patient: spec.patient,
                                 careTeams: spec.careTeams, source: spec.source ?? "caresync.\(spec.role.rawValue).\(id)",
                                 readTypes: readTypes, writeTypes: writeTypes, createdAt: now,
                                 expiresAt: spec.expiresInDays.map { now.addingTimeInterval($0 * 86_400) })
        try store.insertToken(record)
        return (record, secret)
    }

    /// Revokes a token; 404 when there is no such token.
    public func revokeToken(id: String, now: Date) throws {
        guard try store.revokeToken(id: id, at: now) else { throw HTTPError.notFound("No token \(id).") }
    }

    private func parseTypes(_ names: [String]?, field: String, fail: (String, String) -> Void) -> Set<SampleType>? {
        guard let names else { return nil }
        var set = Set<SampleType>()
        for n in names {
            guard let t = SampleType(rawValue: n) else { fail(field, "unknown sample type '\(n)'"); continue }
            guard t.kind != .correlation else {
                // As HealthKit: a correlation is authorized through its quantity types.
                fail(field, "'\(n)' is a correlation; list its components, "
                     + t.components.map(\.rawValue).joined(separator: " and ") + ", which cover it")
                continue
            }
            set.insert(t)
        }
        return set
    }

    static func isValidName(_ s: String, max: Int) -> Bool {
        !s.isEmpty && s.utf8.count <= max && s.utf8.allSatisfy { c in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 46 || c == 95
        }
    }
}
