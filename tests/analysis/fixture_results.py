"""A results folder built to known answers, for the report's golden test and the Answer's
unit tests. World size 2, allreduce over mpi, ring and gloo:ring, 4 B to 64 MB:
  - small (4 B-4 KB): mpi fastest at every size, outside the noise over both others;
  - medium (16 KB-1 MB): split: mpi wins 16 KB and 64 KB, ring wins 256 KB and 1 MB;
  - large (4 MB-64 MB): mpi and ring within noise of each other, both far above gloo:ring.
World size 4 runs 4 ranks on one 2-core host: oversubscribed, never ranked.
Training, autoencoder batch 32 (and batch 256, which does not train: AUROC near 0.5), world
sizes 1 and 2: at world 2 mpi is x1.11 over gloo:ring and within noise of ring; gloo:ring's
trials are inconsistent. mpi's and ring's call times follow alpha + n beta exactly (a good
fit); gloo:ring's jump by x3 between neighbouring sizes (a poor fit)."""
import csv
import json
import os

SIZES = [4 << (2 * i) for i in range(13)]  # 4 B ... 64 MB
HOST = "node-a"


def busbw_gbps(size, seconds, world):
    return size / seconds * 2 * (world - 1) / world / 1e9


def call_time_s(backend, size, world):
    if backend == "gloo:ring":
        return (40e-6 + size / 0.4e9) * (3.0 if SIZES.index(size) % 2 else 1.0) * (world - 1)
    alpha, link = {"mpi": (2e-6, 4e9), "ring": (5e-6, 4e9)}[backend]
    if backend == "ring" and size in (256 << 10, 1 << 20):  # ring wins these two sizes
        alpha, link = 1e-6, 8e9
    if backend == "mpi" and size in (256 << 10, 1 << 20):
        link = 2e9
    return (alpha + size / link) * (world - 1)


def band(backend, size):
    """The relative half-width of a point's interval: mpi and ring overlap at 4 MB and up."""
    return 0.3 if size >= 4 << 20 and backend in ("mpi", "ring") else 0.02


def settings(backend, world, extra):
    name, _, algorithm = backend.partition(":")
    return dict({"world_size": world, "backend": name,
                 "backend_params": {"algorithm": algorithm} if algorithm else {}}, **extra)


def collective_record(index, backend, world):
    points = []
    for size in SIZES:
        seconds = call_time_s(backend, size, world)
        bw = busbw_gbps(size, seconds, world)
        points.append({"bytes": size, "time_us": seconds * 1e6, "busbw_gbps": bw, "algbw_gbps": bw,
                       "busbw_ci_low_gbps": bw, "busbw_ci_high_gbps": bw, "wrong": 0, "timing": "loop"})
    return {"kind": "collective", "part": "allreduce", "key": f"c{index}", "point": f"allreduce {backend} {world}",
            "index": index, "repetition": 0, "world_size": world, "status": "ok", "reason": "",
            "axes": {"world_size": world, "backend": backend},
            "settings": settings(backend, world, {"dtype": "fp32", "op": "sum"}), "points": points}


TRAINING = {  # (backend, world, batch): samples/s
    ("mpi", 1, 32): 200e3, ("ring", 1, 32): 199e3, ("gloo:ring", 1, 32): 198e3,
    ("mpi", 2, 32): 400e3, ("ring", 2, 32): 395e3, ("gloo:ring", 2, 32): 360e3,
    ("mpi", 2, 256): 900e3, ("ring", 2, 256): 600e3, ("gloo:ring", 2, 256): 450e3,
}


def training_record(index, backend, world, batch, rate):
    status = "inconsistent" if backend == "gloo:ring" and world > 1 else "ok"
    auroc = 0.97 if batch == 32 else 0.55
    return {"kind": "train", "part": "training", "key": f"t{index}", "point": f"train {backend} {world} {batch}",
            "index": index, "repetition": 0, "world_size": world, "status": status,
            "reason": "parameters differ between ranks after training" if status == "inconsistent" else "",
            "axes": {"world_size": world, "backend": backend, "batch_size": batch},
            "settings": settings(backend, world, {"model": "autoencoder", "model_params": {}, "batch_size": batch,
                                                  "epochs": 2, "dataset": {"kind": "synthetic"}, "lr_rule": "none",
                                                  "lr_warmup_epochs": 0,
                                                  "optimizer": {"name": "adam", "lr": 0.001}}),
            "throughput": {"samples_per_s": rate, "samples_per_s_ci95": [rate * 0.99, rate * 1.01],
                           "samples_per_s_wall": rate * 0.93},
            "step_time_ms": {"total": batch * world / rate * 1e3, "compute": 0.1, "comm": 0.05,
                             "exposed_comm": 0.05, "optimizer": 0.05},
            "bytes_reduced_per_step": 2016,
            "loss": {"final": 0.04 if batch == 32 else 0.9, "per_epoch": [0.5, 0.04], "per_step": [0.5, 0.2, 0.04]},
            "detection": {"auroc": auroc}}


def aggregate_rows(records):
    rows = []
    for r in records:
        backend = r["axes"]["backend"]
        if r["kind"] == "collective":
            for p in r["points"]:
                half = band(backend, p["bytes"])
                rows.append((r, "busbw_gbps", p["bytes"], p["busbw_gbps"], half))
        else:
            rate = r["throughput"]["samples_per_s"]
            rows.append((r, "samples_per_s", 0, rate, 0.012))
    for r, figure, size, value, half in rows:
        yield {"part": r["part"], "point": r["point"], "kind": r["kind"], "world_size": r["world_size"],
               "backend": r["settings"]["backend"], "algorithm": "", "axes": json.dumps(r["axes"]),
               "figure": figure, "bytes": size, "n": 3, "median": value, "min": value * (1 - half),
               "max": value * (1 + half), "ci_low": value * (1 - half), "ci_high": value * (1 + half),
               "ci_coverage": 0.75, "estimator": "median", "estimate": value,
               "estimate_low": value * (1 - half), "estimate_high": value * (1 + half)}


def meta():
    return {"schema_version": 1, "host": HOST, "git_sha": "0123456789abcdef0123", "git_dirty": False,
            "experiment": {"name": "known_answers", "description": "Built to known answers.", "repetitions": 3},
            "cpu": {"model": "Test CPU", "count": 2}, "mpi": {"library": "Open MPI v4.1.4"},
            "versions": {"libtorch": "1.13.1", "gloo": "0.5.0"},
            "binding": {"ranks": [{"rank": r, "host": HOST, "local_rank": r, "cpus": "0-1"} for r in range(4)]},
            "estimator": {"name": "median", "k": 3},
            "oversubscribed": {"rule": "measure", "world_sizes": [4],
                               "reason": "4 ranks would share 2 CPU(s) on a host"}}


def records():
    out = []
    for world in (2, 4):
        for backend in ("mpi", "ring", "gloo:ring"):
            out.append(collective_record(len(out), backend, world))
    for (backend, world, batch), rate in TRAINING.items():
        out.append(training_record(len(out), backend, world, batch, rate))
    out.append({"kind": "collective", "part": "allreduce", "key": "nccl", "index": len(out), "repetition": 0,
                "world_size": 2, "status": "skipped", "reason": "rank 0: no usable CUDA device",
                "axes": {"world_size": 2, "backend": "nccl"},
                "settings": settings("nccl", 2, {"dtype": "fp32", "op": "sum"})})
    return out


def write(folder):
    os.makedirs(folder, exist_ok=True)
    recs = records()
    with open(os.path.join(folder, "trials.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in recs)
    with open(os.path.join(folder, "meta.json"), "w") as f:
        json.dump(meta(), f, indent=1)
    rows = list(aggregate_rows([r for r in recs if r["status"] != "skipped"]))
    with open(os.path.join(folder, "aggregates.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return folder
