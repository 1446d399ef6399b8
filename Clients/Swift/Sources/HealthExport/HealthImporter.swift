import Foundation
import CareSyncClient

/// Imports an Apple Health `export.xml` into a patient's samples, streaming: the parser runs on its
/// own thread and waits while a batch is pushed, so the samples in memory are one batch whatever the
/// file's size (plus the identities a re-import compares, and blood pressure and dietary records held for
/// their correlations).
///
/// A re-import makes the server equal to the export: changed readings are replaced, gone ones deleted
/// (``ExportIdentity``); `addOnly` only ever adds. Resumable: after each pushed batch the number of items
/// done is written to `stateFile`; a later run reads them again (for their identities) but does not send them.
public struct HealthImporter: Sendable {
    /// What an import did.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        /// Records and correlations read (skipped ones of a resumed run included); a correlation counts
        /// once, the export's top-level copies of its records are not counted again.
        public var records = 0
        /// Correlations among them (blood pressure pairs, foods).
        public var correlations = 0
        /// Bytes of the export read so far, and its size: the progress bar's fraction.
        public var bytesRead: Int64 = 0
        public var fileSize: Int64 = 0
        /// Items skipped because an earlier run pushed them.
        public var resumedPast = 0
        /// Samples sent.
        public var sent = 0
        public var inserted = 0
        public var replaced = 0
        public var ignored = 0
        /// Samples deleted because the export no longer holds them.
        public var deleted = 0
        /// Metadata entries left out because the server's limits (64 keys, 4 KiB) had no room, by key.
        public var metadataDropped: [String: Int] = [:]
        /// Samples the server refused (422), by message.
        public var rejected: [String: Int] = [:]
        /// Records of types CareSync does not know, by HealthKit identifier.
        public var unknownTypes: [String: Int] = [:]
        /// Records that could not be read.
        public var unreadable: [String: Int] = [:]
        /// Other top-level elements (`Workout`, `ActivitySummary` …), by name.
        public var skippedElements: [String: Int] = [:]

        public var description: String {
            var lines = ["records: \(records)" + (correlations > 0 ? " (\(correlations) correlation\(correlations == 1 ? "" : "s"))" : "")
                            + (resumedPast > 0 ? " (\(resumedPast) done by an earlier run)" : ""),
                         "sent: \(sent) — inserted \(inserted), replaced \(replaced), ignored \(ignored)",
                         "deleted (no longer in the export): \(deleted)"]
            func list(_ title: String, _ counts: [String: Int]) {
                guard !counts.isEmpty else { return }
                lines.append("\(title): \(counts.values.reduce(0, +))")
                for (key, count) in counts.sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }).prefix(20) {
                    lines.append("  \(key): \(count)")
                }
            }
            list("unknown types (not sent)", unknownTypes)
            list("unreadable records (not sent)", unreadable)
            list("refused by the server", rejected)
            list("metadata entries over the server's limits (not sent)", metadataDropped)
            list("other elements (not imported)", skippedElements)
            return lines.joined(separator: "\n")
        }
    }

    let client: CareSyncClient
    let patient: String
    let batchSize: Int
    let addOnly: Bool

    /// An importer pushing to `patient` through `client`, `batchSize` samples per request; `addOnly`
    /// never replaces or deletes (an edited reading is added beside the old one).
    public init(client: CareSyncClient, patient: String, batchSize: Int = CareSyncClient.maxBatchSize, addOnly: Bool = false) {
        self.client = client
        self.patient = patient
        self.batchSize = batchSize
        self.addOnly = addOnly
    }

    /// Imports `file`; `progress` is called after each batch with the summary so far.
    public func run(file: URL, stateFile: URL?, progress: @escaping @Sendable (Summary) -> Void = { _ in }) async throws -> Summary {
        let mapper = RecordMapper(types: try await client.types())
        let done = stateFile.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        let identity = ExportIdentity(previous: addOnly ? nil : try await Self.stored(client: client, patient: patient))
        let channel = BatchChannel()
        let parsing = Thread {
            Self.parse(file: file, mapper: mapper, identity: identity, skip: done, batchSize: batchSize, channel: channel)
        }
        parsing.stackSize = 1 << 20
        parsing.start()

        defer { channel.cancel() }
        var summary = Summary()
        summary.fileSize = ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.int64Value ?? 0
        while let batch = await channel.next() {
            defer { channel.release() }
            summary.records = batch.items
            summary.correlations = batch.correlations
            summary.bytesRead = batch.bytesRead
            summary.resumedPast = min(done, batch.items)
            summary.unknownTypes = batch.unknownTypes
            summary.unreadable = batch.unreadable
            summary.metadataDropped = batch.metadataDropped
            summary.skippedElements = batch.skippedElements
            if let error = batch.error { throw error }
            try await push(batch.samples, into: &summary)
            try await delete(batch.gone, into: &summary)
            if let stateFile, batch.items > done { try Data(String(batch.items).utf8).write(to: stateFile, options: .atomic) }
            progress(summary)
        }
        if let stateFile { try? FileManager.default.removeItem(at: stateFile) }
        return summary
    }

    /// Pushes `samples`; a 422 drops the samples it names (counted as refused) and sends the rest again.
    private func push(_ samples: [SampleDraft], into summary: inout Summary) async throws {
        var pending = samples
        while !pending.isEmpty {
            do {
                let result = try await client.push(patient: patient, samples: pending, batchSize: batchSize)
                summary.sent += pending.count
                summary.inserted += result.count(.inserted)
                summary.replaced += result.count(.replaced)
                summary.ignored += result.count(.ignored)
                return
            } catch let problem as Problem where problem.code == "validationFailed" || problem.code == "forbidden" {
                let bad = Set(problem.errors.compactMap(\.index))
                guard !bad.isEmpty else { throw problem }
                for error in problem.errors where error.index != nil {
                    summary.rejected["\(error.field ?? ""): \(error.message)", default: 0] += 1
                }
                pending = pending.enumerated().filter { !bad.contains($0.offset) }.map(\.element)
            }
        }
    }

    /// Deletes the samples named by sync identifier, 5,000 a request.
    private func delete(_ identifiers: [String], into summary: inout Summary) async throws {
        for start in stride(from: 0, to: identifiers.count, by: CareSyncClient.maxBatchSize) {
            let chunk = Array(identifiers[start..<min(start + CareSyncClient.maxBatchSize, identifiers.count)])
            summary.deleted += try await client.delete(patient: patient, syncIdentifiers: chunk).results.filter { $0.outcome == .deleted }.count
        }
    }

    /// The parser thread's body: maps items into batches and hands each to `channel`, waiting while it is
    /// pushed. Items an earlier run pushed (`skip`) are mapped for their identities but not sent.
    private static func parse(file: URL, mapper: RecordMapper, identity: ExportIdentity, skip: Int, batchSize: Int,
                              channel: BatchChannel) {
        var identity = identity
        var batch = Batch()
        var (items, correlations) = (0, 0)
        weak var parser: HealthExportParser?
        let reader = HealthExportParser { item in
            items += 1
            let results: [Result<MappedSample, RecordMapper.Refusal>]
            switch item {
            case .record(let record): results = [mapper.sample(record)]
            case .correlation(let correlation):
                correlations += 1
                results = mapper.samples(correlation, foodID: identity.foodID(correlation))
            }
            let send = items > skip
            for result in results {
                switch result {
                case .success(let mapped):
                    let draft = identity.assign(mapped)
                    guard send else { continue }
                    batch.samples.append(draft)
                    for key in mapped.droppedMetadata { batch.metadataDropped[key, default: 0] += 1 }
                case .failure(.unknownType(let type)) where send: batch.unknownTypes[type, default: 0] += 1
                case .failure(.unreadable(let what)) where send: batch.unreadable[what, default: 0] += 1
                case .failure: break
                }
            }
            if batch.samples.count >= batchSize {
                (batch.items, batch.correlations) = (items, correlations)
                batch.bytesRead = parser?.bytesRead ?? 0
                let carried = batch
                batch = Batch(unknownTypes: carried.unknownTypes, unreadable: carried.unreadable, metadataDropped: carried.metadataDropped)
                return channel.put(carried)
            }
            return true
        }
        parser = reader
        do {
            try reader.parse(contentsOf: file)
            batch.gone = identity.gone()
        } catch {
            batch.error = error
        }
        (batch.items, batch.correlations) = (items, correlations)
        batch.bytesRead = reader.bytesRead
        batch.skippedElements = reader.skipped
        _ = channel.put(batch)
        channel.finish()
    }
}
