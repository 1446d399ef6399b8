import Foundation
@testable import CareSyncCore

/// Test-only builders with defaults.
enum Fixtures {
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400) // 2020-06-18T10:00:00Z

    static func makeInput(uuid: UUID? = nil, type: SampleType = .sixMinuteWalkTestDistance, value: Double = 400,
                          start: Date = t0, minutes: Double = 6, syncIdentifier: String? = nil, syncVersion: Int64? = nil,
                          metadata: [String: MetadataValue] = [:]) -> SampleInput {
        SampleInput(uuid: uuid, type: type, value: value, start: start, end: start.addingTimeInterval(minutes * 60),
                    syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata)
    }

    static func makeSample(uuid: UUID = UUID(), from input: SampleInput, source: String = "org.example.app") -> Sample {
        Sample(uuid: uuid, type: input.type, value: input.value, start: input.start, end: input.end,
               syncIdentifier: input.syncIdentifier, syncVersion: input.syncVersion, source: source, metadata: input.metadata)
    }
}
