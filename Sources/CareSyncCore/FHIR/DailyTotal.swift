import Foundation

/// A derived Observation: a patient's steps on one calendar day of its time zone, the day's `cumulativeSum` of the
/// statistics (`GET /v1/patients/{id}/statistics`, interval day) — docs/fhir.md "Daily step totals".
public struct DailyTotal: Hashable, Sendable {
    /// The patient id (`subject` is `Patient/<id>`).
    public var patient: String
    /// The calendar day in the patient's time zone.
    public var day: CalendarDay
    /// Local midnight that starts the day.
    public var start: Date
    /// The next local midnight (23 or 25 hours later on a DST day).
    public var end: Date
    /// The patient's time zone, whose offsets the period's date-times carry.
    public var zone: TimeZone
    /// The day's sum of steps.
    public var steps: Double

    /// A daily total from its parts.
    public init(patient: String, day: CalendarDay, start: Date, end: Date, zone: TimeZone, steps: Double) {
        self.patient = patient; self.day = day; self.start = start; self.end = end; self.zone = zone; self.steps = steps
    }

    /// The Observation id (`DailyTotalID`).
    public var id: String { DailyTotalID(patient: patient, day: day).text }

    /// The period's start as a FHIR dateTime with the zone's offset (`2020-10-25T00:00:00+02:00`).
    public var startText: String { FHIRDateTime.format(start, in: zone) }
    /// The period's end as a FHIR dateTime with the zone's offset (`2020-10-26T00:00:00+01:00`).
    public var endText: String { FHIRDateTime.format(end, in: zone) }

    /// The steps as a `valueQuantity` in `{steps}`.
    public var quantity: FHIRObservation.Quantity {
        ObservationMapper.quantity(steps, DailyTotalCode.unit)
    }
}

/// The codes, unit and wording of daily totals (docs/fhir.md "Daily step totals").
public enum DailyTotalCode {
    /// LOINC 41950-7, steps in 24 hours.
    public static let loinc = FHIRCoding.loinc("41950-7", "Number of steps in 24 hour Measured")
    /// CareSync's own code of a daily step total; not a sample type (those have no '.'), so no sample search matches it.
    public static let caresync = FHIRCoding(system: FHIRSystem.dailyTotal, code: "stepCount.daily", display: "Daily step total")
    /// `Observation.code.coding`: LOINC, then CareSync.
    public static let codings = [loinc, caresync]
    /// The unit of the value.
    public static let unit = UCUMUnit("{steps}", display: "steps")
    /// `Observation.method.text`: says the value is derived.
    public static let method = "Daily sum of the patient's step-count samples (CareSync statistics)"
    /// The sample type summed.
    public static let type = SampleType.stepCount
}
