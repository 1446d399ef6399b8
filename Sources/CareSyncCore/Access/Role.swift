/// What a token may do: a device writes for one patient, a therapist for its care teams, an admin manages.
public enum Role: String, Sendable, CaseIterable, Codable {
    case device, therapist, admin
}
