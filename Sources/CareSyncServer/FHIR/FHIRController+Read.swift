import CareSyncCore
import CareSyncHTTP
import Foundation

extension FHIRController {
    /// GET /fhir/R4/Observation/{id}: the Observation of a sample of a patient in reach, of a type the caller may read; else 404.
    func readObservation(_ request: Request, _ context: APIContext) async throws -> Response {
        try await answering {
            let principal = try await authenticate(request, context)
            let id = context.parameters["observationId"] ?? ""
            if let daily = DailyTotalID(parsing: id) { return try await readDailyTotal(daily, principal: principal) }
            guard let uuid = ObservationMapper.uuid(ofID: id) else {
                try? await audit.commit(AuditScope(principal: principal, patient: nil, action: "fhir.observations.read")
                    .record(count: 0, status: 404, time: clock.now()))
                throw FHIRError.notFound("No such Observation: an Observation id is a lower-case sample uuid or a daily total's id.")
            }
            let access = self.access
            let patients = try await blocking { try AdminController.patientsInReach(of: principal, in: access).map(\.id) }
            let types = principal.readable(nil)
            for patient in patients {
                guard let (sample, writeTime) = try await find(uuid, patient: patient, types: types) else { continue }
                let scope = AuditScope(principal: principal, patient: patient, action: "fhir.observations.read")
                return try await audited(scope) {
                    let therapists = try await therapistSources()
                    let observation = ObservationMapper.observation(of: sample, patient: patient,
                                                                    enteredByTherapist: therapists.contains(sample.source),
                                                                    lastUpdated: writeTime)
                    return (Response.fhir(FHIRWire.observation(observation)), 1)
                }
            }
            try? await audit.commit(AuditScope(principal: principal, patient: nil, action: "fhir.observations.read")
                .record(count: 0, status: 404, time: clock.now()))
            throw FHIRError.notFound("No such Observation.")
        }
    }

    /// The live sample `uuid` in `patient`'s feed of `types` and its write time, or nil (the store has no lookup by uuid;
    /// this reads the feed).
    func find(_ uuid: UUID, patient: String, types: Set<SampleType>?) async throws -> (Sample, Date?)? {
        if let types, types.isEmpty { return nil }
        let store = self.store, pageSize = limits.scanPage
        return try await blocking {
            var feed = ChangeQuery(patient: patient, types: types, limit: pageSize, writeTimes: true)
            while true {
                let changes = try store.changes(feed)
                if let sample = changes.samples.first(where: { $0.uuid == uuid }) { return (sample, changes.writeTimes[uuid]) }
                guard changes.hasMore else { return nil }
                feed.anchor = changes.anchor
            }
        }
    }
}
