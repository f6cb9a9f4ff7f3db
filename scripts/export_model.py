#!/usr/bin/python3
"""Export an anomaly-detection model as a TorchScript file the harness trains
("model": "torchscript", "model_params": {"path": FILE}).

    scripts/export_model.py autoencoder FILE [--input-dim 20] [--hidden 10,3] [--seed 0]
    scripts/export_model.py transformer FILE [--input-dim 4] [--window 16] [--d-model 32]
                            [--heads 4] [--layers 2] [--feedforward 64] [--latent-size 8] [--seed 0]
    scripts/export_model.py lstm FILE [--input-dim 4] [--window 16] [--hidden-size 32]
                            [--layers 1] [--latent-size 8] [--seed 0]

autoencoder: the Horovod tutorial's dense autoencoder (20-10-3-10-20, ReLU), layer for layer
the harness's built-in "autoencoder"; transformer and lstm: the built-in sequence
autoencoders of the same names, for windows [batch, window, features]. With --seed S the
initial weights are those the built-in plugin starts from in a trial seeded S (the
experiment's "seed" plus the repetition), so the two can be compared step for step.

The file also carries harness.json (the model's input shape and how it was made), which
scripts/peer_benchmark --model FILE reads. Your own model: define its class in a file,
then torch.jit.script(model).save(FILE) (docs/your-model.md). Needs Debian's python3-torch.
"""
import argparse
import json
import math
import sys
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message=".*was found in ScriptModule constants")


class Autoencoder(nn.Module):
    """Dense encoder widths input, hidden...; the decoder mirrors them; no activation on the
    latent code nor on the output (the built-in plugin's order of layers)."""

    def __init__(self, input_dim, hidden):
        super().__init__()
        widths = [input_dim] + hidden + hidden[-2::-1] + [input_dim]
        layers = []
        for i in range(len(widths) - 1):
            layers.append(nn.Linear(widths[i], widths[i + 1]))
            if i + 2 != len(widths) and i + 1 != len(hidden):
                layers.append(nn.ReLU())
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def positional_table(window, d_model):
    """Vaswani et al.'s sinusoidal table, as the built-in transformer computes it."""
    position = torch.arange(window, dtype=torch.float32).unsqueeze(1)
    rate = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(window, d_model)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate)[:, : d_model // 2]
    return table


class TransformerAutoencoder(nn.Module):
    """Embedding plus positions, a Transformer encoder, a mean-pooled latent bottleneck, the
    positions again and a second encoder stack as decoder ([time, batch, d_model] inside)."""

    def __init__(self, input_dim, window, d_model, heads, layers, feedforward, latent_size):
        super().__init__()

        def stack():
            layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=feedforward, dropout=0.0)
            return nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

        self.embed = nn.Linear(input_dim, d_model)
        self.encoder = stack()
        self.to_latent = nn.Linear(d_model, latent_size)
        self.from_latent = nn.Linear(latent_size, d_model)
        self.decoder = stack()
        self.output = nn.Linear(d_model, input_dim)
        self.register_buffer("positional", positional_table(window, d_model))

    def forward(self, x):
        h = (self.embed(x) + self.positional).transpose(0, 1)
        latent = self.to_latent(self.encoder(h).mean(0))
        expanded = self.from_latent(latent).unsqueeze(0) + self.positional.unsqueeze(1)
        return self.output(self.decoder(expanded).transpose(0, 1))


class LstmAutoencoder(nn.Module):
    """An LSTM encoder's last state through a latent bottleneck, repeated over the window and
    decoded by a second LSTM."""

    def __init__(self, input_dim, hidden_size, layers, latent_size):
        super().__init__()
        self.encoder = nn.LSTM(input_dim, hidden_size, num_layers=layers, batch_first=True)
        self.to_latent = nn.Linear(hidden_size, latent_size)
        self.from_latent = nn.Linear(latent_size, hidden_size)
        self.decoder = nn.LSTM(hidden_size, hidden_size, num_layers=layers, batch_first=True)
        self.output = nn.Linear(hidden_size, input_dim)

    def forward(self, x):
        encoded, _ = self.encoder(x)
        latent = self.to_latent(encoded[:, -1])
        repeated = self.from_latent(latent).unsqueeze(1).expand(-1, x.size(1), -1).contiguous()
        decoded, _ = self.decoder(repeated)
        return self.output(decoded)


def widths(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated widths such as 10,3, got {text!r}")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive widths, got {text!r}")
    return values


def positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def build(args):
    """The model and its input shape (without the batch dimension)."""
    if args.model == "autoencoder":
        return Autoencoder(args.input_dim, args.hidden), [args.input_dim]
    if args.model == "transformer":
        if args.d_model % args.heads:
            sys.exit(f"scripts/export_model.py: --heads {args.heads} must divide --d-model {args.d_model}")
        model = TransformerAutoencoder(args.input_dim, args.window, args.d_model, args.heads, args.layers,
                                       args.feedforward, args.latent_size)
        return model, [args.window, args.input_dim]
    return LstmAutoencoder(args.input_dim, args.hidden_size, args.layers, args.latent_size), [args.window, args.input_dim]


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("model", choices=["autoencoder", "transformer", "lstm"])
    parser.add_argument("file", help="where to write the TorchScript archive")
    parser.add_argument("--seed", type=int, default=0, help="torch.manual_seed before the model is built")
    parser.add_argument("--input-dim", type=positive, help="features per sample (20 for autoencoder, else 4)")
    parser.add_argument("--hidden", type=widths, default=[10, 3], help="autoencoder: encoder widths")
    parser.add_argument("--window", type=positive, default=16, help="transformer, lstm: window length")
    parser.add_argument("--d-model", type=positive, default=32)
    parser.add_argument("--heads", type=positive, default=4)
    parser.add_argument("--layers", type=positive, help="encoder (and decoder) layers (transformer: 2, lstm: 1)")
    parser.add_argument("--feedforward", type=positive, default=64)
    parser.add_argument("--latent-size", type=positive, default=8)
    parser.add_argument("--hidden-size", type=positive, default=32, help="lstm: hidden state size")
    args = parser.parse_args(argv)
    if args.input_dim is None:
        args.input_dim = 20 if args.model == "autoencoder" else 4
    if args.layers is None:
        args.layers = 2 if args.model == "transformer" else 1
    return args


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    model, sample_shape = build(args)
    scripted = torch.jit.script(model)
    parameters = sum(p.numel() for p in model.parameters())
    meta = {"model": args.model, "input": {"kind": "tabular" if len(sample_shape) == 1 else "sequence",
                                           "sample_shape": sample_shape},
            "parameters": parameters, "seed": args.seed, "torch": torch.__version__}
    try:
        scripted.save(args.file, _extra_files={"harness.json": json.dumps(meta)})
    except (OSError, RuntimeError) as error:
        sys.exit(f"scripts/export_model.py: cannot write {args.file}: {error}")
    # The file must load and reconstruct a batch of its input shape.
    loaded = torch.jit.load(args.file)
    batch = torch.zeros([2] + sample_shape)
    if loaded(batch).shape != batch.shape:
        sys.exit(f"scripts/export_model.py: the exported {args.model} does not reconstruct {list(batch.shape)}")
    print(f"{args.file}: {args.model}, {parameters:,} parameters, input [batch, "
          f"{', '.join(map(str, sample_shape))}], seed {args.seed}")


if __name__ == "__main__":
    main()
