# The machine changes under a build folder, as it does for a new user: scripts/run installs
# fewer packages than scripts/test, so the folder the first command configured was configured
# without what the second installs; a user may add CUDA and NCCL later. Here a scratch copy of
# the tree is configured while Python's torch, Gloo, ccache and /usr/local/cuda are hidden (a
# mount namespace of the test's own, as on a machine that never had them), then, with them back,
# prepared the way scripts/test prepares build/ (scripts/build with its set-up options): the
# TorchScript exports must be made, the gloo plugin must be a target, the compiler must go
# through ccache, and where this machine has NCCL the nccl plugin must be a target.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/hidden_packages.bash"
skip_unless_packages_can_be_hidden
hidden=(python3-torch libgloo-dev ccache)
for package in "${hidden[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    { echo "SKIP: $package is not installed, so it cannot arrive under a build folder"; exit 77; }
done

# The tree as a user has it (tracked and new files), with the data sets scripts/setup fetched.
src=$WORK/src
mkdir "$src"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$src"
[ -d data ] && cp -a data "$src/"

# 1. Configured while the packages are missing: the hiding must show, or this test proves nothing.
# The project's PyTorch (HARNESS_TORCH_PYTHON, ctest's) is not there either: the copy has no .venv.
with_packages_hidden "${hidden[@]}" /usr/local/cuda -- env -u HARNESS_TORCH_PYTHON \
  cmake -S "$src" -B "$src/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$WORK/first.log" 2>&1 ||
  { cat "$WORK/first.log"; fail "the first configure failed"; }
has_target() { ninja -C "$src/build" -t query "$1" >/dev/null 2>&1; }
! has_target model_autoencoder || fail "Python's torch was not hidden: the first configure exported models"
! has_target harness_comm_gloo || fail "Gloo was not hidden: the first configure has the gloo plugin"
! has_target harness_torch_module || fail "PyTorch was not hidden: the first configure has harness_torch"
[ -f "$src/build/python/harness_torch.not-built" ] || fail "no note says why harness_torch is not built"
! has_target harness_comm_nccl || fail "CUDA was not hidden: the first configure has the nccl plugin"
uses_ccache() { grep -q '^CCACHE_PROGRAM:FILEPATH=.*/ccache$' "$src/build/CMakeCache.txt"; }
! uses_ccache || fail "ccache was not hidden from the first configure"
for plugin in gloo nccl; do  # so that an experiment naming them skips their trials, saying why
  [ -s "$src/build/plugins/libharness_comm_$plugin.so.not-built" ] ||
    fail "the first configure left no note that the $plugin plugin is not built"
done
echo "ok: a folder configured without Python's torch, Gloo, ccache and CUDA"

# 2. The packages are back, and PyTorch 2.x (the build's own, HARNESS_TORCH_PYTHON: no second
# download into the copy); scripts/test's preparation of the folder (the exports only: the rest
# of its build group would be a whole build of the tree).
(cd "$src" && scripts/build --plots --peer model_autoencoder model_transformer) >"$WORK/second.log" 2>&1 ||
  { cat "$WORK/second.log"; fail "scripts/build after the packages arrived failed"; }
for model in autoencoder transformer; do
  [ -s "$src/build/models/$model.pt" ] ||
    { cat "$WORK/second.log"; fail "build/models/$model.pt was not exported after Python's torch arrived"; }
done
has_target harness_comm_gloo || fail "the gloo plugin is no target after Gloo arrived"
has_target harness_torch_module || fail "harness_torch is no target after PyTorch arrived"
[ ! -e "$src/build/python/harness_torch.not-built" ] ||
  fail "the note that harness_torch is not built outlived the arrival of PyTorch"
[ ! -e "$src/build/plugins/libharness_comm_gloo.so.not-built" ] ||
  fail "the note that the gloo plugin is not built outlived its arrival"
if ninja -C "$(dirname "$HARNESS")" -t query harness_comm_nccl >/dev/null 2>&1; then  # this machine has NCCL
  has_target harness_comm_nccl || fail "the nccl plugin is no target after CUDA and NCCL arrived"
fi
uses_ccache || fail "the compiler does not go through ccache after it arrived"
echo "ok: after they arrived, scripts/build exported the models, made the gloo (and nccl) plugin and harness_torch targets and uses ccache"
echo PASS
