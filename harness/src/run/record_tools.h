// The record tools of the command line, which need no MPI: the JSON Schemas of a trial record
// and of search.json (--record-schema, --search-schema), and checking or upgrading the records of a trials.jsonl (--check-records,
// --upgrade-records).
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// Prints a JSON Schema; the exit code.
int print_schema(const Json& schema);

// Each record of `path`, brought to the newest layout, against the schema: prints each problem
// as path:line: pointer: what; kExitInputError when there is any.
int check_records(const std::string& path);

// Prints each record of `path` in the newest layout, one JSON line each.
int print_upgraded_records(const std::string& path);

}  // namespace harness
