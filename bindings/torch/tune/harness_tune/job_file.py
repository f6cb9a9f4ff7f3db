"""job.json (what a job's capture measured) and plan.json (what scripts/tune advises): their
readers, writers and JSON Schema, derived from the one declaration of both, file_formats.json
(which the harness's C++ reader of job.json is compiled with). A reader refuses a newer
version, a missing field or a value of another type or range, naming the file and the field; a
writer refuses to write what its reader would refuse. python3 -m harness_tune.job_file --schema
prints the schemas."""
import json
import math
import os
import re
import sys

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "file_formats.json")) as _stream:
    FORMATS = json.load(_stream)

JOB_VERSION = FORMATS["job"]["version"]
PLAN_VERSION = FORMATS["plan"]["version"]
# DDP's bucket_cap_mb when the code sets none.
DDP_DEFAULT_CAP_MB = FORMATS["job"]["fields"]["bucket_cap_mb"]["ddp_default"]

_PYTHON_TYPES = {"integer": int, "number": (int, float), "string": str, "boolean": bool,
                 "array": list}


class FileError(ValueError):
    """A job or plan file that cannot be used, with the file and the field named."""


def expected(field):
    """What a field holds, in words: the same words the C++ reader uses."""
    if "choices" in field:
        words = field["choices"]
        text = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
    elif "pattern_words" in field:
        text = field["pattern_words"]
    elif field["type"] == "integer" and "minimum" in field:
        text = f"a count from {field['minimum']} to {field.get('maximum', 2 ** 63 - 1)}"
    elif field["type"] == "number" and "maximum" in field:
        text = f"seconds from {field['minimum']:g} to {field['maximum']:.0e}".replace("e+0", "e").replace("e+", "e")
    elif "above" in field:
        text = f"a number above {field['above']:g}"
    else:
        text = {"integer": "a whole number", "number": "a number", "string": "a string",
                "boolean": "true or false", "array": "an array"}[field["type"]]
    return text + (" or null" if field.get("nullable") else "")


INT64 = (-2 ** 63, 2 ** 63 - 1)  # the C++ reader's whole numbers


def _fits(value, field):
    if value is None:
        return bool(field.get("nullable"))
    kind = _PYTHON_TYPES[field["type"]]
    if isinstance(value, bool) != (field["type"] == "boolean") or not isinstance(value, kind):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    if field["type"] == "integer" and not INT64[0] <= value <= INT64[1]:
        return False
    if "choices" in field and value not in field["choices"]:
        return False
    if "pattern" in field and not re.search(field["pattern"], value):
        return False
    if "minimum" in field and value < field["minimum"]:
        return False
    if "maximum" in field and value > field["maximum"]:
        return False
    return not ("above" in field and not value > field["above"])


def _dumped(value):
    """A value as the C++ reader echoes it: compact JSON, UTF-8, its first 60 characters."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))[:60]


def _refuse_constant(name):
    raise ValueError(f"{name} is no JSON number")


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"duplicate key \"{key}\" in the same object")
    return dict(pairs)


def _check_object(document, kind, where, root, path):
    def fail(name, problem):
        field = f"{where}.{name}" if where else name
        raise FileError(f"{path}: field \"{field}\" {problem}")

    if not isinstance(document, dict):
        what = f'field "{where}"' if where else "the document"
        raise FileError(f"{path}: {what} is not a JSON object")
    for name, field in FORMATS[kind]["fields"].items():
        if name not in document:
            if field.get("optional"):
                continue
            fail(name, f"is missing (expected {expected(field)}: {field['meaning']})")
        value = document[name]
        if not _fits(value, field):
            fail(name, f"is {_dumped(value)}, expected {expected(field)}")
        if field["type"] != "array" or value is None:
            continue
        if len(value) < field.get("min_items", 0):
            fail(name, f"is empty: {field['empty']}")
        if "length_of" in field and len(value) != len(root[field["length_of"]]):
            fail(name, f"has {len(value)} entries for {len(root[field['length_of']])} {field['length_of']}")
        items = field.get("items")
        for index, item in enumerate(value):
            if isinstance(items, str):
                _check_object(item, items, f"{where + '.' if where else ''}{name}[{index}]", root, path)
            elif items and not _fits(item, items):
                fail(name, f"holds {_dumped(item)}, expected {expected(items)}")


def check(document, name, path):
    """The document as file `name` ("job" or "plan") declares it, or FileError. A file of an
    older version gets the value each later field stood for then."""
    declared = FORMATS[name]
    if not isinstance(document, dict):
        raise FileError(f"{path}: not a JSON object")
    version_field = declared["version_field"]
    version = document.get(version_field)
    if isinstance(version, int) and not isinstance(version, bool) and version > declared["version"]:
        raise FileError(f"{path}: field \"{version_field}\" is {version}, newer than this reader's "
                        f"{declared['version']}: use a newer harness")
    if isinstance(version, int):
        for field_name, field in declared["fields"].items():
            if "since" in field and version < field["since"][0]:
                document.setdefault(field_name, field["since"][1])
    _check_object(document, name, "", document, path)
    return document


def _read(path, name):
    try:
        with open(path, encoding="utf-8") as stream:
            document = json.load(stream, parse_constant=_refuse_constant,
                                 object_pairs_hook=_no_duplicates)
    except OSError as error:
        raise FileError(f"{path}: cannot be read ({error.strerror})") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError, UnicodeDecodeError among them
        raise FileError(f"{path}: not JSON ({error})") from None
    return check(document, name, path)


def read_job(path):
    return _read(path, "job")


def read_plan(path):
    return _read(path, "plan")


def write_atomically(path, document):
    """The JSON document at path, whole or not at all (a reader never meets half a file)."""
    with open(path + ".partial", "w", encoding="utf-8") as stream:
        json.dump(document, stream, indent=1, allow_nan=False)
    os.replace(path + ".partial", path)


def _write(path, document, name):
    check(document, name, path)
    write_atomically(path, document)


def write_job(path, job):
    _write(path, dict(job, job_version=JOB_VERSION), "job")


def write_plan(path, plan):
    _write(path, dict(plan, plan_version=PLAN_VERSION), "plan")


def _schema_of(field):
    schema = {"type": [field["type"], "null"] if field.get("nullable") else field["type"]}
    for key, schema_key in (("choices", "enum"), ("pattern", "pattern"), ("minimum", "minimum"),
                            ("maximum", "maximum"), ("above", "exclusiveMinimum"),
                            ("min_items", "minItems")):
        if key in field:
            schema[schema_key] = field[key]
    items = field.get("items")
    if isinstance(items, str):
        schema["items"] = {"$ref": f"#/$defs/{items}"}
    elif items:
        schema["items"] = _schema_of(items)
    if "meaning" in field:
        schema["description"] = field["meaning"]
    return schema


def _object_schema(kind):
    fields = FORMATS[kind]["fields"]
    return {"type": "object",
            "required": sorted(n for n, f in fields.items() if not f.get("optional")),
            "properties": {name: _schema_of(field) for name, field in fields.items()}}


def schema(name):
    """The JSON Schema of file `name` ("job" or "plan")."""
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": FORMATS[name]["file"], **_object_schema(name)}
    kinds = {f["items"] for k in FORMATS.values() if isinstance(k, dict) and "fields" in k
             for f in k["fields"].values() if isinstance(f.get("items"), str)}
    if name == "job":
        document["$defs"] = {kind: _object_schema(kind) for kind in sorted(kinds)}
    return document


if __name__ == "__main__":
    if sys.argv[1:] == ["--schema"]:
        print(json.dumps({"job": schema("job"), "plan": schema("plan")}, indent=1))
    else:
        sys.exit("usage: python3 -m harness_tune.job_file --schema")
