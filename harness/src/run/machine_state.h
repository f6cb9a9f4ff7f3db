// How busy the machine was: the noise a benchmark cannot remove but must report. Read from
// /proc (load average, runnable tasks, CPU time by kind) and sysfs (frequency governor).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace harness {

// CPU time by kind since boot, summed over the CPUs (/proc/stat's "cpu" line), in jiffies.
struct CpuJiffies {
  unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                     steal = 0;
};

// One reading; each figure unset when this machine does not offer it.
struct MachineState {
  std::string at;
  std::optional<std::vector<double>> loadavg;  // over 1, 5 and 15 minutes
  std::optional<long long> runnable, tasks;
  std::optional<std::string> governor;
  std::optional<CpuJiffies> cpu_jiffies;
};

// Between two readings: the shares of all CPU time that went to steal (another guest on the
// host), iowait and non-idle work; unset when the times are missing.
struct CpuShares {
  std::optional<double> steal, iowait, busy;
};

MachineState machine_state_now();

CpuShares cpu_shares_between(const MachineState& start, const MachineState& end);

}  // namespace harness
