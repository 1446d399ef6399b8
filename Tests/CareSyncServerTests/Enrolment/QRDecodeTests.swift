import CareSyncCore
import CareSyncTestSupport
import Testing

/// Our QR codes read back by ZBar (after librsvg renders the SVG): every level, every mask, versions 1 to 10.
struct QRDecodeTests {
    static func decodes(_ code: QRCode, as text: String) async throws {
        guard QRDecoder.isAvailable else {
            if QRDecoder.isRequired { Issue.record("rsvg-convert and zbarimg are required") }
            return
        }
        #expect(try await QRDecoder.decode(svg: QRCodeSVG.render(code)) == [text], "version \(code.version) \(code.errorCorrection) mask \(code.mask)")
    }

    @Test(arguments: [1, 14, 40, 77, 106, 154, 213])
    func linksOfEveryLengthReadBack(length: Int) async throws {
        let prefix = "https://caresync.example.org/enrol#"
        let text = String((prefix + String(repeating: "7KQ2-M9XD-4HVB/", count: 20)).prefix(length))
        let code = try QRCode.encode(text: text, level: .medium)
        try await Self.decodes(code, as: text)
    }

    @Test(arguments: QRErrorCorrection.allCases)
    func everyLevelReadsBack(level: QRErrorCorrection) async throws {
        let text = "https://caresync.example.org/enrol#7KQ2-M9XD-4HVB"
        try await Self.decodes(try QRCode.encode(text: text, level: level), as: text)
        try await Self.decodes(try QRCode.encode(text: text, level: level, minVersion: 7), as: text)
    }

    @Test(arguments: 0..<8)
    func everyMaskReadsBack(mask: Int) async throws {
        let text = "Praxis Nord, Raum 4: 7KQ2-M9XD-4HVB"
        let code = try QRCode.encode(bytes: Array(text.utf8), level: .medium, mask: mask)
        #expect(code.mask == mask)
        try await Self.decodes(code, as: text)
    }
}
