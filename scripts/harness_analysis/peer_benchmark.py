"""Peer benchmark: a model trained with PyTorch DDP (gloo, torch.multiprocessing.spawn) and
with harness, same model shape and data, one thread per rank, timed the same way on both
sides; prints both and their ratios over alternating runs.

    scripts/peer_benchmark [--model autoencoder|transformer|FILE.pt] [--size small|large]
                           [--backend mpi] [--world 2] [--batch 32] [--epochs 3] [--rows 40000]
                           [--repeats 3] [--device cpu|cuda] [--harness PATH] [--json FILE]

--model autoencoder (default): the 20-10-3-10-20 autoencoder of the Horovod tutorial, on the
same CSV data.
--model FILE: a TorchScript file, the very same one on both sides: torch.jit.load in PyTorch,
the torchscript plugin in the harness. Its input shape comes from the harness.json that
scripts/export_model.py writes into the file, else from --features (and --window for a
sequence model); a tabular model trains on the same CSV data, a sequence model on windows of
the harness's shape and count. Fusion and overlap as DDP's defaults (25 MiB, overlapped).
--model transformer: the harness's Transformer autoencoder rebuilt in PyTorch; --size small
(default): d_model 128, 4 heads, 1+1 layers, feedforward 512 (~1.6 MB of gradients) on
windows of 16 x 4; --size large: d_model 512, 8 heads, 3+3 layers, feedforward 2048 (~19 M
parameters) on windows of 64 x 16, enough to keep a GPU busy. DDP runs as it does by default
(25 MB buckets, allreduce overlapped with backward) and so does the harness (fusion_bytes
25 MiB, overlap: true). The timed work does not depend on the values, so PyTorch trains on
random windows of the harness's shape and count.

--device cuda: both sides on the GPU at world 1 (NCCL cannot put two ranks on one GPU): the
harness through --backend (nccl) and PyTorch eager (no process group: nothing to reduce),
each step synchronised before its time is read. --harness: the binary (default
build/harness); --json: the runs and ratios as JSON too.

Two figures, each computed alike for both sides (samples summed over ranks):
  wall-clock   steps x batch x world over the wall time of all training epochs (the harness's
               train_time_s; DDP's from its first step to its last);
  median step  batch x world over the median step time, a step's time being the slowest
               rank's (the harness's timing phase; DDP's training steps after the first 5).
Each is the median of --repeats alternating runs, with the range of the runs; the ratio's
range pairs the runs of the same round. Needs Debian's python3-torch (scripts/setup --peer).
"""
import argparse, functools, json, os, subprocess, sys, tempfile, time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

from .paths import HARNESS
from . import units
from .results import exit_on_error, load_or_exit

WARMUP = 5


class AutoEncoder(nn.Module):  # the Horovod tutorial's model, layer for layer
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(20, 10), nn.ReLU(), nn.Linear(10, 3))
        self.decoder = nn.Sequential(nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 20))

    def forward(self, x):
        return self.decoder(self.encoder(x))


# Per size: the model's parameters and the synthetic series it reads (stride 4 gives the
# harness's window count).
SIZES = {
    "small": {"model": {"d_model": 128, "heads": 4, "layers": 1, "feedforward": 512, "latent_size": 8},
              "window": 16, "features": 4, "length": 4000},
    "large": {"model": {"d_model": 512, "heads": 8, "layers": 3, "feedforward": 2048, "latent_size": 64},
              "window": 64, "features": 16, "length": 60000},
}
STRIDE = 4


class TransformerAutoencoder(nn.Module):
    """plugins/models/transformer, layer for layer: embed + sinusoidal positions, encoder,
    mean-pooled latent, positions again, decoder, output ([time, batch, d_model] inside)."""

    def __init__(self, d_model, heads, layers, feedforward, latent_size, window, features):
        super().__init__()
        layer = lambda: nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=feedforward, dropout=0.0)
        self.embed = nn.Linear(features, d_model)
        self.encoder = nn.TransformerEncoder(layer(), layers, enable_nested_tensor=False)
        self.to_latent = nn.Linear(d_model, latent_size)
        self.from_latent = nn.Linear(latent_size, d_model)
        self.decoder = nn.TransformerEncoder(layer(), layers, enable_nested_tensor=False)
        self.output = nn.Linear(d_model, features)
        position = torch.arange(window, dtype=torch.float32).unsqueeze(1)
        rate = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-np.log(10000.0) / d_model))
        table = torch.zeros(window, d_model)
        table[:, 0::2] = torch.sin(position * rate)
        table[:, 1::2] = torch.cos(position * rate)[:, : d_model // 2]
        self.register_buffer("positional", table)

    def forward(self, x):
        h = (self.embed(x) + self.positional).transpose(0, 1)
        latent = self.to_latent(self.encoder(h).mean(0))
        expanded = self.from_latent(latent).unsqueeze(0) + self.positional.unsqueeze(1)
        return self.output(self.decoder(expanded).transpose(0, 1))


def transformer(args):
    size = SIZES[args.size]
    return TransformerAutoencoder(**size["model"], window=size["window"], features=size["features"])


def is_file_model(args):
    return args.model not in ("autoencoder", "transformer")


def file_input(args):
    """A TorchScript file's input: {"features", "window" (0: tabular)}; the file is read once."""
    return _file_input(args.model, args.features, args.window)


@functools.lru_cache(maxsize=None)
def _file_input(path, features, window):
    extra = {"harness.json": ""}
    try:
        torch.jit.load(path, _extra_files=extra)
    except (RuntimeError, ValueError) as error:
        sys.exit(f"scripts/peer_benchmark: {path}: not a TorchScript file PyTorch can load: "
                 f"{str(error).splitlines()[0]}")
    shape = json.loads(extra["harness.json"])["input"]["sample_shape"] if extra["harness.json"] else None
    if shape is None:
        if not features:
            sys.exit(f"scripts/peer_benchmark: {path} does not say its input shape (it was not "
                     "written by scripts/export_model.py): pass --features N (and --window W)")
        shape = [window, features] if window else [features]
    return {"features": shape[-1], "window": shape[0] if len(shape) == 2 else 0}


def series(args):
    """The windowed series a sequence model trains on: {"window", "features", "length"}."""
    if is_file_model(args):
        shape = file_input(args)
        return {"window": shape["window"], "features": shape["features"], "length": 4000}
    return SIZES[args.size]


def is_sequence(args):
    return args.model == "transformer" or (is_file_model(args) and file_input(args)["window"] > 0)


def peer_model(args):
    if is_file_model(args):
        return torch.jit.load(args.model)
    return transformer(args) if args.model == "transformer" else AutoEncoder()


def training_data(args, csv_path):
    if is_sequence(args):
        size = series(args)
        windows = (size["length"] - size["window"]) // STRIDE + 1
        return torch.randn(int(windows * 0.7), size["window"], size["features"],
                           generator=torch.Generator().manual_seed(1))
    data = np.loadtxt(csv_path, delimiter=",", skiprows=1, dtype=np.float32)
    x = torch.from_numpy(data[data[:, -1] == 0][:, :-1].copy())
    return (x - x.mean(0)) / x.std(0)


def ddp_worker(rank, args, csv_path, port, results):
    world, batch, epochs = args.world, args.batch, args.epochs
    torch.set_num_threads(1)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    dataset = torch.utils.data.TensorDataset(training_data(args, csv_path))
    sampler = torch.utils.data.distributed.DistributedSampler(dataset, world, rank, seed=1)
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch, sampler=sampler)
    torch.manual_seed(1)
    model = nn.parallel.DistributedDataParallel(peer_model(args))  # bucket_cap_mb=25, overlapped: defaults
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    durations = []
    started = time.perf_counter()
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for (batch_x,) in loader:
            step_started = time.perf_counter()
            optimizer.zero_grad()
            loss = loss_fn(model(batch_x), batch_x)
            loss.backward()
            optimizer.step()
            durations.append(time.perf_counter() - step_started)
    wall = torch.tensor([time.perf_counter() - started], dtype=torch.float64)
    dist.all_reduce(wall, op=dist.ReduceOp.MAX)
    # A step's time is the slowest rank's, as the harness takes it.
    steps = torch.tensor(durations, dtype=torch.float64)
    dist.all_reduce(steps, op=dist.ReduceOp.MAX)
    if rank == 0:
        global_batch = batch * world
        results.put({"wall": len(durations) * global_batch / wall.item(),
                     "median_step": global_batch / steps[WARMUP:].median().item()})
    dist.destroy_process_group()


def run_eager(csv_path, args):
    """PyTorch at world 1 on args.device, the same loop as a DDP rank's without the process
    group: the data on the device, reshuffled each epoch, whole batches."""
    torch.manual_seed(1)
    device = torch.device(args.device)
    synchronize = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)
    model = peer_model(args).to(device)
    data = training_data(args, csv_path).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.MSELoss()
    durations = []
    synchronize()
    started = time.perf_counter()
    for _ in range(args.epochs):
        order = torch.randperm(len(data), device=device)
        for first in range(0, len(data) - args.batch + 1, args.batch):
            step_started = time.perf_counter()
            batch_x = data[order[first:first + args.batch]]
            optimizer.zero_grad()
            loss_fn(model(batch_x), batch_x).backward()
            optimizer.step()
            synchronize()
            durations.append(time.perf_counter() - step_started)
    wall = time.perf_counter() - started
    return {"wall": len(durations) * args.batch / wall,
            "median_step": args.batch / float(np.median(durations[WARMUP:]))}


def run_peer(csv_path, args):
    return run_eager(csv_path, args) if args.device == "cuda" else run_ddp(csv_path, args)


def run_ddp(csv_path, args):
    ctx = mp.get_context("spawn")
    results = ctx.SimpleQueue()
    mp.spawn(ddp_worker, args=(args, csv_path, 29500 + os.getpid() % 1000, results),
             nprocs=args.world, join=True)
    return results.get()


def harness_settings(csv_path, args):
    common = {"world_size": args.world, "backend": args.backend, "optimizer": {"name": "adam", "lr": 0.001},
              "batch_size": args.batch, "epochs": args.epochs, "warmup_steps": WARMUP}
    if args.device == "cpu":
        common["threads"] = 1
    if is_file_model(args):
        model = {"model": "torchscript", "model_params": {"path": os.path.abspath(args.model)},
                 "fusion_bytes": 25 << 20, "overlap": True}
    elif args.model == "transformer":
        model = {"model": "transformer", "model_params": SIZES[args.size]["model"],
                 "fusion_bytes": 25 << 20, "overlap": True}
    else:
        model = {"model": "autoencoder"}
    if is_sequence(args):
        size = series(args)
        dataset = {"kind": "synthetic_series", "length": size["length"], "dim": size["features"],
                   "window": size["window"], "stride": STRIDE}
    else:
        dataset = {"kind": "csv", "path": csv_path, "test_fraction": 0.05}
    return dict(common, dataset=dataset, **model)


def run_harness(csv_path, workdir, args):
    experiment = {"name": "peer", "seed": 1, "settings": harness_settings(csv_path, args)}
    path = os.path.join(workdir, "peer.json")
    json.dump(experiment, open(path, "w"))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    subprocess.run(["mpirun", "--bind-to", "none", "--oversubscribe", "-np", str(args.world),
                    args.harness, path, "--results-dir", os.path.join(workdir, "results"), "-q"], check=True, env=env)
    run_dir = os.path.join(workdir, "results", "peer")
    run_dir = os.path.join(run_dir, sorted(os.listdir(run_dir))[-1])
    [record] = load_or_exit(run_dir, "scripts/peer_benchmark").records
    if record["status"] != "ok":
        sys.exit(f"scripts/peer_benchmark: the harness's trial ended {record['status']}: {record['reason']}")
    global_batch = args.batch * args.world
    return {"wall": record["steps"] * global_batch / record["train_time_s"],
            "median_step": record["throughput"]["samples_per_s"]}


@exit_on_error("scripts/peer_benchmark")
def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="autoencoder",
                        help="autoencoder, transformer, or a TorchScript file (the same file on both sides)")
    parser.add_argument("--features", type=int, help="--model FILE without harness.json: its input features")
    parser.add_argument("--window", type=int, default=0, help="--model FILE without harness.json: its window")
    parser.add_argument("--size", choices=sorted(SIZES), default="small", help="the Transformer's size")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--harness", default=HARNESS, help="the harness binary")
    parser.add_argument("--json", help="also write the runs and ratios here")
    parser.add_argument("--backend", default="mpi", help="the harness's backend plugin")
    parser.add_argument("--rows", type=int, default=40000)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--world", type=int, default=2)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3,
                        help="alternating runs of each side; medians are compared (the machine is noisy)")
    args = parser.parse_args()
    if is_file_model(args) and not os.path.isfile(args.model):
        parser.error(f"--model: expected autoencoder, transformer or a TorchScript file, got {args.model!r}")
    if args.device == "cuda" and args.world != 1:
        parser.error("--device cuda runs at --world 1 (NCCL cannot put two ranks on one GPU)")
    with tempfile.TemporaryDirectory() as workdir:
        rng = np.random.default_rng(0)
        features = file_input(args)["features"] if is_file_model(args) else 20
        x = (rng.normal(size=(args.rows, 3)) @ rng.normal(size=(3, features))
             + 0.05 * rng.normal(size=(args.rows, features)))
        labels = (rng.random(args.rows) < 0.05).astype(int)
        csv_path = os.path.join(workdir, "data.csv")
        np.savetxt(csv_path, np.column_stack([x, labels]), delimiter=",", fmt="%.6f",
                   header=",".join([f"f{i}" for i in range(features)] + ["label"]), comments="")
        runs = {"harness": [], "ddp": []}
        for _ in range(args.repeats):
            runs["harness"].append(run_harness(csv_path, workdir, args))
            runs["ddp"].append(run_peer(csv_path, args))
    peer = "PyTorch eager (cuda)" if args.device == "cuda" else "PyTorch DDP (gloo)"
    described = args.model if is_file_model(args) else f"{args.model} ({args.size})"
    print(f"{described}, world {args.world}, batch {args.batch}/rank, {args.epochs} epochs, "
          f"{args.device}; median of {args.repeats} alternating runs [range]")
    for figure in ("wall", "median_step"):
        print(report_line(figure, runs, args.backend, peer))
    if args.json:
        summary = {figure: ratio_summary(figure, runs) for figure in ("wall", "median_step")}
        json.dump({"settings": vars(args), "peer": peer, "runs": runs, "ratio": summary},
                  open(args.json, "w"), indent=1)


def median(values):
    return sorted(values)[len(values) // 2]


def ratios(figure, runs):
    """harness / peer per round: the runs of one round ran back to back."""
    return [h[figure] / d[figure] for h, d in zip(runs["harness"], runs["ddp"])]


def ratio_summary(figure, runs):
    r = ratios(figure, runs)
    return {"median": median(r), "min": min(r), "max": max(r)}


def report_line(figure, runs, backend, peer):
    """One figure for both sides and their ratio, each with the range over the runs."""
    ddp = [r[figure] for r in runs["ddp"]]
    harness = [r[figure] for r in runs["harness"]]
    ratio = ratio_summary(figure, runs)
    name = {"wall": "wall-clock", "median_step": "median step"}[figure]
    return (f"{name:<12} {peer} {units.samples_per_s(median(ddp))} [{units.count(min(ddp))}, "
            f"{units.count(max(ddp))}]   harness ({backend}) {units.samples_per_s(median(harness))} "
            f"[{units.count(min(harness))}, {units.count(max(harness))}]   ratio {units.ratio(ratio['median'])} "
            f"[{units.ratio(ratio['min'])}, {units.ratio(ratio['max'])}]")


if __name__ == "__main__":
    main()
