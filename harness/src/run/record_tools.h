// The record tools of the command line, which need no MPI: the JSON Schema of a trial record
// (--record-schema), and checking or upgrading the records of a trials.jsonl (--check-records,
// --upgrade-records).
#pragma once

#include <string>

namespace harness {

// Prints the schema; the exit code.
int print_record_schema();

// Each record of `path`, brought to the newest layout, against the schema: prints each problem
// as path:line: pointer: what; kExitInputError when there is any.
int check_records(const std::string& path);

// Prints each record of `path` in the newest layout, one JSON line each.
int print_upgraded_records(const std::string& path);

}  // namespace harness
