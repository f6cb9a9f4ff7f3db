// How busy the machine was: the noise a benchmark cannot remove but must report. Read from
// /proc (load average, runnable tasks, CPU time by kind) and sysfs (frequency governor).
#pragma once

#include "common/json.h"

namespace harness {

// {"at", "loadavg": [1, 5, 15 min], "runnable", "tasks", "governor" (null when unreadable),
//  "cpu_jiffies": {user, nice, system, idle, iowait, irq, softirq, steal}}
Json machine_state_now();

// Between two states: the shares of all CPU time that went to steal (another guest on the
// host), iowait and non-idle work. Null shares when the times are missing.
Json cpu_shares_between(const Json& start, const Json& end);

}  // namespace harness
