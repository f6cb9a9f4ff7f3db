#include "collective/collective_validation.h"

#include <algorithm>
#include <set>

#include "trial/plugin_validation.h"

namespace harness {
namespace {

std::string element_text(const CollectiveSettings& settings) {
  return std::string(plugin::dtype_name(settings.dtype)) + " elements (" +
         std::to_string(plugin::dtype_size(settings.dtype)) + " B each)";
}

// Explicit sizes are measured as given: a size that is no whole number of elements, or one
// listed twice, would silently measure another size or the same one again.
void check_explicit_sizes(const CollectiveSettings& settings, ValidationContext& context) {
  const std::uint64_t element = plugin::dtype_size(settings.dtype);
  std::set<std::uint64_t> seen;
  for (std::size_t i = 0; i < settings.message_bytes.size(); ++i) {
    const std::uint64_t bytes = settings.message_bytes[i];
    if (bytes % element != 0)
      context.add("sizes", "sizes[" + std::to_string(i) + "] = " + std::to_string(bytes) +
                               " bytes is not a whole number of " + element_text(settings) +
                               "; give a multiple of " + std::to_string(element));
    else if (!seen.insert(bytes).second)
      context.add("sizes", "sizes[" + std::to_string(i) + "] = " + std::to_string(bytes) +
                               " bytes is listed twice; list each size once");
  }
  for (const char* range_field : {"min_bytes", "max_bytes", "step_factor"})
    if (context.is_given(range_field))
      context.add(range_field, std::string("not read when sizes is given (sizes replaces "
                                           "min_bytes, max_bytes and step_factor); remove one"));
}

void check_range(const CollectiveSettings& settings, ValidationContext& context) {
  if (!settings.message_bytes.empty()) return;
  context.add("max_bytes",
              "no message size from min_bytes = " + std::to_string(settings.min_bytes) +
                  " to max_bytes = " + std::to_string(settings.max_bytes) +
                  " is a whole number of " + element_text(settings) +
                  "; nothing would be measured");
}

// A busbw search judges each trial by the bus bandwidth at search.message_bytes: a size the
// trial does not measure would leave every configuration without a figure.
void check_searched_size(const CollectiveSettings& settings, ValidationContext& context) {
  const SearchSettings* search = context.search;
  if (!search || !search->on || search->objective != SearchObjective::kBusbw ||
      !search->message_bytes)
    return;
  const auto& sizes = settings.message_bytes;
  if (sizes.empty() || std::find(sizes.begin(), sizes.end(), *search->message_bytes) != sizes.end())
    return;
  std::string listed;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (sizes.size() <= 8 || i < 3 || i + 3 >= sizes.size())
      listed += (listed.empty() ? "" : ", ") + std::to_string(sizes[i]);
    else if (i == 3)
      listed += ", ...";
  context.errors.add("/search/message_bytes: " + std::to_string(*search->message_bytes) +
                     " is not a size the trials of " +
                     (context.part.pointer.empty() ? std::string("the experiment")
                                                   : context.part.pointer) +
                     " measure (" + listed + " bytes); give one of them");
}

void check_root(const CollectiveSettings& settings, ValidationContext& context) {
  if (settings.root >= settings.world_size)
    context.add("root", "rank " + std::to_string(settings.root) + " is outside the group of " +
                            std::to_string(settings.world_size) + " rank(s)");
}

}  // namespace

void validate_collective_trial(const CollectiveSettings& settings, ValidationContext& context) {
  check_offered(context, "collective", settings.backend,
                check_backend(context, settings.backend, settings.backend_params),
                {settings.collective});
  check_root(settings, context);
  if (settings.explicit_sizes)
    check_explicit_sizes(settings, context);
  else
    check_range(settings, context);
  check_searched_size(settings, context);
}

}  // namespace harness
