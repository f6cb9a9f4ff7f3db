// The search's decisions on scripted figures: a rung's noise-aware drops, time to target with
// a configuration that never gets there, whole searches replayed from records (as --resume
// does), the budget, and the search block's validation.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>

#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "search/rung_decision.h"
#include "search/search_planner.h"
#include "search/search_summary.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"
#include "test_support.h"

namespace harness {
namespace {

const Estimator kMedian{EstimatorKind::kMedian, 3};

SearchSettings speed_search() {
  SearchSettings search;
  search.on = true;
  search.objective = SearchObjective::kSamplesPerS;
  return search;
}

TrialFigure value(double v) {
  TrialFigure figure;
  figure.usable = true;
  figure.value = v;
  return figure;
}

RungEntry entry(std::size_t configuration, const std::vector<double>& values,
                const SearchSettings& search) {
  std::vector<TrialFigure> figures;
  for (const double v : values) figures.push_back(value(v));
  return {configuration, standing_of(figures, search, kMedian), false, false, ""};
}

const RungEntry& of(const RungDecision& decision, std::size_t configuration) {
  for (const auto& e : decision.ranking)
    if (e.configuration == configuration) return e;
  throw std::logic_error("no such configuration");
}

TEST(SearchRung, ClearLoserDroppedWithinNoisePairKept) {
  const SearchSettings search = speed_search();
  // Five values each: the median's interval is [min, max].
  const RungDecision d = decide_rung(
      {entry(0, {98, 100, 102, 99, 101}, search), entry(1, {97, 99, 101, 98, 100}, search),
       entry(2, {78, 80, 82, 79, 81}, search)},
      search, /*last_rung=*/false);
  EXPECT_EQ(d.ranking[0].configuration, 0u);
  EXPECT_TRUE(of(d, 1).kept);
  EXPECT_NE(of(d, 1).reason.find("within noise"), std::string::npos);
  EXPECT_FALSE(of(d, 2).kept);
  EXPECT_NE(of(d, 2).reason.find("clearly worse"), std::string::npos);
  EXPECT_FALSE(d.distinguishable);  // the runner-up overlaps the best
  EXPECT_EQ(d.kept(), 2u);
}

TEST(SearchRung, ASingleValueGetsTheNoiseFloor) {
  SearchSettings search = speed_search();
  search.noise_floor = 0.03;  // 100 -> [97, 103]
  // 96 -> [93.1, 98.9] reaches 97: within noise; 90 -> [87.3, 92.7]: clearly worse.
  const RungDecision d = decide_rung(
      {entry(0, {100}, search), entry(1, {96}, search), entry(2, {90}, search)}, search, false);
  EXPECT_TRUE(of(d, 1).kept);
  EXPECT_FALSE(of(d, 2).kept);
  EXPECT_NEAR(of(d, 0).standing.low, 97, 1e-9);
}

// A figure the quiet gate could not keep quiet reads low by up to the slowdown it saw: its
// interval reaches what it would read at full speed, so the spell alone does not drop it.
TEST(SearchRung, ASingleValueTakenInASlowSpellIsNotDroppedForIt) {
  SearchSettings search = speed_search();
  search.noise_floor = 0.03;
  const auto slowed = [&](std::size_t configuration, double v, double slowdown) {
    TrialFigure figure = value(v);
    figure.slowdown = slowdown;
    return RungEntry{configuration, standing_of({figure}, search, kMedian), false, false, ""};
  };
  // 80 at 1.5x slow reaches 120; 80 at 1.1x reaches only 88, below the best's 97.
  const RungDecision d =
      decide_rung({entry(0, {100}, search), slowed(1, 80, 1.5), slowed(2, 80, 1.1)}, search, false);
  EXPECT_TRUE(of(d, 1).kept);
  EXPECT_NEAR(of(d, 1).standing.high, 120, 1e-9);
  EXPECT_NEAR(of(d, 1).standing.low, 77.6, 1e-9);
  EXPECT_FALSE(of(d, 2).kept);
  // The record's gate summary is where the slowdown comes from, only when not kept quiet.
  const auto run = [](long long not_quiet) {
    return read_trial_run({{"status", "ok"},
                           {"throughput", {{"samples_per_s", 80}}},
                           {"machine_speed", {{"gate", "on"}, {"not_quiet", not_quiet},
                                              {"slowdown", 1.5}}}});
  };
  EXPECT_DOUBLE_EQ(figure_of(run(1), search).slowdown, 1.5);
  EXPECT_DOUBLE_EQ(figure_of(run(0), search).slowdown, 1.0);
}

TEST(SearchRung, EpochRungsKeepTheTopShareUntilTheLast) {
  SearchSettings search = speed_search();
  search.objective = SearchObjective::kAuroc;
  search.eta = 2;
  const std::vector<RungEntry> entries = {
      entry(0, {0.90, 0.91, 0.89}, search), entry(1, {0.70, 0.71, 0.69}, search),
      entry(2, {0.60, 0.61, 0.59}, search), entry(3, {0.50, 0.51, 0.49}, search)};
  const RungDecision early = decide_rung(entries, search, false);
  EXPECT_TRUE(of(early, 1).kept);  // clearly worse, but in the top half: more epochs may help
  EXPECT_NE(of(early, 1).reason.find("top 1/eta"), std::string::npos);
  EXPECT_FALSE(of(early, 2).kept);
  const RungDecision last = decide_rung(entries, search, true);
  EXPECT_FALSE(of(last, 1).kept);
  EXPECT_TRUE(last.distinguishable);
}

// A train record as the harness writes it, trimmed to what the search reads; the scripted
// figure stands for whichever objective the search reads (samples/s or AUROC).
TrialRun train_record(const Trial& trial, double figure, double wall_s = 1) {
  return read_trial_run({{"key", trial.key},
                         {"point", trial.point},
                         {"repetition", trial.repetition},
                         {"status", "ok"},
                         {"wall_time_s", wall_s},
                         {"throughput", {{"samples_per_s", figure}}},
                         {"detection", {{"auroc", figure}}},
                         {"loss", {{"per_epoch", {0.5}}}}});
}

TEST(SearchFigure, TimeToTargetRanksTheConfigurationThatNeverGetsThereLast) {
  SearchSettings search = speed_search();
  search.objective = SearchObjective::kTimeToTarget;
  const auto ttt = [](bool reached, double target_steps, double steps, double step_ms,
                      double loss) {
    return read_trial_run({{"status", "ok"},
                           {"steps", steps},
                           {"step_time_ms", {{"p50", step_ms}}},
                           {"loss", {{"per_epoch", {loss}}}},
                           {"target", {{"steps", reached ? Json(target_steps) : Json()}}}});
  };
  // fast per step but needs many steps; slow per step but few; never: stops at loss 0.4.
  const TrialFigure fast = figure_of(ttt(true, 900, 1000, 1.0, 0.1), search);    // 0.9 s
  const TrialFigure frugal = figure_of(ttt(true, 100, 1000, 3.0, 0.1), search);  // 0.3 s
  const TrialFigure never = figure_of(ttt(false, 0, 1000, 0.1, 0.4), search);    // >= 0.1 s
  EXPECT_NEAR(fast.value, 0.9, 1e-12);
  EXPECT_NEAR(frugal.value, 0.3, 1e-12);
  EXPECT_FALSE(never.reached);
  EXPECT_NEAR(never.at_least, 0.1, 1e-12);
  const auto standing = [&](const TrialFigure& f, std::size_t c) {
    return RungEntry{c, standing_of({f}, search, kMedian), false, false, ""};
  };
  // Mid-search the one that has not reached it yet, but trained only 0.1 s, may still win.
  const RungDecision early =
      decide_rung({standing(fast, 0), standing(frugal, 1), standing(never, 2)}, search, false);
  EXPECT_EQ(early.ranking[0].configuration, 1u);
  EXPECT_EQ(early.ranking[2].configuration, 2u);
  EXPECT_TRUE(of(early, 2).kept);
  EXPECT_FALSE(of(early, 0).kept);      // 0.9 s [0.87, 0.93] is clearly slower than 0.3 s
  EXPECT_FALSE(early.distinguishable);  // ranked last, yet not clearly slower than the best
  // At the last rung it never reached the target: last, dropped, and said so.
  const RungDecision last = decide_rung({standing(never, 2), standing(frugal, 1)}, search, true);
  EXPECT_EQ(last.ranking.back().configuration, 2u);
  EXPECT_NE(of(last, 2).reason.find("never reached the target"), std::string::npos);
  EXPECT_FALSE(of(last, 2).kept);
}

// A search over a parsed experiment, its trials "run" by a scripted figure per point.
struct ScriptedSearch {
  Experiment experiment;
  std::vector<Trial> configurations;
  std::vector<TrialRun> records;

  explicit ScriptedSearch(
      const std::string& search_block,
      const std::string& sweep = R"({"batch_size": [16, 32, 64, 128, 256, 512]})")
      : experiment(testing::parse_experiment(
            R"({"name": "s", "seed": 1, "settings": {"epochs": 1}, "sweep": )" + sweep +
                R"(, "search": )" + search_block + "}",
            "s.json", {})),
        configurations(expand_trials(experiment)) {}

  SearchPlanner planner() const {
    return SearchPlanner(experiment.search, experiment.estimator, experiment.seed, configurations);
  }
  // Runs the search to its end from the records it has; returns the last state.
  SearchState run(const std::function<double(const Trial&)>& rate, std::size_t at_most = 100000) {
    const SearchPlanner p = planner();
    SearchState state = p.replay(records);
    for (std::size_t n = 0; state.next && n < at_most; ++n) {
      const Trial trial = p.trial(*state.next);
      records.push_back(train_record(trial, rate(trial)));
      state = p.replay(records);
    }
    return state;
  }
};

// Throughput grows with the batch up to 256, then falls; a 2% wobble between repetitions.
double scripted_rate(const Trial& trial) {
  const std::map<int, double> base = {{16, 100},  {32, 180},  {64, 300},
                                      {128, 420}, {256, 500}, {512, 470}};
  const double wobble =
      1 + 0.02 * std::sin(1.7 * trial.repetition + trial.settings["batch_size"].get<int>());
  return base.at(trial.settings["batch_size"].get<int>()) * wobble;
}

TEST(SearchPlanner, SuccessiveHalvingFindsTheBestWithFewerTrialsThanTheGrid) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "max_repetitions": 9})");
  const SearchState state = s.run(scripted_rate);
  ASSERT_TRUE(state.winner);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 256);
  ASSERT_TRUE(state.runner_up);
  EXPECT_EQ(s.configurations[state.runner_up->configuration].settings["batch_size"], 512);
  EXPECT_TRUE(state.distinguishable);
  EXPECT_LT(state.trials, 6u * 9u / 3);  // under a third of the grid's 54 trials
  // The first rung ran every configuration once and dropped the clearly slower ones.
  ASSERT_GE(state.rungs.size(), 2u);
  EXPECT_EQ(state.rungs[0].decision.ranking.size(), 6u);
  EXPECT_EQ(state.rungs[0].decision.kept(), 2u);  // 256 and 512 (470 is within 3% noise)
  const Json summary = to_json(s.planner().summary(state, s.records));
  EXPECT_EQ(summary["winner"], Json({{"batch_size", 256}}));
  EXPECT_EQ(summary["trials"], state.trials);
  EXPECT_EQ(summary["grid"]["trials"], 54);
  EXPECT_TRUE(summary["finished"].get<bool>());
}

TEST(SearchPlanner, AResumedSearchDecidesTheSame) {
  ScriptedSearch whole(R"({"objective": "samples_per_s"})");
  const SearchState ended = whole.run(scripted_rate);
  for (const std::size_t cut : {std::size_t{3}, std::size_t{7}, ended.trials - 1}) {
    ScriptedSearch resumed(R"({"objective": "samples_per_s"})");
    resumed.run(scripted_rate, cut);  // interrupted after `cut` trials
    ASSERT_EQ(resumed.records.size(), cut);
    const SearchState again = resumed.run(scripted_rate);
    EXPECT_EQ(to_json(resumed.planner().summary(again, resumed.records)).dump(),
              to_json(whole.planner().summary(ended, whole.records)).dump())
        << "cut after " << cut;
  }
}

TEST(SearchPlanner, TheBudgetStopsTheSearchAndNamesTheBestSoFar) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "budget_s": 4})");  // 1 s per trial
  const SearchState state = s.run(scripted_rate);
  EXPECT_EQ(state.trials, 4u);
  EXPECT_NE(state.stopped.find("budget_s"), std::string::npos);
  ASSERT_TRUE(state.winner);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 128);
  EXPECT_TRUE(state.rungs.back().partial);
}

TEST(SearchPlanner, WithinNoiseAtTheLastRungIsSaid) {
  // Two configurations 1% apart with a 3% wobble: never distinguishable.
  ScriptedSearch s(R"({"objective": "samples_per_s", "max_repetitions": 9})",
                   R"({"batch_size": [64, 128]})");
  const SearchState state = s.run([](const Trial& t) {
    const double base = t.settings["batch_size"] == 64 ? 100 : 101;
    return base * (1 + 0.03 * std::sin(2.3 * t.repetition));
  });
  ASSERT_TRUE(state.winner);
  EXPECT_FALSE(state.distinguishable);
  EXPECT_NE(state.stopped.find("within noise"), std::string::npos);
  // Both screened on a short window; the top 1/eta (one of two) then ran all 9 repetitions on
  // the whole window; the other kept its screening figure, within noise of the best throughout.
  EXPECT_EQ(state.trials, 2u + 9u);
}

// The first rung times each configuration for a tenth of its window; those it repeats are
// timed on the whole window from the next rung on, their screening figure left out; one kept
// without repetition keeps its screening figure. The grid's estimate counts a screened
// configuration's trial plus the rest of its window.
TEST(SearchPlanner, TheFirstRungScreensOnAShortWindow) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "max_repetitions": 9})",
                   R"({"batch_size": [64, 128, 256, 512], "min_time_s": [2]})");
  std::vector<double> windows;
  int winner_full_trials = 0;  // batch 256's
  const SearchState state = s.run([&](const Trial& t) {
    windows.push_back(t.settings["min_time_s"].get<double>());
    winner_full_trials += t.settings["batch_size"] == 256 && windows.back() == 2.0 ? 1 : 0;
    return scripted_rate(t);
  });
  ASSERT_GE(state.rungs.size(), 2u);
  EXPECT_TRUE(state.rungs[0].screening);
  EXPECT_FALSE(state.rungs[1].screening);
  const std::size_t first = state.rungs[0].decision.ranking.size();
  ASSERT_EQ(first, 4u);
  for (std::size_t i = 0; i < windows.size(); ++i)
    EXPECT_DOUBLE_EQ(windows[i], i < first ? 0.2 : 2.0) << "trial " << i;
  ASSERT_TRUE(state.winner);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 256);
  EXPECT_EQ(state.winner->standing.values, winner_full_trials);  // whole-window trials only
  EXPECT_GE(winner_full_trials, 3);
  const Json summary = to_json(s.planner().summary(state, s.records));
  EXPECT_DOUBLE_EQ(summary["rungs"][0]["time_share"].get<double>(), 0.1);
  EXPECT_FALSE(summary["rungs"][1].contains("time_share"));
  // 1 s per trial recorded: the two screened only (64, 128) at 1 + 0.9 x 2 s, the others 1 s.
  EXPECT_NEAR(summary["grid"]["seconds_estimated"].get<double>(), 9 * (2 * 2.8 + 2 * 1.0), 1e-9);
  EXPECT_NE(s.planner().rung_line(state.rungs[0]).find("10% of the timing window"),
            std::string::npos);
}

// One configuration clearly ahead at the screening rung still gets a rung on the whole
// window: the winner's figure is never a screening run's alone.
TEST(SearchPlanner, AClearWinnerOfTheScreeningIsTimedOnTheWholeWindow) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "max_repetitions": 9})",
                   R"({"batch_size": [16, 256]})");
  const SearchState state = s.run(scripted_rate);
  ASSERT_GE(state.rungs.size(), 2u);
  EXPECT_TRUE(state.rungs[0].decision.distinguishable);
  EXPECT_FALSE(state.rungs[1].screening);
  ASSERT_TRUE(state.winner);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 256);
  EXPECT_EQ(state.winner->standing.values, 3);
}

// search.json follows its own schema with a runner-up and without one (null, not an object).
TEST(SearchPlanner, SearchJsonFollowsItsSchemaWithAndWithoutARunnerUp) {
  ScriptedSearch close(R"({"objective": "samples_per_s", "max_repetitions": 9})");
  const Json with = to_json(close.planner().summary(close.run(scripted_rate), close.records));
  EXPECT_TRUE(with["runner_up_figure"].is_object());
  EXPECT_EQ(schema_problems(search_json_schema(), with), std::vector<std::string>{});

  ScriptedSearch clear(R"({"objective": "samples_per_s", "max_repetitions": 9})",
                       R"({"batch_size": [16, 256]})");
  const SearchState state = clear.run(scripted_rate);
  EXPECT_FALSE(state.runner_up) << "batch 16 is clearly worse: no runner-up";
  const Json without = to_json(clear.planner().summary(state, clear.records));
  EXPECT_TRUE(without["runner_up_figure"].is_null());
  EXPECT_EQ(schema_problems(search_json_schema(), without), std::vector<std::string>{});
}

TEST(SearchPlanner, AWholeWindowFirstRungScreensNothing) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "max_repetitions": 9,
                       "first_rung_time_share": 1})",
                   R"({"batch_size": [64, 128]})");
  const SearchState state = s.run([](const Trial& t) {
    const double base = t.settings["batch_size"] == 64 ? 100 : 101;
    return base * (1 + 0.03 * std::sin(2.3 * t.repetition));
  });
  EXPECT_FALSE(state.rungs[0].screening);
  EXPECT_EQ(state.trials, 10u);  // the first rung's trial counts as the first repetition
}

TEST(SearchPlanner, OnlyTheTopShareOfATieIsRepeated) {
  // Six configurations within 1% of each other: all stay in the running, but only the top
  // third gets the next rung's repetitions (successive halving's budget, not the grid's).
  ScriptedSearch s(R"({"objective": "samples_per_s", "max_repetitions": 9})");
  const SearchState state = s.run([](const Trial& t) {
    return 100 + 0.1 * t.settings["batch_size"].get<int>() / 16 + 0.01 * t.repetition;
  });
  const RungDecision& first = state.rungs.front().decision;
  EXPECT_EQ(first.kept(), 6u);
  std::size_t repeated = 0;
  for (const auto& e : first.ranking) repeated += e.repeated ? 1 : 0;
  EXPECT_EQ(repeated, 2u);
  EXPECT_NE(first.ranking.back().reason.find("not repeated"), std::string::npos);
  EXPECT_LT(state.trials, 6u * 9u / 2);
  ASSERT_TRUE(state.winner);
}

TEST(SearchPlanner, HyperbandBracketsStartFromSubsets) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "method": "hyperband"})");
  const SearchState state = s.run(scripted_rate);
  ASSERT_TRUE(state.winner);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 256);
  std::set<std::size_t> brackets;
  for (const auto& rung : state.rungs) brackets.insert(rung.bracket);
  EXPECT_EQ(brackets.size(), 3u);  // levels 1, 3, 9: s_max = 2
}

TEST(SearchPlanner, GridRunsEveryConfigurationAtTheFullResource) {
  ScriptedSearch s(R"({"objective": "samples_per_s", "method": "grid", "max_repetitions": 3})");
  const SearchState state = s.run(scripted_rate);
  EXPECT_EQ(state.trials, 18u);
  ASSERT_EQ(state.rungs.size(), 1u);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 256);
}

TEST(SearchPlanner, EpochRungsRunTheSameConfigurationWithMoreEpochs) {
  ScriptedSearch s(R"({"objective": "auroc", "min_epochs": 1})", R"({"batch_size": [16, 32, 64]})");
  s.experiment.parts[0].settings["epochs"] = 9;
  s.configurations = expand_trials(s.experiment);
  std::set<int> epochs;
  // AUROC grows with the epochs; batch 16 learns fastest, 64 slowest, 32 in between.
  const SearchState state = s.run([&](const Trial& t) {
    const int e = t.settings["epochs"].get<int>();
    epochs.insert(e);
    const double learns = t.settings["batch_size"] == 16   ? 0.04
                          : t.settings["batch_size"] == 32 ? 0.03
                                                           : 0.01;
    return std::min(0.99, 0.5 + learns * e);
  });
  EXPECT_EQ(epochs, (std::set<int>{1, 3, 9}));
  ASSERT_TRUE(state.winner);
  EXPECT_EQ(s.configurations[state.winner->configuration].settings["batch_size"], 16);
  EXPECT_EQ(state.rungs.back().resource, 9);
}

std::string search_error(const std::string& search, const std::string& extra = "") {
  try {
    testing::parse_experiment(
        R"({"name": "s", "sweep": {"batch_size": [16, 32]}, "search": )" + search + extra + "}",
        "s.json", {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SearchValidation, TheSearchBlockIsCheckedStrictly) {
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s", "method": "bayes"})"),
                  "/search/method");
  EXPECT_CONTAINS(search_error(R"({"objective": "speed"})"), "/search/objective");
  EXPECT_CONTAINS(search_error(R"({"method": "grid"})"), "missing required key \"objective\"");
  EXPECT_CONTAINS(search_error(R"({"objective": "busbw"})"),
                  "\"busbw\" is measured by trials of kind \"collective\"");
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s", "budget_s": 0})"),
                  "/search/budget_s");
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s", "etta": 3})"), "etta");
  EXPECT_CONTAINS(search_error(R"({"objective": "time_to_target"})"), "needs a target");
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s"})", R"(, "repetitions": 3)"),
                  "/repetitions: a search decides");
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s", "min_repetitions": 5,
                                   "max_repetitions": 3})"),
                  "/search/min_repetitions");
  EXPECT_CONTAINS(search_error(R"({"objective": "auroc", "min_epochs": 9})"),
                  "/search/min_epochs: 9 is more than the settings' epochs");
  EXPECT_EQ(search_error(R"({"objective": "samples_per_s"})"), "");
  // A mistyped setting the search reads is named by the settings' own validation.
  EXPECT_CONTAINS(search_error(R"({"objective": "auroc"})", R"(, "settings": {"epochs": "x"})"),
                  "/settings/epochs");
}

TEST(SearchValidation, SampledAxesAreDrawnOncePerSliceAndChecked) {
  const Experiment e = testing::parse_experiment(
      R"({"name": "s", "seed": 4, "sweep": {"batch_size": [16, 32]},
          "search": {"objective": "samples_per_s",
                     "sample": {"optimizer.lr": {"log_range": [1e-4, 1e-1], "count": 3}}}})",
      "s.json", {});
  const Json& lrs = e.parts[0].sweep["optimizer.lr"];
  ASSERT_EQ(lrs.size(), 3u);  // one per decade
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_GE(lrs[i].get<double>(), std::pow(10.0, -4.0 + static_cast<double>(i)));
    EXPECT_LE(lrs[i].get<double>(), std::pow(10.0, -3.0 + static_cast<double>(i)));
  }
  EXPECT_EQ(expand_trials(e).size(), 6u);
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s",
                                   "sample": {"batch_size": {"log_range": [1, 8], "count": 3}}})"),
                  "also swept");
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s",
                                   "sample": {"optimizer.lr": {"log_range": [0, 1], "count": 3}}})"),
                  "both above 0");
  EXPECT_CONTAINS(search_error(R"({"objective": "samples_per_s",
                                   "sample": {"backend": {"range": [0, 1], "count": 3}}})"),
                  "not a numeric setting");
}

}  // namespace
}  // namespace harness
