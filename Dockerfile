# syntax=docker/dockerfile:1
# CareSync server image. Build:  docker build -t caresync .
# Run (see docs/deployment.md):  docker run --read-only --cap-drop ALL --memory 512m \
#   -v caresync-data:/data -p 127.0.0.1:8080:8080 caresync

# ---- Build stage: the official Swift image, a release binary with the static Swift stdlib.
FROM swift:6.3-bookworm AS build
# libpq's headers for the PostgreSQL store (CLibPQ), ISA-L's for gzip answers (CIsal), jemalloc for the server's
# allocator and libcurl's for webhook deliveries (CCurl: the official Swift image has them already); the Swift image
# has SQLite's and zlib's.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpq-dev libisal-dev libjemalloc-dev libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Package.swift and every folder its targets name (Sources, Tests, bench); .dockerignore drops the rest.
COPY . .
# The cache mount keeps .build between image builds, so a rebuild compiles only what changed.
RUN --mount=type=cache,target=/src/.build,id=caresync-swift-build \
    swift build -c release --static-swift-stdlib --product caresync \
    && bin="$(swift build -c release --static-swift-stdlib --show-bin-path)" \
    && mkdir -p /out \
    && cp "$bin/caresync" /out/caresync \
    && find "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /out/ \;

# ---- Runtime stage: slim Debian with only the SQLite, zlib, ISA-L, jemalloc, libpq and libcurl runtime libraries
# (libcurl and the CA certificates for webhook deliveries, CCurl).
FROM debian:bookworm-slim AS runtime
# Versions follow bookworm's security updates rather than a pin that would go stale.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g libisal2 libjemalloc2 libpq5 libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 caresync \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin caresync \
    && mkdir -p /data \
    && chown 10001:10001 /data
WORKDIR /app
# The binary and any SwiftPM resource bundles side by side, as SwiftPM expects.
COPY --from=build /out/ /app/
COPY migrations/ /app/migrations/
COPY config/ /app/config/
ENV CARESYNC_DATABASE=/data/caresync.sqlite \
    CARESYNC_MIGRATIONS_DIRECTORY=/app/migrations \
    CARESYNC_LOG_FORMAT=json \
    CARESYNC_PORT=8080
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8080
# No curl in the image: the binary checks GET /readyz itself (exit 0 on 200, else 1).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/app/caresync", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/caresync"]
CMD ["serve", "--host", "0.0.0.0"]
