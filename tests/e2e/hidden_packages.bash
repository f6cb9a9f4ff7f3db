# with_packages_hidden PACKAGE... -- COMMAND...: runs COMMAND in a mount namespace of its own
# where every file the Debian PACKAGEs installed is gone, as on a machine that never had them
# (a PACKAGE given as an absolute path is a folder that no package installed, such as
# /usr/local/cuda: it is emptied):
# overlays on the folders holding them, whited out (a directory that only those packages
# fill goes as one). Links into what is gone dangle, as they would there. A PACKAGE that is not
# installed is already gone. Needs root.
with_packages_hidden() {
  local packages=() folders=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
      /*) [ ! -d "$1" ] || folders+=("$1") ;;
      *) packages+=("$1") ;;
    esac
    shift
  done
  shift
  local plan
  plan=$(mktemp)
  # Each line: an overlay root, then the paths under it to white out.
  /usr/bin/python3 - "${packages[@]}" >"$plan" <<'PY'
import os, subprocess, sys
ROOTS = ["/usr/bin", "/usr/include", "/usr/lib/x86_64-linux-gnu", "/usr/lib/python3", "/usr/share",
         "/usr/src", "/etc"]
listed = set()
for package in sys.argv[1:]:
    files = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    if files.returncode == 0:
        listed |= {p for p in files.stdout.splitlines() if p}
def owned(path):  # every entry under path came from the packages (or is Python's cache of them)
    if not os.path.isdir(path) or os.path.islink(path):
        return path in listed
    return path in listed and all(e == "__pycache__" or owned(os.path.join(path, e))
                                  for e in os.listdir(path))
for root in ROOTS:
    gone = []
    for path in sorted(listed):
        if not path.startswith(root + "/") or not os.path.lexists(path):
            continue
        if any(path.startswith(g + "/") for g in gone):
            continue
        if owned(path) and not (os.path.isdir(path) and path == root):
            gone.append(path)
    if gone:
        print(root, *gone)
PY
  unshare -m bash -s "$plan" "${#folders[@]}" "${folders[@]}" "$@" <<'SH'
set -e
plan=$1 n=$2; shift 2
for folder in "${@:1:$n}"; do mount -t tmpfs hidden "$folder"; done
shift "$n"
stage=$(mktemp -d)
mount -t tmpfs hidden "$stage"
n=0
while read -r root gone; do
  n=$((n + 1))
  mkdir -p "$stage/$n/upper" "$stage/$n/work" "$stage/$n/real"
  mount --bind "$root" "$stage/$n/real"
  for path in $gone; do
    mkdir -p "$stage/$n/upper/$(dirname "${path#"$root"/}")"
    mknod "$stage/$n/upper/${path#"$root"/}" c 0 0
  done
  mount -t overlay hidden -o "lowerdir=$root,upperdir=$stage/$n/upper,workdir=$stage/$n/work" "$root"
done <"$plan"
status=0
"$@" || status=$?
# What the command wrote under a hidden root (apt installing what it lacked, say) lands in the
# overlay's scratch space: it is copied to the real folder, or it would go with the namespace
# while dpkg kept the package as installed. The whiteouts (character devices) stay behind.
for upper in "$stage"/*/upper; do
  (cd "$upper" && find . -mindepth 1 ! -type c ! -type d -exec cp -a --parents -t "../real" {} +) ||
    echo "with_packages_hidden: could not keep what the command wrote under a hidden folder" >&2
done
exit "$status"
SH
  local status=$?
  rm -f "$plan"
  return $status
}

# skip_unless_packages_can_be_hidden: ends the test as skipped (ctest's 77) where hiding
# needs what this machine does not give: root, a mount namespace, tmpfs and overlayfs.
skip_unless_packages_can_be_hidden() {
  [ "$(id -u)" -eq 0 ] && unshare -m bash -c 'd=$(mktemp -d) && mount -t tmpfs probe "$d" &&
    mkdir "$d/l" "$d/u" "$d/w" "$d/m" &&
    mount -t overlay probe -o "lowerdir=$d/l,upperdir=$d/u,workdir=$d/w" "$d/m"' 2>/dev/null && return 0
  echo "SKIP: hiding packages needs root, mount namespaces and overlayfs"
  exit 77
}

# as_new_user SETUP_OPTION... -- COMMAND...: runs a README command as on a machine that has only
# what that command's own set-up installs (its SETUP_OPTIONs, as the command gives them to its
# set-up): every package some command's set-up installs but this one's does not is hidden, and
# CUDA (/usr/local/cuda, which no command installs). Prints how long the command took.
as_new_user() {
  local options=()
  while [ "$1" != "--" ]; do options+=("$1"); shift; done
  shift
  local started=$SECONDS
  if [ "$(id -u)" -eq 0 ]; then
    # shellcheck disable=SC2046  # one package a word
    with_packages_hidden $(packages_beyond "${options[@]}") /usr/local/cuda -- "$@"
  else
    echo "as_new_user: not root, so no package can be hidden: $* runs on the machine as it is" >&2
    "$@"
  fi
  echo "CI: $* took $((SECONDS - started)) s"
}

# packages_beyond SETUP_OPTION...: the packages some set-up option installs that these options
# do not, one a line (from the one declaration of the set-up's packages).
packages_beyond() {
  (
    source scripts/lib/packages.bash
    comm -23 <(setup_packages --plots --peer --fuzz --slurm | sort -u) <(setup_packages "$@" | sort -u)
  )
}
