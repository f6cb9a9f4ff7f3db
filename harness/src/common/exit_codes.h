// The process exit statuses harness promises (docs/experiments.md, "Exit status"); scripts test them.
#pragma once

namespace harness {

enum ExitCode : int {
  kExitOk = 0,
  kExitFatal = 1,       // a rank hit an unrecoverable error; the job was aborted
  kExitInputError = 2,  // bad experiment file, flag or data file; nothing ran
  kExitHung = 3,        // the watchdog found a rank stuck past timeout_s; the job was aborted
};

}  // namespace harness
