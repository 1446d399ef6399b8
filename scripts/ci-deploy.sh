#!/usr/bin/env bash
# CI check of the container: lint the Dockerfile, build it with podman from local stand-in base
# images, run it, exercise it through a published loopback port, stop it with SIGTERM.
# Self-contained and non-interactive; exits non-zero on any failure. See docs/deployment.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
started=$SECONDS
step() { printf '\n[%s] === %s (%d s so far)\n' "$(date -u +%H:%M:%S)" "$*" "$((SECONDS - started))" >&2; }

if [ "$(id -u)" != 0 ]; then
  echo "ci-deploy: needs root (apt-get, debootstrap, rootful podman)" >&2
  exit 1
fi

step "install tools"
packages=(podman buildah runc uidmap slirp4netns containernetworking-plugins iptables debootstrap apt-utils curl python3-venv ca-certificates)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  for attempt in 1 2 3 4 5 6; do   # another process may hold the dpkg lock for a while
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null; then break; fi
    [ "$attempt" = 6 ] && { echo "ci-deploy: cannot install ${missing[*]}" >&2; exit 1; }
    sleep 20
  done
fi

step "lint the Dockerfile (hadolint, checkov)"
scripts/container-lint.sh

step "stand-in base images"
scripts/container-standins.sh

step "build the image"
scripts/container-build.sh

step "run, probe and stop the container"
scripts/container-smoke.sh

step "done in $((SECONDS - started)) s"
