"""Names of things in results: a backend with its algorithm, a sweep point, its swept axes."""
import json
import os

from .record_schema import as_record


def model_label(settings):
    """"autoencoder" for a built-in plugin; "torchscript:my_model.pt" for a model read from a
    file, so that two files are never taken for one configuration."""
    name = settings["model"]
    path = settings["model_params"].get("path")  # the plugin's own parameter: absent for built-in models
    return f"{name}:{os.path.basename(path)}" if isinstance(path, str) and path else name


def backend_label(record):
    """"gloo:ring" for gloo with backend_params.algorithm "ring", "mpi" for mpi."""
    settings = as_record(record).settings
    algorithm = settings["backend_params"].get("algorithm")  # the plugin's own parameter, if it has one
    return f"{settings['backend']}:{algorithm}" if algorithm else settings["backend"]


BY_HALVES = "reduce_scatter+allgather"  # backend.within_hosts of a host level by two halves


def host_level_by_halves(record):
    """Whether a composed backend's level within hosts ran reduce-scatter + allgather (each byte
    crossing a host's memory once each way) rather than two allreduces."""
    backend = as_record(record).backend
    if backend.within_hosts is not None:
        return backend.within_hosts == BY_HALVES
    # Records from before backend.within_hosts said it in the algorithm's words.
    return "by reduce-scatter + allgather" in (backend.algorithm or "")


def composed_levels(record):
    """(intra label, inter label) of a trial on a backend composed of two plugins (the record's
    backend.levels, each labelled like a flat trial of that backend: "shm", "gloo:ring"); None
    for a backend that is one plugin."""
    levels = as_record(record).backend.levels or []
    return tuple(levels) if len(levels) == 2 else None


def backend_labeller(records):
    """A backend_label that also names the backend parameters other than the algorithm which
    differ between the records of one backend ("gloo:ring receive=busy_poll"), so that
    configurations of one backend are never taken for one another."""
    records = [as_record(r) for r in records]
    keys = {}
    for r in records:
        params = r.settings["backend_params"]
        keys.setdefault(backend_label(r), set()).update(k for k in params if k != "algorithm")
    # A parameter left out (its default) differs from one given, so it counts as a value.
    seen = {}
    for r in records:
        params = r.settings["backend_params"]
        for key in keys[backend_label(r)]:
            value = json.dumps(params[key], sort_keys=True) if key in params else None
            seen.setdefault((backend_label(r), key), set()).add(value)
    varying = {}
    for (label, key), values in seen.items():
        if len(values) > 1:
            varying.setdefault(label, []).append(key)

    def label_of(record):
        record = as_record(record)
        label = backend_label(record)
        params = record.settings["backend_params"]
        extra = [f"{key}={params[key]}" for key in sorted(varying.get(label, [])) if key in params]
        return " ".join([label] + extra)
    return label_of


def axes_label(axes):
    """"batch_size:32/world_size:2": a trial's swept values, sorted, objects as compact JSON."""
    def value(v):
        return json.dumps(v, sort_keys=True, separators=(",", ":")) if isinstance(v, (dict, list)) else str(v)
    return "/".join(f"{k}:{value(v)}" for k, v in sorted(axes.items()))


def point_of(record):
    """A sweep point: the part and the resolved settings (repetition and seed left out)."""
    record = as_record(record)
    return (record.part or "") + " " + json.dumps(record.settings, sort_keys=True)
