#pragma once

#include <string>
#include <vector>

namespace harness {

// The candidate closest to word by edit distance, or "" when none is close enough to suggest.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean \"x\"?)" or "", ready to append to a message.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace harness
