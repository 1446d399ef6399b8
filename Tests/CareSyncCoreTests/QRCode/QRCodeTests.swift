import Testing
@testable import CareSyncCore

/// The QR encoder's parts against the standard's numbers: GF(256), Reed–Solomon, block tables, format and version bits.
struct QRCodeTests {
    @Test func theFieldIsGeneratedByTwoOverPolynomial0x11D() {
        #expect(GaloisField.exp[8] == 0x1D && GaloisField.exp[255] == 1)
        #expect(Set(GaloisField.exp[0..<255]).count == 255)
        for v in 1...255 { #expect(Int(GaloisField.exp[GaloisField.log[v]]) == v) }
        #expect(GaloisField.multiply(0x53, 0xCA) == GaloisField.multiply(0xCA, 0x53))
    }

    @Test func theGeneratorPolynomialOfTenCodewordsHasTheStandardsExponents() {
        // ISO/IEC 18004 Annex A, 10 error correction codewords, as powers of α.
        #expect(ReedSolomon.generator(degree: 10).map { GaloisField.log[Int($0)] } == [0, 251, 67, 46, 61, 118, 70, 64, 94, 32, 45])
        #expect(ReedSolomon.generator(degree: 7).map { GaloisField.log[Int($0)] } == [0, 87, 229, 146, 149, 238, 102, 21])
    }

    @Test func errorCorrectionCodewordsOfKnownSymbols() {
        // ISO/IEC 18004 Annex I: "01234567", version 1-M.
        let iso: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        #expect(ReedSolomon.remainder(of: iso, count: 10) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
        // "HELLO WORLD", version 1-M (alphanumeric data codewords).
        let hello: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(ReedSolomon.remainder(of: hello, count: 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func byteModeDataCodewordsArePaddedAsTheStandardSays() {
        // Mode 0100, count 00000010, 'h' 'i', terminator 0000, then 0xEC 0x11 alternately up to 16 codewords (1-M).
        let data = QRCodewords.data(Array("hi".utf8), version: 1, level: .medium)
        #expect(data == [0x40, 0x26, 0x86, 0x90, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11])
    }

    @Test(arguments: 1...QRVersionTable.maxVersion)
    func everyBlockTableFillsExactlyTheDataModulesOfItsVersion(version: Int) {
        let free = QRMatrix(version: version).isFunction.filter { !$0 }.count
        for level in QRErrorCorrection.allCases {
            // The remainder bits (0, 3, 4 or 7) are what the codewords leave over.
            #expect(QRVersionTable.layout(version: version, level: level).totalCodewords == free / 8, "version \(version) \(level)")
        }
        #expect([0, 3, 4, 7].contains(free % 8))
    }

    @Test func formatAndVersionBitsMatchTheStandardsTables() {
        // ISO/IEC 18004 Table C.1 (level M = 00, L = 01) and Table D.1.
        #expect(QRMatrix.formatBits(QRErrorCorrection.medium.formatBits << 3 | 0) == 0b101010000010010)
        #expect(QRMatrix.formatBits(QRErrorCorrection.low.formatBits << 3 | 0) == 0b111011111000100)
        #expect(QRMatrix.formatBits(QRErrorCorrection.quartile.formatBits << 3 | 0) == 0b011010101011111)
        #expect(QRMatrix.formatBits(QRErrorCorrection.high.formatBits << 3 | 0) == 0b001011010001001)
        #expect([7, 8, 9, 10].map(QRMatrix.versionBits) == [0x07C94, 0x085BC, 0x09A99, 0x0A4D3])
    }

    @Test func theSmallestVersionThatHoldsTheBytesIsChosen() throws {
        #expect(try QRCode.encode(bytes: Array(repeating: 65, count: 14), level: .medium).version == 1)
        #expect(try QRCode.encode(bytes: Array(repeating: 65, count: 15), level: .medium).version == 2)
        #expect(try QRCode.encode(bytes: Array(repeating: 65, count: 213), level: .medium).version == 10)
        #expect(throws: QRCodeError.tooLong(bytes: 214)) { try QRCode.encode(bytes: Array(repeating: 65, count: 214), level: .medium) }
        #expect(try QRCode.encode(text: "x", minVersion: 7).size == 45)
    }

    @Test func theChosenMaskHasTheLeastPenalty() throws {
        let text = "https://caresync.example.org/enrol#7KQ2-M9XD-4HVB"
        let chosen = try QRCode.encode(text: text)
        let penalties = try (0..<8).map { QRMask.penalty(try QRCode.encode(bytes: Array(text.utf8), mask: $0).matrix) }
        #expect(QRMask.penalty(chosen.matrix) == penalties.min() && penalties[chosen.mask] == penalties.min())
    }

    @Test func theSVGHasOnePathOfTheDarkModulesInsideAQuietZone() throws {
        let code = try QRCode.encode(text: "hi")
        let svg = QRCodeSVG.render(code)
        #expect(svg.hasPrefix("<svg ") && svg.contains("viewBox=\"0 0 29 29\""))
        #expect(svg.components(separatedBy: "<path").count == 2)
        // The top-left finder's first row: seven dark modules from (4, 4).
        #expect(svg.contains("M4 4h7v1h-7z"))
        let darkInPath = svg.split(separator: "h").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(darkInPath.reduce(0, +) == code.matrix.modules.filter { $0 }.count)
    }

    @Test func enrolmentCodesHaveSixtyBitsInReadableGroups() {
        var random = SystemRandomNumberGenerator()
        let code = EnrolmentCode.generate(using: &random)
        #expect(code.count == 14 && code.split(separator: "-").map(\.count) == [4, 4, 4])
        #expect(EnrolmentCode.entropyBits >= 40)
        #expect(code.allSatisfy { $0 == "-" || EnrolmentCode.alphabet.contains($0) })
        #expect(!EnrolmentCode.alphabet.contains { "ILOU".contains($0) })
        #expect(EnrolmentCode.normalized("7kq2 m9xd-4hvb") == "7KQ2M9XD4HVB")
        #expect(EnrolmentCode.normalized("IL0O-ABCD-EFGH") == "1100ABCDEFGH")
        #expect(EnrolmentCode.normalized("7KQ2-M9XD-4HV") == nil && EnrolmentCode.normalized("7KQ2-M9XD-4HVU") == nil)
    }
}
