# Sanitizer verdicts remembered per source tree, so that a clean verdict is not paid for twice.
# A sanitizer's verdict depends on the code it builds, the compiler and the libraries, not on the
# folder it was cloned into: a fresh clone of sources that already passed on this machine (CI's
# clone of what was checked before it was pushed) need not build and run them again. The key is
# the sources' git blobs; a tree with uncommitted changes in them, or no git at all, has no key
# and is always built. HARNESS_SANITIZE_AGAIN=1 builds and runs regardless.
# Sourced by scripts/sanitize.
sanitized_sources=(harness plugins bindings tests/unit tests/mpi tests/plugins tests/support
                   tests/tsan tests/fixtures tests/CMakeLists.txt cmake CMakeLists.txt
                   scripts/sanitize scripts/lib/configure.bash)
verdicts_dir="${HARNESS_CACHE_DIR:-$HOME/.cache/harness}/sanitized"

sanitizer_key() {  # mode; prints the key, or nothing when the sources cannot be named
  git rev-parse -q --verify HEAD >/dev/null 2>&1 || return 0
  [ -z "$(git status --porcelain -- "${sanitized_sources[@]}")" ] || return 0
  { echo "$1"; c++ --version | head -1
    dpkg-query -W libtorch-dev libopenmpi-dev libgtest-dev 2>/dev/null || true
    git ls-files -s -- "${sanitized_sources[@]}"; } | sha256sum | cut -c1-24
}

passed_before() {  # mode key; true when these sources passed this mode on this machine
  [ -n "$2" ] && [ -z "${HARNESS_SANITIZE_AGAIN:-}" ] && [ -e "$verdicts_dir/$1-$2" ] || return 1
  echo "scripts/sanitize: $1: these sources passed on this machine at" \
    "$(cat "$verdicts_dir/$1-$2") (key $2); not built again (HARNESS_SANITIZE_AGAIN=1 does)"
}

remember_passed() {  # mode key
  [ -n "$2" ] || return 0
  mkdir -p "$verdicts_dir" && date -u +%FT%TZ >"$verdicts_dir/$1-$2"
}
