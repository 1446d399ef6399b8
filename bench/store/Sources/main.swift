// Store benchmark: the sync store against raw SQLite, no HTTP, no JSON. Prints figures; asserts nothing.
//
//     swift build -c release --static-swift-stdlib --product caresync-store-bench   (or bench/store/run.sh)
//     .build/release/caresync-store-bench [--samples 1000000] [--batch 1000] [--big 10000000] [--dir /tmp/x]
//
// 1. raw SQLite reference: the same sample rows and indexes (migrations/0001) by one prepared INSERT in one transaction;
// 2. store ingest: SQLiteSyncStore.upsert of step samples with sync identifiers, in batches;
// 3. the same batches again (every item `ignored`);
// 4. paging the whole history with limit 5,000, and one 5,000 page from the end; replica checksums beside a scan;
// 5. with --big N: the store grown to N samples (extra rows bulk-loaded), then the same page reads.
import CareSyncCore
import CareSyncStore
import Foundation

var options = BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
let report = BenchReport()
report.line("caresync store bench: \(options.samples) samples, batches of \(options.batch), page limit \(options.pageLimit), sqlite \(SQLiteVersion.string)")

// 1. Raw SQLite reference.
let rawPath = options.path("raw.sqlite")
let raw = try RawReference(path: rawPath, migrations: options.migrations)
let rawCPUStart = CPUClock.now
let rawSeconds = try raw.insert(count: options.samples, inputs: BenchInputs(batch: options.batch))
let rawCPU = CPUClock.now - rawCPUStart
let rawRate = Double(options.samples) / rawSeconds
report.line(String(format: "raw SQLite reference:   %9.0f samples/s wall (%.2f s), %9.0f samples/s CPU (%.2f s); one transaction, prepared INSERT",
                   rawRate, rawSeconds, Double(options.samples) / rawCPU, rawCPU))

// 2. Store ingest.
let storePath = options.path("store.sqlite")
let store = try SQLiteSyncStore(path: storePath, migrationsDirectory: URL(fileURLWithPath: options.migrations))
let inputs = BenchInputs(batch: options.batch)
let patient = BenchInputs.patient, source = BenchInputs.source
var ingestSeconds = 0.0
var inserted = 0
var ingestCPU = 0.0
for b in 0..<(options.samples / options.batch) {
    let batch = inputs.batch(b)
    let start = Clock.now, cpu = CPUClock.now
    let result = try store.upsert(batch, patient: patient, source: source, now: BenchInputs.t0)
    ingestSeconds += Clock.since(start)
    ingestCPU += CPUClock.now - cpu
    inserted += result.results.filter { $0.outcome == .inserted }.count
}
let ingestRate = Double(options.samples) / ingestSeconds
report.line(String(format: "store ingest:           %9.0f samples/s wall (%.2f s), %9.0f samples/s CPU (%.2f s); %d inserted; %.0f%% of raw (wall), %.0f%% (CPU)",
                   ingestRate, ingestSeconds, Double(options.samples) / ingestCPU, ingestCPU, inserted,
                   100 * ingestRate / rawRate, 100 * rawCPU / ingestCPU))

// 3. The same batches again: all ignored.
var ignoreSeconds = 0.0
var ignored = 0
var ignoreCPU = 0.0
for b in 0..<(options.samples / options.batch) {
    let batch = inputs.batch(b)
    let start = Clock.now, cpu = CPUClock.now
    let result = try store.upsert(batch, patient: patient, source: source, now: BenchInputs.t0)
    ignoreSeconds += Clock.since(start)
    ignoreCPU += CPUClock.now - cpu
    ignored += result.results.filter { $0.outcome == .ignored(.sameVersion) }.count
}
report.line(String(format: "same batches again:     %9.0f samples/s wall (%.2f s), %9.0f samples/s CPU (%.2f s); %d ignored",
                   Double(options.samples) / ignoreSeconds, ignoreSeconds, Double(options.samples) / ignoreCPU, ignoreCPU, ignored))

// 4. Paging at this size.
try PagingBench.run(store: store, label: "\(options.samples / 1_000_000)M", limit: options.pageLimit, report: report)
try ChecksumBench.run(store: store, label: "\(options.samples / 1_000_000)M", report: report)

// 5. A bigger store.
if options.big > options.samples {
    let start = Clock.now
    try BulkLoader.grow(path: storePath, to: options.big, inputs: inputs)
    report.line(String(format: "grew store to %d samples by bulk INSERT in %.1f s", options.big, Clock.since(start)))
    let bigStore = try SQLiteSyncStore(path: storePath, migrationsDirectory: URL(fileURLWithPath: options.migrations))
    try PagingBench.run(store: bigStore, label: "\(options.big / 1_000_000)M", limit: options.pageLimit, report: report)
}
if !options.keep {
    for name in ["raw.sqlite", "store.sqlite"] {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: options.path(name + suffix)) }
    }
}
