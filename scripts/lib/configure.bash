# Sourced by the scripts that build (scripts/build, scripts/sanitize, scripts/fuzz), from the
# repository root:
#   configure_build FOLDER [CMAKE OPTIONS...]
# Configures FOLDER with CMake each time it is called, never only once. A configure decides
# what this machine has: Python's torch (the exported TorchScript models), Gloo, CUDA and
# NCCL, ccache. A folder configured once would keep those decisions after the machine changed
# under it: `scripts/run` installs fewer packages than `scripts/test`, so a folder configured by
# the first would lack what the second needs. A configure with nothing changed takes seconds
# and rebuilds nothing.
# The options apply to a folder's first configure; later ones keep what its cache holds (so a
# user's own -D settings stay). The first configure prints everything; later ones print only
# the lines that differ from the last (what the machine gained or lost), and all of it when
# the configure fails.
configure_build() {
  local folder=$1
  shift
  local log="$folder/configure.log"
  if [ ! -f "$folder/build.ninja" ]; then
    mkdir -p "$folder"
    cmake -S . -B "$folder" -G Ninja "$@" | tee "$log.new"
  elif ! cmake -S . -B "$folder" >"$log.new" 2>&1; then
    cat "$log.new" >&2
    return 1
  elif [ -f "$log" ]; then
    # Timings and the closing lines differ every time; what is left is a decision.
    grep -Fvx -f "$log" "$log.new" | grep -Ev '^-- (Configuring|Generating) done|^-- Build files have been written' |
      sed "s|^|configure ($folder): |" || true
  fi
  mv "$log.new" "$log"
}
