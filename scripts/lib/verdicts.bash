# Verdicts of checks that only build and run the project's own C++ (the sanitizer builds, the
# GPU check's build), remembered per source tree so that a clean verdict is not paid for twice.
# Such a verdict depends on the code, the compiler and the libraries, not on the folder the tree
# was cloned into: a fresh clone of sources that already passed on this machine (CI's clone of
# what was checked before it was pushed) need not build them again. The key is the sources' git
# blobs with the compiler, the libraries and what the caller adds; a tree with uncommitted
# changes in those sources, or no git at all, has no key and is always checked.
# HARNESS_CHECK_AGAIN=1 checks regardless. Sourced by scripts/sanitize and tests/e2e/gpu_build.sh.
verdict_sources=(harness plugins bindings tests/unit tests/mpi tests/plugins tests/support
                 tests/tsan tests/fixtures tests/CMakeLists.txt cmake CMakeLists.txt
                 scripts/lib/configure.bash)
verdicts_dir="${HARNESS_CACHE_DIR:-$HOME/.cache/harness}/verdicts"

# verdict_key CHECK CONTEXT [MORE SOURCES...]: the key, or nothing when the sources cannot be
# named. CONTEXT: what else the verdict depends on (a torch version, say).
verdict_key() {
  local check=$1 context=$2; shift 2
  local sources=("${verdict_sources[@]}" "$@")
  git rev-parse -q --verify HEAD >/dev/null 2>&1 || return 0
  [ -z "$(git status --porcelain -- "${sources[@]}")" ] || return 0
  { echo "$check $context"; c++ --version | head -1
    dpkg-query -W libtorch-dev libopenmpi-dev libgtest-dev 2>/dev/null || true
    git ls-files -s -- "${sources[@]}"; } | sha256sum | cut -c1-24
}

# passed_before CHECK KEY: true, and says so, when these sources passed CHECK on this machine.
passed_before() {
  [ -n "$2" ] && [ -z "${HARNESS_CHECK_AGAIN:-}" ] && [ -e "$verdicts_dir/$1-$2" ] || return 1
  echo "$1: these sources passed on this machine at $(cat "$verdicts_dir/$1-$2") (key $2);" \
    "not built again (HARNESS_CHECK_AGAIN=1 does)"
}

remember_passed() {  # CHECK KEY
  [ -n "$2" ] || return 0
  mkdir -p "$verdicts_dir" && date -u +%FT%TZ >"$verdicts_dir/$1-$2"
}
