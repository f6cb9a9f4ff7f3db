// ThreadSanitizer's view of the communication thread (scripts/sanitize thread): batches of
// jobs write plain, unsynchronised memory that the submitting thread reads after wait(),
// as the gradient reducer's buckets are. wait() must order the two; a race is a TSan report
// and a non-zero exit. Failing batches are mixed in.
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "measurement/communication_thread.h"

int main() {
  harness::CommunicationThread thread;
  std::vector<long> buckets(4, 0);
  long expected = 0;
  int errors = 0;
  for (int batch = 0; batch < 2000; ++batch) {
    for (auto& bucket : buckets) bucket += 1;  // the "packing", on this thread
    for (std::size_t b = 0; b < buckets.size(); ++b) thread.submit([&, b] { buckets[b] *= 2; });
    if (batch % 97 == 0) thread.submit([] { throw std::runtime_error("injected"); });
    try {
      thread.wait();
    } catch (const std::runtime_error&) {
      ++errors;
    }
    for (auto& bucket : buckets) bucket %= 1000003;  // the "unpacking", after wait()
    expected = ((expected + 1) * 2) % 1000003;
  }
  for (long bucket : buckets)
    if (bucket != expected) {
      std::fprintf(stderr, "communication thread: bucket %ld, expected %ld\n", bucket, expected);
      return 1;
    }
  if (errors != 21) {
    std::fprintf(stderr, "communication thread: %d errors rethrown, expected 21\n", errors);
    return 1;
  }
  std::printf("communication thread: 2000 batches consistent, 21 errors rethrown\n");
  return 0;
}
