# The GPU check rehearsed on this machine, as on a CUDA machine that has none of our Debian
# packages: scripts/gpu_bundle makes the bundle; with this machine's copies of those packages
# hidden (a mount namespace of the test's own), scripts/gpu_check --build-only must take Open
# MPI and every CMake package from the bundle, configure and build; the bundle's relocated
# Open MPI runs the built binary. Without a GPU, the check plans its steps and declines with
# exit 3.
# The build is a few objects that each use one bundled dependency (the mpi plugin links Open
# MPI); HARNESS_GPU_REHEARSAL=full builds everything the GPU check builds (the host and its
# LibTorch code: many minutes on a small machine), as before taking the check to a device.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/hidden_packages.bash"

# 1. Without a GPU.
[ "$(scripts/gpu_check --plan | wc -l)" -eq 10 ] || fail "gpu_check --plan"
status=0
PYTHON=/nonexistent/python scripts/gpu_check --out "$WORK/nogpu" >"$WORK/nogpu.out" 2>&1 || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/nogpu.out"; fail "gpu_check without python: exit $status, expected 3"; }
grep -q '"environment": "cannot run' "$WORK/nogpu/summary.json" || fail "gpu_check summary"
status=0
PYTHON=/usr/bin/python3 scripts/gpu_check --out "$WORK/nocuda" --build-dir "$WORK/nocuda/build" \
  >"$WORK/nocuda.out" 2>&1 || status=$?
[ "$status" -eq 3 ] || { cat "$WORK/nocuda.out"; fail "gpu_check without CUDA: exit $status, expected 3"; }
grep -q "cannot run: no CUDA torch" "$WORK/nocuda.out" || { cat "$WORK/nocuda.out"; fail "no reason given"; }
echo "ok: gpu_check plans its steps and declines without a GPU (exit 3)"

# 2. The bundle.
skip_unless_packages_can_be_hidden
scripts/gpu_bundle --out "$WORK/bundle" | tee "$WORK/bundle.out"
grep -qE "MiB \(carry limit 64 MiB\)$" "$WORK/bundle.out" || fail "gpu_bundle gave no size"

# 3. Configure and build with the system copies hidden.
hidden=(libopenmpi3 libopenmpi-dev openmpi-bin openmpi-common libpmix2 nlohmann-json3-dev
        libcli11-dev libboost1.74-dev libgtest-dev libgmock-dev googletest libbenchmark-dev
        libbenchmark1debian)
targets=()
if [ "${HARNESS_GPU_REHEARSAL:-quick}" != full ]; then
  # The loader is a unity build: its sources compile as one object (Boost.DLL).
  for object in host/src/loader/CMakeFiles/harness_loader.dir/Unity/unity_0_cxx.cxx.o \
                host/CMakeFiles/harness.dir/src/run/main.cpp.o \
                tests/CMakeFiles/mpi_tests.dir/mpi/nccl_environment_test.cpp.o \
                bench/CMakeFiles/harness_bench_support.dir/support/paired_ratio_reporter.cpp.o \
                plugins/libharness_comm_mpi.so; do
    targets+=(--target "$object")
  done
fi
status=0
with_packages_hidden "${hidden[@]}" -- bash -c '
  set -e
  # Nothing of the hidden packages is left to find.
  ! command -v mpirun && ! command -v mpicc
  ! echo "#include <boost/version.hpp>" | g++ -E -x c++ - >/dev/null 2>&1
  ! echo "#include <nlohmann/json.hpp>" | g++ -E -x c++ - >/dev/null 2>&1
  PYTHON=/usr/bin/python3 scripts/gpu_check --build-only --bundle "$1" --out "$2" --build-dir "$3" "${@:4}"
  # The relocated Open MPI runs what was built against it, at two ranks.
  source "$1/env.bash"
  mpirun --oversubscribe -np 2 "$3/mpi_probe/probe"
' rehearsal "$WORK/bundle" "$WORK/out" "$WORK/build" "${targets[@]}" >"$WORK/rehearsal.out" 2>&1 ||
  status=$?
cat "$WORK/rehearsal.out"
[ "$status" -eq 0 ] || { tail -60 "$WORK/out/gpu_check.log"; fail "the rehearsal failed (exit $status)"; }
py "$WORK/out" <<'PY'
import json, os, sys
out = sys.argv[1]
summary = json.load(open(os.path.join(out, "summary.json")))
assert all(v == "ok" for v in summary.values()), summary
dependencies = json.load(open(os.path.join(out, "environment.json")))["dependencies"]
for name in ("mpi", "nlohmann_json", "boost", "cli11", "googletest", "benchmark"):
    assert dependencies[name]["from"] == "bundle", (name, dependencies[name])
assert dependencies["torch"]["from"] == "machine", dependencies["torch"]
print("ok: every hidden dependency came from the bundle; LibTorch from the machine")
PY
echo PASS
