#include "collective/collective_validation.h"

#include <algorithm>
#include <set>

#include "collective/collective_ops.h"
#include "common/brief.h"
#include "trial/plugin_validation.h"

namespace harness {
namespace {

std::string element_text(const CollectiveSettings& settings) {
  return std::string(plugin::dtype_name(settings.dtype)) + " elements (" +
         std::to_string(plugin::dtype_size(settings.dtype)) + " B each)";
}

// "allgather at world_size 4 (a message splits into one block per rank)".
std::string split_text(const CollectiveSettings& settings) {
  return std::string(plugin::collective_name(settings.collective)) + " at world_size " +
         std::to_string(settings.world_size) + " (a message splits into one block per rank)";
}

// The smallest message a split collective measures: one element per rank.
std::uint64_t smallest_split_bytes(const CollectiveSettings& settings) {
  return plugin::dtype_size(settings.dtype) * static_cast<std::uint64_t>(settings.world_size);
}

// Whether the collective measures a message of `bytes`: a split one needs at least one
// element per rank.
bool measures(const CollectiveSettings& settings, std::uint64_t bytes) {
  return message_count(collective_op(settings.collective), bytes,
                       plugin::dtype_size(settings.dtype), settings.world_size) > 0;
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

// The range runs up from min_bytes: the bound the file gives is the one named.
bool check_range_order(const CollectiveSettings& settings, ValidationContext& context) {
  if (settings.min_bytes <= settings.max_bytes) return true;
  const std::string min = std::to_string(settings.min_bytes);
  const std::string max = std::to_string(settings.max_bytes);
  if (context.is_given("max_bytes"))
    context.add("max_bytes", max + " is below min_bytes = " + min +
                                 "; the sizes run from min_bytes up to max_bytes, so nothing "
                                 "would be measured: give max_bytes >= min_bytes");
  else
    context.add("min_bytes", min + " is above max_bytes = " + max +
                                 " (its default); the sizes run from min_bytes up to max_bytes, "
                                 "so nothing would be measured: raise max_bytes too");
  return false;
}

void check_range(const CollectiveSettings& settings, ValidationContext& context) {
  if (!check_range_order(settings, context)) return;
  const std::string range = "no message size from min_bytes = " +
                            std::to_string(settings.min_bytes) +
                            " to max_bytes = " + std::to_string(settings.max_bytes);
  if (settings.message_bytes.empty())
    context.add("max_bytes", range + " is a whole number of " + element_text(settings) +
                                 "; nothing would be measured");
}

// A split collective leaves out the sizes below one element per rank (as nccl-tests does): a
// trial left with none would measure nothing.
void check_something_measured(const CollectiveSettings& settings, ValidationContext& context) {
  const auto& sizes = settings.message_bytes;
  if (sizes.empty() || std::any_of(sizes.begin(), sizes.end(), [&](std::uint64_t bytes) {
        return measures(settings, bytes);
      }))
    return;
  const bool listed = settings.explicit_sizes;
  context.add(listed ? "sizes" : "max_bytes",
              (listed ? std::string("no size in sizes")
                      : "no message size from min_bytes = " + std::to_string(settings.min_bytes) +
                            " to max_bytes = " + std::to_string(settings.max_bytes)) +
                  " holds at least one " + std::string(plugin::dtype_name(settings.dtype)) +
                  " element (" + std::to_string(plugin::dtype_size(settings.dtype)) +
                  " B) per rank for " + split_text(settings) +
                  "; nothing would be measured: give a size of at least " +
                  std::to_string(smallest_split_bytes(settings)) + " bytes");
}

// max_iters caps the samples iters asks for: below iters it would silently lower it.
void check_sample_counts(const CollectiveSettings& settings, ValidationContext& context) {
  if (settings.max_iters >= settings.iters) return;
  const std::string iters = std::to_string(settings.iters);
  const std::string max_iters = std::to_string(settings.max_iters);
  if (context.is_given("max_iters"))
    context.add("max_iters", max_iters + " is below iters = " + iters +
                                 "; max_iters caps the timed samples per size, so iters could "
                                 "not be reached: give max_iters >= iters");
  else
    context.add("iters", iters + " is above max_iters = " + max_iters +
                             " (its default), the cap on the timed samples per size: raise "
                             "max_iters too");
}

// Settings only some collectives read: given for another, they would be silently ignored (a
// sweep over root for allreduce would run the same trial under two names).
void check_read_by_collective(const CollectiveSettings& settings, ValidationContext& context) {
  const CollectiveOp& op = collective_op(settings.collective);
  const std::string name = plugin::collective_name(settings.collective);
  const auto refuse = [&](const char* field, const std::string& why) {
    context.add(field, brief(*find_path(context.given, field)) + " is not read by " + name + " (" +
                           why + "); remove it, or sweep it zipped with collective (\"collective, " +
                           field + "\")");
  };
  if (!op.rooted && context.is_given("root"))
    refuse("root", "only " + collectives_with(&CollectiveOp::rooted) + " has a root");
  if (!op.reduces && context.is_given("op"))
    refuse("op", "only " + collectives_with(&CollectiveOp::reduces) + " reduce");
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
  if (collective_op(settings.collective).rooted && settings.root >= settings.world_size)
    context.add("root", "rank " + std::to_string(settings.root) + " is outside the group of " +
                            std::to_string(settings.world_size) + " rank(s)");
}

}  // namespace

void validate_collective_trial(const CollectiveSettings& settings, ValidationContext& context) {
  check_offered(context, "collective", settings.backend,
                check_backend(context, settings.backend, settings.backend_params),
                {settings.collective});
  check_root(settings, context);
  check_read_by_collective(settings, context);
  check_sample_counts(settings, context);
  if (settings.explicit_sizes)
    check_explicit_sizes(settings, context);
  else
    check_range(settings, context);
  check_something_measured(settings, context);
  check_searched_size(settings, context);
}

}  // namespace harness
