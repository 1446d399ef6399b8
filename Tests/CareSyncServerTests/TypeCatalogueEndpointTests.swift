import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// GET /v1/types, and every catalogue type written and read back over HTTP.
@Suite(.serialized) struct TypeCatalogueEndpointTests {
    @Test func listsTheCatalogueToAnyAuthenticatedCaller() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            for token in [t.aliceDevice, t.therapist, t.admin, t.narrow] {
                let reply = try await server.send("GET", "/v1/types", token: token)
                #expect(reply.status == 200)
                #expect(reply.json["types"]?.arrayValue?.count == SampleType.all.count)
            }
            #expect(try await server.send("GET", "/v1/types").status == 401)
            #expect(try await server.send("GET", "/v1/types", token: t.revoked).status == 401)

            let types = try await server.send("GET", "/v1/types", token: t.aliceDevice).json["types"]?.arrayValue ?? []
            let byName = Dictionary(uniqueKeysWithValues: types.compactMap { t in t["identifier"]?.stringValue.map { ($0, t) } })
            #expect(Set(byName.keys) == Set(SampleType.all.map(\.rawValue)))
            let steps = try #require(byName["stepCount"])
            #expect(steps["kind"] == "quantity" && steps["aggregation"] == "cumulative" && steps["canonicalUnit"] == "count")
            #expect(steps["dimensions"] == ["count"] && steps["allowedValues"] == .null)
            #expect(steps["statisticsOptions"] == ["cumulativeSum", "separateBySource"] && steps["exampleUnits"] == ["count"])
            let glucose = try #require(byName["bloodGlucose"])
            #expect(glucose["aggregation"] == "discreteArithmetic" && glucose["canonicalUnit"] == "mg/dL")
            #expect(glucose["dimensions"] == ["mass/volume", "amount/volume"] && glucose["molarMass"] == 180.15588000005408)
            #expect(byName["heartRate"]?["aggregation"] == "discreteTemporallyWeighted")
            #expect(byName["heartRate"]?["dimensions"] == ["count/time"])
            #expect(byName["height"]?["exampleUnits"]?.arrayValue?.prefix(4) == ["m", "cm", "mm", "km"])
            let sleep = try #require(byName["sleepAnalysis"])
            #expect(sleep["kind"] == "category" && sleep["aggregation"] == .null && sleep["canonicalUnit"] == .null)
            #expect(sleep["allowedValues"]?.arrayValue?.map { $0["value"] } == [0, 1, 2, 3, 4, 5])
            #expect(sleep["allowedValues"]?[5]?["name"] == "asleepREM" && sleep["statisticsOptions"] == ["separateBySource", "durationByValue"])
            #expect(sleep["components"] == .null && steps["components"] == .null)
            let pressure = try #require(byName["bloodPressure"])
            #expect(pressure["kind"] == "correlation" && pressure["aggregation"] == .null && pressure["canonicalUnit"] == "mmHg")
            #expect(pressure["components"] == ["bloodPressureSystolic", "bloodPressureDiastolic"] && pressure["dimensions"] == ["pressure"])
            #expect(pressure["statisticsOptions"] == [] && pressure["allowedValues"] == .null)
            #expect(pressure["exampleUnits"]?.arrayValue?.prefix(3) == ["mmHg", "cmAq", "kPa"])
        }
    }

    /// One sample of every catalogue type: accepted, read back in its canonical unit, and in another unit
    /// of its dimension where HealthKit has one; a unit of another dimension is refused naming type and unit.
    @Test func everyCatalogueTypeRoundTrips() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            func sample(_ type: SampleType, value: Double, unit: String?) -> JSONValue {
                var o: [String: JSONValue] = ["type": .string(type.rawValue), "unit": unit.map(JSONValue.string) ?? .null,
                                              "start": "2020-06-18T10:00:00Z", "end": "2020-06-18T10:30:00Z"]
                if type.definition.hasComponentSet {  // food: every dietary component, each in its canonical unit
                    o["components"] = .object(Dictionary(uniqueKeysWithValues: type.components.map { ($0.rawValue, JSONValue.number(value)) }))
                    o["componentUnits"] = .object(Dictionary(uniqueKeysWithValues: type.components.map {
                        ($0.rawValue, JSONValue.string($0.canonicalUnit!.symbol))
                    }))
                } else if type.kind == .correlation {
                    o["components"] = .object(Dictionary(uniqueKeysWithValues: type.components.map { ($0.rawValue, JSONValue.number(value)) }))
                } else {
                    o["value"] = .number(value)
                }
                return .object(o)
            }
            let samples = SampleType.all.map { type in
                type.definition.hasComponentSet ? sample(type, value: 0.5, unit: nil) : type.canonicalUnit.map { sample(type, value: 0.5, unit: $0.symbol) }
                    ?? sample(type, value: Double(type.definition.values.last!.value), unit: nil)
            }
            let posted = try await server.send("POST", "/v1/patients/alice/samples", token: device, json: ["samples": .array(samples)])
            #expect(posted.status == 200, "\(posted.text)")
            #expect(posted.json["results"]?.arrayValue?.allSatisfy { $0["outcome"] == "inserted" } == true)

            let feed = try await server.send("GET", "/v1/patients/alice/changes?limit=5000", token: device)
            let read = feed.json["samples"]?.arrayValue ?? []
            #expect(read.count == SampleType.all.count)
            for item in read {
                let type = try #require(item["type"]?.stringValue.flatMap(SampleType.init(rawValue:)))
                #expect(item["unit"] == type.canonicalUnit.map { JSONValue.string($0.symbol) }, "\(type)")  // categories have no unit key
                if type.definition.hasComponentSet {
                    #expect(item["value"] == .number(Double(type.components.count)))
                    #expect(item["components"]?.objectValue == Dictionary(uniqueKeysWithValues: type.components.map { ($0.rawValue, 0.5) }))
                    continue
                }
                #expect(item["value"] == .number(type.canonicalUnit == nil ? Double(type.definition.values.last!.value) : 0.5), "\(type)")
                #expect(item["components"]?.objectValue?.count == (type.kind == .correlation ? 2 : nil), "\(type)")
            }

            for type in SampleType.all where type.kind != .category && !type.definition.hasComponentSet {
                let canonical = type.canonicalUnit!
                if let alternative = type.compatibleUnitExamples.dropFirst().first {
                    let query = "types=\(type.rawValue)&unit=\(alternative.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                    let page = try await server.send("GET", "/v1/patients/alice/changes?\(query)", token: device)
                    let item = page.json["samples"]?[0]
                    let expected = type.value(0.5, in: try type.unit(alternative))
                    #expect(item?["unit"] == .string(alternative), "\(type) \(page.text)")
                    #expect(abs((item?["value"]?.numberValue ?? .nan) - expected) <= 1e-9 * max(1, abs(expected)), "\(type) in \(alternative)")
                    for component in type.components {
                        let value = item?["components"]?[component.rawValue]?.numberValue ?? .nan
                        #expect(abs(value - expected) <= 1e-9 * max(1, abs(expected)), "\(component) in \(alternative)")
                    }
                }
                let foreign = canonical.dimension == UnitDimension(.mass) ? "m" : "kg"
                let refused = try await server.send("POST", "/v1/patients/alice/samples", token: device,
                                                    json: ["samples": [sample(type, value: 0.5, unit: foreign)]])
                #expect(refused.status == 422 && refused.json["errors"]?[0]?["field"] == "unit", "\(type)")
                let message = refused.json["errors"]?[0]?["message"]?.stringValue ?? ""
                #expect(message.contains(type.rawValue) && message.contains("'\(foreign)'") && message.contains("'\(canonical.symbol)'"), "\(message)")
            }
        }
    }
}
