// The command-line contract (`syncscope list`, `syncscope run`): output, exit codes, and what bad
// input gets (a message naming the option, the value and the limit; exit code 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/cli/cli.h"
#include "app/command_line/gui_options.h"
#include "core/config_fields.h"
#include "core/cuda/gpu_runner.h"

namespace syncscope::cli {
namespace {

struct Result {
  int code;
  std::string out, err;
};

Result cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Cli, ListShowsEveryAlgorithmWithDefaults) {
  const Result r = cli({"list"});
  EXPECT_EQ(r.code, 0);
  for (const char* name : {"kogge-stone", "two-phase-scan", "hierarchical-scan", "axis-sum", "block-exclusive-sum"})
    EXPECT_TRUE(contains(r.out, name)) << name;
  EXPECT_TRUE(contains(r.out, "--n 6 --rows 4 --tpb 8"));
}

// Every configuration option, its help and its limits come from the field table (core/config_fields.h).
TEST(Cli, OptionsComeFromTheFieldTable) {
  const Result list = cli({"list"});
  const Result help = cli({"run", "--help"});
  for (const FieldInfo& field : kFieldInfos) {
    if (field.field == ConfigField::Algorithm) continue;
    EXPECT_TRUE(contains(list.out, std::string(field.option) + " " + field.placeholder)) << field.option;
    EXPECT_TRUE(contains(help.out + help.err, help_text(field.field))) << field.option << "\n" << help.out << help.err;
  }
  const Result bad_limit = cli({"run", "kogge-stone", "--time-limit", "0.01"});
  EXPECT_EQ(bad_limit.code, 2);
  EXPECT_EQ(bad_limit.err, "syncscope: --time-limit 0.01: seconds a block may run must be a number in 0.05..86400\n");
  const auto doc = nlohmann::json::parse(cli({"list", "--json"}).out);
  EXPECT_EQ(doc["limits"]["rows"], kMaxRows);
  EXPECT_EQ(doc["limits"]["time-limit"], sim::kMaxSecondsPerBlock);
}

TEST(Cli, ListAsJson) {
  const Result r = cli({"list", "--json"});
  ASSERT_EQ(r.code, 0);
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_GE(doc["algorithms"].size(), 5u);
  const auto& first = doc["algorithms"][0];
  EXPECT_EQ(first["name"], "kogge-stone");
  EXPECT_EQ(first["defaults"]["n"], 8);
  EXPECT_EQ(first["defaults"]["tpb"], 8);
  EXPECT_EQ(doc["limits"]["tpb"], 1024);
}

TEST(Cli, RunPrintsConfigOutputExpectedAndMatch) {
  const Result r = cli({"run", "kogge-stone"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.out, "kogge-stone n=8 tpb=8 blocks=1 dtype=float32 input=iota schedule=lockstep"));
  EXPECT_TRUE(contains(r.out, "output:   0 1 3 6 10 15 21 28\n"));
  EXPECT_TRUE(contains(r.out, "expected: 0 1 3 6 10 15 21 28\n"));
  EXPECT_TRUE(contains(r.out, "match: yes\n"));
}

TEST(Cli, RunWithValuesAndIntegers) {
  const Result r = cli({"run", "kogge-stone", "--dtype", "int32", "--input", "3,1,4,1,5"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.out, "n=5"));
  EXPECT_TRUE(contains(r.out, "output:   3 4 8 9 14\n"));
}

// --input @FILE: numbers separated by commas, spaces or newlines; 2^20 of them come back as
// written; a bad one is named by file, line and column.
TEST(Cli, InputFromAFileRoundTrips) {
  const std::string path = ::testing::TempDir() + "syncscope_input.txt";
  std::vector<int> written;
  {
    std::ofstream f(path);
    for (int k = 0; k < (1 << 20); ++k) {
      written.push_back(static_cast<int>((int64_t{k} * 7919) % 201) - 100);
      f << written.back() << (k % 16 == 15 ? "\n" : k % 3 ? " " : ", ");
    }
  }
  const Result r = cli({"run", "block-reduce", "--n", "1048576", "--tpb", "1024", "--dtype", "int32", "--input", "@" + path,
                        "--json", "--full-arrays"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["input"].get<std::vector<int>>() == written);
  EXPECT_TRUE(doc["match"].get<bool>());

  std::ofstream(path) << "1 2 3\n4 x5 6\n";
  const Result bad = cli({"run", "kogge-stone", "--input", "@" + path});
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(contains(bad.err, "line 2, column 3: 'x5' is not a number")) << bad.err;
  const Result missing = cli({"run", "kogge-stone", "--input", "@" + path + ".missing"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(contains(missing.err, "--input @" + path + ".missing: cannot open (No such file or directory)")) << missing.err;
  std::remove(path.c_str());
}

// FNV-1a, 64 bits, over each value's four bytes, little-endian (written here, not taken from the code).
std::string fnv1a64_text(const std::vector<int32_t>& values) {
  uint64_t h = 14695981039346656037ull;
  for (int32_t v : values)
    for (int byte = 0; byte < 4; ++byte) {
      h ^= (static_cast<uint32_t>(v) >> (8 * byte)) & 0xff;
      h *= 1099511628211ull;
    }
  char text[40];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::vector<int32_t> ends(const std::vector<int32_t>& v, bool last) {
  return last ? std::vector<int32_t>(v.end() - 16, v.end()) : std::vector<int32_t>(v.begin(), v.begin() + 16);
}

// --json at n above 4096: input, output and expected are summarized (length, first and last 16,
// a hash of the bits, the differing indices); --full-arrays writes them whole, as before.
TEST(Cli, JsonSummarizesLongArraysUnlessFullArrays) {
  const int n = 10000;
  const std::string path = ::testing::TempDir() + "syncscope_summary_input.txt";
  std::vector<int32_t> input, scan;
  {
    std::ofstream f(path);
    int64_t sum = 0;
    for (int k = 0; k < n; ++k) {
      input.push_back(static_cast<int32_t>((int64_t{k} * 7919) % 201) - 100);
      f << input.back() << "\n";
      sum = (k % 1024 == 0 ? 0 : sum) + input.back();  // kogge-stone scans each block of 1024
      scan.push_back(static_cast<int32_t>(sum));
    }
  }
  const std::vector<std::string> run = {"run", "kogge-stone", "--n", std::to_string(n), "--tpb", "1024", "--dtype", "int32",
                                        "--input", "@" + path, "--json"};
  const Result summary = cli(run);
  ASSERT_EQ(summary.code, 0) << summary.err;
  EXPECT_EQ(summary.err, "");  // no progress line where stderr is no terminal
  const auto doc = nlohmann::json::parse(summary.out);
  for (const char* key : {"input", "output", "expected"}) {
    const std::vector<int32_t>& values = key == std::string("input") ? input : scan;
    ASSERT_TRUE(doc[key].is_object()) << key;
    EXPECT_EQ(doc[key]["length"], n) << key;
    EXPECT_EQ(doc[key]["first"].get<std::vector<int32_t>>(), ends(values, false)) << key;
    EXPECT_EQ(doc[key]["last"].get<std::vector<int32_t>>(), ends(values, true)) << key;
    EXPECT_EQ(doc[key]["hash"], fnv1a64_text(values)) << key;
  }
  EXPECT_EQ(doc["output"]["poisoned"], 0);
  EXPECT_EQ(doc["output"]["differing_indices"], nlohmann::json::array());
  EXPECT_TRUE(doc["match"].get<bool>());

  std::vector<std::string> full_run = run;
  full_run.push_back("--full-arrays");
  const Result full = cli(full_run);
  ASSERT_EQ(full.code, 0) << full.err;
  const auto whole = nlohmann::json::parse(full.out);
  EXPECT_EQ(whole["input"].get<std::vector<int32_t>>(), input);
  EXPECT_EQ(whole["output"].get<std::vector<int32_t>>(), scan);
  EXPECT_EQ(whole["expected"].get<std::vector<int32_t>>(), scan);
  EXPECT_EQ(whole["config"], doc["config"]);
  EXPECT_EQ(whole["counters"], doc["counters"]);
  EXPECT_LT(summary.out.size() * 10, full.out.size());
  std::remove(path.c_str());
}

// A wrong output's summary lists where it differs (as the whole arrays show) and counts the elements
// never written (null in the whole array).
TEST(Cli, JsonSummaryListsWhereTheOutputDiffers) {
  const std::vector<std::string> run = {"run", "kogge-stone", "--bug", "no-second-barrier", "--schedule", "forward",
                                        "--n", "8192", "--tpb", "1024", "--dtype", "int32", "--json"};
  const auto doc = nlohmann::json::parse(cli(run).out);
  std::vector<std::string> full_run = run;
  full_run.push_back("--full-arrays");
  const auto whole = nlohmann::json::parse(cli(full_run).out);
  const auto output = whole["output"].get<std::vector<int32_t>>(), expected = whole["expected"].get<std::vector<int32_t>>();
  std::vector<int> differing;
  for (size_t i = 0; i < output.size() && differing.size() < 64; ++i)
    if (output[i] != expected[i]) differing.push_back(static_cast<int>(i));
  ASSERT_FALSE(differing.empty());
  EXPECT_EQ(doc["output"]["differing_indices"].get<std::vector<int>>(), differing);
  EXPECT_EQ(doc["differing"].get<std::vector<int>>(), differing);
  EXPECT_EQ(doc["output"]["hash"], fnv1a64_text(output));
  EXPECT_FALSE(doc["match"].get<bool>());

  // Every schedule's distinct output, summarized the same way: its first differing index is the one
  // the lab names.
  std::vector<std::string> lab = run;
  lab[5] = "all";
  const auto schedules = nlohmann::json::parse(cli(lab).out)["schedules"]["distinct"];
  ASSERT_GT(schedules.size(), 1u);
  for (const auto& d : schedules) {
    EXPECT_EQ(d["output"]["length"], 8192);
    if (d["wrong"] == 0) EXPECT_TRUE(d["output"]["differing_indices"].empty());
    else EXPECT_EQ(d["output"]["differing_indices"][0], d["first_wrong"]);
  }

  std::vector<std::string> unwritten = {"run", "kogge-stone", "--bug", "no-first-barrier", "--schedule", "reverse",
                                        "--n", "8192", "--tpb", "1024", "--dtype", "int32", "--json"};
  const auto poisoned = nlohmann::json::parse(cli(unwritten).out);
  unwritten.push_back("--full-arrays");
  const auto poisoned_whole = nlohmann::json::parse(cli(unwritten).out);
  const auto nulls = std::count_if(poisoned_whole["output"].begin(), poisoned_whole["output"].end(),
                                   [](const nlohmann::json& v) { return v.is_null(); });
  EXPECT_GT(nulls, 0);
  EXPECT_EQ(poisoned["output"]["poisoned"], nulls);
}

TEST(Cli, StepsShowSharedMemoryAndReadsLikeSeed003) {
  const Result r = cli({"run", "kogge-stone", "--steps"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.out, "T1    reads shared[0] = 0"));
  EXPECT_TRUE(contains(r.out, "shared: [0 1 3 5 7 9 11 13]"));
  EXPECT_TRUE(contains(r.out, "shared: [0 1 3 6 10 14 18 22]"));
  EXPECT_TRUE(contains(r.out, "ends at barrier kernels/kogge_stone.h:"));
}

TEST(Cli, StepsMarkPoisonWithQuestionMark) {
  const Result r = cli({"run", "two-phase-scan", "--steps"});
  EXPECT_TRUE(contains(r.out, "shared: [8 9 10 11 12 13 14 ?]"));
  EXPECT_TRUE(contains(r.out, "warning: read of uninitialized shared[7]"));
}

TEST(Cli, BlockSelectsWhichBlockIsShown) {
  const Result r = cli({"run", "kogge-stone", "--n", "64", "--tpb", "8", "--block", "5", "--steps"});
  EXPECT_EQ(r.code, 0);
  // "    block 5  load: ..." (the kernel's caption for the step follows the block's number)
  EXPECT_TRUE(contains(r.out, "\n    block 5  "));
  EXPECT_FALSE(contains(r.out, "\n    block 0  "));
}

TEST(Cli, JsonHasConfigOutputExpectedMatchCountersAndSteps) {
  const Result r = cli({"run", "two-phase-scan", "--json", "--steps"});
  ASSERT_EQ(r.code, 0);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["config"]["algorithm"], "two-phase-scan");
  EXPECT_EQ(doc["config"]["grid_blocks"], 2);
  EXPECT_EQ(doc["output"].size(), 15u);
  EXPECT_EQ(doc["output"][14], 105);
  EXPECT_EQ(doc["expected"][14], 105);
  EXPECT_EQ(doc["match"], true);
  EXPECT_EQ(doc["counters"]["launches"].size(), 2u);
  EXPECT_EQ(doc["counters"]["max_per_thread"]["barriers"], 7);
  ASSERT_EQ(doc["steps"].size(), 2u);
  const auto& step0_block1 = doc["steps"][0]["steps"][0]["blocks"][1];
  EXPECT_EQ(step0_block1["block"], 1);
  EXPECT_TRUE(step0_block1["shared"]["shared"][7].is_null());  // poison
  ASSERT_EQ(doc["hazards"].size(), 1u);
  EXPECT_EQ(doc["hazards"][0]["kind"], "uninitialized");
  EXPECT_FALSE(doc.contains("gpu"));
}

TEST(Cli, GpuSideIsReportedEvenWithoutAGpu) {
  const Result r = cli({"run", "kogge-stone", "--gpu"});
  EXPECT_EQ(r.code, 0);
  if (!gpu_status().usable) {
    EXPECT_TRUE(contains(r.out, "gpu: unavailable (" + gpu_status().reason + ")\n")) << r.out;
  } else {
    EXPECT_TRUE(contains(r.out, "gpu: 0 1 3 6 10 15 21 28\n"));
    EXPECT_TRUE(contains(r.out, "gpu-vs-sim: identical\n"));
  }
  const auto doc = nlohmann::json::parse(cli({"run", "kogge-stone", "--gpu", "--json"}).out);
  EXPECT_EQ(doc["gpu"]["available"], gpu_status().usable);
}

TEST(Cli, NoCommandRunsTheDefaultDemo) {
  const Result r = cli({});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.out, "kogge-stone n=8 tpb=8"));
  EXPECT_TRUE(contains(r.out, "step 7"));
}

struct BadCase {
  std::vector<std::string> args;
  std::vector<std::string> message_parts;  // option, value, limit
};

class BadArguments : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadArguments, ExitTwoWithAMessageNamingOptionValueAndLimit) {
  const Result r = cli(GetParam().args);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
  for (const auto& part : GetParam().message_parts) EXPECT_TRUE(contains(r.err, part)) << r.err << " lacks " << part;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadArguments,
    ::testing::Values(
        BadCase{{"run", "kogge-stone", "--tpb", "2000"}, {"--tpb", "2000", "1..1024"}},
        BadCase{{"run", "kogge-stone", "--tpb", "0"}, {"--tpb", "0", "1..1024"}},
        BadCase{{"run", "kogge-stone", "--n", "0"}, {"--n", "0", "1..16777216"}},
        BadCase{{"run", "kogge-stone", "--n", "16777217"}, {"--n", "16777217", "1..16777216"}},
        BadCase{{"run", "kogge-stone", "--n", "abc"}, {"--n", "abc", "whole number"}},
        BadCase{{"run", "axis-sum", "--n", "100000", "--rows", "1000"}, {"--n", "100000", "16777216"}},
        BadCase{{"run", "axis-sum", "--rows", "70000"}, {"--rows", "70000", "1..65535"}},
        BadCase{{"run", "kogge-stone", "--rows", "3"}, {"--rows", "3", "axis-sum"}},
        BadCase{{"run", "kogge-stone", "--dtype", "float64"}, {"--dtype", "float64", "float32 or int32"}},
        BadCase{{"run", "kogge-stone", "--schedule", "sideways"}, {"--schedule", "sideways", "lockstep", "random:SEED or all"}},
        BadCase{{"run", "kogge-stone", "--schedule", "random:x"}, {"--schedule", "random:x", "whole number"}},
        BadCase{{"run", "kogge-stone", "--input", "1,2,x"}, {"--input", "'x'", "not a number"}},
        BadCase{{"run", "kogge-stone", "--input", "random:"}, {"--input", "random:", "whole number"}},
        BadCase{{"run", "kogge-stone", "--n", "4", "--input", "1,2,3"}, {"--input", "3 values", "4 values"}},
        BadCase{{"run", "kogge-stone", "--dtype", "int32", "--input", "1.5,2"}, {"--input", "1.5", "int32"}},
        BadCase{{"run", "kogge-stone", "--block", "3"}, {"--block", "3", "0..0"}},
        BadCase{{"run", "two-phase-scan", "--n", "100000"}, {"--n", "100000", "1024"}},
        BadCase{{"run", "block-reduce", "--tpb", "48"}, {"--tpb", "48", "power of two"}},
        BadCase{{"run", "hierarchical-scan", "--tpb", "1"}, {"--tpb", "1", "2 or more"}},
        BadCase{{"run", "nonexistent"}, {"nonexistent", "kogge-stone"}},
        BadCase{{"run"}, {"ALGO"}},
        BadCase{{"frobnicate"}, {"frobnicate"}}));

// A value is quoted as typed, not as the number it was read as.
TEST(Cli, InputValuesAreQuotedAsTyped) {
  const Result r = cli({"run", "kogge-stone", "--dtype", "int32", "--input", "1, 99999999999"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "syncscope: --input 99999999999: value 2 is not an int32 (whole number in -2147483648..2147483647)\n");
  const Result gpu_runs = cli({"run", "kogge-stone", "--gpu-runs", "0"});
  EXPECT_EQ(gpu_runs.code, 2);
  EXPECT_EQ(gpu_runs.err, "syncscope: --gpu-runs 0: runs must be 1..100000\n");
}

// `syncscope gui ...` reads its words before any window opens, with run's messages and exit code 2.
struct GuiWords {
  int code;
  std::string out, err;
  std::optional<command_line::GuiOptions> options;
};

GuiWords gui(std::vector<std::string> args) {
  std::ostringstream out, err;
  auto parsed = command_line::parse_gui_command(args, out, err);
  if (auto* options = std::get_if<command_line::GuiOptions>(&parsed)) return {0, out.str(), err.str(), *options};
  return {std::get<int>(parsed), out.str(), err.str(), std::nullopt};
}

TEST(GuiCommand, GoodWordsGiveTheOptions) {
  const GuiWords r = gui({"gui", "block-reduce", "--tpb", "64", "--launch", "0", "--step", "3", "--width", "1280",
                          "--height", "720", "--gpu-runs", "5", "--from", "1", "--to", "2"});
  ASSERT_TRUE(r.options) << r.err;
  EXPECT_EQ(r.options->config.options.tpb, 64);
  EXPECT_EQ(r.options->launch, 0);
  EXPECT_EQ(r.options->step, 3);
  EXPECT_EQ(r.options->width, 1280);
  EXPECT_EQ(r.options->height, 720);
  EXPECT_EQ(r.options->gpu_runs, 5);
  EXPECT_EQ(r.options->handouts.from, 1);
  EXPECT_EQ(r.options->handouts.to, 2);
  EXPECT_EQ(gui({"--scenario", "lesson.json", "--step", "2"}).options->scenario, "lesson.json");
}

// A .cu without main() opens in the app as `run` launches it: with --grid, --block is the launch's
// block size, not a block to follow.
TEST(GuiCommand, AKernelsOnlyCuTakesTheLaunchWordsOfRun) {
  const GuiWords r = gui({"gui", "k.cu", "--grid", "4,2", "--block", "64", "--kernel-name", "scale", "--arg", "f=0.5"});
  ASSERT_TRUE(r.options) << r.err;
  EXPECT_EQ(r.options->launch_words.grid, "4,2");
  EXPECT_EQ(r.options->launch_words.block, "64");
  EXPECT_EQ(r.options->config.whole_lists.count(ConfigField::Blocks) ? r.options->config.whole_lists.at(ConfigField::Blocks).size() : 0u, 0u);
  ProgramLaunch launch;
  EXPECT_EQ(command_line::program_launch(r.options->launch_words, "k.cu", launch), "");
  EXPECT_EQ(launch.grid.x, 4);
  EXPECT_EQ(launch.grid.y, 2);
  EXPECT_EQ(launch.block.x, 64);
  EXPECT_EQ(launch.kernel, "scale");
  ASSERT_EQ(launch.arguments.size(), 1u);
  EXPECT_EQ(launch.arguments[0].second, "0.5");
  EXPECT_EQ(command_line::program_launch(r.options->launch_words, "k.h", launch),
            "--grid and --block launch a .cu that has no main(); k.h is not one");
  const GuiWords two = gui({"gui", "k.cu", "--grid", "4", "--block", "64", "--block", "32"});
  EXPECT_FALSE(two.options);
  EXPECT_NE(two.err.find("--grid takes one --block X[,Y[,Z]] (the launch's block size)"), std::string::npos) << two.err;
}

// File > Open's fields are parsed as the options are, and their messages name the fields.
TEST(GuiCommand, TheOpenDialogsLaunchFieldsAreNamedInTheirMessages) {
  ProgramLaunch launch;
  EXPECT_EQ(parse_launch({"0", "64", "", {}}, kLaunchFields, "k.cu", launch), "grid 0: every size is at least 1");
  EXPECT_EQ(parse_launch({"4", "", "", {}}, kLaunchFields, "k.cu", launch), "grid and block go together");
  EXPECT_EQ(parse_launch({"", "", "", {"n"}}, kLaunchFields, "k.cu", launch),
            "kernel, arguments and shared bytes need grid and block (they launch a .cu that has no main())");
  EXPECT_EQ(parse_launch({"4", "64", "", {"=1"}}, kLaunchFields, "k.cu", launch), "arguments =1: expected NAME=VALUE");
  EXPECT_EQ(parse_launch({"4", "64", "", {}, "1k"}, kLaunchFields, "k.cu", launch), "shared bytes 1k: expected a number of bytes");
  EXPECT_EQ(parse_launch({"4", "64", "", {}, "49153"}, kLaunchFields, "k.cu", launch),
            "shared bytes 49153: a block has at most 49152 bytes of shared memory");
  EXPECT_EQ(parse_launch({"4", "64", "", {}, "49152"}, kLaunchFields, "k.cu", launch), "");
  EXPECT_EQ(launch.shared_bytes, 49152u);
  EXPECT_EQ(parse_launch({"", "", "", {}}, kLaunchFields, "k.cu", launch), "");
  EXPECT_FALSE(launch.given);
  EXPECT_EQ(parse_launch({"4,2", "16,16", "scale", {"n=64", "f=0.5"}}, kLaunchFields, "k.cu", launch), "");
  EXPECT_TRUE(launch.given);
  EXPECT_EQ(launch.grid.y, 2);
  EXPECT_EQ(launch.block.y, 16);
  EXPECT_EQ(launch.kernel, "scale");
  ASSERT_EQ(launch.arguments.size(), 2u);
  EXPECT_EQ(launch.arguments[1], (std::pair<std::string, std::string>{"f", "0.5"}));
}

TEST(GuiCommand, BadWordsGetTheirMessageAndExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"gui", "--step", ""}, "--step '': expected a whole number in 0..2147483647"},
      {{"gui", "--launch", "-1"}, "--launch -1: launches count from 0"},
      {{"--step", "-1"}, "--step -1: steps count from 0"},
      {{"gui", "--replay", "-1"}, "--replay -1: operations count from 0"},
      {{"gui", "--focus", "x"}, "--focus x: expected a whole number in 0..2147483647"},
      {{"gui", "--step", "99999999999"}, "--step 99999999999: expected a whole number in 0..2147483647"},
      {{"gui", "--tpb", "99999999999"}, "--tpb 99999999999: expected a whole number in 1..1024"},
      {{"gui", "--n", ""}, "--n '': expected a whole number in 1..16777216"},
      {{"gui", "--width", "100"}, "--width 100: window width must be 320..8192"},
      {{"gui", "--height", "9000"}, "--height 9000: window height must be 240..8192"},
      {{"gui", "--gpu-runs", "0"}, "--gpu-runs 0: runs must be 1..100000"},
      {{"gui", "--bench-frames", "1e3"}, "--bench-frames 1e3: expected a whole number in 0..2147483647"},
      {{"gui", "--from", "-2"}, "--from -2: steps count from 0"},
  };
  for (const auto& [args, message] : cases) {
    const GuiWords r = gui(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_EQ(r.err, "syncscope: " + message + "\n");
  }
}

}  // namespace
}  // namespace syncscope::cli
