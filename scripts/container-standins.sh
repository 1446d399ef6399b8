#!/usr/bin/env bash
# Makes local stand-ins for the Dockerfile's two base images, tagged with the exact FROM names,
# because no image registry is reachable here:
#   runtime (debian:bookworm-slim): `debootstrap --variant=minbase bookworm`, plus a tiny offline
#     apt repository holding libsqlite3-0, zlib1g, libisal2 and libjemalloc2, since builds get no network; the Dockerfile's
#     unchanged `apt-get update && apt-get install` then works as it does against Debian's mirror.
#     libpq5, libcurl4 and ca-certificates (and their dependencies) come preinstalled instead, so installing
#     them is a no-op.
#   build (swift:6.3-bookworm): the same kind of root with the -dev packages the official Swift
#     image has, this machine's toolchain (/opt/swift, without debugger and editor tools), a
#     copy of /opt/swift-packages and the same git `url.insteadOf` settings, so
#     `swift build` resolves dependencies offline exactly as it does on this machine. It also has
#     libpq-dev, libisal-dev and libjemalloc-dev preinstalled and no apt sources, so the Dockerfile's `apt-get install` of them is a
#     no-op offline, where the official image downloads it.
# Roots are cached in .container-cache/; images are skipped when their input stamp matches.
set -euo pipefail
source "$(dirname "$0")/container-env.sh"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
build_packages=binutils,git,libc6-dev,libcurl4-openssl-dev,libedit2,libgcc-12-dev,libncurses6,libsqlite3-dev,libstdc++-12-dev,libxml2-dev,pkg-config,tzdata,zlib1g-dev,ca-certificates,unzip,libpq-dev,libisal-dev,libjemalloc-dev
runtime_debs=(libsqlite3-0 zlib1g libisal2 libjemalloc2)
runtime_packages=libpq5,libcurl4,ca-certificates
swift_version="$(/opt/swift/usr/bin/swift --version 2>/dev/null | head -n 1)"

# debootstrap ROOT [--include=...]: a cached minbase bookworm root.
make_root() {
  local root="$1"; shift
  if [ -f "$root/.caresync-complete" ]; then log "cached root $root"; return; fi
  # A debootstrap that was interrupted may leave /proc or /sys mounted inside: unmount first,
  # and never let rm cross into another file system.
  { grep -o " $root/[^ ]*" /proc/mounts || true; } | sort -r | while read -r mountpoint; do umount -l "$mountpoint"; done
  rm -rf --one-file-system "$root"
  log "debootstrap $root $*"
  debootstrap --variant=minbase "$@" bookworm "$root" "$mirror" > "$root.log" 2>&1 \
    || { tail -n 20 "$root.log" >&2; exit 1; }
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/*
  touch "$root/.caresync-complete"
}

# stamp INPUTS...: a short hash naming the inputs an image was made from.
stamp() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }

# image_is_current NAME STAMP: the image exists and was made from the same inputs.
image_is_current() {
  [ "$(podman image inspect --format '{{ index .Config.Labels "org.caresync.standin" }}' "$1" 2>/dev/null || true)" = "$2" ]
}

# import_root NAME STAMP TAR-ARGS...: imports a tar stream as NAME (and docker.io/library/NAME).
import_root() {
  local name="$1" stamp="$2"; shift 2
  local changes=(--change "LABEL org.caresync.standin=$stamp" --change "CMD [\"bash\"]")
  [ -n "${extra_env:-}" ] && changes+=(--change "ENV $extra_env")
  local previous
  previous="$(podman image inspect --format '{{.Id}}' "$name" 2>/dev/null || true)"
  log "podman import $name"
  tar --numeric-owner -c "$@" | podman import "${changes[@]}" - "$name" > /dev/null
  case "$name" in
    */*) ;;
    *) podman tag "localhost/$name" "docker.io/library/$name" ;;
  esac
  # Drop the stand-in this one replaces (by id, only if nothing else uses it).
  if [ -n "$previous" ] && [ "$previous" != "$(podman image inspect --format '{{.Id}}' "$name")" ]; then
    podman rmi "$previous" > /dev/null 2>&1 || true
  fi
}

# ---- runtime stand-in (a root per package list: make_root caches by path)
runtime_root="$cache_dir/bookworm-minbase-$(stamp "$runtime_packages")"
runtime_stamp="$(stamp minbase-v2 "${runtime_debs[@]}" "$runtime_packages")"
if image_is_current "$runtime_base" "$runtime_stamp"; then
  log "stand-in $runtime_base is current"
else
  make_root "$runtime_root" "--include=$runtime_packages"
  repo="$cache_dir/standin-apt"
  rm -rf "$repo" && mkdir -p "$repo"
  download() { (cd "$repo" && apt-get -o APT::Sandbox::User=root download "${runtime_debs[@]}" > /dev/null); }
  download || { apt-get update -qq && download; }   # the package lists may never have been fetched
  (cd "$repo" && apt-ftparchive packages . > Packages)
  staging="$cache_dir/runtime-image-root"
  rm -rf "$staging" && cp -a "$runtime_root" "$staging" && rm -f "$staging/.caresync-complete"
  mkdir -p "$staging/var/lib/caresync-standin-apt"
  cp "$repo"/*.deb "$repo/Packages" "$staging/var/lib/caresync-standin-apt/"
  echo 'deb [trusted=yes] file:/var/lib/caresync-standin-apt ./' > "$staging/etc/apt/sources.list"
  rm -f "$staging"/etc/apt/sources.list.d/*
  extra_env="" import_root "$runtime_base" "$runtime_stamp" -C "$staging" .
  rm -rf "$staging"
fi

# ---- build stand-in
build_root="$cache_dir/bookworm-swift-build-$(stamp "$build_packages")"
build_stamp="$(stamp swift-v2 "$build_packages" "$swift_version" "$(git config --system --get-regexp '^url\.' || true)")"
if image_is_current "$build_base" "$build_stamp"; then
  log "stand-in $build_base is current"
else
  make_root "$build_root" "--include=$build_packages"
  staging="$cache_dir/build-overlay"
  rm -rf "$staging" && mkdir -p "$staging/etc/apt"
  : > "$staging/etc/apt/sources.list"   # no sources: apt-get update succeeds offline, installed packages stay
  # The same url.insteadOf rules as this machine: github.com -> /opt/swift-packages.
  git config --system --get-regexp '^url\.' | while read -r key value; do
    git config --file "$staging/etc/gitconfig" --add "$key" "$value"
  done
  extra_env="PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  import_root "$build_base" "$build_stamp" \
    -C "$build_root" --exclude=./.caresync-complete --exclude=./etc/apt/sources.list . \
    -C "$staging" ./etc/gitconfig ./etc/apt/sources.list \
    -C / \
      --exclude=opt/swift/usr/bin/lldb-server --exclude='opt/swift/usr/lib/liblldb*' \
      --exclude=opt/swift/usr/bin/sourcekit-lsp --exclude='opt/swift/usr/lib/libsourcekitdInProc*' \
      --exclude=opt/swift/usr/bin/clangd --exclude=opt/swift/usr/bin/docc \
      --exclude=opt/swift/usr/bin/swift-format --exclude=opt/swift/usr/share/docc \
      opt/swift-packages opt/swift
fi
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E "$(echo "$runtime_base|$build_base" | sed 's/[.]/\\./g')" >&2 || true
