import CareSyncCore
import Foundation
import Testing

/// A device's last write read back from the audit log on every store, through the scan's growing pages: found however
/// many reads follow it within the scan limit (at and around each page's edge), not found past it.
struct DeviceLastReceivedContractTests {
    static let token = "00000000000000a1", other = "00000000000000a2"
    static let start = Date(timeIntervalSince1970: 1_600_000_000)

    @Test(arguments: ContractStores.pairs)
    func theLastWriteIsFoundBehindAnyNumberOfReadsWithinTheLimit(pair: ContractStorePair) async throws {
        let (_, access) = try pair.make()
        func record(_ n: Int, action: String, token: String = Self.token, count: Int = 1, status: Int = 200) -> AuditRecord {
            AuditRecord(time: Self.start.addingTimeInterval(Double(n)), tokenID: token, role: .device, patient: Contract.patient,
                        action: action, count: count, status: status)
        }
        // An earlier write, then the last one; a failed and an empty write after it do not count, nor another token's.
        try await access.commitAudit([record(0, action: "samples.upsert"), record(1, action: "samples.upsert"),
                                      record(2, action: "samples.upsert", status: 409), record(3, action: "samples.upsert", count: 0),
                                      record(4, action: "samples.upsert", token: Self.other)])
        let reader = DeviceLastReceived(access: access, scanLimit: 700)
        var reads = 2   // the failed and the empty write
        // Pages of 16, 64, 256, then what is left of the 700: the write as the 16th and 17th newest record, the 80th and
        // 81st, the 336th and 337th, and the 700th (the scan's last).
        for target in [15, 16, 79, 80, 335, 336, 699] {
            try await access.commitAudit((reads..<target).map { record(10 + $0, action: "changes.read") })
            reads = target
            #expect(try reader.time(patient: Contract.patient, token: Self.token) == Self.start.addingTimeInterval(1), "\(pair) \(reads) reads")
        }
        try await access.commitAudit([record(10_000, action: "changes.read")])   // the write is now the 701st
        #expect(try reader.time(patient: Contract.patient, token: Self.token) == nil, "\(pair): past the limit")
        #expect(try reader.time(patient: Contract.patient, token: Self.other) == Self.start.addingTimeInterval(4), "\(pair)")
        #expect(try reader.time(patient: "nobody", token: Self.token) == nil, "\(pair)")
    }

    /// Several devices read together: each scan goes as deep as its own device needs (one found at once, one behind
    /// pages of reads, one past the limit, one of another patient), and each finds what it would alone.
    @Test(arguments: ContractStores.pairs)
    func devicesReadTogetherFindEachTheirOwnLastWrite(pair: ContractStorePair) async throws {
        let (_, access) = try pair.make()
        func record(_ n: Int, _ action: String, token: String, patient: String = Contract.patient) -> AuditRecord {
            AuditRecord(time: Self.start.addingTimeInterval(Double(n)), tokenID: token, role: .device, patient: patient,
                        action: action, count: 1, status: 200)
        }
        let (near, deep, lost, elsewhere) = ("00000000000000b1", "00000000000000b2", "00000000000000b3", "00000000000000b4")
        var records = [record(1, "samples.upsert", token: deep), record(2, "samples.upsert", token: lost),
                       record(3, "samples.upsert", token: elsewhere, patient: "p2")]
        records += (0..<100).map { record(10 + $0, "changes.read", token: deep) }
        records += (0..<130).map { record(200 + $0, "changes.read", token: lost) }
        records += [record(400, "samples.upsert", token: near), record(401, "changes.read", token: elsewhere)]
        try await access.commitAudit(records)
        let reader = DeviceLastReceived(access: access, scanLimit: 120)
        let devices = [DeviceLastReceived.Device(patient: Contract.patient, token: near), .init(patient: Contract.patient, token: deep),
                       .init(patient: Contract.patient, token: lost), .init(patient: "p2", token: elsewhere),
                       .init(patient: "p2", token: near)]
        let together = try reader.times(of: devices)
        let expected: [DeviceLastReceived.Device: Date] = [devices[0]: Self.start.addingTimeInterval(400), devices[1]: Self.start.addingTimeInterval(1),
                                                           devices[3]: Self.start.addingTimeInterval(3)]
        #expect(together == expected, "\(pair)")
        for device in devices {
            #expect(try reader.time(patient: device.patient, token: device.token) == expected[device], "\(pair) \(device.token)")
        }
    }
}
