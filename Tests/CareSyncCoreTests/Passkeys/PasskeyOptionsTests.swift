import CareSyncCore
import Foundation
import Testing

/// The options JSON sent to the browser, in the shape `parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON` take.
struct PasskeyOptionsTests {
    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func creationOptionsAskForADiscoverableVerifiedES256OrRS256Passkey() throws {
        let rp = PasskeyRelyingParty(id: "care.clinic.example", name: "CareSync", origins: ["https://care.clinic.example"])
        let options = rp.creationOptions(challenge: [0xfb, 0xff], userHandle: [1, 2, 3], userName: "theo@clinic.example", displayName: "Theo",
                                         excluding: [[9, 9]], timeout: 300)
        let o = try Self.object(options.json)
        #expect(o["rp"] as? [String: String] == ["id": "care.clinic.example", "name": "CareSync"])
        #expect(o["user"] as? [String: String] == ["id": "AQID", "name": "theo@clinic.example", "displayName": "Theo"])
        #expect(o["challenge"] as? String == "-_8" && o["timeout"] as? Int == 300_000 && o["attestation"] as? String == "none")
        #expect((o["pubKeyCredParams"] as? [[String: Any]])?.map { $0["alg"] as? Int } == [-7, -257])
        #expect((o["pubKeyCredParams"] as? [[String: Any]])?.allSatisfy { $0["type"] as? String == "public-key" } == true)
        #expect(o["excludeCredentials"] as? [[String: String]] == [["id": "CQk", "type": "public-key"]])
        let selection = try #require(o["authenticatorSelection"] as? [String: Any])
        #expect(selection["residentKey"] as? String == "required" && selection["requireResidentKey"] as? Bool == true)
        #expect(selection["userVerification"] as? String == "required")
    }

    @Test func requestOptionsLeaveTheChoiceOfPasskeyToTheAuthenticator() throws {
        let rp = PasskeyRelyingParty(id: "localhost", name: "CareSync", origins: [])
        let o = try Self.object(rp.requestOptions(challenge: [1], timeout: 120).json)
        #expect(Set(o.keys) == ["challenge", "rpId", "timeout", "userVerification"])
        #expect(o["challenge"] as? String == "AQ" && o["rpId"] as? String == "localhost" && o["userVerification"] as? String == "required")
    }
}
