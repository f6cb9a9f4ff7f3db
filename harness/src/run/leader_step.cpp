#include "run/leader_step.h"

#include <mpi.h>

#include <string>

#include "common/input_error.h"
#include "mpi/string_broadcast.h"
#include "results/file_writing.h"

namespace harness {

void on_leader(bool leader, const std::function<void()>& step) {
  // "" when it went well, else a letter for the error's type and its message.
  std::string failure;
  if (leader) try {
      step();
    } catch (const InputError& e) {
      failure = std::string("I") + e.what();
    } catch (const ResultsWriteError& e) {
      failure = std::string("W") + e.what();
    }
  failure = broadcast_string(failure, 0, MPI_COMM_WORLD);
  if (failure.empty()) return;
  if (failure[0] == 'I') throw InputError(failure.substr(1));
  throw ResultsWriteError(failure.substr(1));
}

}  // namespace harness
