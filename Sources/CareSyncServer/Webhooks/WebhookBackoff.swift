/// When a failed webhook delivery is tried again: exponential backoff with full jitter (a random wait between 0 and
/// `initial · 2^(n-1)`, at most `maximum`, after the n-th failed attempt), so receivers coming back up are not hit by
/// every sender at once.
enum WebhookBackoff {
    /// The wait after the `failures`-th failed attempt (1 for the first), for a `random` draw in [0, 1).
    static func delay(failures: Int, initial: Duration, maximum: Duration, random: Double) -> Duration {
        let exponent = min(max(failures - 1, 0), 40)
        let ceiling = min(seconds(initial) * Double(1 << UInt64(exponent)), seconds(maximum))
        return .milliseconds(Int64((ceiling * min(max(random, 0), 1) * 1000).rounded()))
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
