"""job.json (what a job's capture measured) and plan.json (what scripts/tune advises), declared
once here: each field's name, type and meaning. The writer, the reader (which refuses a newer
version or a missing field, naming it) and the JSON Schema (python3 -m harness_tune.job_file
--schema) all come from these tables."""
import json
import os
import sys

JOB_VERSION = 2
PLAN_VERSION = 1

STEP_FIELDS = {
    "step_s": (float, "forward start to the next forward start: the whole step"),
    "forward_s": (float, "the DDP module's forward"),
    "backward_s": (float, "forward end to backward's return (DDP waits for its last bucket)"),
    "ready_s": (list, "per parameter (the module's parameter order), when backward made its "
                      "gradient, seconds after forward end; null for a parameter not used"),
    "buckets": (list, "per bucket in launch order: {ready_s, done_s, bytes, dtype, parameters}"),
    "loss": (float, "the value backward started from (the loss), or null"),
}

JOB_FIELDS = {
    "job_version": (int, "this layout's version; readers refuse a newer one"),
    "command": (list, "the command that ran the job"),
    "world_size": (int, "ranks of the job"),
    "backend": (str, "the DDP process group's backend"),
    "bucket_cap_mb": (float, "DDP's bucket_cap_mb as the job set it"),
    "first_bucket_mb": (float, "the cap of the job's own first bucket (DDP's default 1 MB)"),
    "first_bucket_rule": (str, "how DDP caps the first bucket under a bucket_cap_mb the code sets: "
                               "'fixed' (torch 1.x: first_bucket_mb whatever the cap) or "
                               "'follows_cap' (torch 2.x: the cap set caps the first bucket too)"),
    "comm_hook": (str, "the job's own comm hook ('' for DDP's allreduce)"),
    "parameters": (list, "per parameter: {numel, dtype, requires_grad}, in the module's order"),
    "parameter_count": (int, "the model's parameters, in elements"),
    "warmup_steps": (int, "steps run before recording"),
    "steps": (list, "each recorded step of rank 0 (fields: STEP_FIELDS)"),
}

# Fields a layout gained after its first version: a file of an older version has none of them
# and is read with the value they stood for then.
JOB_FIELDS_SINCE = {"first_bucket_rule": (2, "fixed")}

PLAN_FIELDS = {
    "plan_version": (int, "this layout's version; readers refuse a newer one"),
    "backend": (str, "'gloo' or 'harness:<plugin>'"),
    "bucket_cap_mb": (float, "DDP's bucket_cap_mb"),
    "compression": (str, "'none', 'fp16' or 'bf16': DDP's compression comm hook"),
}

_JSON_TYPES = {int: "integer", float: "number", str: "string", list: "array"}


class FileError(ValueError):
    """A job or plan file that cannot be used, with the file and the field named."""


def schema(fields, title):
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
            "type": "object", "required": sorted(fields),
            "properties": {name: {"type": _JSON_TYPES[kind], "description": text}
                           for name, (kind, text) in fields.items()}}


def _check(document, fields, path):
    if not isinstance(document, dict):
        raise FileError(f"{path}: not a JSON object")
    for name, (kind, text) in fields.items():
        if name not in document:
            raise FileError(f"{path}: no field \"{name}\" ({text})")
        value = document[name]
        ok = isinstance(value, (int, float)) if kind is float else isinstance(value, kind)
        if not ok or isinstance(value, bool):
            raise FileError(f"{path}: field \"{name}\" is {json.dumps(value)[:60]}, expected "
                            f"{_JSON_TYPES[kind]} ({text})")


def _read(path, fields, version_field, version, since=None):
    try:
        with open(path) as stream:
            document = json.load(stream)
    except OSError as error:
        raise FileError(f"{path}: cannot be read ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise FileError(f"{path}: not JSON ({error})") from None
    _check(document, {version_field: fields[version_field]}, path)
    if document[version_field] > version:
        raise FileError(f"{path}: {version_field} {document[version_field]} is newer than this "
                        f"reader's {version}")
    for name, (first_version, value) in (since or {}).items():
        if document[version_field] < first_version:
            document.setdefault(name, value)
    _check(document, fields, path)
    return document


def read_job(path):
    job = _read(path, JOB_FIELDS, "job_version", JOB_VERSION, JOB_FIELDS_SINCE)
    if job["first_bucket_rule"] not in ("fixed", "follows_cap"):
        raise FileError(f"{path}: field \"first_bucket_rule\" is {job['first_bucket_rule']!r}, "
                        "expected fixed or follows_cap")
    for index, step in enumerate(job["steps"]):
        where = f"{path}: steps[{index}]"
        _check(step, {k: v for k, v in STEP_FIELDS.items() if k != "loss"}, where)
        if not isinstance(step.get("loss"), (int, float, type(None))):
            raise FileError(f"{where}: field \"loss\" is not a number")
    if not job["steps"]:
        raise FileError(f"{path}: no recorded step")
    return job


def read_plan(path):
    plan = _read(path, PLAN_FIELDS, "plan_version", PLAN_VERSION)
    if plan["compression"] not in ("none", "fp16", "bf16"):
        raise FileError(f"{path}: field \"compression\" is {plan['compression']!r}, expected "
                        "none, fp16 or bf16")
    if not (plan["backend"] == "gloo" or plan["backend"].startswith("harness:")):
        raise FileError(f"{path}: field \"backend\" is {plan['backend']!r}, expected gloo or "
                        "harness:<plugin>")
    if not plan["bucket_cap_mb"] > 0:
        raise FileError(f"{path}: field \"bucket_cap_mb\" must be above 0")
    return plan


def write(path, document):
    with open(path + ".partial", "w") as stream:
        json.dump(document, stream, indent=1)
    os.replace(path + ".partial", path)


if __name__ == "__main__":
    if sys.argv[1:] == ["--schema"]:
        print(json.dumps({"job": schema(JOB_FIELDS, "job.json"),
                          "plan": schema(PLAN_FIELDS, "plan.json")}, indent=1))
    else:
        sys.exit("usage: python3 -m harness_tune.job_file --schema")
