# Sourced by scripts that change to the repository root: paths the user typed are relative to
# where the user was, so they are resolved against that folder before the cd.
#   caller=$PWD; cd "$(dirname "$0")/.."; source scripts/lib/caller_path.bash
#   experiment=$(from_caller "$1")
from_caller() {
  case "$1" in
    /* | "") printf '%s\n' "$1" ;;
    *) printf '%s\n' "${caller:?set caller=\$PWD before the cd}/$1" ;;
  esac
}
