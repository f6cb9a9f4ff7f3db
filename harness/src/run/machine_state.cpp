#include "run/machine_state.h"

#include <fstream>
#include <sstream>
#include <string>

#include "common/utc_time.h"

namespace harness {
namespace {

constexpr const char* kCpuFields[] = {"user",   "nice", "system",  "idle",
                                      "iowait", "irq",  "softirq", "steal"};

Json cpu_jiffies() {
  std::ifstream stat("/proc/stat");
  std::string label;
  stat >> label;
  if (label != "cpu") return nullptr;
  Json times = Json::object();
  for (const char* field : kCpuFields) {
    unsigned long long value = 0;
    if (!(stat >> value)) return nullptr;
    times[field] = value;
  }
  return times;
}

// /proc/loadavg: "0.52 0.58 0.59 2/345 12345" (runnable/tasks in the fourth field).
void add_load(Json& state) {
  std::ifstream file("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  std::string tasks;
  if (!(file >> one >> five >> fifteen >> tasks)) return;
  state["loadavg"] = {one, five, fifteen};
  const auto slash = tasks.find('/');
  if (slash == std::string::npos) return;
  state["runnable"] = std::stoll(tasks.substr(0, slash));
  state["tasks"] = std::stoll(tasks.substr(slash + 1));
}

Json governor() {
  std::ifstream file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  std::string name;
  return file >> name ? Json(name) : Json();
}

}  // namespace

Json machine_state_now() {
  Json state = {{"at", utc_now()}, {"loadavg", nullptr}, {"runnable", nullptr}, {"tasks", nullptr}};
  add_load(state);
  state["governor"] = governor();
  state["cpu_jiffies"] = cpu_jiffies();
  return state;
}

Json cpu_shares_between(const Json& start, const Json& end) {
  const Json& a = start.value("cpu_jiffies", Json());
  const Json& b = end.value("cpu_jiffies", Json());
  Json shares = {{"steal", nullptr}, {"iowait", nullptr}, {"busy", nullptr}};
  if (!a.is_object() || !b.is_object()) return shares;
  double total = 0;
  for (const char* field : kCpuFields)
    total += static_cast<double>(b[field].get<unsigned long long>() -
                                 a[field].get<unsigned long long>());
  if (total <= 0) return shares;
  const auto delta = [&](const char* field) {
    return static_cast<double>(b[field].get<unsigned long long>() -
                               a[field].get<unsigned long long>());
  };
  shares["steal"] = delta("steal") / total;
  shares["iowait"] = delta("iowait") / total;
  shares["busy"] = 1 - (delta("idle") + delta("iowait")) / total;
  return shares;
}

}  // namespace harness
