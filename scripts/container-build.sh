#!/usr/bin/env bash
# Builds the unchanged Dockerfile with podman (docker image format, so HEALTHCHECK is kept),
# from the local stand-in base images: never pulls. Tags the result $CARESYNC_IMAGE
# (default localhost/caresync:ci).
set -euo pipefail
source "$(dirname "$0")/container-env.sh"
# Stand-in builds get no network (the runtime stand-in carries an offline apt repository);
# set CARESYNC_BUILD_NETWORK=host to build from real base images.
network="${CARESYNC_BUILD_NETWORK:-none}"
log "podman build $image_tag (network $network)"
start=$SECONDS
podman build --format docker --pull=never --network="$network" \
  -t "$image_tag" -f "$repo_root/Dockerfile" "$repo_root"
log "built $image_tag in $((SECONDS - start)) s: $(podman image inspect --format '{{.Size}}' "$image_tag") bytes"
