import Foundation

extension Configuration {
    /// Builds the configuration: defaults, overlaid by the JSON file, by `CARESYNC_*` environment
    /// variables, then by flags (flag > environment > file > default).
    ///
    /// - Parameters:
    ///   - configFile: the `--config` path; when nil, `CARESYNC_CONFIG` from `environment`, if set.
    ///   - environment: the process environment; every `CARESYNC_*` variable must be a known key.
    ///   - flags: values given on the command line, as text.
    /// - Throws: ``ConfigurationError`` naming the first bad key and where it came from.
    public static func load(
        configFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [ConfigurationKey: String] = [:]
    ) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        let path = configFile ?? environment[ConfigurationKey.configFileVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let path {
            try configuration.overlay(fileAt: path)
        }
        try configuration.overlay(environment: environment)
        for key in flags.keys.sorted() {
            try key.apply(.text(flags[key]!), to: &configuration, source: .flag(name: key.flagName))
        }
        try configuration.checkConsistency()
        return configuration
    }

    /// Refuses settings that pass one by one but not together: an in-flight limit below the connection limit
    /// would let parked long polls (one per connection) take every request slot, so writes and `/metrics` got 503.
    func checkConsistency() throws(ConfigurationError) {
        if maxRequestsInFlight != 0, maxRequestsInFlight < maxConnections {
            throw .conflict(key: ConfigurationKey.maxRequestsInFlight.rawValue, reason:
                "(\(maxRequestsInFlight)) is below maxConnections (\(maxConnections)): parked long polls could take every "
                + "request slot; set it to at least \(maxConnections), or 0 to follow maxConnections")
        }
    }

    /// Like ``load(configFile:environment:flags:)`` with flags keyed by name
    /// (`limits.bodyBytes` or `limits-body-bytes`); an unknown name is an error.
    public static func load(
        configFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        namedFlags: [String: String]
    ) throws(ConfigurationError) -> Configuration {
        var flags: [ConfigurationKey: String] = [:]
        for name in namedFlags.keys.sorted() {
            guard let key = ConfigurationKey(name: name) else {
                throw .unknownKey(key: name, source: .flag(name: name))
            }
            flags[key] = namedFlags[name]
        }
        return try load(configFile: configFile, environment: environment, flags: flags)
    }

    /// Applies the settings of a JSON configuration file.
    mutating func overlay(fileAt path: String) throws(ConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: Self.unreadableReason(path))
        }
        let root: ConfigurationValue
        do {
            root = try JSONDecoder().decode(ConfigurationValue.self, from: data)
        } catch {
            throw .malformedFile(path: path, reason: "not valid JSON")
        }
        guard case .object(let members) = root else {
            throw .malformedFile(path: path, reason: "the top level must be a JSON object")
        }
        try overlay(members: members, prefix: "", source: .file(path: path))
    }

    /// Applies one JSON object's members; sections (`limits`, `timeouts`, …) recurse. `database` is a key
    /// and a section: a path, or `{"url": …}`.
    private mutating func overlay(
        members: [String: ConfigurationValue], prefix: String, source: ConfigurationSource
    ) throws(ConfigurationError) {
        for name in members.keys.sorted() where name != "$comment" {
            let value = members[name]!
            let path = prefix + name
            let hasSubkeys = ConfigurationKey.allCases.contains { $0.rawValue.hasPrefix(path + ".") }
            if case .object(let section) = value, hasSubkeys {
                try overlay(members: section, prefix: path + ".", source: source)
            } else if let key = ConfigurationKey(rawValue: path) {
                try key.apply(value, to: &self, source: source)
            } else if hasSubkeys {
                throw .invalidValue(key: path, value: value.shown, source: source, expected: "a JSON object (a section)")
            } else {
                throw .unknownKey(key: path, source: source)
            }
        }
    }

    /// Applies every `CARESYNC_*` variable; one that names no setting is an error.
    mutating func overlay(environment: [String: String]) throws(ConfigurationError) {
        let keys = Dictionary(uniqueKeysWithValues: ConfigurationKey.allCases.map { ($0.environmentVariable, $0) })
        let names = environment.keys.filter {
            $0.hasPrefix(ConfigurationKey.environmentPrefix) && $0 != ConfigurationKey.configFileVariable
        }
        for name in names.sorted() {
            guard let key = keys[name] else {
                throw .unknownKey(key: name, source: .environment(variable: name))
            }
            try key.apply(.text(environment[name]!), to: &self, source: .environment(variable: name))
        }
    }

    /// Why a file could not be read, in a few words.
    private static func unreadableReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "no such file"
        }
        return isDirectory.boolValue ? "it is a directory" : "permission denied"
    }
}
