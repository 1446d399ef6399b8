/* gzip's cost on one feed page: zlib's deflate at levels 1 and 6 against ISA-L's igzip at levels 0–2 (what the
 * server uses), and each library's CRC-32, on the same bytes in the same run. libdeflate is added when its header
 * is installed (it is not a dependency of CareSync). Best of 9 runs each; prints figures, asserts nothing.
 *   cc -O2 bench/api/deflate-libraries.c -lisal -lz -o deflate-libraries && ./deflate-libraries page.json
 *   cc -O2 -DWITH_LIBDEFLATE bench/api/deflate-libraries.c -lisal -ldeflate -lz -o deflate-libraries */
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>
#ifdef WITH_LIBDEFLATE
#include <libdeflate.h>
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void report(const char *name, double best, size_t bytes, long input) {
    printf("%-18s %6.2f ms  %8zu bytes  %.3f of the input\n", name, best * 1e3, bytes, (double)bytes / input);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: deflate-libraries PAGE\n"); return 2; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    fseek(file, 0, SEEK_END);
    long n = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *in = malloc(n), *out = malloc(2 * n + 1024);
    if (fread(in, 1, n, file) != (size_t)n) { fprintf(stderr, "short read\n"); return 1; }
    printf("one page of %ld bytes, best of 9 runs each:\n", n);
    for (int level = 1; level <= 6; level += 5) {
        double best = 1e9; size_t bytes = 0;
        for (int run = 0; run < 9; run++) {
            z_stream s = {0};
            deflateInit2(&s, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
            s.next_in = in; s.avail_in = n; s.next_out = out; s.avail_out = 2 * n;
            double t = now();
            deflate(&s, Z_FINISH);
            t = now() - t;
            if (t < best) best = t;
            bytes = s.total_out;
            deflateEnd(&s);
        }
        char name[32];
        snprintf(name, sizeof name, "zlib level %d", level);
        report(name, best, bytes, n);
    }
    static const unsigned buffers[] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT};
    for (int level = 0; level <= 2; level++) {
        double best = 1e9; size_t bytes = 0;
        unsigned char *levelBuffer = malloc(buffers[level] + 1);
        struct isal_zstream *s = malloc(sizeof *s);
        for (int run = 0; run < 9; run++) {
            isal_deflate_init(s);
            s->level = level; s->level_buf = levelBuffer; s->level_buf_size = buffers[level];
            s->next_in = in; s->avail_in = n; s->next_out = out; s->avail_out = 2 * n; s->end_of_stream = 1;
            double t = now();
            isal_deflate(s);
            t = now() - t;
            if (t < best) best = t;
            bytes = s->total_out;
        }
        char name[32];
        snprintf(name, sizeof name, "ISA-L level %d", level);
        report(name, best, bytes, n);
        free(s); free(levelBuffer);
    }
#ifdef WITH_LIBDEFLATE
    for (int level = 1; level <= 6; level += 5) {
        struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
        double best = 1e9; size_t bytes = 0;
        for (int run = 0; run < 9; run++) {
            double t = now();
            bytes = libdeflate_deflate_compress(c, in, n, out, 2 * n);
            t = now() - t;
            if (t < best) best = t;
        }
        char name[32];
        snprintf(name, sizeof name, "libdeflate level %d", level);
        report(name, best, bytes, n);
        libdeflate_free_compressor(c);
    }
#endif
    double zlibCRC = 1e9, isalCRC = 1e9;
    unsigned long sum = 0;
    for (int run = 0; run < 9; run++) {
        double t = now(); sum += crc32(0, in, n); t = now() - t; if (t < zlibCRC) zlibCRC = t;
        t = now(); sum += crc32_gzip_refl(0, in, n); t = now() - t; if (t < isalCRC) isalCRC = t;
    }
    printf("CRC-32: zlib %.2f ms, ISA-L %.2f ms (%lu)\n", zlibCRC * 1e3, isalCRC * 1e3, sum & 1);
    return 0;
}
