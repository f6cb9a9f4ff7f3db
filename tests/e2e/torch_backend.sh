# The torch.distributed backend "harness" (bindings/torch) under torchrun, as a PyTorch user
# launches it: the collectives checked like a backend's (tests/torch/collectives.py) on every
# plugin that joins without MPI (shm, ring), at world 2 and 3; DDP losses equal to gloo's
# (tests/torch/ddp_losses.py); and the clear errors: a missing plugin, bad parameters, a plugin
# that needs MPI, ranks that disagree.
source "$(dirname "$0")/lib.bash"
BUILD=$(cd "$(dirname "$HARNESS")" && pwd)
if [ -f "$BUILD/python/harness_torch.not-built" ]; then
  echo "skipped: harness_torch is not built: $(cat "$BUILD/python/harness_torch.not-built")"
  exit 77
fi
[ -f "$BUILD/python/harness_torch/__init__.py" ] || fail "no harness_torch in $BUILD/python"
export PYTHONPATH="$BUILD/python${PYTHONPATH:+:$PYTHONPATH}" OMP_NUM_THREADS=1
# Debian 12's torchrun needs --redirects and --tee under Python 3.11. Its --standalone always
# takes port 29400, which another job on the machine may hold: a free port instead.
torchrun() {
  local port
  port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  /usr/bin/python3 -m torch.distributed.run --nnodes 1 --rdzv_backend c10d \
    --rdzv_endpoint "127.0.0.1:$port" --rdzv_id "$$" --redirects 1 --tee 1 "$@"
}

# 1. The collectives, per plugin that joins without MPI and world size.
for plugin in shm ring; do
  for world in 2 3; do
    HARNESS_BACKEND=$plugin torchrun --nproc_per_node "$world" tests/torch/collectives.py \
      > "$WORK/$plugin$world" 2>&1 ||
      { cat "$WORK/$plugin$world"; fail "collectives through $plugin at world $world"; }
    grep -q "ok: collectives through harness:$plugin at world $world" "$WORK/$plugin$world" ||
      { cat "$WORK/$plugin$world"; fail "no ok line from the $plugin collectives at world $world"; }
    echo "ok: every collective through harness:$plugin at world $world"
  done
done

# 2. DDP trains as through gloo.
for plugin in shm ring; do
  HARNESS_BACKEND=$plugin torchrun --nproc_per_node 2 tests/torch/ddp_losses.py > "$WORK/ddp" 2>&1 ||
    { cat "$WORK/ddp"; fail "DDP losses through harness:$plugin differ from gloo's"; }
  grep "autoencoder\|transformer:" "$WORK/ddp" | sed "s/^\[[^]]*\]:*/$plugin: /" | sort -u
done

# 3. Clear errors, on every rank, fast.
refused() {  # EXPECTED_TEXT ENVIRONMENT...
  local expected=$1; shift
  local status=0
  env "$@" timeout 120 bash -c "$(declare -f torchrun); torchrun --nproc_per_node 2 tests/torch/join.py" \
    > "$WORK/refused" 2>&1 || status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || { cat "$WORK/refused"; fail "exit $status with $*"; }
  grep -qF -- "$expected" "$WORK/refused" || { cat "$WORK/refused"; fail "missing '$expected' with $*"; }
  echo "ok: $* refused: $expected"
}
refused "HARNESS_BACKEND: nosuch is no communicator plugin (available:" HARNESS_BACKEND=nosuch
refused "HARNESS_BACKEND_PARAMS for shm: /chunk_bytes" HARNESS_BACKEND_PARAMS='{"chunk_bytes": "big"}'
refused "HARNESS_BACKEND_PARAMS: not JSON" HARNESS_BACKEND_PARAMS='{chunk'
refused "mpi joins or sends through MPI, and this group is PyTorch's" HARNESS_BACKEND=mpi
refused "the ranks disagree: rank 1 asks for" HARNESS_JOIN_TEST_FAULT=skew
# A failure inside one rank's collective: its wait and its peer's end with the plugin's message.
refused "harness:shm allreduce: shm: the ranks' buffers differ" HARNESS_JOIN_TEST_FAULT=count
# The ring (TCP) too: a message of another length than expected fails both ranks, naming both.
refused "the ranks called the collective with different sizes" HARNESS_BACKEND=ring \
  HARNESS_JOIN_TEST_FAULT=count
# One rank's call failing inside the plugin before it meets its peer: the peer's wait ends at
# once with that rank's message (announced through the store), not at the timeout.
refused "failed because a peer's collective failed: rank 1: harness:shm broadcast: broadcast root 7" \
  HARNESS_JOIN_TEST_FAULT=root
grep -q "rank 0: allreduce ended after [0-2]\.[0-9] s" "$WORK/refused" ||
  { cat "$WORK/refused"; fail "rank 0's wait did not end soon after rank 1's failure"; }
# A peer that never calls: the wait ends at the group's timeout (10 s), saying so.
refused "did not complete within the process group's timeout (10 s)" HARNESS_JOIN_TEST_FAULT=absent
grep -q "rank 0: allreduce ended after 1[0-4]\.[0-9] s" "$WORK/refused" ||
  { cat "$WORK/refused"; fail "rank 0's wait did not end soon after the 10 s timeout"; }
