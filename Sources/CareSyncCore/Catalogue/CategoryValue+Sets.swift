/// HealthKit's enumerations of category values (`HKCategoryValue…`), as the catalogue uses them.
extension Array where Element == CategoryValue {
    /// `HKCategoryValueSleepAnalysis`.
    static let sleepAnalysis: [CategoryValue] = [
        .init(0, "inBed"), .init(1, "asleepUnspecified"), .init(2, "awake"),
        .init(3, "asleepCore"), .init(4, "asleepDeep"), .init(5, "asleepREM"),
    ]
    /// `HKCategoryValue.notApplicable`: events that only happen, with no value of their own.
    static let notApplicable: [CategoryValue] = [.init(0, "notApplicable")]
    /// `HKCategoryValueSeverity`, for symptoms.
    static let severity: [CategoryValue] = [
        .init(0, "unspecified"), .init(1, "notPresent"), .init(2, "mild"), .init(3, "moderate"), .init(4, "severe"),
    ]
    /// `HKCategoryValuePresence`.
    static let presence: [CategoryValue] = [.init(0, "present"), .init(1, "notPresent")]
    /// `HKCategoryValueAppetiteChanges`.
    static let appetiteChanges: [CategoryValue] = [
        .init(0, "unspecified"), .init(1, "noChange"), .init(2, "decreased"), .init(3, "increased"),
    ]
    /// `HKCategoryValueAppleStandHour`.
    static let appleStandHour: [CategoryValue] = [.init(0, "stood"), .init(1, "idle")]
    /// `HKCategoryValueAppleWalkingSteadinessEvent`.
    static let appleWalkingSteadinessEvent: [CategoryValue] = [
        .init(1, "initialLow"), .init(2, "initialVeryLow"), .init(3, "repeatLow"), .init(4, "repeatVeryLow"),
    ]
    /// `HKCategoryValueCervicalMucusQuality`.
    static let cervicalMucusQuality: [CategoryValue] = [
        .init(1, "dry"), .init(2, "sticky"), .init(3, "creamy"), .init(4, "watery"), .init(5, "eggWhite"),
    ]
    /// `HKCategoryValueContraceptive`.
    static let contraceptive: [CategoryValue] = [
        .init(1, "unspecified"), .init(2, "implant"), .init(3, "injection"), .init(4, "intrauterineDevice"),
        .init(5, "intravaginalRing"), .init(6, "oral"), .init(7, "patch"),
    ]
    /// `HKCategoryValueEnvironmentalAudioExposureEvent`.
    static let environmentalAudioExposureEvent: [CategoryValue] = [.init(1, "momentaryLimit")]
    /// `HKCategoryValueHeadphoneAudioExposureEvent`.
    static let headphoneAudioExposureEvent: [CategoryValue] = [.init(1, "sevenDayLimit")]
    /// `HKCategoryValueLowCardioFitnessEvent`.
    static let lowCardioFitnessEvent: [CategoryValue] = [.init(1, "lowFitness")]
    /// `HKCategoryValueMenstrualFlow`.
    static let menstrualFlow: [CategoryValue] = [
        .init(1, "unspecified"), .init(2, "light"), .init(3, "medium"), .init(4, "heavy"), .init(5, "none"),
    ]
    /// `HKCategoryValueVaginalBleeding`.
    static let vaginalBleeding: [CategoryValue] = [
        .init(1, "unspecified"), .init(2, "light"), .init(3, "medium"), .init(4, "heavy"), .init(5, "none"),
    ]
    /// `HKCategoryValueOvulationTestResult` (`positive` is the deprecated name of 2).
    static let ovulationTestResult: [CategoryValue] = [
        .init(1, "negative"), .init(2, "luteinizingHormoneSurge"), .init(3, "indeterminate"), .init(4, "estrogenSurge"),
    ]
    /// `HKCategoryValuePregnancyTestResult`.
    static let pregnancyTestResult: [CategoryValue] = [.init(1, "negative"), .init(2, "positive"), .init(3, "indeterminate")]
    /// `HKCategoryValueProgesteroneTestResult`.
    static let progesteroneTestResult: [CategoryValue] = [.init(1, "negative"), .init(2, "positive"), .init(3, "indeterminate")]
}
