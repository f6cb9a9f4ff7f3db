#include "run/run_metadata.h"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include "common/build_info.h"
#include "common/utc_time.h"
#include "mpi/mpi_check.h"
#include "mpi/mpi_runtime.h"
#include "mpi/trial_groups.h"
#include "train/libtorch_version.h"

namespace harness {
namespace {

std::string command_output(const std::string& command) {
  std::string out;
  if (std::FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    pclose(pipe);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

// The CPUs this process may run on, e.g. "0-1" or "0" when bound to one core.
std::string cpu_binding() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "unknown";
  std::string text;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    int last = cpu;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
    text += (text.empty() ? "" : ",") + std::to_string(cpu) +
            (last > cpu ? "-" + std::to_string(last) : "");
    cpu = last;
  }
  return text;
}

std::string hostname() {
  char name[256] = {0};
  gethostname(name, sizeof name - 1);
  return name;
}

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

// Each rank's host, local rank (among the ranks sharing its memory: MPI's view of a host,
// what backends place GPUs by) and CPU binding; complete on rank 0.
std::vector<RankPlacement> gather_rank_placement(MPI_Comm world) {
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  // host|local rank|binding of every rank, fixed-width so one MPI_Gather carries them.
  constexpr int kWidth = 256;
  std::string mine = hostname() + "|" + std::to_string(local_rank(world)) + "|" + cpu_binding();
  mine.resize(kWidth, '\0');
  std::vector<char> all(static_cast<std::size_t>(kWidth) * size);
  check_mpi(MPI_Gather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, 0, world),
            "MPI_Gather");
  std::vector<RankPlacement> ranks;
  if (rank != 0) return ranks;
  for (int r = 0; r < size; ++r) {
    const std::string entry(all.data() + static_cast<std::size_t>(r) * kWidth);
    const auto bar = entry.find('|'), second = entry.find('|', bar + 1);
    ranks.push_back({r, entry.substr(0, bar), std::stoi(entry.substr(bar + 1, second - bar - 1)),
                     entry.substr(second + 1)});
  }
  return ranks;
}

std::vector<PluginEntry> plugin_list(const PluginRegistry& plugins) {
  std::vector<PluginEntry> list;
  for (const auto& p : plugins.plugins())
    list.push_back({p.name, plugin::plugin_kind_name(p.kind), p.version, p.path});
  return list;
}

std::string joined(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& word : words) line += (line.empty() ? "" : " ") + word;
  return line;
}

BuildVersions build_versions() {
  return {harness_version(), plugin::kApiVersion, plugin::kBuildId, libtorch_version(),
          gloo_version_built(), nccl_version_built()};
}

}  // namespace

RunMeta collect_run_metadata(const Experiment& experiment, const std::vector<std::string>& command,
                             const PluginRegistry& plugins, MPI_Comm world) {
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  std::vector<RankPlacement> ranks = gather_rank_placement(world);
  if (rank != 0) return {};
  const std::string git = std::string("git -C '") + source_directory() + "'";

  RunMeta meta;
  meta.experiment = experiment.document;
  meta.experiment_file = experiment.source;
  meta.command = joined(command);
  meta.started_at = utc_now();
  meta.git_sha = command_output(git + " rev-parse HEAD 2>/dev/null");
  meta.git_dirty =
      !command_output(git + " status --porcelain --untracked-files=no 2>/dev/null").empty();
  meta.host = hostname();
  meta.cpu = {cpu_model(), std::thread::hardware_concurrency()};
  meta.mpi = {mpi_library_version(), size, mpi_thread_level_name(mpi_thread_level())};
  meta.binding = {env_or("OMPI_MCA_hwloc_base_binding_policy",
                         "default (OpenMPI: core for np<=2, socket otherwise)"),
                  std::move(ranks)};
  meta.versions = build_versions();
  meta.plugins = plugin_list(plugins);
  meta.seeds = {experiment.seed, experiment.repetitions};
  meta.estimator = {estimator_name(experiment.estimator.kind), experiment.estimator.k};
  return meta;
}

}  // namespace harness
