"""Records of older layouts brought to the newest, one step per version: the same steps as the
harness's (harness/src/record/record_upgrade.cpp; `harness --upgrade-records FILE` prints its
result, and a test compares the two on the same files)."""

RECORD_VERSION = 3


def record_version(record):
    """record_version, or 1 for records that called it schema_version, or 0 with neither."""
    if "record_version" in record:
        return record["record_version"]
    return 1 if "schema_version" in record else 0


def _keep_as(obj, old, new):
    if old in obj:
        obj.setdefault(new, obj[old])
        del obj[old]


def _object(record, key):
    value = record.get(key)
    return value if isinstance(value, dict) else None


def _step_times_to_3(record):
    times = _object(record, "step_time_ms")
    if not times:  # no step was timed
        record["step_time_ms"] = None
        return
    _keep_as(times, "total", "p50")
    # Records from before bucketed reduction had one "allreduce" figure, all of it exposed.
    if "allreduce" in times and "comm" not in times:
        times["comm"] = times["allreduce"]
    _keep_as(times, "allreduce", "exposed_comm")


_SETTING_COPIES = [("machine_speed", "max_slowdown"), ("machine_speed", "wait_s"),
                   ("gradient_reduction", "fusion_bytes"), ("timing", "min_time_s"),
                   ("slow_steps", "factor"), ("target", "loss"), ("lr", "base"),
                   ("detection", "threshold_percentile"), ("detection_points", "threshold_percentile")]


def _train_parts_to_3(record):
    for part, key in _SETTING_COPIES:
        obj = _object(record, part)
        if obj is not None:
            obj.pop(key, None)
    target = _object(record, "target")
    if target is not None and target.get("reached") is False:
        target["steps"] = None  # steps count only to a target reached
    record.pop("exposed_comm_ms", None)
    record.pop("timed_steps", None)
    throughput = _object(record, "throughput")
    if throughput is not None and throughput.get("samples_per_s") is None:
        record["throughput"] = None  # no step was timed
    if "stragglers" in record and record["stragglers"] is None:
        del record["stragglers"]
    if "throughput" in record or "step_time_ms" in record:
        _step_times_to_3(record)


def _points_to_3(record):
    points = record.get("points")
    if not isinstance(points, list):
        return
    settings = _object(record, "settings")
    for point in points:
        if isinstance(point, dict):
            _keep_as(point, "time_us", "p50_us")
            # The setting the point copied, kept where the settings lack it.
            if settings is not None and "timing" in point:
                settings.setdefault("timing", point["timing"])
            point.pop("timing", None)


def _to_3(record):
    # Records from before sweep points: each trial was its own point.
    if "point" not in record and isinstance(record.get("key"), str):
        record["point"] = record["key"]
    _train_parts_to_3(record)
    _points_to_3(record)
    record["measured"] = record.get("status") in ("ok", "inconsistent")
    if record.get("noisy") is True and "noisy_because" not in record:
        record["noisy_because"] = "noisy (records before record_version 3 do not say why)"


def upgraded(record):
    """The record (a dict, changed in place) in the newest layout; its version must be an
    integer from 0 to RECORD_VERSION (results.read_trials checks)."""
    version = record_version(record)
    if version < 2:
        record.pop("schema_version", None)
    if version < 3:
        _to_3(record)
    record["record_version"] = RECORD_VERSION
    return record


# Settings that joined a kind after its first records, with what a trial did before each one
# existed (None: no value of the setting says it). A setting joining changes no layout, so a
# record of any version may lack one: they are filled apart from upgraded(), which is the
# harness's upgrade step for step. The harness keeps such settings out of trial keys at their
# defaults for the same reason (harness/src/spec/trial_expansion.cpp, later_settings).
LATER_SETTINGS = {
    "train": {"fusion_bytes": None,  # before buckets: one buffer of all the gradients, whatever its size
              "overlap": False, "compression": "none", "strategy": "ddp"},
    "collective": {"collective": "allreduce", "root": 0,
                   "timing": None},  # before the setting, records did not say how calls were timed
}


def with_later_settings(record):
    """The record (changed in place) with the settings it predates filled in; its settings
    must be an object (results.read_trials checks)."""
    for name, value in LATER_SETTINGS.get(record["kind"], {}).items():
        record["settings"].setdefault(name, value)
    return record
