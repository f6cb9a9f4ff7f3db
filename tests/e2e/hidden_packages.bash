# with_packages_hidden PACKAGE... -- COMMAND...: runs COMMAND in a mount namespace of its own
# where every file the Debian PACKAGEs installed is gone, as on a machine that never had them:
# overlays on the folders holding them, whited out (a directory that only those packages
# fill goes as one). Links into what is gone dangle, as they would there. Needs root.
with_packages_hidden() {
  local packages=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do packages+=("$1"); shift; done
  shift
  local plan
  plan=$(mktemp)
  # Each line: an overlay root, then the paths under it to white out.
  /usr/bin/python3 - "${packages[@]}" >"$plan" <<'PY'
import os, subprocess, sys
ROOTS = ["/usr/bin", "/usr/include", "/usr/lib/x86_64-linux-gnu", "/usr/share", "/usr/src", "/etc"]
listed = set()
for package in sys.argv[1:]:
    listed |= {p for p in subprocess.run(["dpkg", "-L", package], capture_output=True,
                                         text=True, check=True).stdout.splitlines() if p}
def owned(path):  # every entry under path came from the packages
    if not os.path.isdir(path) or os.path.islink(path):
        return path in listed
    return path in listed and all(owned(os.path.join(path, e)) for e in os.listdir(path))
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
  unshare -m bash -s "$plan" "$@" <<'SH'
set -e
plan=$1; shift
stage=$(mktemp -d)
mount -t tmpfs hidden "$stage"
n=0
while read -r root gone; do
  n=$((n + 1))
  mkdir -p "$stage/$n/upper" "$stage/$n/work"
  for path in $gone; do
    mkdir -p "$stage/$n/upper/$(dirname "${path#"$root"/}")"
    mknod "$stage/$n/upper/${path#"$root"/}" c 0 0
  done
  mount -t overlay hidden -o "lowerdir=$root,upperdir=$stage/$n/upper,workdir=$stage/$n/work" "$root"
done <"$plan"
exec "$@"
SH
  local status=$?
  rm -f "$plan"
  return $status
}
