import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// The export's direct Observation writer against the reference, `FHIRWire.observation(_:).serialized()`: the same
/// bytes for every catalogue type, each value shape (quantity, category, panel, none), with and without a sync
/// identifier, a write time, a therapist performer, and strings that need escaping.
@Suite struct ObservationLineWriterTests {
    /// Observations of every type in several shapes.
    static func observations() -> [FHIRObservation] {
        let start = Date(timeIntervalSince1970: 1_592_474_400.123)
        var result: [FHIRObservation] = []
        for (n, type) in SampleType.all.enumerated() {
            let value: Double = switch type.kind {
            case .category: Double(type.definition.values.first?.value ?? 0)
            default: [71.5, 0.97, 1.83, 120, 1e-7, 12_345.678_9][n % 6]
            }
            for variant in 0..<4 {
                let sample = Sample(uuid: UUID(), type: type, value: value, secondValue: type.kind == .correlation ? 80 : nil,
                                    start: start, end: start.addingTimeInterval(variant.isMultiple(of: 2) ? 0 : 1_800),
                                    syncIdentifier: variant >= 2 ? "report-\"\(n)\"\u{2028}" : nil,
                                    syncVersion: variant >= 2 ? Int64(n) : nil,
                                    source: variant == 3 ? "org.example.therapist/\u{1}é" : "org.example.phone")
                result.append(ObservationMapper.observation(of: sample, patient: variant == 1 ? "ali\"ce\\" : "alice",
                                                            enteredByTherapist: variant == 3,
                                                            lastUpdated: variant == 0 ? nil : start.addingTimeInterval(Double(n))))
            }
        }
        return result
    }

    @Test func writesTheReferenceBytesForEveryTypeAndShape() {
        let all = Self.observations()
        #expect(all.count == SampleType.all.count * 4)
        for o in all {
            let direct = ObservationLineWriter.line(o), reference = FHIRWire.observation(o).serialized()
            #expect(direct == reference, "\(o.codings.last?.code ?? o.id): \(String(decoding: direct, as: UTF8.self))")
        }
    }

    @Test func aPanelAndAConceptAreAmongTheShapes() {
        let values = Self.observations().map(\.value)
        #expect(values.contains(.none) && values.contains { if case .concept = $0 { true } else { false } })
        #expect(Self.observations().contains { !$0.components.isEmpty && $0.enteredByTherapist && $0.versionId != nil })
    }
}
