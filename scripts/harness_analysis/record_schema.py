"""The trial record's JSON Schema (record_schema.json, written by `harness --record-schema` and
kept equal to it by a test) and a checker for the keywords the harness's schemas use — the same
subset as the harness's own checker (harness/src/common/json_schema_check.cpp).

Records come back from results.read_trials as Record objects: dicts whose declared fields are
also attributes (record.throughput.samples_per_s); a declared value a record lacks reads None,
a declared object it lacks (or that is null) reads as an empty, falsy Record, and a name the
schema does not declare is an AttributeError, so a misspelt field fails loudly."""
import json
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_KNOWN = {"$schema", "$id", "title", "description", "$defs", "type", "const", "enum", "properties",
          "required", "additionalProperties", "items", "minItems", "maxItems", "allOf", "if", "then",
          "$ref"}


def load_schema(path=os.path.join(_HERE, "record_schema.json")):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


SCHEMA = load_schema()
# search.json's (harness --search-schema, kept equal to it by a test).
SEARCH_SCHEMA = load_schema(os.path.join(_HERE, "search_schema.json"))
META_SCHEMA = load_schema(os.path.join(_HERE, "meta_schema.json"))


def _has_type(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise ValueError(f"schema: unknown type {name!r}")


def _dump(value):
    return json.dumps(value, separators=(",", ":"))


class _Checker:
    """complete: every required field present and no undeclared one, as a document the harness
    writes now is; without, only the fields a document holds are checked (their types and
    values), as a reader of older layouts needs."""

    def __init__(self, root, complete=True):
        self.root = root
        self.complete = complete

    def check(self, schema, value, at, out):
        unknown = set(schema) - _KNOWN
        if unknown:
            raise ValueError(f"schema: keyword {sorted(unknown)[0]!r} is not checked")
        before = len(out) if out is not None else 0
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_has_type(value, t) for t in types):
                return self.fail(out, at, f"{_dump(value)} is not of type {_dump(schema['type']) if len(types) > 1 else types[0]}")
        ok = self.values(schema, value, at, out)
        ok = self.object(schema, value, at, out) and ok
        ok = self.array(schema, value, at, out) and ok
        ok = self.combined(schema, value, at, out) and ok
        return ok and (out is None or len(out) == before)

    @staticmethod
    def fail(out, at, what):
        if out is not None:
            out.append(f"{at or '/'}: {what}")
        return False

    def values(self, schema, value, at, out):
        if "const" in schema and value != schema["const"]:
            return self.fail(out, at, f"{_dump(value)}, expected {_dump(schema['const'])}")
        if "enum" in schema and value not in schema["enum"]:
            return self.fail(out, at, f"{_dump(value)}, expected one of {_dump(schema['enum'])}")
        return True

    def object(self, schema, value, at, out):
        if not isinstance(value, dict):
            return True
        ok = True
        for key in schema.get("required", []) if self.complete else []:
            if key not in value:
                ok = self.fail(out, at, f'"{key}" is missing')
        properties = schema.get("properties", {})
        for key, member in value.items():
            if key in properties:
                ok = self.check(properties[key], member, f"{at}/{key}", out) and ok
            elif self.complete and schema.get("additionalProperties", True) is False:
                ok = self.fail(out, at, f'"{key}" is not a declared field')
        return ok

    def array(self, schema, value, at, out):
        if not isinstance(value, list):
            return True
        ok = True
        if "minItems" in schema and len(value) < schema["minItems"]:
            ok = self.fail(out, at, f"fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            ok = self.fail(out, at, f"more than {schema['maxItems']} items")
        for i, item in enumerate(value if "items" in schema else []):
            ok = self.check(schema["items"], item, f"{at}/{i}", out) and ok
        return ok

    def combined(self, schema, value, at, out):
        ok = True
        for part in schema.get("allOf", []):
            ok = self.check(part, value, at, out) and ok
        # The condition is the schema's as written, whatever this checker leaves out.
        if "if" in schema and "then" in schema and _Checker(self.root).check(schema["if"], value, at, None):
            ok = self.check(schema["then"], value, at, out) and ok
        if "$ref" in schema:
            ok = self.check(self.resolve(schema["$ref"]), value, at, out) and ok
        return ok

    def resolve(self, ref):
        prefix = "#/$defs/"
        if not ref.startswith(prefix) or ref[len(prefix):] not in self.root.get("$defs", {}):
            raise ValueError(f"schema: cannot resolve $ref {ref}")
        return self.root["$defs"][ref[len(prefix):]]


def problems(value, schema=SCHEMA, complete=True):
    """Each problem as "pointer: what", in the harness's words; empty when the value conforms.
    complete=False checks only the fields the value holds (see _Checker)."""
    out = []
    _Checker(schema, complete).check(schema, value, "", out)
    return out


def _declared(schema):
    """The properties an object schema declares, whichever kind's they are."""
    names = dict(schema.get("properties", {}))
    for kind in schema.get("$defs", {}).values():
        names.update(kind.get("properties", {}))
    return names


class Record(dict):
    """A record (or a part of one) whose declared fields read as attributes."""

    def __init__(self, values, schema=SCHEMA):
        super().__init__(values)
        self._fields = _declared(schema)

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        if name not in fields:
            raise AttributeError(f"{name!r} is not a declared field (docs/results-reference.md)")
        return _wrapped(self.get(name), fields[name])


def _wrapped(value, schema):
    if "properties" in schema:
        return Record(value if isinstance(value, dict) else {}, schema)
    if "properties" in schema.get("items", {}):
        return [Record(v, schema["items"]) for v in value or [] if isinstance(v, dict)]
    return value


def as_record(record, schema=SCHEMA):
    """A record read by other means (a test's dict) with the same attribute access."""
    return record if isinstance(record, Record) else Record(record, schema)


def as_meta(meta):
    """meta.json's content (None or {} when the folder has none) with attribute access."""
    return as_record(meta or {}, META_SCHEMA)


def given(value, default):
    """The value a declared field holds, or `default` when the document lacks it."""
    return default if value is None else value
