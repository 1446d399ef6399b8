/// Where a configuration value came from; errors name it so an operator knows what to fix.
public enum ConfigurationSource: Sendable, Equatable, CustomStringConvertible {
    /// The built-in default.
    case defaultValue
    /// A JSON configuration file at this path.
    case file(path: String)
    /// An environment variable with this name.
    case environment(variable: String)
    /// A command-line flag with this name.
    case flag(name: String)

    /// A short phrase naming the source, such as `environment variable CARESYNC_PORT`.
    public var description: String {
        switch self {
        case .defaultValue: "default"
        case .file(let path): "config file \(path)"
        case .environment(let variable): "environment variable \(variable)"
        case .flag(let name): "flag --\(name)"
        }
    }
}
