import CareSyncCore
import Foundation
import CareSyncReferenceModel

/// One step of a model-based run. uuids are the model's; the runner translates them for the store under test.
enum Operation: CustomStringConvertible {
    case upsert(patient: String, source: String, samples: [SampleInput])
    case delete(patient: String, source: String, uuids: [UUID], syncIdentifiers: [String])
    case report(patient: String, source: String, report: WeeklyReportInput)
    case deleteReport(patient: String, source: String, syncIdentifier: String)
    case purge(before: Date)

    /// The patient whose feed the operation writes to; nil for a purge, which touches every feed.
    var patient: String? {
        switch self {
        case let .upsert(p, _, _), let .delete(p, _, _, _), let .report(p, _, _), let .deleteReport(p, _, _): p
        case .purge: nil
        }
    }

    var description: String {
        switch self {
        case let .upsert(p, s, samples):
            "upsert \(p)/\(s) " + samples.map { "[\($0.uuid.map { String($0.uuidString.prefix(8)) } ?? "-") \($0.type) \($0.value) \($0.syncIdentifier ?? "-") v\($0.syncVersion.map(String.init) ?? "-")]" }.joined()
        case let .delete(p, s, uuids, ids): "delete \(p)/\(s) uuids \(uuids.map { $0.uuidString.prefix(8) }) ids \(ids)"
        case let .report(p, s, r): "report \(p)/\(s) \(r.syncIdentifier) v\(r.syncVersion) " + r.samples.map { "\($0.key)=\($0.sample.value)" }.joined(separator: ",")
        case let .deleteReport(p, s, id): "deleteReport \(p)/\(s) \(id)"
        case let .purge(before): "purge before \(before.timeIntervalSince1970)"
        }
    }
}

/// Draws random operations over small pools, so keys, versions and uuids collide often.
struct OperationGenerator {
    static let patients = ["p1", "p2"]
    static let sources = ["s1", "s2"]
    static let therapists = ["t1", "t2"]
    static let identifiers = ["a", "b", "c", "d", "e", "f"]
    static let reportIDs = ["r1", "r2"]
    static let reportKeys = ["mon", "tue", "wed", "thu"]
    static let base = Date(timeIntervalSince1970: 1_592_179_200) // 2020-06-15T00:00:00Z

    var rng: SeededGenerator
    /// Client uuids already posted, with what was posted, to retry (duplicate) or reuse (conflict).
    var posted: [(uuid: UUID, patient: String, source: String, input: SampleInput)] = []

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// The next operation at `now`; `knownUUIDs` are recent model uuids (live or not), `live` gives the live ones.
    mutating func next(now: Date, knownUUIDs: [UUID], liveCount: Int,
                       live: () -> [(patient: String, sample: Sample)]) -> Operation {
        // Keep the state small so long runs stay linear: delete more once many samples are live.
        if liveCount > 120 && chance(Double(liveCount - 120) / 100) { return delete(knownUUIDs: knownUUIDs, live: live()) }
        let roll = Double.random(in: 0..<1, using: &rng)
        switch roll {
        case ..<0.55: return upsert()
        case ..<0.72: return delete(knownUUIDs: knownUUIDs, live: live())
        case ..<0.92: return report()
        case ..<0.97: return .deleteReport(patient: pick(Self.patients), source: pick(Self.therapists), syncIdentifier: pick(Self.reportIDs))
        default: return .purge(before: now.addingTimeInterval(-Double(Int.random(in: 0...120, using: &rng))))
        }
    }

    mutating func upsert() -> Operation {
        let patient = pick(Self.patients), source = pick(Self.sources)
        if !posted.isEmpty && chance(0.08) {
            let old = pick(posted)
            var input = old.input
            if chance(0.5) { input.value += 1 }                      // else an exact retry
            if input.secondValue != nil && chance(0.3) { input.secondValue! += 1 }
            return .upsert(patient: chance(0.8) ? old.patient : patient, source: chance(0.8) ? old.source : source, samples: [input])
        }
        let samples = (0..<Int.random(in: 1...4, using: &rng)).map { _ in sample() }
        for input in samples where input.uuid != nil { posted.append((input.uuid!, patient, source, input)) }
        return .upsert(patient: patient, source: source, samples: samples)
    }

    mutating func sample() -> SampleInput {
        let type = pick([SampleType.stepCount, .heartRate, .sleepAnalysis, .bodyMass, .bloodPressure, .bloodPressureSystolic])
        let value: Double = type == .sleepAnalysis ? Double(Int.random(in: 0...5, using: &rng)) : Double(Int.random(in: 0...20, using: &rng)) * 2.5
        let start = Self.base.addingTimeInterval(Double(Int.random(in: 0...10_000, using: &rng)) * 60 + 0.125)
        let end = start.addingTimeInterval(type == .heartRate ? 0 : Double(Int.random(in: 0...30, using: &rng)) * 60)
        let id: String? = chance(0.9) ? pick(Self.identifiers) : nil
        let metadata: [String: MetadataValue] = chance(0.2) ? ["wasUserEntered": .bool(chance(0.5)), "n": .number(1.5)] : [:]
        // A correlation's second component differs in a few values only, so retries of a pair sometimes conflict on it alone.
        let second: Double? = type == .bloodPressure ? Double(Int.random(in: 0...2, using: &rng)) + 60 : nil
        return SampleInput(uuid: chance(0.3) ? UUID(uuid: randomBytes()) : nil, type: type, value: value, secondValue: second,
                           start: start, end: end,
                           syncIdentifier: id, syncVersion: id == nil ? nil : Int64.random(in: 0...4, using: &rng), metadata: metadata)
    }

    mutating func delete(knownUUIDs: [UUID], live: [(patient: String, sample: Sample)]) -> Operation {
        // Mostly aim at live samples, as their owner (or another source of the same patient).
        var patient = pick(Self.patients)
        var source = pick(Self.sources + (chance(0.2) ? Self.therapists : []))
        var targets = live
        if !live.isEmpty && chance(0.8) {
            let target = pick(live)
            patient = target.patient
            if chance(0.85) { source = target.sample.source }
            targets = live.filter { $0.patient == patient }
        }
        var uuids: [UUID] = []
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            if !targets.isEmpty && chance(0.8) {
                uuids.append(pick(targets).sample.uuid)
            } else {
                uuids.append(!knownUUIDs.isEmpty && chance(0.7) ? pick(knownUUIDs) : UUID(uuid: randomBytes()))
            }
        }
        var ids: [String] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            ids.append(chance(0.9) ? pick(Self.identifiers) : "\(pick(Self.reportIDs))/\(pick(Self.reportKeys))")
        }
        return .delete(patient: patient, source: source, uuids: uuids, syncIdentifiers: ids)
    }

    mutating func report() -> Operation {
        var keys = Self.reportKeys.filter { _ in chance(0.7) }
        keys.shuffle(using: &rng)
        let samples = keys.map { key in
            let day = Double(Self.reportKeys.firstIndex(of: key)!)
            let start = Self.base.addingTimeInterval(day * 86_400 + 36_000)
            return WeeklyReportSampleInput(key: key, sample: SampleInput(
                type: .sixMinuteWalkTestDistance, value: pick([300, 310]), start: start, end: start.addingTimeInterval(360)))
        }
        let report = WeeklyReportInput(syncIdentifier: pick(Self.reportIDs), syncVersion: Int64.random(in: 0...5, using: &rng),
                                       weekStart: CalendarDay(year: 2020, month: 6, day: 15), timeZone: "UTC", samples: samples)
        return .report(patient: pick(Self.patients), source: pick(Self.therapists), report: report)
    }

    mutating func randomBytes() -> uuid_t {
        let a = rng.next(), b = rng.next()
        func byte(_ x: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: x >> (8 * i)) }
        return (byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), byte(a, 6), byte(a, 7),
                byte(b, 0), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7))
    }
}
