// Every field of meta.json, named once with its unit, presence and meaning, bound to the member
// that holds it (record/record_field.h says what a visitor does). The writer, the reader
// (--resume), the results reference (harness --record-fields) and the JSON Schema (harness
// --meta-schema) all walk these declarations. The order here is the order of the keys.
#pragma once

#include "record/record_field.h"
#include "run/run_meta.h"

namespace harness {

template <typename V, typename Cpu>
IfPart<Cpu, CpuInfo> visit(V& v, Cpu& c) {
  v.field(c.model, {"model", "", "the CPU model (/proc/cpuinfo)"});
  v.field(c.count, {"count", "CPUs", "CPUs of rank 0's host"});
}

template <typename V, typename Mpi>
IfPart<Mpi, MpiInfo> visit(V& v, Mpi& m) {
  v.field(m.library, {"library", "", "the MPI library's version string"});
  v.field(m.world_size, {"world_size", "ranks", "ranks in the job"});
  v.field(m.thread_level, {"thread_level", "", "the MPI thread level granted"});
}

template <typename V, typename Placement>
IfPart<Placement, RankPlacement> visit(V& v, Placement& p) {
  v.field(p.rank, {"rank", "", "the rank in the job"});
  v.field(p.host, {"host", "", "its host name"});
  v.field(p.local_rank, {"local_rank", "", "its rank among the ranks sharing its memory (MPI's "
                                           "view of a host: what backends place GPUs by)"});
  v.field(p.cpus, {"cpus", "", "the CPUs it may run on (\"0-1\", \"0\" when bound to one core)"});
}

template <typename V, typename Binding>
IfPart<Binding, RankBinding> visit(V& v, Binding& b) {
  v.field(b.policy, {"policy", "", "the binding policy Open MPI was given, or its default"});
  v.objects(b.ranks, {"ranks", "", "every rank's placement"});
}

template <typename V, typename Versions>
IfPart<Versions, BuildVersions> visit(V& v, Versions& b) {
  v.field(b.harness, {"harness", "", "the harness's version"});
  v.field(b.plugin_api, {"plugin_api", "", "the plugin API version plugins must match"});
  v.field(b.build_id, {"build_id", "", "the build id plugins must match"});
  v.field(b.libtorch, {"libtorch", "", "the LibTorch version built against"});
  v.field(b.gloo, {"gloo", "", "the Gloo version built against (\"not built\" without it)"});
  v.field(b.nccl, {"nccl", "", "the NCCL version built against (\"not built\" without it)"});
}

template <typename V, typename Plugin>
IfPart<Plugin, PluginEntry> visit(V& v, Plugin& p) {
  v.field(p.name, {"name", "", "the plugin's name"});
  v.field(p.kind, {"kind", "", "model or communicator"});
  v.field(p.version, {"version", "", "its version"});
  v.field(p.path, {"path", "", "the shared library loaded"});
}

template <typename V, typename Seeds>
IfPart<Seeds, SeedsInfo> visit(V& v, Seeds& s) {
  v.field(s.base, {"base", "", "the experiment's seed (a trial's is base + repetition)"});
  v.field(s.repetitions, {"repetitions", "", "repetitions planned per point"});
}

template <typename V, typename Info>
IfPart<Info, EstimatorInfo> visit(V& v, Info& e) {
  v.field(e.name, {"name", "", "how aggregates.csv, the plots and the report turn a point's "
                               "repetitions into its figure: median or k_best"});
  v.field(e.k, {"k", "", "k_best: how many of the fastest repetitions must agree"});
}

template <typename V, typename Mark>
IfPart<Mark, OversubscribedMark> visit(V& v, Mark& o) {
  v.field(o.rule, {"rule", "", "the experiment's oversubscribed rule: measure, once or leave_out"});
  v.field(o.world_sizes, {"world_sizes", "ranks", "the world sizes with more ranks than CPUs on a host"});
  v.field(o.reason, {"reason", "", "for the largest: how many ranks would share how many CPUs"});
}

template <typename V, typename Jiffies>
IfPart<Jiffies, CpuJiffies> visit(V& v, Jiffies& j) {
  v.field(j.user, {"user", "jiffies", "CPU time in user mode since boot, all CPUs"});
  v.field(j.nice, {"nice", "jiffies", "in user mode at low priority"});
  v.field(j.system, {"system", "jiffies", "in the kernel"});
  v.field(j.idle, {"idle", "jiffies", "idle"});
  v.field(j.iowait, {"iowait", "jiffies", "idle while waiting for I/O"});
  v.field(j.irq, {"irq", "jiffies", "serving interrupts"});
  v.field(j.softirq, {"softirq", "jiffies", "serving soft interrupts"});
  v.field(j.steal, {"steal", "jiffies", "taken by another guest of the host"});
}

template <typename V, typename State>
IfPart<State, MachineState> visit(V& v, State& m) {
  v.field(m.at, {"at", "", "when it was read (UTC, ISO 8601)"});
  v.field(m.loadavg, {"loadavg", "", "the load average over 1, 5 and 15 minutes", kNullable});
  v.field(m.runnable, {"runnable", "tasks", "tasks runnable at that moment", kNullable});
  v.field(m.tasks, {"tasks", "tasks", "tasks on the machine", kNullable});
  v.field(m.governor, {"governor", "", "the CPU frequency governor", kNullable});
  v.object(m.cpu_jiffies, {"cpu_jiffies", "", "CPU time by kind since boot", kNullable});
}

template <typename V, typename Shares>
IfPart<Shares, CpuShares> visit(V& v, Shares& s) {
  v.field(s.steal, {"steal", "", "the share of all CPU time another guest of the host took", kNullable});
  v.field(s.iowait, {"iowait", "", "the share spent waiting for I/O", kNullable});
  v.field(s.busy, {"busy", "", "the share neither idle nor waiting for I/O", kNullable});
}

template <typename V, typename Machine>
IfPart<Machine, MachineRecord> visit(V& v, Machine& m) {
  v.object(m.start, {"start", "", "the machine as the sweep started"});
  v.object(m.end, {"end", "", "the machine as it ended", kWhen, "the sweep ran to its end"});
  v.object(m.cpu_shares, {"cpu_shares", "", "how the CPU time between the two went",
                          kWhen, "the sweep ran to its end"});
}

template <typename V, typename Mark>
IfPart<Mark, WatchdogMark> visit(V& v, Mark& w) {
  v.field(w.timeout_s, {"timeout_s", "s", "its deadline per operation", kWhen, "the watchdog is on"});
  v.field(w.off, {"off", "", "why it is off", kWhen, "the watchdog is off"});
}

template <typename V, typename Mark>
IfPart<Mark, SearchMark> visit(V& v, Mark& s) {
  v.field(s.file, {"file", "", "the search's record: search.json"});
  v.field(s.winner, {"winner", "", "the winner's axes (null: none)", kNullable});
  v.field(s.distinguishable, {"distinguishable", "", "the winner is clearly ahead of the runner-up"});
  v.field(s.stopped, {"stopped", "", "why the search ended", kNullable});
}

template <typename V, typename Point>
IfPart<Point, WidePoint> visit(V& v, Point& w) {
  v.field(w.point, {"point", "", "the sweep point"});
  v.field(w.part, {"part", "", "its experiment part"});
  v.field(w.axes, {"axes", "", "its swept settings"});
  v.field(w.relative_width, {"relative_width", "", "its widest interval over its estimate "
                                                   "(null: not finite)", kNullable});
}

template <typename V, typename Summary>
IfPart<Summary, AdaptiveSummary> visit(V& v, Summary& a) {
  v.field(a.max_repetitions, {"max_repetitions", "", "adaptive.max_repetitions"});
  v.field(a.estimator, {"estimator", "", "the estimator whose interval was narrowed"});
  v.field(a.target_ci, {"target_ci", "", "adaptive.target_ci: the relative width aimed at"});
  v.field(a.budget_s, {"budget_s", "s", "adaptive.budget_s"});
  v.field(a.extra_trials, {"extra_trials", "", "trials run beyond the planned repetitions"});
  v.field(a.seconds_spent, {"seconds_spent", "s", "their wall time"});
  v.field(a.points, {"points", "", "the sweep points"});
  v.objects(a.still_wide, {"still_wide", "", "the points still wider than target_ci"});
  v.field(a.stopped_by, {"stopped_by", "",
                         "why the rounds ended: target, max_repetitions, budget, or no_progress "
                         "(a round settled no point)",
                         kWhen, "the rounds ended (not recorded by earlier versions)"});
}

template <typename V, typename Mark>
IfPart<Mark, UnfinishedMark> visit(V& v, Mark& u) {
  v.field(u.meaning, {"meaning", "", "what the mark says"});
  v.field(u.resume_with, {"resume_with", "", "the command that goes on from there"});
}

template <typename V, typename Mark>
IfPart<Mark, InterruptedMark> visit(V& v, Mark& i) {
  v.field(i.by, {"by", "", "the signal: SIGINT or SIGTERM"});
  v.field(i.exit_status, {"exit_status", "", "the job's exit status: 128 + the signal"});
  v.field(i.resume_with, {"resume_with", "", "the command that goes on from there"});
}

template <typename V, typename Mark>
IfPart<Mark, AbortedMark> visit(V& v, Mark& a) {
  v.field(a.by, {"by", "", "what ended the job: the watchdog, or a results file that could not "
                           "be written"});
  v.field(a.at, {"at", "", "when (UTC, ISO 8601)"});
  v.field(a.reason, {"reason", "", "why, as the console said it"});
}

template <typename V, typename Marks>
IfPart<Marks, EndMarks> visit(V& v, Marks& e) {
  v.object(e.unfinished, {"unfinished", "", "the job has not ended normally: it is running, or "
                                            "it was killed outright",
                          kWhen, "the job runs, or was killed"});
  v.object(e.interrupted, {"interrupted", "", "Ctrl-C or SIGTERM stopped the job",
                           kWhen, "a signal stopped the job"});
  v.object(e.aborted, {"aborted", "", "the job was ended before its sweep did",
                       kWhen, "the watchdog or a write failure ended the job"});
  v.field(e.finished_at, {"finished_at", "", "when the sweep ran to its end (UTC, ISO 8601)",
                          kWhen, "the sweep ran to its end"});
}

template <typename V, typename Entry>
IfPart<Entry, Resumption> visit(V& v, Entry& r) {
  v.field(r.at, {"at", "", "when the resuming job started (UTC, ISO 8601)"});
  v.field(r.command, {"command", "", "its command line"});
  v.field(r.experiment, {"experiment", "", "the experiment that added trials",
                         kWhen, "--extend changed the experiment"});
  v.object(r.previous_end, {"previous_end", "", "how the job before it ended (its end marks)",
                            kWhen, "the job before it left a mark"});
}

template <typename V, typename Meta>
IfPart<Meta, RunMeta> visit(V& v, Meta& m) {
  v.derived([] { return kMetaVersion; }, {"schema_version", "", "the layout of meta.json"});
  v.field(m.experiment, {"experiment", "", "the experiment as run: the file's document"});
  v.field(m.experiment_file, {"experiment_file", "", "the experiment file's path"});
  v.field(m.command, {"command", "", "the command line"});
  v.field(m.started_at, {"started_at", "", "when the first job started (UTC, ISO 8601)"});
  v.field(m.git_sha, {"git_sha", "", "the source tree's commit (\"\" outside a git checkout)"});
  v.field(m.git_dirty, {"git_dirty", "", "the source tree had uncommitted changes"});
  v.field(m.host, {"host", "", "rank 0's host name"});
  v.object(m.cpu, {"cpu", "", "rank 0's CPU"});
  v.object(m.mpi, {"mpi", "", "the MPI library and job"});
  v.object(m.binding, {"binding", "", "where each rank ran"});
  v.object(m.versions, {"versions", "", "what the harness was built with"});
  v.objects(m.plugins, {"plugins", "", "the plugins loaded"});
  v.object(m.seeds, {"seeds", "", "the seeds"});
  v.object(m.estimator, {"estimator", "", "how a point's repetitions become its figure"});
  v.field(m.model_files, {"model_files", "", "path -> content hash of each model file the trials "
                                             "read, as this job read them",
                          kWhen, "a setting names a model file"});
  v.object(m.oversubscribed, {"oversubscribed", "", "world sizes with more ranks than CPUs on a "
                                                    "host, and how their points ran",
                              kWhen, "a world size is oversubscribed"});
  v.objects(m.resumed, {"resumed", "", "each job that resumed the folder, in order",
                        kWhen, "the folder was resumed"});
  v.object(m.machine, {"machine", "", "how busy the machine was at start and end",
                       kWhen, "the sweep started"});
  v.object(m.watchdog, {"watchdog", "", "the stuck-rank watchdog: its deadline or why it is off",
                        kWhen, "the sweep started"});
  v.object(m.search, {"search", "", "where the search ended; search.json holds the rest",
                      kWhen, "the experiment searches"});
  v.object(m.adaptive_repetitions, {"adaptive_repetitions", "", "what the adaptive repetitions did",
                                    kWhen, "adaptive repetitions are on"});
  visit(v, m.end);
}

}  // namespace harness
