// The record tools of the command line, which need no MPI: the JSON Schemas of a trial record,
// search.json and meta.json (--record-schema, --search-schema, --meta-schema), and checking or
// upgrading the records of a results folder (--check-records, --upgrade-records).
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// Prints a JSON Schema; the exit code.
int print_schema(const Json& schema);

// Each record of `path` (a trials.jsonl), brought to the newest layout, against the record
// schema; given a results folder, its trials.jsonl, meta.json and search.json (when there is
// one) against theirs. Prints each problem as file[:line]: pointer: what; kExitInputError when
// there is any.
int check_records(const std::string& path);

// Prints each record of `path` in the newest layout, one JSON line each.
int print_upgraded_records(const std::string& path);

}  // namespace harness
