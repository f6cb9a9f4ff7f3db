# The GPU check's build step on this machine, against the LibTorch a GPU machine has: the
# project's PyTorch 2.x (CUDA-enabled, from PyPI) and the CUDA toolkit, without a device.
# scripts/gpu_check --build-only builds what the check runs (the harness, its plugins, the
# models, mpi_tests, model_benchmark) in build-gpu/, so that a compile error is
# found here rather than in the minutes a GPU is lent for. Nothing CUDA runs. Its torch_gloo is
# that PyTorch's own ProcessGroupGloo (the one scripts/tune replays a 2.x job's gloo on): an
# allreduce at each size is checked against known sums, and a captured job replays on it.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/torch_lib.bash"
"$TORCH_PYTHON" -c 'import sys, torch; sys.exit(0 if torch.version.cuda else 1)' ||
  { echo "skipped: $TORCH_PYTHON's torch is not built with CUDA"; exit 77; }
[ -x /usr/local/cuda/bin/nvcc ] || { echo "skipped: no CUDA toolkit in /usr/local/cuda"; exit 77; }
# These sources built against this torch and toolkit on this machine before: the same build
# again would say the same (scripts/lib/verdicts.bash).
source scripts/lib/verdicts.bash
key=$(verdict_key gpu-build "$("$TORCH_PYTHON" -c 'import torch; print(torch.__version__)') \
  $(/usr/local/cuda/bin/nvcc --version | tail -1)" scripts/gpu_check tests/e2e/gpu_build.sh)
passed_before gpu-build "$key" && exit 77
# Objects shared with other clones of the tree through ccache, as scripts/build shares them.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
status=0
PYTHON=$TORCH_PYTHON scripts/gpu_check --build-only --out "$WORK/out" --build-dir build-gpu \
  >"$WORK/build.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { tail -80 "$WORK/out/gpu_check.log"; fail "the GPU check's build failed (exit $status)"; }
"$TORCH_PYTHON" - "$WORK/out" <<'PY'
import json, os, sys
out = sys.argv[1]
summary = json.load(open(os.path.join(out, "summary.json")))
for step in ("configure", "build"):
    assert summary[step] == "ok", summary
environment = json.load(open(os.path.join(out, "environment.json")))
import torch
assert environment["torch"] == torch.__version__ and environment["cuda"], environment
torch_dir = environment["dependencies"]["torch"].get("path", "")
assert torch_dir.startswith(os.path.dirname(torch.__file__)), (torch_dir, torch.__file__)
print(f"ok: the GPU check built against torch {environment['torch']} (CUDA {environment['cuda']}), "
      f"LibTorch from {torch_dir}")
PY
for built in build-gpu/harness build-gpu/plugins/libharness_comm_nccl.so build-gpu/mpi_tests; do
  [ -e "$built" ] || fail "the GPU check's build left no $built"
done
torch_gloo=build-gpu/plugins/libharness_comm_torch_gloo.so
if [ -e "$torch_gloo" ]; then
  cat > "$WORK/torch_gloo.json" <<'JSON'
{"name": "torch_gloo_2x", "seed": 1, "repetitions": 1,
 "parts": [
  {"name": "allreduce", "kind": "collective",
   "settings": {"world_size": 2, "backend": "torch_gloo", "min_bytes": 4, "max_bytes": 1048576,
                "step_factor": 16, "iters": 3, "warmup_iters": 1, "quiet_wait_s": 0}},
  {"name": "replay", "kind": "replay",
   "settings": {"job": "tests/fixtures/job.json", "world_size": 2, "backend": "torch_gloo",
                "max_steps": 20, "quiet_wait_s": 0}}]}
JSON
  $MPIRUN -np 2 build-gpu/harness "$WORK/torch_gloo.json" --results-dir "$WORK/torch_gloo" \
    >"$WORK/torch_gloo.out" 2>&1 || { cat "$WORK/torch_gloo.out"; fail "torch_gloo of the 2.x build did not run"; }
  "$TORCH_PYTHON" - "$(only_run_dir "$WORK/torch_gloo")" <<'PY'
import json, os, sys, torch
records = [json.loads(l) for l in open(os.path.join(sys.argv[1], "trials.jsonl"))]
assert [r["status"] for r in records] == ["ok", "ok"], [(r["part"], r["status"], r.get("reason")) for r in records]
for r in records:
    algorithm = r["backend"]["algorithm"]
    assert algorithm.startswith(f"PyTorch {torch.__version__.split('+')[0]} ProcessGroupGloo"), algorithm
print(f"ok: torch_gloo is PyTorch {torch.__version__}'s ProcessGroupGloo; its allreduces summed "
      f"right at {len(records[0]['points'])} sizes and a captured job replayed on it")
PY
else
  echo "torch_gloo is not in the 2.x build: $(cat "$torch_gloo.not-built" 2>/dev/null)"
fi
remember_passed gpu-build "$key"
echo PASS
