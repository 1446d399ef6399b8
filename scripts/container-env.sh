#!/usr/bin/env bash
# Sourced by the container-*.sh scripts: podman settings shared by all of them.
# No Docker engine here: podman with ../shared/containers.conf (runc, lowered ulimits).
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -z "${CONTAINERS_CONF:-}" ]; then
  for candidate in "$repo_root/../shared/containers.conf" /work/shared/containers.conf; do
    if [ -f "$candidate" ]; then CONTAINERS_CONF="$(cd "$(dirname "$candidate")" && pwd)/containers.conf"; break; fi
  done
fi
export CONTAINERS_CONF
# Gitignored cache (it ignores itself): debootstrap roots, the lint venv, downloaded .debs.
cache_dir="$repo_root/.container-cache"
mkdir -p "$cache_dir"
[ -f "$cache_dir/.gitignore" ] || echo '*' > "$cache_dir/.gitignore"
image_tag="${CARESYNC_IMAGE:-localhost/caresync:ci}"
# The exact base image names the Dockerfile's FROM lines use.
build_base="$(awk 'toupper($1)=="FROM" && tolower($3)=="as" && $4=="build" {print $2; exit}' "$repo_root/Dockerfile")"
runtime_base="$(awk 'toupper($1)=="FROM" && tolower($3)=="as" && $4=="runtime" {print $2; exit}' "$repo_root/Dockerfile")"
log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
# podman schedules HEALTHCHECKs with systemd timers; there is no systemd here, so it logs an error
# line on every run/stop although the checks themselves work (run on demand). Drop only those lines.
podman() {
  command podman "$@" 2> >(grep -v 'systemd connection\|/run/systemd/private' >&2)
}
