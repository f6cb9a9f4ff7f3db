"""The same PyTorch DDP script (bench/torch/ddp_step.py) on gloo and on the process group
"harness" with each plugin that runs inside PyTorch, in alternating rounds at world 2: per
model, each side's median step time and the ratio gloo / harness per round (> 1: harness is
faster), its median with the range over the rounds."""
import argparse
import json
import os
import subprocess
import sys

from . import stats

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "torch",
                      "ddp_step.py")


def run(backend, plugin, model, args):
    env = dict(os.environ, OMP_NUM_THREADS="1", HARNESS_BACKEND=plugin or "shm")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.python_path, env.get("PYTHONPATH")]))
    command = [args.python, "-m", "torch.distributed.run", "--standalone",
               "--nproc_per_node", str(args.world), SCRIPT, "--backend",
               backend, "--model", model, "--steps", str(args.steps),
               "--batch", str(batch_of(model, args))]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    for line in done.stdout.splitlines():
        start = line.find("{")
        if start >= 0 and '"step_s"' in line:
            return json.loads(line[start:])
    sys.exit(f"torch_backend_benchmark: {backend} {plugin or ''} {model} failed "
             f"(exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def batch_of(model, args):
    return int(dict(item.split("=") for item in args.batch.split(","))[model])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python-path", required=True, help="the folder holding harness_torch")
    parser.add_argument("--python", required=True,
                        help="the Python whose torch harness_torch was built for (it runs the job)")
    parser.add_argument("--plugins", default="shm")
    parser.add_argument("--models", default="autoencoder,transformer")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--batch", default="autoencoder=16,transformer=4",
                        help="samples per rank and step, per model")
    parser.add_argument("--world", type=int, default=2)
    parser.add_argument("--json", help="also write every run here")
    args = parser.parse_args()
    results = {}
    for model in args.models.split(","):
        for plugin in args.plugins.split(","):
            gloo, harness = [], []
            for _ in range(args.rounds):  # alternating, so drifts of the machine hit both
                gloo.append(stats.median(run("gloo", None, model, args)["step_s"]))
                measured = run("harness", plugin, model, args)
                harness.append(stats.median(measured["step_s"]))
            ratios = [g / h for g, h in zip(gloo, harness)]
            results[f"{model}/{plugin}"] = {"parameters": measured["parameters"], "gloo_s": gloo,
                                            "harness_s": harness, "ratio": ratios}
            print(f"{model} ({measured['parameters'] / 1e6:.2f} M parameters), world {args.world}, "
                  f"batch {batch_of(model, args)}/rank: median step gloo "
                  f"{stats.median(gloo) * 1e3:.1f} ms "
                  f"[{min(gloo) * 1e3:.1f}, {max(gloo) * 1e3:.1f}], harness:{plugin} "
                  f"{stats.median(harness) * 1e3:.1f} ms [{min(harness) * 1e3:.1f}, "
                  f"{max(harness) * 1e3:.1f}]; gloo / harness x{stats.median(ratios):.2f} "
                  f"[{min(ratios):.2f}, {max(ratios):.2f}] over {args.rounds} alternating rounds",
                  flush=True)
    if args.json:
        json.dump({"settings": vars(args), "results": results}, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
