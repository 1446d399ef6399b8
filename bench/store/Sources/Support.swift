import CareSyncCore
import CareSyncStore
import CSQLite
import Foundation

/// Command-line options of the bench.
struct BenchOptions {
    var samples = 1_000_000
    var batch = 1_000
    var pageLimit = 5_000
    var big = 0
    var directory = FileManager.default.temporaryDirectory.appendingPathComponent("caresync-store-bench").path
    var migrations = "migrations"
    var keep = false

    init(arguments: [String]) {
        var i = 0
        func value() -> String { i += 1; return i < arguments.count ? arguments[i] : "" }
        while i < arguments.count {
            switch arguments[i] {
            case "--samples": samples = Int(value()) ?? samples
            case "--batch": batch = Int(value()) ?? batch
            case "--limit": pageLimit = Int(value()) ?? pageLimit
            case "--big": big = Int(value()) ?? big
            case "--dir": directory = value()
            case "--migrations": migrations = value()
            case "--keep": keep = true
            default: FileHandle.standardError.write(Data("unknown option \(arguments[i])\n".utf8)); exit(2)
            }
            i += 1
        }
    }

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
}

/// Prints a line and flushes.
final class BenchReport {
    func line(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
}

/// Monotonic wall time.
enum Clock {
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
    static func since(_ start: UInt64) -> Double { Double(now - start) / 1e9 }
}

/// CPU time of the calling thread, in seconds.
enum ThreadCPUClock {
    static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// CPU time (user + system) of this process: on a shared, overloaded machine it shows the work
/// itself, where wall time also counts the time other processes held the cores.
enum CPUClock {
    static var now: Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// The SQLite library version.
enum SQLiteVersion { static var string: String { String(cString: sqlite3_libversion()) } }

/// The benchmark's samples: one patient's step counts, one per minute, each with a sync identifier.
struct BenchInputs {
    static let patient = "bench-patient"
    static let source = "org.example.watch"
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)
    let batch: Int

    func sample(_ n: Int) -> SampleInput {
        let start = BenchInputs.t0.addingTimeInterval(Double(n) * 60)
        return SampleInput(type: .stepCount, value: Double(n % 200), start: start, end: start.addingTimeInterval(60),
                           syncIdentifier: "steps-\(n)", syncVersion: 1)
    }

    func batch(_ b: Int) -> [SampleInput] { (b * batch..<(b + 1) * batch).map(sample) }
}
