// Every panel's view-model — what it would draw — checked without a window.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/state/app_state.h"
#include "app/state/scenario.h"
#include "app/state/session.h"
#include "app/view/block_view_model.h"
#include "app/view/code_model.h"
#include "app/view/controls_model.h"
#include "app/view/global_arrays_model.h"
#include "app/view/hazards_model.h"
#include "app/view/metrics_model.h"
#include "app/view/model_cache.h"
#include "app/view/race_lab_model.h"
#include "app/view/results_model.h"
#include "app/view/timeline_model.h"
#include "tests/test_util.h"
#include "tests/view_test_util.h"

namespace syncscope::app {
namespace {

using test::Strings;
using test::run;
using test::texts;

// ---- the step view's model cache ----

// Two blocks side by side over nine steps asked for 18 models in one stretch of frames; the old
// cache cleared itself at 16 while the panel still held pointers into it.
TEST(ModelCache, WhatAFrameHoldsOutlivesEviction) {
  ModelCache<int, std::string> cache(4);
  int made = 0;
  std::vector<std::shared_ptr<const std::string>> frame;
  for (int k = 0; k < 18; ++k) frame.push_back(cache.get(k, [&] { ++made; return "model " + std::to_string(k); }));
  EXPECT_EQ(made, 18);
  EXPECT_EQ(cache.size(), 4u);
  for (int k = 0; k < 18; ++k) EXPECT_EQ(*frame[k], "model " + std::to_string(k));
}

TEST(ModelCache, EvictsTheLeastRecentlyUsed) {
  ModelCache<int, int> cache(2);
  int made = 0;
  auto make = [&](int v) { return [&made, v] { ++made; return v * 10; }; };
  cache.get(1, make(1));
  cache.get(2, make(2));
  EXPECT_EQ(*cache.get(1, make(1)), 10);  // 1 is now the most recent: 2 goes next
  cache.get(3, make(3));
  EXPECT_EQ(made, 3);
  cache.get(1, make(1));
  EXPECT_EQ(made, 3) << "1 was used last and must still be there";
  cache.get(2, make(2));
  EXPECT_EQ(made, 4) << "2 was the least recently used and must have been evicted";
}

// ---- controls ----

TEST(ControlsModel, DefaultFormIsTheDefaultDemo) {
  const FormCheck c = check_form(builtin_registry(), ControlsForm{});
  ASSERT_TRUE(c.config);
  EXPECT_TRUE(c.errors.empty());
  EXPECT_EQ(c.config->describe(), "kogge-stone n=8 tpb=8 blocks=1 dtype=float32 input=iota schedule=lockstep");
}

TEST(ControlsModel, BadFieldGetsItsMessageAndNoConfig) {
  ControlsForm f;
  f.tpb = 2000;
  FormCheck c = check_form(builtin_registry(), f);
  EXPECT_FALSE(c.config);
  ASSERT_EQ(c.errors.count(ConfigField::Tpb), 1u);
  EXPECT_EQ(c.errors[ConfigField::Tpb], "2000: threads per block must be 1..1024");
  f = ControlsForm{};
  f.input = InputChoice::Values;
  f.values = "1,2,x";
  c = check_form(builtin_registry(), f);
  ASSERT_EQ(c.errors.count(ConfigField::Input), 1u);
  EXPECT_NE(c.errors[ConfigField::Input].find("'x'"), std::string::npos);
  f = ControlsForm{};
  f.algorithm = "block-reduce";
  f.tpb = 48;
  c = check_form(builtin_registry(), f);
  ASSERT_EQ(c.errors.count(ConfigField::Tpb), 1u);
  // The algorithm's own wording, its value split off like every other field's.
  EXPECT_EQ(c.errors[ConfigField::Tpb].rfind("48: block-reduce halves the block", 0), 0u) << c.errors[ConfigField::Tpb];
  EXPECT_NE(c.errors[ConfigField::Tpb].find("power of two"), std::string::npos);
  // A seed box holds an int: a negative one is refused, not wrapped into another seed.
  f = ControlsForm{};
  f.schedule = ScheduleChoice::Random;
  f.schedule_seed = -3;
  c = check_form(builtin_registry(), f);
  EXPECT_FALSE(c.config);
  EXPECT_EQ(c.errors.at(ConfigField::Schedule), "-3: a seed is a whole number, 0 or more");
}

TEST(ControlsModel, AlgorithmsGroupedAndFormRoundTrips) {
  const ControlsModel m = build_controls_model(builtin_registry(), ControlsForm{}, nullptr);
  ASSERT_EQ(m.groups.size(), 4u);  // scans, reductions, then the performance lab's two ladders
  EXPECT_EQ(m.groups[2].title, "reduction ladder");
  EXPECT_EQ(m.groups[3].title, "scan ladder");
  EXPECT_EQ(m.groups[0].title, "scans");
  EXPECT_EQ(m.groups[0].algorithms.front(), "kogge-stone");
  EXPECT_NE(std::find(m.groups[1].algorithms.begin(), m.groups[1].algorithms.end(), "axis-sum"), m.groups[1].algorithms.end());
  ControlsForm f;
  f.algorithm = "axis-sum";
  f = f.with_algorithm(*builtin_registry().find("axis-sum"));
  EXPECT_EQ(f.rows, 4);
  EXPECT_EQ(f.n, 6);
  f.input = InputChoice::Random;
  f.input_seed = 42;
  f.schedule = ScheduleChoice::Reverse;
  const FormCheck c = check_form(builtin_registry(), f);
  ASSERT_TRUE(c.config);
  const ControlsForm back = ControlsForm::from(*c.config);
  EXPECT_EQ(back.rows, 4);
  EXPECT_EQ(back.input_seed, 42);
  EXPECT_EQ(back.schedule, ScheduleChoice::Reverse);
  EXPECT_TRUE(build_controls_model(builtin_registry(), f, nullptr).two_dimensional);
}

TEST(ControlsModel, TheShapeIsTheRunsFirstGrid) {
  // scan-4 takes 16 elements a thread below 2^22: 4096 elements at 32 threads are 8 tiles, not 4096 / 32.
  const auto r = run({.algorithm = "scan-4-decoupled-lookback"});
  const ControlsModel m = build_controls_model(builtin_registry(), ControlsForm::from(r->config), r.get());
  EXPECT_EQ(m.shape.rfind("8 blocks × 32 threads · ", 0), 0u) << m.shape;
  const auto one = run({.algorithm = "kogge-stone"});
  EXPECT_EQ(build_controls_model(builtin_registry(), ControlsForm{}, one.get()).shape.rfind("1 block × 8 threads", 0), 0u);
}

// ---- timeline and app state ----

TEST(TimelineModel, OneMarkPerStepGroupedByLaunch) {
  AppState s;
  s.show(run({.algorithm = "two-phase-scan"}));
  const TimelineModel m = build_timeline(s);
  ASSERT_EQ(m.launches.size(), 2u);
  EXPECT_EQ(m.launches[0].steps, 8);
  EXPECT_EQ(m.launches[1].steps, 2);
  EXPECT_EQ(m.launches[1].first, 8);
  EXPECT_EQ(m.marks.size(), 10u);
  EXPECT_EQ(m.marks[0].label.rfind("two_phase_scan.h:", 0), 0u);
  EXPECT_EQ(m.marks[1].label.rfind("kogge_stone.h:", 0), 0u);
  EXPECT_EQ(m.marks[7].label, "exit");
  EXPECT_EQ(m.where.rfind("launch 1/2 · step 0/7 · ends at barrier two_phase_scan.h:", 0), 0u);
}

TEST(AppState, PlayWalksThroughTheOperationsOfEachStepWhileReplaying) {
  AppState s;
  s.show(run({.algorithm = "kogge-stone"}));
  s.go_to(1);
  s.set_replay_total(3);  // what the step view found in this step
  s.move_replay(1);       // "." from the whole step: the first operation has run
  EXPECT_EQ(s.replay(), 1);
  s.move_replay(5);
  EXPECT_EQ(s.replay(), 3);  // not past the step's end
  s.move_replay(-4);
  EXPECT_EQ(s.replay(), -1);  // "," past the start: the whole step again
  s.set_replay(0);
  s.toggle_play();
  s.playback().steps_per_second = 1;  // four operations per second
  s.tick(0.5);
  EXPECT_EQ(s.replay(), 2);
  EXPECT_EQ(s.position(), 1);
  s.tick(0.5);  // one more operation, then the next step, which starts at its beginning
  EXPECT_EQ(s.position(), 2);
  EXPECT_EQ(s.replay(), 0);
  s.set_replay(-1);
  s.go_to(4);
  EXPECT_EQ(s.replay(), -1);  // out of replay, steps show whole
}

TEST(AppState, StepsPlaysAndStopsAtTheEnd) {
  AppState s;
  s.show(run({.algorithm = "kogge-stone"}));
  EXPECT_EQ(s.timeline().size(), 8);
  s.step_back();
  EXPECT_EQ(s.position(), 0);
  s.step_forward();
  s.step_forward();
  EXPECT_EQ(s.step(), 2);
  s.last();
  EXPECT_EQ(s.step(), 7);
  s.toggle_play();  // at the end: plays again from the start
  EXPECT_EQ(s.position(), 0);
  s.playback().steps_per_second = 4;
  EXPECT_TRUE(s.tick(0.5));
  EXPECT_EQ(s.position(), 2);
  s.tick(10);
  EXPECT_EQ(s.position(), 7);
  EXPECT_FALSE(s.playback().playing);
  // A new run keeps the position where it exists.
  s.go_to(3);
  s.show(run({.algorithm = "kogge-stone", .dtype = "int32"}));
  EXPECT_EQ(s.position(), 3);
  EXPECT_NE(s.describe_json().find("\"step\":3"), std::string::npos);
}

// ---- block view ----

TEST(BlockViewModel, WritePhaseOfSeed003) {
  const auto r = run({.algorithm = "kogge-stone"});
  const BlockViewModel m = build_block_view(*r, 0, 2, 0);
  ASSERT_TRUE(m.available);
  EXPECT_EQ(m.threads, 8);
  EXPECT_EQ(m.warps, 1);
  EXPECT_EQ(m.phase, "write phase");
  ASSERT_EQ(m.arrays.size(), 1u);
  EXPECT_EQ(texts(m.arrays[0].before), (Strings{"0", "1", "2", "3", "4", "5", "6", "7"}));
  EXPECT_EQ(texts(m.arrays[0].after), (Strings{"0", "1", "3", "5", "7", "9", "11", "13"}));
  EXPECT_FALSE(m.arrays[0].after[1].changed);  // 1 + 0
  EXPECT_TRUE(m.arrays[0].after[2].changed);
  EXPECT_FALSE(m.thread_views[0].active);  // T0 does nothing at offset 1
  EXPECT_TRUE(m.thread_views[7].active);
  ASSERT_EQ(m.writes.size(), 7u);
  for (const ArrowView& w : m.writes) EXPECT_EQ(w.index, w.thread);
  EXPECT_EQ(m.reads.size(), 7u);  // += reads the own cell
  EXPECT_EQ(m.arrays[0].after[7].shade, 1.0f);
  EXPECT_EQ(m.arrays[0].before[0].shade, 0.0f);
}

TEST(BlockViewModel, ReadPhaseArrowsComeFromTheLeftNeighbour) {
  const auto r = run({.algorithm = "kogge-stone"});
  const BlockViewModel m = build_block_view(*r, 0, 3, 0);  // offset 2, read phase
  EXPECT_EQ(m.phase, "read phase");
  EXPECT_TRUE(m.writes.empty());
  ASSERT_EQ(m.reads.size(), 6u);
  for (const ArrowView& a : m.reads) EXPECT_EQ(a.index, a.thread - 2);
  EXPECT_TRUE(m.arrays[0].before[0].read);
  EXPECT_FALSE(m.arrays[0].before[7].read);
  EXPECT_EQ(m.thread_views[4].events.front().rfind("reads shared[2] = 3", 0), 0u);
}

TEST(BlockViewModel, PoisonAndWhoWroteACell) {
  const auto r = run({.algorithm = "two-phase-scan"});
  const BlockViewModel load = build_block_view(*r, 0, 0, 1);
  EXPECT_EQ(load.phase, "load");
  EXPECT_EQ(load.arrays[0].after[7].text, "?");
  EXPECT_TRUE(load.arrays[0].after[7].poison);
  EXPECT_TRUE(load.arrays[0].before[0].poison);  // fresh shared memory
  EXPECT_EQ(cell_origin(*r, 0, 1, load.arrays[0].array, 6, 4).text().rfind("written by T6 in step 4 at kogge_stone.h:", 0), 0u);
  EXPECT_EQ(cell_origin(*r, 0, 1, load.arrays[0].array, 7, 0).text(), "never written: uninitialized (?)");
  EXPECT_FALSE(build_block_view(*r, 0, 0, 5).available);
}

TEST(BlockViewModel, WarpsOfALargeBlock) {
  const auto r = run({.algorithm = "block-exclusive-sum", .n = 1024, .tpb = 1024});
  const BlockViewModel m = build_block_view(*r, 0, 0, 0);
  EXPECT_EQ(m.threads, 1024);
  EXPECT_EQ(m.warps, 32);
  EXPECT_EQ(m.phase, "load + warp shuffles");
  // Lane 0 of every warp writes its warp's total.
  EXPECT_EQ(m.writes.size(), 32u);
}

// ---- global arrays ----

TEST(GlobalArraysModel, ExtendedBufferFillsAsTheBlocksWrite) {
  const auto r = run({.algorithm = "two-phase-scan"});
  const GlobalArraysModel start = build_global_arrays(*r, 0, 0);
  ASSERT_EQ(start.arrays.size(), 2u);
  EXPECT_EQ(start.arrays[0].role, "input");
  EXPECT_EQ(start.arrays[1].role, "output");
  EXPECT_EQ(start.arrays[1].size(), 17);
  EXPECT_EQ(start.arrays[1].element_text(0), "?");
  EXPECT_TRUE(start.arrays[0].read_now(3));
  const GlobalArraysModel end = build_global_arrays(*r, 0, 7);
  EXPECT_EQ(end.arrays[1].element_text(14), "77");
  EXPECT_EQ(end.arrays[1].element_text(15), "28");
  EXPECT_EQ(end.arrays[1].element_text(16), "?");
  EXPECT_TRUE(end.arrays[1].written_now(15));
  EXPECT_FALSE(start.arrays[1].written_now(15));
  // The overview: memory before the launch (uninitialized: NaN) and what the blocks wrote since,
  // block 1's sum from uninitialized shared memory written as '?' (NaN).
  EXPECT_TRUE(std::isnan(end.arrays[1].before->shades[15]));
  ASSERT_EQ(end.arrays[1].written.size(), 17u);
  EXPECT_EQ(end.arrays[1].written[15].shade, 28.0f);
  EXPECT_TRUE(end.arrays[1].written[16].poison);
  EXPECT_TRUE(std::isnan(end.arrays[1].written[16].shade));
  // Every step of the launch shares the memory before it.
  bool at_end = true;
  const auto before = memory_before_launch(*r, 0, &at_end);
  EXPECT_FALSE(at_end);
  EXPECT_EQ(build_global_arrays(*r, 0, 3, before, at_end).arrays[1].before, before[1]);
  EXPECT_EQ(block_of_element(*r, 0, 9), 1);
}

// A CUDA program's result is what its main() returned, in a cell of syncscope's own: the Results
// panel says it; the Global arrays panel shows only the program's device memory.
TEST(GlobalArraysModel, AProgramsMainReturnedIsNoDeviceArray) {
  const auto r = run({.algorithm = "two-phase-scan"});
  AlgorithmEntry program = *r->config.algorithm;
  program.info.program = true;
  RunResult as_program = *r;
  as_program.config.algorithm = &program;
  ASSERT_EQ(as_program.sim.output_array, 1);
  const GlobalArraysModel m = build_global_arrays(as_program, 0, 0);
  ASSERT_EQ(m.arrays.size(), 1u);
  EXPECT_EQ(m.arrays[0].array, 0);
  EXPECT_EQ(m.arrays[0].role, "");
  EXPECT_EQ(build_global_arrays(*r, 0, 0).arrays.size(), 2u) << "an algorithm's output is its own array";
}

// ---- code ----

TEST(CodeModel, BarrierLineHighlightedAndExecutedLinesMarked) {
  const auto r = run({.algorithm = "kogge-stone"});
  const CodeModel m = build_code_view(*r, 0, 1, 0, "");
  ASSERT_TRUE(m.missing.empty());
  EXPECT_EQ(m.files[m.file], "kernels/kogge_stone.h");
  int barriers = 0;
  for (const auto& l : m.lines) {
    if (l.barrier) {
      ++barriers;
      EXPECT_NE(l.text.find("c.sync()"), std::string::npos);
      EXPECT_EQ(m.focus_line, l.number);
    }
    if (l.executed) {
      EXPECT_NE(l.text.find("partner = s[t - offset]"), std::string::npos) << l.text;
    }
  }
  EXPECT_EQ(barriers, 1);
  // The two-phase scan's first step ends in its own file.
  const CodeModel two = build_code_view(*run({.algorithm = "two-phase-scan"}), 0, 0, 0, "");
  EXPECT_EQ(two.files[two.file], "kernels/two_phase_scan.h");
}

// ---- results ----

TEST(ResultsModel, SideBySideWithGpuDiff) {
  const auto r = run({.algorithm = "kogge-stone"});
  GpuStatus none{false, "", "CUDA driver version is insufficient for CUDA runtime version"};
  ResultsModel m = build_results(*r, nullptr, false, &none);
  ASSERT_EQ(m.rows.size(), 8u);
  EXPECT_EQ(m.rows[7].cpu, "28");
  EXPECT_EQ(m.rows[7].sim, "28");
  EXPECT_TRUE(m.sim_ok);
  EXPECT_EQ(m.gpu_status, "GPU unavailable: CUDA driver version is insufficient for CUDA runtime version");
  EXPECT_FALSE(m.has_gpu_column);

  GpuAnswer a;
  a.for_run = r;
  a.status = {true, "Test GPU (sm_90)", ""};
  a.gpu.ok = true;
  a.gpu.output_bits = r->sim.output_bits;
  a.gpu.output_bits[5] = sim::to_bits(99.0f);
  a.compared = compare_gpu_output(*r, a.gpu.output_bits);  // as the GPU worker does
  m = build_results(*r, &a, false, &a.status);
  EXPECT_TRUE(m.has_gpu_column);
  EXPECT_TRUE(m.rows[5].gpu_differs_from_sim);
  EXPECT_TRUE(m.rows[5].gpu_differs);
  EXPECT_FALSE(m.rows[4].gpu_differs_from_sim);
  EXPECT_FALSE(m.gpu_ok);
  EXPECT_EQ(m.gpu_verdict, "GPU ≠ simulator: 1 element differs; 1 differs from the CPU");
  EXPECT_EQ(build_results(*r, nullptr, true, &a.status).gpu_status, "GPU: running…");
}

TEST(ResultsModel, AProgramsVerdictIsWhatItsMainReturned) {
  const auto r = run({.algorithm = "kogge-stone"});
  AlgorithmEntry program = *r->config.algorithm;
  program.info.program = true;
  RunResult failed = *r;
  failed.config.algorithm = &program;
  failed.sim.output_bits = {1};
  failed.expected = {0};
  const ResultsModel m = build_results(failed, nullptr, false, nullptr);
  EXPECT_EQ(m.sim_verdict, "main() returned 1: the program's own check failed");
  EXPECT_FALSE(m.sim_ok);
  EXPECT_EQ(m.row_count, 0);  // no element table: the program compared its own results
  failed.sim.output_bits = {0};
  EXPECT_EQ(build_results(failed, nullptr, false, nullptr).sim_verdict, "main() returned 0: the program's own check passed");
  // Run on GPU compiles the program with nvcc and runs its main(): its copies to the host are the verdict.
  EXPECT_TRUE(m.can_run_gpu);
  EXPECT_NE(m.gpu_status.find("nvcc"), std::string::npos) << m.gpu_status;
  EXPECT_EQ(build_results(failed, nullptr, true, nullptr).gpu_status, "GPU: compiling the file with nvcc and running its main()…");
  GpuAnswer answer;
  answer.for_run = r;
  answer.status = {true, "NVIDIA Test GPU (sm_90)", ""};
  answer.program = ProgramGpuRun{};
  answer.program->ran = true;
  answer.copies.identical = true;
  ResultsModel g = build_results(failed, &answer, false, &answer.status);
  EXPECT_EQ(g.gpu_status, "GPU: NVIDIA Test GPU (sm_90), main() returned 0");
  EXPECT_EQ(g.gpu_verdict, "GPU = simulator: every copy to the host, byte for byte");
  EXPECT_TRUE(g.gpu_ok);
  answer.copies = {false, "copy 2 at x.cu:40, out[3]: 7 on the GPU, 6 in the simulator"};
  g = build_results(failed, &answer, false, &answer.status);
  EXPECT_EQ(g.gpu_verdict, "GPU ≠ simulator: copy 2 at x.cu:40, out[3]: 7 on the GPU, 6 in the simulator");
  EXPECT_FALSE(g.gpu_ok);
  answer.program->ran = false;
  answer.program->error = "nvcc: x.cu:3: error: expected a \";\"";
  EXPECT_EQ(build_results(failed, &answer, false, &answer.status).gpu_status,
            "GPU run failed: nvcc: x.cu:3: error: expected a \";\"");
  EXPECT_TRUE(build_results(*r, nullptr, false, nullptr).can_run_gpu);
  EXPECT_FALSE(build_race_lab(failed, nullptr, false, nullptr, false).can_run_gpu);
  EXPECT_TRUE(build_race_lab(*r, nullptr, false, nullptr, false).can_run_gpu);
}

// ---- metrics ----

TEST(MetricsModel, PerThreadCountsAndActiveThreads) {
  const auto r = run({.algorithm = "kogge-stone"});
  const MetricsModel m = build_metrics(*r, 0, 0, 0);
  ASSERT_EQ(m.rows.size(), 6u);
  EXPECT_EQ(m.rows[0].label, "global reads");
  EXPECT_EQ(m.rows[0].max, 1u);
  EXPECT_EQ(m.rows[0].total, 8u);
  EXPECT_EQ(m.rows[4].max, 7u);  // barriers
  EXPECT_EQ(m.rows[5].total, 7u + 6u + 4u);  // additions: offsets 1, 2, 4
  EXPECT_EQ(m.active_threads, (std::vector<float>{8, 7, 7, 6, 6, 4, 4, 8}));
}

// A .cu program chose its own sizes and its arithmetic is the student's C++ (not counted): no
// additions, and the whole run per thread it ran, not per input element.
TEST(MetricsModel, AProgramsRunIsPerThreadWithoutAdditions) {
  const auto r = run({.algorithm = "kogge-stone"});
  AlgorithmEntry program = *r->config.algorithm;
  program.info.program = true;
  RunResult as_program = *r;
  as_program.config.algorithm = &program;
  const MetricsModel m = build_metrics(as_program, 0, 0, 0);
  ASSERT_EQ(m.rows.size(), 5u);
  EXPECT_EQ(m.rows.back().label, "barriers");
  EXPECT_EQ(m.per_element_heading, "whole run, per thread");
  ASSERT_FALSE(m.per_element.empty());
  EXPECT_EQ(m.per_element[0].label, "global accesses per thread");
  EXPECT_EQ(m.per_element[0].value, "2.00");  // 8 threads, each reads one element and writes one
  for (const MetricFact& f : m.per_element) EXPECT_EQ(f.label.find("addition"), std::string::npos) << f.label;
  EXPECT_EQ(build_metrics(*r, 0, 0, 0).per_element_heading, "whole run, per input element");
}

// ---- hazards ----

TEST(HazardsModel, ReportsWithJumpTargets) {
  const HazardsModel clean = build_hazards(*run({.algorithm = "kogge-stone"}));
  EXPECT_TRUE(clean.rows.empty());
  EXPECT_EQ(clean.summary, "no hazards");
  const HazardsModel m = build_hazards(*run({.algorithm = "two-phase-scan"}));
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_FALSE(m.rows[0].error);
  EXPECT_EQ(m.rows[0].block, 1);
  EXPECT_EQ(m.rows[0].launch, 0);
  EXPECT_EQ(m.summary, "0 errors, 1 warning");
  EXPECT_NE(m.rows[0].text.find("read of uninitialized shared[7]"), std::string::npos);
}

// ---- scenarios ----

TEST(Scenario, SaveIsAtomicAndLoadsBack) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "syncscope-scenario-test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "s.json").string();
  const auto r = run({.algorithm = "axis-sum", .n = 5, .rows = 3, .schedule = "reverse"});
  const Scenario s = scenario_of(r->config, 0, 2);
  ASSERT_FALSE(save_scenario(path, s));
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "s.json");  // no temporary file left behind
  const auto loaded = load_scenario(path);
  ASSERT_TRUE(std::holds_alternative<Scenario>(loaded)) << std::get<std::string>(loaded);
  const Scenario& back = std::get<Scenario>(loaded);
  EXPECT_EQ(back.options.algorithm, "axis-sum");
  EXPECT_EQ(*back.options.rows, 3);
  EXPECT_EQ(*back.options.schedule, "reverse");
  EXPECT_EQ(back.step, 2);
  std::filesystem::remove_all(dir);
}

TEST(Scenario, BadFilesGetMessages) {
  auto bad = [](const std::string& text) {
    auto r = scenario_from_json(nlohmann::json::parse(text));
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string();
  };
  EXPECT_EQ(bad(R"({"n": 3})"), "\"algorithm\" (text) is missing");
  EXPECT_EQ(bad(R"({"algorithm": "kogge-stone", "tpb": "eight"})"), "\"tpb\" must be a whole number, got \"eight\"");
  EXPECT_EQ(bad(R"({"algorithm": "kogge-stone", "step": -1})"), "\"step\" -1: counts from 0");
  const auto missing = load_scenario("/nonexistent/x.json");
  EXPECT_NE(std::get<std::string>(missing).find("cannot open"), std::string::npos);
}

TEST(Scenario, ShippedScenariosAllLoadAndRun) {
  int count = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::data_path("assets/scenarios"))) {
    const auto loaded = load_scenario(e.path().string());
    ASSERT_TRUE(std::holds_alternative<Scenario>(loaded)) << std::get<std::string>(loaded);
    const RunResult r = test::run_algorithm(std::get<Scenario>(loaded).options);
    EXPECT_TRUE(r.comparison.match) << e.path();
    ++count;
  }
  EXPECT_GE(count, 5);
}

}  // namespace
}  // namespace syncscope::app

namespace syncscope::app {
namespace {

// ---- the session behind the panels ----

TEST(Session, InvalidValueKeepsTheLastGoodRun) {
  AppState state;
  Session session(state);
  session.run_gpu_automatically = false;
  session.edit(ControlsForm{});
  session.settle();
  ASSERT_NE(state.run(), nullptr);
  const RunResult* good = state.run();
  ControlsForm bad = session.form();
  bad.tpb = 0;
  session.edit(bad);
  session.settle();
  EXPECT_EQ(state.run(), good);  // still on screen
  EXPECT_EQ(session.check().errors.at(ConfigField::Tpb), "0: threads per block must be 1..1024");
  ControlsForm better = bad;
  better.tpb = 4;
  session.edit(better);
  session.settle();
  EXPECT_NE(state.run(), good);
  EXPECT_EQ(state.run()->config.problem.tpb, 4);
  EXPECT_TRUE(session.check().errors.empty());
}

// The Performance panel's results are found and simulated on the session's worker, not in a frame:
// nothing until they arrive, then the shipped file (a broken one beside it named) and every rung.
TEST(Session, PerformanceResultsArriveFromTheWorker) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "syncscope-perf-results-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "broken.json") << "{ not json";
  AppState state;
  Session session(state);
  EXPECT_EQ(session.perf_results(), nullptr);
  session.load_perf_results({{dir.string(), std::string(SYNCSCOPE_SOURCE_DIR) + "/assets/perf"}, dir.string()});
  session.settle();
  const PerfResults* r = session.perf_results();
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->perf.has_value());
  EXPECT_FALSE(r->perf->own_run);
  EXPECT_NE(r->perf->path.find("assets/perf/"), std::string::npos);
  ASSERT_EQ(r->problems.size(), 1u);
  EXPECT_NE(r->problems.front().find("broken.json"), std::string::npos);
  ASSERT_FALSE(r->metrics("reduce").empty());
  ASSERT_FALSE(r->metrics("scan").empty());
  EXPECT_EQ(r->metrics("reduce").front().first, "reduce-1-interleaved");
  for (const auto& [name, m] : r->metrics("scan")) EXPECT_GT(m.steps, 0) << name;
  // Asked again (every frame while the panel waits): the answer stays, nothing runs again.
  session.load_perf_results({{"/nonexistent"}, ""});
  session.settle();
  EXPECT_EQ(session.perf_results(), r);
  std::filesystem::remove_all(dir);
}

TEST(Session, FollowingAnUnrecordedBlockRunsAgainWithItRecorded) {
  AppState state;
  Session session(state);
  session.run_gpu_automatically = false;
  ControlsForm f;
  f.n = 64;  // 8 blocks: only block 0 recorded
  session.edit(f);
  session.settle();
  state.go_to(3);
  EXPECT_EQ(state.recorded_blocks(), std::vector<int>{0});
  session.focus_block(5);
  session.settle();
  EXPECT_EQ(state.recorded_blocks(), std::vector<int>{5});
  EXPECT_EQ(state.focus_block(), 5);
  EXPECT_EQ(state.position(), 3);  // same place in the timeline
  EXPECT_TRUE(build_block_view(*state.run(), 0, 3, 5).available);
}

// Play goes on while another block is recorded: its run arrives where the class is by then, not
// back where the block was asked for.
TEST(Session, ABlockRecordedWhilePlayingArrivesWhereTheLessonIsNow) {
  AppState state;
  Session session(state);
  session.run_gpu_automatically = false;
  ControlsForm f;
  f.n = 64;
  session.edit(f);
  session.settle();
  state.go_to(1);
  session.focus_block(5);
  state.go_to(4);  // played on before the recording came back
  session.settle();
  EXPECT_EQ(state.recorded_blocks(), std::vector<int>{5});
  EXPECT_EQ(state.position(), 4);
}

TEST(Session, JumpGoesToAHazardsStepAndBlock) {
  AppState state;
  Session session(state);
  session.run_gpu_automatically = false;
  ControlsForm f;
  f.algorithm = "two-phase-scan";
  f = f.with_algorithm(*builtin_registry().find("two-phase-scan"));
  session.edit(f);
  session.settle();
  const HazardsModel h = build_hazards(*state.run());
  ASSERT_EQ(h.rows.size(), 1u);
  session.jump(h.rows[0].launch, h.rows[0].step, h.rows[0].block);
  session.settle();
  EXPECT_EQ(state.launch(), h.rows[0].launch);
  EXPECT_EQ(state.step(), h.rows[0].step);
  EXPECT_EQ(state.focus_block(), 1);
}

TEST(Session, GpuRunsComeWithTheSchedulesToCompareThemWith) {
  AppState state;
  Session session(state, builtin_registry(), test::syncscope_executable());
  session.run_gpu_automatically = false;
  ControlsForm f;
  f.bug = "in-place";
  session.edit(f);
  session.settle();
  session.run_gpu_outcomes(5);
  session.settle();
  ASSERT_NE(session.gpu_outcomes(), nullptr);
  ASSERT_NE(session.schedule_outcomes(), nullptr);
  EXPECT_EQ(session.schedule_outcomes()->runs, 19);
  if (gpu_status().usable) {
    EXPECT_EQ(session.gpu_outcomes()->runs, 5);
    return;
  }
  // No GPU here: this configuration's runs recorded on an H100 (assets/gpu-runs).
  EXPECT_EQ(session.gpu_outcomes()->runs, 200);
  EXPECT_EQ(session.gpu_outcomes()->recorded_on, "NVIDIA H100 80GB HBM3 (sm_90), 2026-11-26");
  // TPB 4 was not recorded: the reason there is no GPU.
  f.tpb = 4;
  session.edit(f);
  session.settle();
  session.run_gpu_outcomes(5);
  session.settle();
  ASSERT_NE(session.gpu_outcomes(), nullptr);
  EXPECT_TRUE(session.gpu_outcomes()->unavailable);
  // Compare schedules alone brings a recording where there is one, and nothing where there is none.
  f.tpb = 8;
  session.edit(f);
  session.settle();
  session.compare_schedules();
  session.settle();
  ASSERT_NE(session.gpu_outcomes(), nullptr);
  EXPECT_EQ(session.gpu_outcomes()->runs, 200);
  f.tpb = 2;
  session.edit(f);
  session.settle();
  session.compare_schedules();
  session.settle();
  EXPECT_EQ(session.gpu_outcomes(), nullptr);
}

TEST(Session, ScenarioOpensAtItsStep) {
  AppState state;
  Session session(state);
  session.run_gpu_automatically = false;
  ASSERT_FALSE(session.open_scenario(test::data_path("assets/scenarios/seed000-two-phase-scan.json")));
  session.settle();
  EXPECT_EQ(state.run()->config.algorithm->info.name, "two-phase-scan");
  EXPECT_EQ(session.title(), "Seed 000: prefix sum, complete version (two blocks, two launches)");
  EXPECT_EQ(session.form().n, 15);
  EXPECT_TRUE(session.open_scenario("/nonexistent.json").has_value());
  // A refused value is named by its key in the file, with the value and the limit.
  const std::string bad = (std::filesystem::temp_directory_path() / "syncscope-bad-tpb.json").string();
  std::ofstream(bad) << R"({"algorithm": "kogge-stone", "tpb": 2000})";
  EXPECT_EQ(session.open_scenario(bad), bad + ": \"tpb\" 2000: threads per block must be 1..1024");
  std::filesystem::remove(bad);
}

}  // namespace
// A kernel-only file's schedules differ in the arrays its launch left, not in its main() (syncscope's,
// which returns 0 either way): its bars are neither correct nor wrong, and say how they differ.
TEST(RaceLabModel, AKernelOnlyFilesOutputsAreToldApartByTheirArrays) {
  const auto r = run({.algorithm = "kogge-stone"});
  AlgorithmEntry kernels = *r->config.algorithm;
  kernels.info.program = true;
  kernels.info.kernels_only = true;
  RunResult k = *r;
  k.config.algorithm = &kernels;
  k.sim.output_bits = {0};
  k.expected = {0};
  Outcomes o;
  o.runs = 19;
  Outcome first, second;
  first.bits = second.bits = {0};
  first.poison = second.poison = {0};
  first.match = second.match = true;
  first.runs = 10;
  second.runs = 9;
  second.differs_from_first = "out after the launch: 64 of 64 elements differ, at 0, 1, ...";
  first.copies = {HostCopy{0, "out", 4, {0, 0, 0, 0}}};
  second.copies = {HostCopy{0, "out", 4, {1, 0, 0, 0}}};
  o.distinct = {first, second};
  const RaceLabModel m = build_race_lab(k, &o, false, nullptr, false);
  EXPECT_EQ(m.schedules_status, "2 distinct outputs in 19 runs (by what the launch left in its arrays)");
  ASSERT_EQ(m.bars.size(), 2u);
  EXPECT_TRUE(m.bars[0].unchecked);
  EXPECT_EQ(m.bars[1].differs, second.differs_from_first);
  ASSERT_EQ(m.schedules.size(), 2u);
  EXPECT_EQ(m.schedules[1].headline, "9 runs: unlike the first, " + second.differs_from_first);
}

}  // namespace syncscope::app
