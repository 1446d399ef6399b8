import Foundation

/// Where the story runs and with which tokens: environment variables, each overridable by `--name value`
/// (`CARESYNC_THERAPIST_TOKEN` is `--therapist-token`).
struct StorySettings {
    /// The server, such as http://127.0.0.1:8080 (default: the document's first server).
    var url: URL
    /// The story's patient: reached by the therapist token, owned by the device token.
    var patient: String
    /// A therapist token whose care team has `patient` (and the fault patients).
    var therapistToken: String
    /// A device token of `patient`.
    var deviceToken: String
    /// Another token on `patient` that the story spends until 429.
    var limitedToken: String?
    /// An anchor below the store's purge horizon (410).
    var expiredAnchor: String?
    /// A patient whose sample writes fail inside the store (500).
    var faultPatient: String?
    /// A patient whose reads cannot be audited (503).
    var unauditedPatient: String?

    /// Reads the environment and the command line; throws naming what is missing.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment,
                     arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws -> StorySettings {
        var values = environment
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard flag.hasPrefix("--"), let value = rest.popFirst() else { throw StoryFailure(description: "usage: caresync-story [--url URL] [--patient ID] [--therapist-token T] …") }
            values["CARESYNC_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")] = value
        }
        func required(_ name: String) throws -> String {
            guard let v = values[name], !v.isEmpty else { throw StoryFailure(description: "\(name) is not set") }
            return v
        }
        let url = try values["CARESYNC_URL"].flatMap(URL.init(string:)) ?? Servers.Server1.url()
        return StorySettings(
            url: url, patient: values["CARESYNC_PATIENT"] ?? "alice",
            therapistToken: try required("CARESYNC_THERAPIST_TOKEN"), deviceToken: try required("CARESYNC_DEVICE_TOKEN"),
            limitedToken: values["CARESYNC_LIMITED_TOKEN"], expiredAnchor: values["CARESYNC_EXPIRED_ANCHOR"],
            faultPatient: values["CARESYNC_FAULT_PATIENT"], unauditedPatient: values["CARESYNC_UNAUDITED_PATIENT"])
    }
}
