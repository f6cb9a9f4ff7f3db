#include "mpi/string_gather.h"

#include <climits>
#include <stdexcept>

#include "mpi/mpi_check.h"

namespace harness {

std::vector<std::string> gather_strings(const std::string& text, int root, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // A rank whose text does not fit an int count sends a note saying so instead.
  const std::string sent = text.size() > INT_MAX / 2
                               ? "(" + std::to_string(text.size()) + " bytes: too long to gather)"
                               : text;
  int length = static_cast<int>(sent.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  check_mpi(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm), "MPI_Gather");
  std::vector<int> offsets(lengths.size(), 0);
  long long total = 0;
  if (rank == root) {
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      offsets[i] = static_cast<int>(total);
      total += lengths[i];
    }
    if (total > INT_MAX)
      throw std::runtime_error("gather_strings: " + std::to_string(total) +
                               " bytes exceed MPI's int count");
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  check_mpi(MPI_Gatherv(sent.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                        MPI_CHAR, root, comm),
            "MPI_Gatherv");
  std::vector<std::string> texts;
  if (rank != root) return texts;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    texts.push_back(
        all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  return texts;
}

}  // namespace harness
