// search.json, typed: what a search decided at every rung, its winner and what it cost, and the
// one declaration of its fields (record/record_field.h) that its writer, the results reference
// and its JSON Schema (harness --search-schema) follow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/json.h"
#include "record/record_field.h"

namespace harness {

// Bumped when a field of search.json changes meaning, unit or type, or goes away.
inline constexpr int kSearchVersion = 1;

// A configuration's figure at a rung, in the objective's unit.
struct SearchFigure {
  std::optional<double> value, low, high;  // unset: not finite (a target never reached)
  int values = 0;
  std::optional<bool> reached;  // set (false) only when the target was not reached
  std::string problem;          // why there is no usable figure
};

struct SearchEntry {
  std::string point;
  Json axes = Json::object();
  SearchFigure figure;
  bool kept = false;
  std::string reason;
};

struct SearchRungSummary {
  std::size_t bracket = 0;
  std::size_t rung = 0;
  std::optional<int> repetitions;  // the rung's resource, under the resource's name
  std::optional<int> epochs;
  std::optional<double> time_share;  // a screening rung's share of each min_time_s
  bool partial = false;
  std::size_t kept = 0;
  bool distinguishable = false;
  std::vector<SearchEntry> configurations;
};

struct GridCost {
  std::size_t trials = 0;
  std::optional<double> seconds_estimated;  // unset: no trial measured yet
  std::optional<double> share_spent;
};

struct SearchSummary {
  std::string method, objective, resource;
  int eta = 0;
  double budget_s = 0;
  double noise_floor = 0;
  std::string estimator;
  std::optional<std::uint64_t> message_bytes;  // busbw: the size searched (unset: the largest)
  std::size_t configurations = 0;
  bool finished = false;
  std::optional<std::string> stopped;  // unset while the search goes on
  Json winner;                         // its axes; null: none yet
  std::optional<std::string> winner_point;
  std::optional<SearchFigure> winner_figure;
  Json runner_up;
  std::optional<SearchFigure> runner_up_figure;
  bool distinguishable = false;
  std::vector<SearchRungSummary> rungs;
  std::size_t trials = 0;
  double seconds_spent = 0;
  GridCost grid;
};

template <typename V, typename Figure>
IfPart<Figure, SearchFigure> visit(V& v, Figure& f) {
  v.field(f.value, {"value", "", "the estimate, in the objective's unit (null: a target not reached)", kNullable});
  v.field(f.low, {"low", "", "its interval's low end", kNullable});
  v.field(f.high, {"high", "", "its interval's high end", kNullable});
  v.field(f.values, {"values", "", "trials behind it"});
  v.field(f.reached, {"reached", "", "false: the target was not reached", kWhen, "the target was not reached"});
  v.field(f.problem, {"problem", "", "why there is no usable figure", kWhen, "it has no usable figure"});
}

template <typename V, typename Entry>
IfPart<Entry, SearchEntry> visit(V& v, Entry& e) {
  v.field(e.point, {"point", "", "the configuration's sweep point"});
  v.field(e.axes, {"axes", "", "its swept settings (and part)"});
  v.object(e.figure, {"figure", "", "its figure at this rung"});
  v.field(e.kept, {"kept", "", "it goes on to the next rung"});
  v.field(e.reason, {"reason", "", "why it goes on or stops"});
}

template <typename V, typename Rung>
IfPart<Rung, SearchRungSummary> visit(V& v, Rung& r) {
  v.field(r.bracket, {"bracket", "", "the Hyperband bracket, from 0 (0 for the other methods)"});
  v.field(r.rung, {"rung", "", "the rung within its bracket, from 0"});
  v.field(r.repetitions, {"repetitions", "", "repetitions each configuration had", kWhen, "the resource is repetitions"});
  v.field(r.epochs, {"epochs", "", "epochs each configuration trained", kWhen, "the resource is epochs"});
  v.field(r.time_share, {"time_share", "", "the share of each configuration's min_time_s its "
                                            "trials were timed for (search.first_rung_time_share)",
                          kWhen, "a screening rung"});
  v.field(r.partial, {"partial", "", "cut short by the budget"});
  v.field(r.kept, {"kept", "", "configurations that go on"});
  v.field(r.distinguishable, {"distinguishable", "", "the best is clearly ahead of every other"});
  v.objects(r.configurations, {"configurations", "", "each configuration of the rung, best first"});
}

template <typename V, typename Grid>
IfPart<Grid, GridCost> visit(V& v, Grid& g) {
  v.field(g.trials, {"trials", "", "trials the full grid would run"});
  v.field(g.seconds_estimated, {"seconds_estimated", "s", "their wall time, estimated from the trials recorded", kNullable});
  v.field(g.share_spent, {"share_spent", "", "the search's seconds over the grid's", kWhen, "the grid's time is estimated"});
}

template <typename V, typename Summary>
IfPart<Summary, SearchSummary> visit(V& v, Summary& s) {
  v.derived([] { return kSearchVersion; }, {"search_version", "", "the layout of search.json"});
  v.field(s.method, {"method", "", "search.method"});
  v.field(s.objective, {"objective", "", "search.objective"});
  v.field(s.resource, {"resource", "", "what a rung gives more of: repetitions or epochs"});
  v.field(s.eta, {"eta", "", "search.eta: 1/eta of a rung's configurations go on"});
  v.field(s.budget_s, {"budget_s", "s", "search.budget_s"});
  v.field(s.noise_floor, {"noise_floor", "", "search.noise_floor"});
  v.field(s.estimator, {"estimator", "", "how repetitions become a figure"});
  v.field(s.message_bytes, {"message_bytes", "B", "search.message_bytes: the size whose busbw is the objective",
                            kWhen, "the objective is busbw at a chosen size"});
  v.field(s.configurations, {"configurations", "", "configurations searched"});
  v.field(s.finished, {"finished", "", "the search has ended"});
  v.field(s.stopped, {"stopped", "", "why it ended (null while it goes on)", kNullable});
  v.field(s.winner, {"winner", "", "the winner's axes (null: none)", kNullable});
  v.field(s.winner_point, {"winner_point", "", "the winner's sweep point", kNullable});
  v.object(s.winner_figure, {"winner_figure", "", "the winner's figure", kNullable});
  v.field(s.runner_up, {"runner_up", "", "the runner-up's axes (null: none)", kNullable});
  v.object(s.runner_up_figure, {"runner_up_figure", "", "the runner-up's figure", kNullable});
  v.field(s.distinguishable, {"distinguishable", "", "the winner is clearly ahead of the runner-up"});
  v.objects(s.rungs, {"rungs", "", "every rung decided, in order"});
  v.field(s.trials, {"trials", "", "the search's trials recorded"});
  v.field(s.seconds_spent, {"seconds_spent", "s", "their wall time"});
  v.object(s.grid, {"grid", "", "what the full grid would cost"});
}

// search.json's text, its reference (Markdown) and its JSON Schema.
Json to_json(const SearchSummary& summary);
std::string search_reference_markdown();
Json search_json_schema();

}  // namespace harness
