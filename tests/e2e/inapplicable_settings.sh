# Settings a trial never reads, and settings that would measure nothing, are refused (exit 2,
# naming the pointer, the value and why) instead of accepted and silently ignored; a default
# the user did not give is never refused. Messages name the real cause. Dry runs, plus one
# second-long run for --resume.
source "$(dirname "$0")/lib.bash"

collective() { printf '{"name": "c", "kind": "collective", "settings": %s, "sweep": %s}\n' "$1" "${2:-{\}}" > "$WORK/c.json"; }
accepted() {
  "$HARNESS" "$WORK/c.json" --dry-run > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "refused: $(cat "$WORK/c.json")"; }
  echo "ok: accepted $1"
}

# root: only broadcast reads it.
collective '{"collective": "allreduce", "root": 1, "world_size": 2}'
expect_error "/settings/root: 1 is not read by allreduce (only broadcast has a root)" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"world_size": 2}' '{"root": [0, 1]}'
expect_error "/sweep/root/0: 0 is not read by allreduce (only broadcast has a root)" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"collective": "broadcast", "root": 1, "world_size": 2}'
accepted "root with broadcast"
collective '{"world_size": 2}' '{"collective, root": [["allreduce", 0], ["broadcast", 1]]}'
expect_error "/sweep/collective, root/0/1: 0 is not read by allreduce" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"world_size": 2}' '{"collective": ["allreduce", "broadcast"]}'
accepted "the default root beside a swept collective"

# op: only the reducing collectives read it.
collective '{"collective": "allgather", "op": "avg"}'
expect_error "/settings/op: \"avg\" is not read by allgather (only allreduce and reduce_scatter reduce)" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"collective": "broadcast"}' '{"op": ["sum", "avg"]}'
expect_error "/sweep/op/0: \"sum\" is not read by broadcast" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"collective": "reduce_scatter", "op": "avg"}'
accepted "op with reduce_scatter"

# max_iters caps the samples, so one below iters overrides iters.
collective '{"iters": 50, "max_iters": 10}'
expect_error "/settings/max_iters: 10 is below iters = 50" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"iters": 200000}'
expect_error "/settings/iters: 200000 is above max_iters = 100000" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"iters": 10, "max_iters": 10}'
accepted "max_iters equal to iters"

# An empty range is an order problem, not a dtype one.
collective '{"min_bytes": 1000, "max_bytes": 10}'
expect_error "/settings/max_bytes: 10 is below min_bytes = 1000" "$HARNESS" "$WORK/c.json" --dry-run
grep -qF "elements" "$WORK/out" && { cat "$WORK/out"; fail "an inverted range was blamed on the dtype"; }
collective '{"min_bytes": 100000000}'
expect_error "/settings/min_bytes: 100000000 is above max_bytes = 67108864" "$HARNESS" "$WORK/c.json" --dry-run

# Sizes below one element per rank measure nothing: refused, never an ok record without points.
collective '{"collective": "reduce_scatter", "world_size": 4, "min_bytes": 4, "max_bytes": 8}'
expect_error "/settings/max_bytes: no message size from min_bytes = 4 to max_bytes = 8 holds at least one fp32 element (4 B) per rank for reduce_scatter at world_size 4" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"collective": "allgather", "sizes": [4, 8]}' '{"world_size": [1, 4]}'
expect_error "/settings/sizes: no size in sizes holds at least one fp32 element (4 B) per rank for allgather at world_size 4" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"collective": "allgather", "world_size": 4, "min_bytes": 4, "max_bytes": 64}'
accepted "a range whose small sizes are left out for allgather"
collective '{"collective": "alltoall", "world_size": 4, "sizes": [4, 64]}'
accepted "sizes whose small one is left out for alltoall"

# in_place reduces buffers in provided memory: without it, shm never reads it.
collective '{"backend": "shm", "backend_params": {"provide_memory": false, "in_place": true}}'
expect_error "/settings/backend_params/in_place: not read when provide_memory is false" "$HARNESS" "$WORK/c.json" --dry-run
collective '{"backend": "shm", "backend_params": {"in_place": true}}'
accepted "in_place with provided memory"

# --resume of a folder whose trials.jsonl is not a file: said so, not "make room".
collective '{"max_bytes": 64, "iters": 1, "warmup_iters": 0, "min_time_s": 0, "quiet_wait_s": 0}'
"$HARNESS" "$WORK/c.json" --results-dir "$WORK/results" > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "the first run failed"; }
run=$(only_run_dir "$WORK/results")
rm "$run/trials.jsonl" && mkdir "$run/trials.jsonl"
expect_error "trials.jsonl: is a directory, not the file of trial records" "$HARNESS" --resume "$run"
grep -qF "make room" "$WORK/out" && { cat "$WORK/out"; fail "a directory was blamed on the disk"; }
echo PASS
