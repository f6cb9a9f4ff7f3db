"""The same PyTorch training script (bench/torch/ddp_step.py) on gloo and on the process group
"harness" with each plugin that runs inside PyTorch, in alternating rounds at world 2: per job
(model x DDP or FSDP2), each side's median step time and gloo / harness (> 1: harness is
faster) with its 95% interval over the rounds (stats.ratio_interval_of_runs: each round is a
run). Names torch's version, and whether gloo mapped shared memory (its allreduce for ranks on
one host, where the torch has it). With --bed RATE the jobs run across the test bed's two hosts
(scripts/testbed: network namespaces, links shaped to RATE), torchrun on each host as on a
cluster, and the harness's side is the hierarchical backend (shm within each host, ring across)."""
import argparse
import json
import os
import subprocess
import sys

from . import stats

PROJECT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(PROJECT, "bench", "torch", "ddp_step.py")
TESTBED = os.path.join(PROJECT, "scripts", "testbed")
BED_HOSTS = 2


def plugin_and_params(spec):
    """--plugins entries: a plugin name, with its parameters as JSON after it where given
    (shm{"idle": "yield"})."""
    name, brace, params = spec.partition("{")
    return name, brace + params


def split_plugins(text):
    """Comma-separated entries whose JSON may hold commas of its own."""
    entries, depth, current = [], 0, ""
    for character in text:
        depth += {"{": 1, "}": -1}.get(character, 0)
        if character == "," and depth == 0:
            entries.append(current)
            current = ""
        else:
            current += character
    return [entry for entry in entries + [current] if entry]


def run(backend, plugin, model, strategy, args):
    name, params = plugin_and_params(plugin or "shm")
    env = dict(os.environ, OMP_NUM_THREADS="1", HARNESS_BACKEND=name)
    if params:
        env["HARNESS_BACKEND_PARAMS"] = params
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.python_path, env.get("PYTHONPATH")]))
    launcher = ([TESTBED, "torchrun", "-n", str(args.world), args.python] if args.bed else
                [args.python, "-m", "torch.distributed.run", "--standalone",
                 "--nproc_per_node", str(args.world)])
    command = launcher + [SCRIPT, "--backend", backend, "--model", model, "--strategy", strategy,
                          "--steps", str(args.steps), "--batch", str(batch_of(model, args))]
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
    parser.add_argument("--plugins", default=None,
                        help="the harness's plugins, each with its parameters as JSON after it "
                             "where given (default shm; with --bed hierarchical{\"inter\": "
                             "\"ring\"})")
    parser.add_argument("--models", default="autoencoder,transformer")
    parser.add_argument("--strategies", default="ddp,fsdp2",
                        help="ddp, fsdp2 or both (fsdp2 runs the Transformer only)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--batch", default="autoencoder=16,transformer=4",
                        help="samples per rank and step, per model")
    parser.add_argument("--world", type=int, default=2, help="ranks (with --bed: per host)")
    parser.add_argument("--bed", metavar="RATE",
                        help="across the test bed's 2 hosts, links shaped to RATE (tc's units: "
                             "1gbit, or none); brings the bed up and down (root)")
    parser.add_argument("--json", help="also write every run here")
    parser.add_argument("--baseline", default="gloo",
                        help="what each plugin is compared with: gloo, or a plugin with its "
                             "parameters (shm{\"idle\": \"yield\"}) to compare two settings")
    parser.add_argument("--load", type=int, default=0,
                        help="busy processes kept running beside the job (another job on the "
                             "machine), each one core's worth")
    args = parser.parse_args()
    if args.plugins is None:
        args.plugins = 'hierarchical{"inter": "ring"}' if args.bed else "shm"
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        if args.bed:
            subprocess.run([TESTBED, "up", "-k", str(BED_HOSTS), "--rate", args.bed], check=True)
        measure(args)
    finally:
        for process in load:
            process.kill()
        if args.bed:
            subprocess.run([TESTBED, "down"], check=False)


def measure(args):
    results = {}
    jobs = [(model, strategy) for strategy in args.strategies.split(",")
            for model in args.models.split(",") if strategy == "ddp" or model == "transformer"]
    for model, strategy in jobs:
        for plugin in split_plugins(args.plugins):
            gloo, harness = [], []
            for _ in range(args.rounds):  # alternating, so drifts of the machine hit both
                gloo_run = (run("gloo", None, model, strategy, args) if args.baseline == "gloo"
                            else run("harness", args.baseline, model, strategy, args))
                gloo.append(gloo_run["step_s"])
                measured = run("harness", plugin, model, strategy, args)
                harness.append(measured["step_s"])
            ratio, low, high = stats.ratio_interval_of_runs(gloo, harness)
            medians = lambda runs: [stats.median(r) for r in runs]  # noqa: E731
            results[f"{model}/{strategy}/{plugin}"] = {
                "torch": gloo_run["torch"], "parameters": measured["parameters"],
                "gloo_shared_memory": gloo_run["shared_memory"],
                "harness_shared_memory": measured["shared_memory"], "gloo_step_s": gloo,
                "harness_step_s": harness, "ratio": [ratio, low, high]}
            shm = ("" if args.baseline != "gloo" else
                   "; gloo mapped shared memory (" + ", ".join(gloo_run["shared_memory"]) + ")"
                   if gloo_run["shared_memory"] else
                   "; gloo mapped no shared memory: its allreduce went over TCP")
            base = "gloo" if args.baseline == "gloo" else f"harness:{args.baseline}"
            count = measured["parameters"]
            size = f"{count / 1e6:.2f} M" if count >= 1e5 else f"{count:,}"
            where = (f"{BED_HOSTS} bed hosts x {args.world} ranks, links {args.bed}" if args.bed
                     else f"world {args.world}")
            print(f"torch {gloo_run['torch']}, {model} ({size} parameters), {strategy}, "
                  f"{args.load} busy process(es) beside, {where}, "
                  f"batch {batch_of(model, args)}/rank: "
                  f"median step {base} {stats.median(medians(gloo)) * 1e3:.1f} ms, harness:{plugin} "
                  f"{stats.median(medians(harness)) * 1e3:.1f} ms; {base} / harness x{ratio:.2f} "
                  f"[{low:.2f}, {high:.2f}] over {args.rounds} alternating rounds{shm}",
                  flush=True)
    if args.json:
        json.dump({"settings": vars(args), "results": results}, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
