// A step only rank 0 takes (opening the results folder, writing a record or meta.json). Its
// failure is every rank's: the others would otherwise wait in the next collective for a rank
// that has left, so all learn it and leave together, with the same error.
#pragma once

#include <functional>

namespace harness {

// Collective over MPI_COMM_WORLD. Rank 0 runs `step` (the others pass leader false); an
// InputError or ResultsWriteError it throws is rethrown, with its message, on every rank.
void on_leader(bool leader, const std::function<void()>& step);

}  // namespace harness
