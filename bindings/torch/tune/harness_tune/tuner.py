"""Tune a user's own PyTorch DDP job (docs/tune.md):

    scripts/tune [options] -- python3 -m torch.distributed.run --nproc_per_node 2 train.py ...

1. capture: the job runs a bounded number of steps with a recorder injected from outside
   (job.json: its steps, gradient-ready moments and buckets);
2. replay: the captured step replayed by the harness's replay trials (mpirun at the job's world
   size) over backend x bucket_cap_mb, then the fastest of those with DDP's compression hooks
   (replay/); the job's own configuration must be predicted within the fidelity bound, or no
   plan is given;
3. plan: the shortest predicted step that clears the noise against the job's own (plan.json);
4. verify: the job run with its defaults and with the plan, interleaved (verify.json): the
   measured ratio beside the predicted one, the plan withdrawn when it is not faster beyond the
   noise or, with compression, when its losses leave the noise;
5. with --rank-check N: the job run with the N configurations predicted fastest too, and their
   measured order against the predicted one (ranking.json).
The Answer is printed and written as answer.md in the results folder."""
import argparse
import json
import math
import os
import signal
import sys

from harness_analysis import stats

from . import job_file, ranking, step_time
from .folder import KEPT, ResultsFolder
from .launch import JobError, check_world, kept_files, run_harness, run_job

FIDELITY = 0.10  # the replay of the job's own configuration, against its measured step time
# Plans verified in the job that measured no faster before the tuner gives up: each costs
# 2 x --rounds runs of the job.
MAX_SLOWER_PLANS = 2


def gain(interval):
    """A ratio with its interval, as the Answer prints it: ×1.25 [1.18, 1.33]."""
    ratio, low, high = interval
    return f"×{ratio:.2f} [{low:.2f}, {high:.2f}]"


def step_times(runs):
    """Each run's step times (seconds), from the runs' recorded steps."""
    return [[step["step_s"] for step in run] for run in runs]


def describe(config):
    parts = [f"backend {config['backend']}", f"bucket_cap_mb {config['bucket_cap_mb']:g}"]
    if config["compression"] != "none":
        parts.append(f"{config['compression']} compression")
    return ", ".join(parts)


def replay_backend(backend):
    """The harness plugin that replays a job's backend: PyTorch's gloo is its own process group,
    ProcessGroupGloo, which the torch_gloo plugin runs; harness:<plugin> is that plugin."""
    return backend.split(":", 1)[1] if backend.startswith("harness:") else "torch_gloo"


def replay_join(backend):
    """How the replay joins the plugin: a harness plugin as the harness process group joins it
    inside PyTorch, through the group's bootstrap alone (no MPI there: ring's links are TCP);
    PyTorch's gloo (torch_gloo) through MPI, which only meets its ranks."""
    return "bootstrap" if backend.startswith("harness:") else "mpi"


def script_lines(config):
    lines = []
    if config["backend"].startswith("harness:"):
        lines += ["import harness_torch  # build/python on PYTHONPATH",
                  f"# run with HARNESS_BACKEND={config['backend'].split(':', 1)[1]}",
                  'dist.init_process_group("harness")']
    else:
        lines += ['dist.init_process_group("gloo")']
    lines.append(f"model = DDP(model, bucket_cap_mb={config['bucket_cap_mb']:g})")
    if config["compression"] != "none":
        lines += ["from torch.distributed.algorithms.ddp_comm_hooks import default_hooks",
                  f"model.register_comm_hook(None, default_hooks.{config['compression']}_compress_hook)"]
    return lines


def losses_hold(defaults, planned):
    """A compressed plan's mean loss over the recorded steps, against the defaults' run-to-
    run spread (at least 0.1% of it: a deterministic job repeats its losses exactly). Every
    run is cut to the steps all runs recorded: a faster run records more steps in its
    minimum time, and later steps have lower losses."""
    if any(s["loss"] is None for run in defaults + planned for s in run):
        return True, "the job's losses were not seen (backward on a non-scalar)"
    common = min(len(run) for run in defaults + planned)
    mean = lambda run: sum(s["loss"] for s in run[:common]) / common  # noqa: E731
    base = [mean(run) for run in defaults]
    spread = max(max(base) - min(base), 1e-3 * abs(stats.median(base)))
    moved = abs(stats.median([mean(run) for run in planned]) - stats.median(base))
    return moved <= spread, (f"mean loss over the recorded steps {stats.median([mean(r) for r in planned]):.6g} "
                             f"with the plan, {stats.median(base):.6g} without (noise {spread:.2g})")


def fidelity_failure(ratio, low, high):
    """Whether the replay may be trusted, as a sentence for the Answer when it may not: its
    point estimate of the job's own step must lie within ±FIDELITY of the measured one. An
    interval that merely reaches the band is not enough: ×1.37 [0.96, 1.55] is 37% off."""
    if abs(ratio - 1) <= FIDELITY:
        return None
    return (f"No plan: the replay predicts the job's own step {gain((ratio, low, high))} "
            f"its measured time, beyond ±{FIDELITY:.0%}, so its other "
            "predictions cannot be trusted on this machine now. Keep PyTorch's defaults.")


def prediction_missed(predicted, measured):
    """A sentence when the measured gain lies outside the predicted interval and the predicted
    gain outside the measured one: the two disagree beyond both their noises."""
    if ranking.overlap(predicted, measured):
        return ""
    (p, p_low, _), (m, _, m_high) = predicted, measured
    direction = "over" if m_high < p_low else "under"
    return (f"The replay {direction}-predicted this plan: measured {gain(measured)} lies outside "
            f"the predicted {gain(predicted)} (predicted / measured ×{p / m:.2f}).")


def check_applied(plan, applied):
    """A plan's run measures the plan only if the job took it: a job that names its backend in
    a way the recorder cannot switch, or forces its own cap, ran something else."""
    wanted = {"backend": "harness" if plan["backend"].startswith("harness:") else "gloo",
              "bucket_cap_mb": plan["bucket_cap_mb"], "compression": plan["compression"]}
    differ = [f"{name} {applied[name]!r} where the plan has {wanted[name]!r}" for name in wanted
              if (abs(applied[name] - wanted[name]) > 1e-9 if name == "bucket_cap_mb"
                  else applied[name] != wanted[name])]
    if differ:
        raise JobError(f"the job did not take the plan ({describe(plan)}): it ran with "
                       f"{'; '.join(differ)}. No measurement of it is reported. A backend the "
                       "recorder switches is the one init_process_group gives CPU tensors to gloo "
                       "(\"gloo\" in any case, cpu:gloo, or none)")


class Tuner:
    def __init__(self, args, command):
        self.args, self.command = args, command
        results = ResultsFolder(args.results_dir)
        self.folder, self.path = results.folder, results.path
        self.lines = []
        self.replayed_gloo = ""  # the torch_gloo the replay ran: which PyTorch's ProcessGroupGloo

    def say(self, text=""):
        print(text, flush=True)
        self.lines.append(text)

    def plugins(self):
        built = os.path.exists(os.path.join(self.args.python_path, "harness_torch", "__init__.py"))
        return [p for p in self.args.plugins.split(",") if p] if built else []

    # --- 2. replay --------------------------------------------------------------------------
    def replay_experiment(self, job, configs, name, warmup, steps, seconds=0.0):
        """An experiment of the harness's: one replay part per configuration, interleaved, each
        replaying at least `steps` steps and `seconds` seconds of them."""
        parts = [{"name": f"config{index}", "kind": "replay",
                  "settings": {"job": self.path("job.json"), "world_size": job["world_size"],
                               "backend": replay_backend(config["backend"]),
                               "join": replay_join(config["backend"]),
                               "bucket_cap_mb": config["bucket_cap_mb"],
                               "compression": config["compression"], "warmup_steps": warmup,
                               "min_steps": steps, "min_time_s": seconds, "quiet_wait_s": 0}}
                 for index, config in enumerate(configs)]
        path = self.path(name + "_experiment.json")
        with open(path, "w") as stream:
            json.dump({"name": name, "description": "scripts/tune's replay of job.json: each "
                       "part one configuration (backend, bucket_cap_mb, compression)",
                       "order": "interleaved", "parts": parts}, stream, indent=1)
        return path

    def replay(self, job, configs, name, before_round=None):
        """Each configuration's replayed step times (seconds): one launch of the harness per
        round (a process's start can settle how fast its collectives are for its whole life,
        and a job is measured over several starts too), configurations interleaved within
        each; `before_round` runs before each round (a run of the job itself, so that the two
        meet the machine in the same moods)."""
        experiment = self.replay_experiment(job, configs, name, 2, self.args.replay_steps,
                                            self.args.replay_seconds)
        results = [{"config": config, "runs": []} for config in configs]
        for round_index in range(self.args.rounds):
            if before_round:
                before_round()
            records = run_harness(self.args.harness, job["world_size"], experiment,
                                  self.path(os.path.join("replay", f"{name}_round{round_index}")))
            for record in records:
                if record["backend"]["name"] == "torch_gloo":
                    self.replayed_gloo = record["backend"]["algorithm"]
                index = int(record["part"][len("config"):])
                results[index]["runs"].append([t / 1e3 for t in record["step_times_ms"]])
        return results

    def layouts(self, job, caps):
        """The buckets the job's gradients make at each cap (a replay trial's record of them):
        caps that bucket the job alike are one configuration."""
        configs = [{"backend": "gloo", "bucket_cap_mb": cap, "compression": "none"} for cap in caps]
        experiment = self.replay_experiment(job, configs, "layouts", 0, 1)
        records = run_harness(self.args.harness, job["world_size"], experiment,
                              self.path(os.path.join("replay", "layouts")))
        by_part = {r["part"]: tuple(r["buckets"]["bytes"]) for r in records}
        return {cap: by_part[f"config{index}"] for index, cap in enumerate(caps)}

    def run_once(self, mode, plan=None):
        """One run of the user's job with the recorder: job.json (capture) or run.json (run)."""
        a = self.args
        out = self.path("job.json" if mode == "capture" else "run.json")
        return run_job(self.command, mode, out, a.python_path, a.steps, a.warmup, plan=plan,
                       timeout=a.job_timeout, keep=self.path(KEPT))

    def announce_runs(self):
        """Before the first run: what running the job many times means for its files."""
        a = self.args
        ranking_runs = (1 + a.rank_check) * a.rounds if a.rank_check else 0
        ranked = f", up to {ranking_runs} to check the ranking" if ranking_runs else ""
        self.say(f"Your job will run at least {1 + 3 * a.rounds + ranking_runs} times (one "
                 f"capture, {a.rounds} between the replay rounds, {2 * a.rounds} to verify a plan, "
                 f"more when a plan is withdrawn{ranked}), each stopped after {a.warmup} + "
                 f"{a.steps} or more steps. Files it "
                 "writes are copied before its first write and put back when tuning ends; files "
                 f"it creates are moved to {self.path('job_files')}.")

    def put_files_back(self):
        """The user's files as they were; the job's own, moved into the results folder."""
        restored, moved = kept_files.restore(self.path(KEPT), self.path("job_files"))
        if restored:
            self.say(f"Put back as they were before tuning: {', '.join(restored)}")
        if moved:
            self.say(f"Files your job created while tuned, moved to {self.path('job_files')}: "
                     f"{', '.join(path for path, _ in moved)}")

    def check_taken(self, plan_path, applied):
        """check_applied, with plan.json marked withdrawn first when the job did not take it."""
        plan = job_file.read_plan(plan_path)
        try:
            check_applied(plan, applied)
        except JobError:
            plan["withdrawn"] = "the job did not take it"
            self.save_plan(plan)
            raise

    def run_defaults(self):
        """One run of the job as it is, unrecorded but for its step times: its steps."""
        return [s["step_s"] for s in self.run_once("run")["steps"]]

    def predict(self, job, measured_runs):
        own = {"backend": job["backend"], "bucket_cap_mb": job["bucket_cap_mb"], "compression": "none"}
        # The job's own cap first: of caps that bucket the job alike, the plan keeps the job's.
        caps = [job["bucket_cap_mb"]] + sorted({float(c) for c in self.args.caps.split(",")} - {job["bucket_cap_mb"]})
        backends = ["gloo"] + [f"harness:{p}" for p in self.plugins()]
        layout = self.layouts(job, caps)
        first, seen = [own], {(own["backend"], layout[own["bucket_cap_mb"]])}
        for backend in backends:
            for cap in caps:  # caps that bucket the job alike are one configuration
                if (backend, layout[cap]) not in seen:
                    seen.add((backend, layout[cap]))
                    first.append({"backend": backend, "bucket_cap_mb": cap, "compression": "none"})
        results = self.replay(job, first, "replay",
                              before_round=lambda: measured_runs.append(self.run_defaults()))
        best = min(results, key=lambda r: step_time.typical(r["runs"]))["config"]
        # DDP's bf16 hook is refused without CUDA and NCCL (torch 1.13), and CPU jobs have neither.
        hooks = ["fp16"]
        if self.args.compression:
            # Beside the job's own configuration again (and the best, where that is another),
            # so that the compressed ones are measured in the same rounds as what they compete with.
            base = [own] if best == own else [own, best]
            second = base + [dict(best, compression=hook) for hook in hooks]
            results += self.replay(job, second, "replay_compression")[len(base):]
        return own, results

    # --- 4. verify --------------------------------------------------------------------------
    def interleaved_runs(self, plans, check):
        """The job run with its defaults and then with each plan file of `plans`, --rounds
        times: the defaults' runs and each plan's (each run's steps). `check(index, applied)`
        refuses a run that did not take its plan."""
        defaults, planned = [], [[] for _ in plans]
        for _ in range(self.args.rounds):
            defaults.append(self.run_once("run")["steps"])
            for index, plan in enumerate(plans):
                run = self.run_once("run", plan=plan)
                check(index, run["applied"])
                planned[index].append(run["steps"])
        return defaults, planned

    def verify(self, plan_path):
        defaults, [planned] = self.interleaved_runs(
            [plan_path], lambda _, applied: self.check_taken(plan_path, applied))
        with open(self.path("verify.json"), "w") as stream:
            json.dump({"defaults": defaults, "plan": planned}, stream, indent=1)
        return defaults, planned

    def candidates(self, own, results):
        """The plans to verify, in turn: the configurations predicted faster than the job's own
        beyond the noise, fastest first, with the fastest configuration of all second where it
        is not among them (predicted faster by more than the replay's own error, FIDELITY, but a
        round or two of the replay widened its interval to reach 1), so that it is measured in
        the job before the defaults are kept. Where nothing is predicted faster beyond the
        noise, nothing is verified."""
        own_runs, beyond, fastest = results[0]["runs"], [], None
        for r in results[1:]:
            if r["config"] == own:
                continue
            predicted = step_time.ratio(own_runs, r["runs"])
            entry = (step_time.typical(r["runs"]), r["config"], predicted)
            if predicted[1] > 1:
                beyond.append(entry)
            elif predicted[0] > 1 + FIDELITY and r["config"]["compression"] == "none" and (
                    fastest is None or entry[0] < fastest[0]):
                fastest = entry
        ranked = sorted(beyond, key=lambda i: i[0])
        if fastest and ranked and fastest[0] < ranked[0][0]:
            ranked.insert(1, fastest)
        return [(config, predicted) for _, config, predicted in ranked]

    def fidelity(self, own_runs, measured_runs):
        """The replay of the job's own configuration against every unrecorded run of the job with
        its defaults (all kept in defaults.json): predicted / measured with its interval.
        Returns the failure (fidelity_failure), or None."""
        with open(self.path("defaults.json"), "w") as stream:
            json.dump({"runs_step_s": measured_runs}, stream, indent=1)
        ratio, low, high = step_time.ratio(own_runs, measured_runs)
        self.say(f"Replay of the job's own configuration: "
                 f"{step_time.typical(own_runs) * 1e3:.1f} ms, "
                 f"{gain((ratio, low, high))} the job's measured "
                 f"{step_time.typical(measured_runs) * 1e3:.1f} ms ({len(measured_runs)} runs, defaults.json)")
        return fidelity_failure(ratio, low, high)

    def save_plan(self, plan):
        job_file.write_plan(self.path("plan.json"), plan)

    def try_plans(self, candidates, measured_runs):
        """Verifies each candidate in turn; returns (verdict, lines) for the first that holds.
        After MAX_SLOWER_PLANS that measured no faster, the defaults are kept."""
        slower = []  # (config, claim) of each plan not faster beyond the noise in the job
        for config, predicted in candidates:
            if len(slower) == MAX_SLOWER_PLANS:
                break
            plan = dict(config, predicted_ratio=list(predicted))
            self.save_plan(plan)
            defaults, planned = self.verify(self.path("plan.json"))
            measured_runs += step_times(defaults)
            ratio, low, high = step_time.ratio(step_times(defaults), step_times(planned))
            plan["measured_ratio"] = [ratio, low, high]
            claim = f"predicted {gain(predicted)}, measured in your job {gain((ratio, low, high))}"
            disagreement = prediction_missed(predicted, (ratio, low, high))
            if disagreement:
                self.say(disagreement)
            if config["compression"] != "none":
                holds, account = losses_hold(defaults, planned)
                self.say(f"Losses with {describe(config)}: {account}")
                if not holds:
                    plan["withdrawn"] = "its losses moved beyond the noise"
                    self.save_plan(plan)
                    self.say(f"Withdrawn: {describe(config)} ({claim}) moves the job's losses beyond the noise.")
                    continue
            if low <= 1:
                plan["withdrawn"] = "not faster beyond the noise in the job"
                self.save_plan(plan)
                self.say(f"Withdrawn: {describe(config)} ({claim}) is not faster beyond the noise in your job.")
                slower.append((config, claim))
                continue
            self.save_plan(plan)
            return f"Use {describe(config)}: {claim}.", script_lines(config)
        if len(slower) == 1:
            config, claim = slower[0]
            return (f"Keep PyTorch's defaults: the best plan, {describe(config)}, was {claim}: "
                    "not faster beyond the noise in your job.", ())
        if slower:
            return (f"Keep PyTorch's defaults: none of the {len(slower)} plans tried was faster "
                    "beyond the noise in your job (" +
                    "; ".join(f"{describe(config)}: {claim}" for config, claim in slower) + ").", ())
        return ("Keep PyTorch's defaults: every faster configuration compresses gradients, and "
                "each moved the job's losses beyond the noise.", ())

    # --- 5. ranking ---------------------------------------------------------------------------
    def check_ranking(self, results):
        """--rank-check N: the job run with its defaults and with each of the N configurations
        predicted fastest (compression left out: its losses are not checked here), interleaved
        over --rounds; their measured gains beside the predicted ones, and whether the job
        orders them as the replay did (ranking.json). A run that fails ends the check, not the
        tuning."""
        own = results[0]
        others = sorted((r for r in results[1:]
                         if r["config"] != own["config"] and r["config"]["compression"] == "none"),
                        key=lambda r: step_time.typical(r["runs"]))[:self.args.rank_check]
        if not others:
            self.say("Ranking check: no other configuration to rank beside the job's own.")
            return
        plans = []
        for index, r in enumerate(others):
            path = self.path(os.path.join("ranking", f"plan{index}.json"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            job_file.write_plan(path, r["config"])
            plans.append(path)
        try:
            defaults, planned = self.interleaved_runs(
                plans, lambda index, applied: check_applied(others[index]["config"], applied))
        except JobError as error:
            self.say(f"Ranking check stopped, nothing of it reported: {error}")
            return
        runs = [step_times(defaults)] + [step_times(p) for p in planned]
        same = (1.0, 1.0, 1.0)  # the job's own configuration against itself
        predicted = [same] + [step_time.ratio(own["runs"], r["runs"]) for r in others]
        measured = [same] + [step_time.ratio(runs[0], r) for r in runs[1:]]
        self.say(f"Ranking check: the job run {self.args.rounds} times with its defaults and with "
                 f"each of the {len(others)} configurations predicted fastest (ranking.json):")
        for r, p, m in zip(others, predicted[1:], measured[1:]):
            self.say(f"  predicted {gain(p)}  measured {gain(m)}  {describe(r['config'])}")
        tau, alike, otherwise, within_noise = ranking.order_agreement(predicted, measured, runs)
        error = ranking.mean_error(predicted[1:], measured[1:])
        self.say(ranking.summary(len(predicted), tau, alike, otherwise, within_noise, error))
        with open(self.path("ranking.json"), "w") as stream:
            json.dump({"configurations": [dict(r["config"], predicted_ratio=list(p), measured_ratio=list(m),
                                               runs_step_s=c)
                                          for r, p, m, c in zip(others, predicted[1:], measured[1:], runs[1:])],
                       "defaults_runs_step_s": runs[0], "kendall_tau": tau, "pairs_alike": alike,
                       "pairs_otherwise": otherwise, "pairs_otherwise_within_noise": within_noise,
                       "mean_abs_error": error}, stream, indent=1)

    def run(self):
        a = self.args
        self.say(f"Tuning: {' '.join(self.command)}")
        self.say(f"Results: {self.folder}")
        self.announce_runs()
        job = self.run_once("capture")
        measured = [s["step_s"] for s in job["steps"]]
        self.say(f"Captured {len(measured)} steps at world {job['world_size']} on {job['backend']}: "
                 f"mean step {stats.mean(measured) * 1e3:.1f} ms, {job['parameter_count'] / 1e6:.2f} M "
                 f"parameters, bucket_cap_mb {job['bucket_cap_mb']:g}")
        if job["backend"] != "gloo":
            raise JobError(f"the job's process group runs on {job['backend']}: tuning starts from "
                           "PyTorch's gloo, the backend the replay compares every other one with")
        if job["comm_hook"]:
            self.say(f"The job registers its own comm hook ({job['comm_hook']}): plans keep it and use no compression.")
            a.compression = False
        # The job's own step time, for the replay's fidelity: runs without the recorder (whose
        # hooks cost time of their own), alternating with the replay's rounds, and later the
        # verification's runs of the defaults.
        measured_runs = []
        own, results = self.predict(job, measured_runs)
        for r in sorted(results, key=lambda r: step_time.typical(r["runs"])):
            self.say(f"  predicted {step_time.typical(r['runs']) * 1e3:8.1f} ms  {describe(r['config'])}")
        if self.replayed_gloo:
            self.say(f"The job's gloo replayed on {self.replayed_gloo} (--harness picks another "
                     "build: docs/tune.md)")
        candidates = self.candidates(own, results)
        verdict = self.try_plans(candidates, measured_runs) if candidates else (
            "Keep PyTorch's defaults: no configuration was predicted faster than the job's own "
            "beyond the noise.", ())
        # Judged on every run of the job's defaults, the verification's too: one run of a
        # short-stepped job can differ from the next by more than the bound.
        failure = self.fidelity(results[0]["runs"], measured_runs)
        if failure and os.path.exists(self.path("plan.json")):
            plan = job_file.read_plan(self.path("plan.json"))
            plan["withdrawn"] = "the replay did not predict the job's own step time"
            self.save_plan(plan)
        if a.rank_check:
            self.check_ranking(results)
        return self.answer(failure, ()) if failure else self.answer(*verdict)

    def answer(self, verdict, lines=()):
        self.say()
        self.say(f"Answer: {verdict}")
        if lines:
            self.say("In your script:")
            for line in lines:
                self.say(f"    {line}")
        with open(self.path("answer.md"), "w") as stream:
            stream.write("\n".join(self.lines) + "\n")
        return 0


def number_from(least, kind=int, what="a whole number", most=math.inf):
    """An argparse type: a number of `kind` from `least` to `most`, or a clear refusal."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text} is below {least:g}")
        if not value <= most or value == math.inf:
            raise argparse.ArgumentTypeError(f"{text}: expected {what} from {least:g} to {most:g}")
        return value
    return parse


def counting(least):
    return number_from(least)


# A replay round of the harness is stopped after 1800 s (launch.run_harness): a few minutes a
# configuration leaves it room for a dozen of them.
replay_seconds = number_from(0, float, "a number of seconds", most=600)


def caps_list(text):
    """--caps: bucket_cap_mb values above 0, comma-separated; kept as the text the tuner reads."""
    parts = [part.strip() for part in text.split(",")]
    try:
        values = [float(part) for part in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected numbers of MB, comma-separated "
                                         "(1,4,10,25,50)") from None
    if not values or any(not value > 0 for value in values):
        raise argparse.ArgumentTypeError(f"{text!r}: every cap must be above 0 MB")
    return ",".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python-path", required=True, help="the folder holding harness_torch")
    parser.add_argument("--harness", required=True, help="the harness binary (build/harness)")
    parser.add_argument("--results-dir", help="default: results/tune/<time> under this directory")
    parser.add_argument("--steps", type=counting(1), default=20, help="steps recorded per run of the job")
    parser.add_argument("--warmup", type=counting(0), default=3, help="steps run before recording")
    parser.add_argument("--rounds", type=counting(1), default=3, help="interleaved rounds of replay and verify")
    parser.add_argument("--replay-steps", type=counting(1), default=6, help="replayed steps per configuration and round")
    parser.add_argument("--replay-seconds", type=replay_seconds, default=1.0,
                        help="and at least this long (a job of a few ms a step needs hundreds of "
                        "steps to show how often PyTorch's slow calls come)")
    parser.add_argument("--caps", type=caps_list, default="1,4,10,25,50",
                        help="bucket_cap_mb values replayed (and the job's own)")
    parser.add_argument("--plugins", default="shm,ring", help="harness plugins replayed beside gloo")
    parser.add_argument("--job-timeout", type=counting(1), default=1800,
                        help="seconds one run of the job may take before it is stopped, every "
                             "process it started with it")
    parser.add_argument("--no-compression", dest="compression", action="store_false")
    parser.add_argument("--rank-check", type=counting(0), default=0, metavar="N",
                        help="also run the job with the N configurations predicted fastest and "
                             "compare their measured order with the predicted one")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the job's launch command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the job's launch command after --")
    try:
        check_world(command)
        tuner = Tuner(args, command)
    except JobError as error:
        print(f"scripts/tune: {error}", file=sys.stderr)
        return 2
    # Stopped from outside (SIGTERM, as Ctrl-C is): the user's files are still put back.
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    try:
        return tuner.run()
    except JobError as error:
        print(f"scripts/tune: {error}", file=sys.stderr)
        return 2
    finally:
        tuner.put_files_back()


if __name__ == "__main__":
    sys.exit(main())
