/// The mapping of every catalogue type to its Observation code (docs/fhir.md has the table and its sources).
public enum ObservationCodeTable {
    /// The code of `type`: the LOINC entry when there is one, else the CareSync code with the canonical unit in UCUM.
    public static func code(for type: SampleType) -> ObservationCode { byType[type]! }

    /// Every catalogue type's code, computed once.
    static let byType: [SampleType: ObservationCode] = Dictionary(uniqueKeysWithValues: SampleType.all.map { ($0, make($0)) })

    /// A standard entry: LOINC codes, category and unit of one type.
    struct Standard {
        var codings: [FHIRCoding]
        var category: ObservationCode.Category?
        var unit: UCUMUnit?
    }

    /// LOINC codes with the units of the R4 vital-signs profile (http://hl7.org/fhir/R4/observation-vitalsigns.html).
    static let standards: [String: Standard] = [
        "heartRate": Standard(codings: [.loinc("8867-4", "Heart rate")], category: .vitalSigns, unit: UCUMUnit("/min", display: "beats/minute")),
        "restingHeartRate": Standard(codings: [.loinc("40443-4", "Heart rate --resting")], category: .vitalSigns, unit: UCUMUnit("/min", display: "beats/minute")),
        "respiratoryRate": Standard(codings: [.loinc("9279-1", "Respiratory rate")], category: .vitalSigns, unit: UCUMUnit("/min", display: "breaths/minute")),
        "oxygenSaturation": Standard(codings: [.loinc("59408-5", "Oxygen saturation in Arterial blood by Pulse oximetry"),
                                               .loinc("2708-6", "Oxygen saturation in Arterial blood")],
                                     category: .vitalSigns, unit: UCUMUnit("%", scale: 100)),
        "bodyTemperature": Standard(codings: [.loinc("8310-5", "Body temperature")], category: .vitalSigns, unit: UCUMUnit("Cel")),
        "height": Standard(codings: [.loinc("8302-2", "Body height")], category: .vitalSigns, unit: UCUMUnit("cm", scale: 100)),
        "bodyMass": Standard(codings: [.loinc("29463-7", "Body weight")], category: .vitalSigns, unit: UCUMUnit("kg")),
        "bodyMassIndex": Standard(codings: [.loinc("39156-5", "Body mass index (BMI) [Ratio]")], category: .vitalSigns, unit: UCUMUnit("kg/m2")),
        "bloodPressure": Standard(codings: [.loinc("85354-9", "Blood pressure panel with all children optional")], category: .vitalSigns, unit: nil),
        "bloodPressureSystolic": Standard(codings: [systolic], category: .vitalSigns, unit: millimetersOfMercury),
        "bloodPressureDiastolic": Standard(codings: [diastolic], category: .vitalSigns, unit: millimetersOfMercury),
        "stepCount": Standard(codings: [.loinc("55423-8", "Number of steps in unspecified time Pedometer")], category: .activity,
                              unit: UCUMUnit("{steps}", display: "steps")),
        "sixMinuteWalkTestDistance": Standard(codings: [.loinc("64098-7", "Six minute walk test")], category: .activity, unit: UCUMUnit("m")),
        "bloodGlucose": Standard(codings: [.loinc("2339-0", "Glucose [Mass/volume] in Blood")], category: nil, unit: UCUMUnit("mg/dL")),
        "waistCircumference": Standard(codings: [.loinc("8280-0", "Waist Circumference at umbilicus by Tape measure")], category: nil,
                                       unit: UCUMUnit("cm", scale: 100)),
    ]

    /// Systolic blood pressure (LOINC 8480-6), alone or as the panel's first component.
    static let systolic = FHIRCoding.loinc("8480-6", "Systolic blood pressure")
    /// Diastolic blood pressure (LOINC 8462-4), alone or as the panel's second component.
    static let diastolic = FHIRCoding.loinc("8462-4", "Diastolic blood pressure")
    /// The blood pressure unit of the vital-signs profile.
    static let millimetersOfMercury = UCUMUnit("mm[Hg]", display: "mmHg")

    /// Types without a LOINC entry whose category is activity: movement, exercise and workout measures.
    static let activityTypes: Set<String> = [
        "activeEnergyBurned", "appleExerciseTime", "appleMoveTime", "appleStandTime", "basalEnergyBurned", "crossCountrySkiingSpeed",
        "cyclingCadence", "cyclingFunctionalThresholdPower", "cyclingPower", "cyclingSpeed", "distanceCrossCountrySkiing",
        "distanceCycling", "distanceDownhillSnowSports", "distancePaddleSports", "distanceRowing", "distanceSkatingSports",
        "distanceSwimming", "distanceWalkingRunning", "distanceWheelchair", "estimatedWorkoutEffortScore", "flightsClimbed",
        "nikeFuel", "paddleSportsSpeed", "physicalEffort", "pushCount", "rowingSpeed", "runningGroundContactTime", "runningPower",
        "runningSpeed", "runningStrideLength", "runningVerticalOscillation", "stairAscentSpeed", "stairDescentSpeed",
        "swimmingStrokeCount", "walkingAsymmetryPercentage", "walkingDoubleSupportPercentage", "walkingSpeed", "walkingStepLength",
        "workoutEffortScore", "appleStandHour",
    ]

    /// The code of one type.
    static func make(_ type: SampleType) -> ObservationCode {
        // A food's components have no panel codes here: its Observation carries none (docs/fhir.md).
        let paired = type.definition.hasComponentSet ? [] : type.components
        let components: [(type: SampleType, coding: FHIRCoding, unit: UCUMUnit)] = paired.map { component in
            (component, component == .bloodPressureSystolic ? systolic : diastolic, millimetersOfMercury)
        }
        precondition(paired.allSatisfy { $0 == .bloodPressureSystolic || $0 == .bloodPressureDiastolic },
                     "correlation \(type) has components without a FHIR code")
        if let standard = standards[type.rawValue] {
            return ObservationCode(type: type, standard: standard.codings, category: standard.category,
                                   unit: type.kind == .quantity ? standard.unit : nil, components: components)
        }
        let unit = type.kind == .quantity ? type.canonicalUnit.flatMap { UCUMUnit.forCanonical($0.symbol) } : nil
        precondition(type.kind != .quantity || unit != nil, "quantity type \(type) has no UCUM unit")
        return ObservationCode(type: type, standard: [], category: activityTypes.contains(type.rawValue) ? .activity : nil,
                               unit: unit, components: components)
    }
}
