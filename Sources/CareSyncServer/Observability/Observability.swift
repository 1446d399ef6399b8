import Logging
import Metrics
import Prometheus

/// Process-wide logging and metrics set-up, called once by `caresync` before anything logs.
public enum Observability {
    /// Routes swift-log to ``CareSyncLogHandler`` in the configured format and level, and
    /// swift-metrics to `metrics`' Prometheus registry. Call once per process (both systems
    /// refuse a second bootstrap).
    public static func bootstrap(configuration: Configuration, metrics: ServerMetrics, sink: LogSink = .standardError) {
        bootstrapLogging(format: configuration.logFormat, level: configuration.logLevel, sink: sink)
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
    }

    /// Routes swift-log only; for commands that serve no metrics. Call once per process.
    public static func bootstrapLogging(
        format: Configuration.LogFormat, level: Logger.Level, sink: LogSink = .standardError
    ) {
        LoggingSystem.bootstrap { label in
            CareSyncLogHandler(label: label, format: format, level: level, sink: sink)
        }
    }

    /// A logger with the CareSync handler, without touching the global logging system (tests, tools).
    public static func makeLogger(
        label: String, format: Configuration.LogFormat, level: Logger.Level, sink: LogSink
    ) -> Logger {
        Logger(label: label) { label in
            CareSyncLogHandler(label: label, format: format, level: level, sink: sink)
        }
    }
}
