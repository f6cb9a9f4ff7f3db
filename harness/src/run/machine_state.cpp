#include "run/machine_state.h"

#include <fstream>

#include "common/utc_time.h"

namespace harness {
namespace {

std::optional<CpuJiffies> cpu_jiffies() {
  std::ifstream stat("/proc/stat");
  std::string label;
  stat >> label;
  if (label != "cpu") return std::nullopt;
  CpuJiffies times;
  if (!(stat >> times.user >> times.nice >> times.system >> times.idle >> times.iowait >>
        times.irq >> times.softirq >> times.steal))
    return std::nullopt;
  return times;
}

// /proc/loadavg: "0.52 0.58 0.59 2/345 12345" (runnable/tasks in the fourth field).
void add_load(MachineState& state) {
  std::ifstream file("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  std::string tasks;
  if (!(file >> one >> five >> fifteen >> tasks)) return;
  state.loadavg = std::vector<double>{one, five, fifteen};
  const auto slash = tasks.find('/');
  if (slash == std::string::npos) return;
  state.runnable = std::stoll(tasks.substr(0, slash));
  state.tasks = std::stoll(tasks.substr(slash + 1));
}

std::optional<std::string> governor() {
  std::ifstream file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  std::string name;
  if (file >> name) return name;
  return std::nullopt;
}

double total(const CpuJiffies& t) {
  return static_cast<double>(t.user + t.nice + t.system + t.idle + t.iowait + t.irq + t.softirq +
                             t.steal);
}

}  // namespace

MachineState machine_state_now() {
  MachineState state;
  state.at = utc_now();
  add_load(state);
  state.governor = governor();
  state.cpu_jiffies = cpu_jiffies();
  return state;
}

CpuShares cpu_shares_between(const MachineState& start, const MachineState& end) {
  if (!start.cpu_jiffies || !end.cpu_jiffies) return {};
  const CpuJiffies& a = *start.cpu_jiffies;
  const CpuJiffies& b = *end.cpu_jiffies;
  const double elapsed = total(b) - total(a);
  if (elapsed <= 0) return {};
  const auto delta = [](unsigned long long from, unsigned long long to) {
    return static_cast<double>(to - from);
  };
  CpuShares shares;
  shares.steal = delta(a.steal, b.steal) / elapsed;
  shares.iowait = delta(a.iowait, b.iowait) / elapsed;
  shares.busy = 1 - (delta(a.idle, b.idle) + delta(a.iowait, b.iowait)) / elapsed;
  return shares;
}

}  // namespace harness
