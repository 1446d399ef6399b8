# The release build the Dockerfile ships: Swift's runtime linked into the binary (`--static-swift-stdlib`). Every
# bench builds this way, so its figures are the shipped binary's, and the benches share one `.build/release`
# (a build with the other linking would recompile everything). docs/benchmarks.md, "The shipped build".
#   source bench/lib/release-build.sh
#   bin="$(release_build caresync)"          # builds the product (its output shown only on failure), prints its path
release_build() {
  local log
  log="$(swift build -c release --static-swift-stdlib --product "$1" 2>&1)" || { echo "$log" >&2; return 1; }
  echo "$(swift build -c release --static-swift-stdlib --show-bin-path)/$1"
}
