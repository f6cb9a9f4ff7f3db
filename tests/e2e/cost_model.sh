# scripts/model on points made from known links: collective records whose times follow the
# ring formula (alpha 20 us, 1 GB/s) at world 2 and 3 and halving-doubling (alpha 5 us,
# 4 GB/s) at world 2, 3, 4, with 3% deterministic ripple, plus a training record. The fit must
# recover alpha and beta within 10%, pick the generating formula, predict the held-out world
# size within 5%, give crossovers and predictions at scale, and write its files.
source "$(dirname "$0")/lib.bash"
mkdir -p "$WORK/r"
/usr/bin/python3 - "$WORK/r" <<'PY'
import json, math, os, sys
d = sys.argv[1]
gamma = 1e-9 / 10.0  # --gamma-gbps 10 below
def ring(p, n, a, b): return 2 * (p - 1) * a + 2 * (p - 1) / p * n * b + (p - 1) / p * n * gamma
def rhd(p, n, a, b): return 2 * math.log2(p) * a + 2 * (p - 1) / p * n * b + (p - 1) / p * n * gamma
records = []
for backend, algorithm, formula, alpha, gbps, worlds in (("ring", None, ring, 20e-6, 1.0, (2, 3)),
                                                         ("gloo", "halving_doubling", rhd, 5e-6, 4.0, (2, 3, 4))):
    for p in worlds:
        points = []
        for i, n in enumerate(4 ** k for k in range(1, 13)):
            ripple = 1 + 0.03 * math.sin(7 * i + p)
            points.append({"bytes": n, "time_us": formula(p, n, alpha, 1e-9 / gbps) * 1e6 * ripple})
        params = {"algorithm": algorithm} if algorithm else {}
        records.append({"kind": "collective", "status": "ok", "world_size": p, "points": points,
                        "settings": {"backend": backend, "backend_params": params}})
records.append({"kind": "train", "status": "ok", "world_size": 3, "bytes_reduced_per_step": 1 << 20,
                "gradient_reduction": {"buckets": 1},
                "step_time_ms": {"comm": ring(3, 1 << 20, 20e-6, 1e-9) * 1e3, "compute": 4.0},
                "settings": {"backend": "ring", "backend_params": {}, "model": "autoencoder"}})
with open(os.path.join(d, "trials.jsonl"), "w") as f:
    for number, r in enumerate(records):
        f.write(json.dumps(dict(r, key=f"synthetic{number}", axes={})) + "\n")
json.dump({"experiment": {"name": "synthetic_links"}}, open(os.path.join(d, "meta.json"), "w"))
PY
scripts/model "$WORK/r=lab" --gamma-gbps 10 --holdout world=4 --out "$WORK/model" >/dev/null
for f in model.json model.md model_fit.png; do [ -s "$WORK/model/$f" ] || fail "scripts/model did not write $f"; done
/usr/bin/python3 - "$WORK/model/model.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
def check(name, formula, alpha, gbps):
    f = m["fits"][name]
    assert f["best"] == formula, (name, f["best"])
    params = f["formulas"][formula]["params"]
    assert abs(params["alpha_s"] / alpha - 1) < 0.1, (name, params)
    assert abs(params["link_gbps"] / gbps - 1) < 0.1, (name, params)
    assert f["formulas"][formula]["quality"]["max_rel_error"] < 0.08, f["formulas"][formula]["quality"]
check("ring @ lab", "ring", 20e-6, 1.0)
check("gloo:halving_doubling @ lab", "halving_doubling", 5e-6, 4.0)
held = m["holdout"]["errors"]["gloo:halving_doubling"]
assert held["best"] == "halving_doubling" and held["formulas"]["halving_doubling"]["median_rel_error"] < 0.05, held
steps = m["training_steps"]
assert len(steps) == 1 and steps[0]["rel_error"] < 0.1, steps
scale = m["predictions"]["ring @ lab"]
assert {r["p"] for r in scale["points"]} >= {8, 1024}
assert scale["crossovers"], "no crossover sizes"
# 1 MB of gradients over 4 ms of backward at p = 3 on the ring link: 64 KB buckets (0.17 ms each,
# one every 0.25 ms) hide all but the last; 16 KB ones queue up (latency-bound), one bucket
# exposes the whole 1.5 ms allreduce.
advice = {(r["fit"], r["p"]): r for r in m["fusion"]}
at3 = advice[("ring @ lab", 3)]
assert at3["best_fusion_bytes"] == 65536, at3
assert at3["exposed_ms"] < 0.25 and at3["one_bucket_exposed_ms"] > 1.4, at3
assert ("ring @ lab", 1024) in advice and ("ring @ lab", 64) in advice
print("ok: fitted links recovered, held-out world 4 predicted, step time and fusion size predicted")
PY
status=0
scripts/model "$WORK/nothing" >"$WORK/err" 2>&1 || status=$?
[ "$status" -ne 0 ] && grep -q "no trials.jsonl" "$WORK/err" || fail "scripts/model on a missing folder"
echo PASS
