/// A write under an erased patient id, refused in the write's own transaction: nothing is stored for the id again,
/// whatever reach the request proved before the erasure (answered 404 `notFound`, as every path of an erased patient).
public struct ErasedPatientWrite: Error, Hashable, Sendable {
    /// The erased id.
    public let patient: String
    /// The refusal of a write for `patient`.
    public init(patient: String) { self.patient = patient }
}
