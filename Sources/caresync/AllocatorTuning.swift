#if canImport(Glibc)
import CMalloc
#endif

/// glibc's allocator, kept from handing large blocks back to the kernel after every request.
///
/// By default glibc maps each block of a few hundred KiB afresh and trims the heap as soon as a few MiB are free, so
/// every feed page (about 6 MiB of buffers for 5,000 samples) faulted in and zeroed its memory anew: a tenth of a
/// gzipped walk's time. Blocks up to 16 MiB now come from the heap, and up to 8 MiB of free heap stays mapped per
/// arena for the next request: at most 128 MiB kept on a 2-core machine (glibc's 16 arenas), well inside the
/// container's 512 MiB.
enum AllocatorTuning {
    /// Blocks below this come from the heap, not from a mapping of their own.
    static let mapThreshold: Int32 = 16 << 20
    /// Free heap above this is handed back to the kernel.
    static let trimThreshold: Int32 = 8 << 20

    /// Applies the thresholds to this process (nothing off glibc).
    static func apply() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, mapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
        #endif
    }
}
