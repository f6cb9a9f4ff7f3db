// How fast this rank's CPU runs right now. On a shared VM a virtual CPU spends spells of
// seconds at half speed or worse, invisible to the guest (steal stays near zero): the host
// runs it only part of each of its scheduling periods. A fixed piece of arithmetic, timed as
// one run long enough to span several such periods (a short one, or the best of a few, can
// fall wholly inside a running slice and read full speed), tells the two states apart.
#pragma once

namespace harness {

// Seconds of the fixed kernel now (tens of milliseconds at full speed: several of the host's
// scheduling periods).
double canary_seconds();

// canary_seconds() over the fastest reading this process has seen, which it updates:
// 1.0 at full speed, about 2 in a spell.
double canary_slowdown();

}  // namespace harness
