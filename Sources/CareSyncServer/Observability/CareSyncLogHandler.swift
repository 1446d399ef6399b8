import Logging

/// The server's swift-log handler: JSON lines in production, readable text in development.
/// Metadata passes through ``LogPrivacy`` first, so sample values and other PHI never reach a log.
public struct CareSyncLogHandler: LogHandler {
    /// The logger's label, written with every line.
    public let label: String
    /// Where lines are written.
    public let sink: LogSink
    /// The lowest level written.
    public var logLevel: Logger.Level
    /// Metadata added to every line of this logger.
    public var metadata: Logger.Metadata = [:]
    /// Contextual metadata (such as the request id) picked up when a line is written.
    public var metadataProvider: Logger.MetadataProvider?
    /// Formats lines in the chosen format.
    private let formatter: LogLineFormatter

    /// A handler writing `format` lines at `level` and above to `sink`.
    public init(
        label: String, format: Configuration.LogFormat, level: Logger.Level,
        sink: LogSink = .standardError, metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.sink = sink
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.formatter = LogLineFormatter(format: format)
    }

    /// Reads or writes one metadata value of this logger.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line for the event.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() {
            merged.merge(provided) { _, new in new }
        }
        if let own = event.metadata {
            merged.merge(own) { _, new in new }
        }
        if let error = event.error {
            merged["error.type"] = .string(String(describing: type(of: error)))
        }
        let line = formatter.line(
            time: LogTimestamp.now(), level: event.level, label: label,
            message: event.message.description, metadata: LogPrivacy.filter(merged))
        sink.write(line, level: event.level)
    }

    /// Whether ``logRequest(_:level:)`` writes the line this handler would write for ``RequestLogRecord/metadata``:
    /// when the logger adds no metadata of its own (the server's request logger).
    public var writesRequestLinesDirectly: Bool { metadata.isEmpty && metadataProvider == nil }

    /// Writes the `http.request` line of `record` at `level` straight from its fields, the same bytes
    /// ``log(event:)`` writes for its metadata (only where ``writesRequestLinesDirectly``).
    public func logRequest(_ record: RequestLogRecord, level: Logger.Level) {
        guard level >= logLevel else { return }
        sink.write(formatter.requestLine(time: LogTimestamp.now(), level: level, label: label, record: record), level: level)
    }
}
