#include "results/rewritten_file.h"

#include "results/file_writing.h"

namespace harness {

void RewrittenFile::record_added(const TrialRun& /*run*/, const std::vector<TrialRun>& all) {
  const double since_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count();
  if (since_s >= kQuietFactor * last_write_s_) {
    write(all);
  } else {
    stale_ = true;
  }
}

void RewrittenFile::sweep_ended(const std::vector<TrialRun>& all) {
  if (stale_) write(all);
}

void RewrittenFile::write(const std::vector<TrialRun>& all) {
  const auto started = std::chrono::steady_clock::now();
  const std::string text = contents(all);
  if (!text.empty()) write_file_atomically(path_, text);
  last_write_ = std::chrono::steady_clock::now();
  last_write_s_ = std::chrono::duration<double>(last_write_ - started).count();
  stale_ = false;
}

}  // namespace harness
