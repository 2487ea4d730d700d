// The app's GPU jobs run in a child process (app/state/gpu_child.h), so a kernel that faults cannot
// take the GPU away from the rest of a class session. These tests drive the real `syncscope
// gpu-child` and stand-in children that misbehave.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/state/gpu_child.h"
#include "core/config_codec.h"
#include "core/outcomes.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

// A shell script standing in for the child.
class FakeChild {
 public:
  explicit FakeChild(const std::string& body) {
    char name[] = "/tmp/syncscope-fake-child-XXXXXX";
    const int fd = mkstemp(name);
    close(fd);
    path_ = name;
    std::ofstream(path_) << "#!/bin/sh\n" << body << "\n";
    chmod(path_.c_str(), 0700);
  }
  ~FakeChild() { unlink(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(GpuChild, TheRealChildAnswersOrSaysWhyThereIsNoGpu) {
  const RunResult r = run_algorithm({.algorithm = "kogge-stone", .n = 300, .tpb = 64});
  const auto runs = app::run_on_gpu_in_child(syncscope_executable(), r.config, r.input, 3);
  if (gpu_status().usable) {
    ASSERT_EQ(runs.size(), 3u);
    for (const GpuRun& g : runs) {
      ASSERT_TRUE(g.ok) << g.error;
      EXPECT_EQ(g.output_bits, r.sim.output_bits);
    }
  } else {
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_FALSE(runs[0].ok);
    EXPECT_EQ(runs[0].error, gpu_status().reason);
  }
}

TEST(GpuChild, AnswersAreReadBitForBitAndAFaultEndsTheRuns) {
  const FakeChild child(
      "echo 'ok 0.5 3 3f800000 40000000 7fc00000'\n"
      "echo 'ok 0.25 3 3f800000 40000000 7fc00000'\n"
      "echo 'error kernel execution: an illegal memory access was encountered'");
  const RunResult r = run_algorithm({.algorithm = "kogge-stone", .n = 3, .tpb = 4});
  const auto runs = app::run_on_gpu_in_child(child.path(), r.config, r.input, 5);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_TRUE(runs[0].ok);
  EXPECT_DOUBLE_EQ(runs[0].milliseconds, 0.5);
  EXPECT_EQ(runs[1].output_bits, (std::vector<uint32_t>{0x3f800000u, 0x40000000u, 0x7fc00000u}));
  EXPECT_FALSE(runs[2].ok);
  EXPECT_EQ(runs[2].error, "kernel execution: an illegal memory access was encountered");
  const Outcomes o = tally_gpu_runs(r.config, r.input, runs);
  EXPECT_EQ(o.runs, 2);
  EXPECT_EQ(gpu_verdict(o, r.config),
            "GPU run failed after 2 good runs: kernel execution: an illegal memory access was encountered");
}

TEST(GpuChild, AChildThatDiesOrHangsOrIsMissingIsReported) {
  const RunResult r = run_algorithm({.algorithm = "kogge-stone"});
  const FakeChild dies("exit 3");
  auto runs = app::run_on_gpu_in_child(dies.path(), r.config, r.input, 2);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].error, "the GPU helper ended after 0 of 2 runs: exit status 3");

  const FakeChild crashes("echo 'ok 1 8 0 0 0 0 0 0 0 0'; kill -SEGV $$");
  runs = app::run_on_gpu_in_child(crashes.path(), r.config, r.input, 2);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_TRUE(runs[0].ok);
  EXPECT_NE(runs[1].error.find("ended after 1 of 2 runs: killed by signal Segmentation fault"), std::string::npos)
      << runs[1].error;

  const FakeChild hangs("exec sleep 30");
  runs = app::run_on_gpu_in_child(hangs.path(), r.config, r.input, 1, 1);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].error, "the GPU helper gave no answer within 1 s; stopped it");

  runs = app::run_on_gpu_in_child("/nonexistent/syncscope", r.config, r.input, 1);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].error, "cannot start the GPU helper /nonexistent/syncscope: No such file or directory");
}

TEST(GpuChild, AMalformedRequestIsRefusedWithTheReason) {
  std::istringstream wrong_header("hello\n");
  std::ostringstream out;
  EXPECT_EQ(app::gpu_child_main(wrong_header, out), 2);
  EXPECT_EQ(out.str(), "error malformed GPU request: expected 'syncscope-gpu-request 2'\n");

  std::istringstream short_input(
      "syncscope-gpu-request 2\nconfig {\"algorithm\": \"kogge-stone\", \"n\": 8, \"tpb\": 8}\nruns 1\ninput 8\n"
      "3ff0000000000000 4000000000000000\n");
  out.str("");
  EXPECT_EQ(app::gpu_child_main(short_input, out), 2);
  EXPECT_EQ(out.str(), "error malformed GPU request: fewer than 8 input values\n");

  std::istringstream wrong_count(
      "syncscope-gpu-request 2\nconfig {\"algorithm\": \"kogge-stone\", \"n\": 8}\nruns 1\ninput 2\n"
      "3ff0000000000000 4000000000000000\n");
  out.str("");
  EXPECT_EQ(app::gpu_child_main(wrong_count, out), 2);
  EXPECT_EQ(out.str(), "error malformed GPU request: expected 'input 8', the configuration's count\n");

  // The configuration is the codec's: its errors name the field by its key.
  std::istringstream bad_dtype("syncscope-gpu-request 2\nconfig {\"algorithm\": \"kogge-stone\", \"dtype\": \"float64\"}\n");
  out.str("");
  EXPECT_EQ(app::gpu_child_main(bad_dtype, out), 2);
  EXPECT_EQ(out.str(), "error malformed GPU request: \"dtype\" float64: expected float32 or int32\n");

  std::istringstream wrong_type("syncscope-gpu-request 2\nconfig {\"algorithm\": \"kogge-stone\", \"tpb\": \"many\"}\n");
  out.str("");
  EXPECT_EQ(app::gpu_child_main(wrong_type, out), 2);
  EXPECT_EQ(out.str(), "error malformed GPU request: \"tpb\" must be a whole number, got \"many\"\n");

  std::istringstream not_json("syncscope-gpu-request 2\nconfig {n: 8\n");
  out.str("");
  EXPECT_EQ(app::gpu_child_main(not_json, out), 2);
  EXPECT_EQ(out.str(), "error malformed GPU request: the configuration is not JSON\n");
}

// The request carries the configuration in the codec's form, which the child resolves to the same
// run (the bug variant included), and the input's bits.
TEST(GpuChild, TheRequestIsTheCodecsConfigurationAndTheInputsBits) {
  const RunResult r = run_algorithm({.algorithm = "kogge-stone", .n = 3, .tpb = 4, .bug = "in-place"});
  const FakeChild echo("cat > \"$0.request\"; echo 'ok 1 3 0 0 0'");
  ASSERT_TRUE(app::run_on_gpu_in_child(echo.path(), r.config, r.input, 1).front().ok);
  std::ifstream sent(echo.path() + ".request");
  std::string header, config_line;
  std::getline(sent, header);
  std::getline(sent, config_line);
  std::remove((echo.path() + ".request").c_str());
  EXPECT_EQ(header, "syncscope-gpu-request 2");
  ASSERT_EQ(config_line.rfind("config ", 0), 0u) << config_line;
  const auto options = options_from_json(nlohmann::json::parse(config_line.substr(7)));
  ASSERT_TRUE(std::holds_alternative<RunOptions>(options));
  EXPECT_EQ(std::get<RunOptions>(options).bug, "in-place");
  EXPECT_FALSE(std::get<RunOptions>(options).input) << "the input travels as bits";
  const auto resolved = resolve(builtin_registry(), std::get<RunOptions>(options));
  ASSERT_TRUE(std::holds_alternative<RunConfig>(resolved));
  EXPECT_EQ(std::get<RunConfig>(resolved), r.config);  // r's input is the default, iota
}

}  // namespace
}  // namespace syncscope::test
