#!/usr/bin/env bash
# Device enrolment's QR codes read back as a phone would: our SVG rendered to PNG by librsvg (rsvg-convert) and
# decoded by ZBar (zbarimg), for links of several lengths (versions 1 to 10), every error correction level and every
# mask, and the QR code of a live enrolment answer, which must read as exactly its link. Installs the two Debian
# packages when missing; self-contained and non-interactive; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

missing=()
for p in zbar-tools librsvg2-bin; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi

swift build --build-tests
# Without the tools the decoding tests skip themselves; here a missing tool fails them instead.
CARESYNC_REQUIRE_QR_DECODER=1 swift test --skip-build --filter 'QRCodeTests|QRDecodeTests|EnrolmentEndpointTests'
