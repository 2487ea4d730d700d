// Files the app keeps for the user, read without trusting them (app/state/text_file.h): scenarios
// and the window layout that are corrupt, truncated, huge, binary, a directory or a FIFO each get a
// message naming the file and what is wrong, and nothing blocks; inputs named in a scenario are
// found next to it, and saved relative to it.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "app/state/controls_form.h"
#include "app/state/scenario.h"
#include "app/state/text_file.h"
#include "tests/test_util.h"

namespace syncscope::app {
namespace {

namespace fs = std::filesystem;

class StateFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("syncscope_state_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  // Refused by load_scenario with `expected` in the message, within a second (a FIFO must not block).
  std::string refused(const std::string& path, const std::string& expected) {
    SCOPED_TRACE(path);
    auto loading = std::async(std::launch::async, [&] { return load_scenario(path); });
    if (loading.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      ADD_FAILURE() << path << ": still reading after 5 s";
      std::abort();  // the reader would block the test forever
    }
    auto loaded = loading.get();
    EXPECT_TRUE(std::holds_alternative<std::string>(loaded)) << path;
    if (!std::holds_alternative<std::string>(loaded)) return "";
    const std::string& why = std::get<std::string>(loaded);
    EXPECT_EQ(why.rfind(path + ": ", 0), 0u) << why;
    EXPECT_NE(why.find(expected), std::string::npos) << why;
    return why;
  }
  fs::path dir_;
};

TEST_F(StateFiles, BadScenariosAreNamedAndNeverBlock) {
  const std::string good = R"({"syncscope_scenario": 1, "algorithm": "kogge-stone", "n": 8, "tpb": 8, "step": 2})";
  ASSERT_TRUE(std::holds_alternative<Scenario>(load_scenario(write("good.json", good))));
  refused(write("corrupt.json", R"({"algorithm": "kogge-stone", "n": eight})"), "not JSON");
  refused(write("truncated.json", good.substr(0, good.size() / 2)), "not JSON");
  refused(write("binary.json", std::string("{\"algorithm\"\0\x01\x02", 15)), "binary data at byte 13, not text");
  refused(write("latin1.json", "{\"title\": \"caf\xe9\"}"), "binary data at byte 15");
  refused(write("empty.json", ""), "not JSON");
  refused(write("wrong-type.json", R"({"algorithm": "kogge-stone", "n": "eight"})"), "\"n\" must be a whole number, got \"eight\"");
  // Found by fuzz_scenario (tests/fuzz/corpus/scenario/number-overflow): a number beyond a double
  // threw past the JSON syntax-error handler and ended the program.
  refused(write("overflow.json", "444444e444404401{l4444schedule444404401{l_z"), "not JSON ([json.exception.out_of_range.406] number overflow");
  // Numbers beyond an int are refused, never wrapped.
  refused(write("big-n.json", R"({"algorithm": "kogge-stone", "n": 4294967304})"),
          "\"n\" must be a whole number within -2147483648..2147483647, got 4294967304");
  refused(write("big-step.json", R"({"algorithm": "kogge-stone", "step": -9223372036854775807})"),
          "\"step\" must be a whole number within -2147483648..2147483647, got -9223372036854775807");
  refused(write("big-block.json", R"({"algorithm": "kogge-stone", "blocks": [1, 18446744073709551615]})"),
          "got 18446744073709551615");
  {
    std::ofstream huge(dir_ / "huge.json");
    huge << "{\"title\": \"" << std::string(11 << 20, 'x') << "\"}";
  }
  refused((dir_ / "huge.json").string(), "is 11.0 MB; at most 10.0 MB is read");
  fs::create_directories(dir_ / "a-directory.json");
  refused((dir_ / "a-directory.json").string(), "is a directory");
  const std::string fifo = (dir_ / "fifo.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  refused(fifo, "is a FIFO, not a file");
  refused((dir_ / "missing.json").string(), "cannot open (No such file or directory)");
  if (::geteuid() != 0) {  // root reads everything
    const std::string locked = write("locked.json", good);
    ::chmod(locked.c_str(), 0);
    refused(locked, "cannot open (Permission denied)");
  }
}

TEST_F(StateFiles, TheLayoutFileIsCheckedLineByLine) {
  const std::string layout = "[Window][Controls]\nPos=0,20\nSize=300,700\nCollapsed=0\n\n[Docking][Data]\n";
  auto ok = read_layout_file(write("layout.ini", layout));
  ASSERT_EQ(ok.index(), 0u) << std::get<1>(ok);
  EXPECT_EQ(std::get<0>(ok), layout);
  auto corrupt = read_layout_file(write("corrupt.ini", layout + "Pos=1,2\ngarbage here\n"));
  ASSERT_EQ(corrupt.index(), 1u);
  EXPECT_NE(std::get<1>(corrupt).find("corrupt.ini: line 8 is neither a [section] nor a key=value setting"), std::string::npos)
      << std::get<1>(corrupt);
  auto binary = read_layout_file(write("binary.ini", std::string("[Window]\0", 9)));
  ASSERT_EQ(binary.index(), 1u);
  EXPECT_NE(std::get<1>(binary).find("binary data at byte 9"), std::string::npos);
  const std::string fifo = (dir_ / "layout-fifo.ini").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reading = std::async(std::launch::async, [&] { return read_layout_file(fifo); });
  ASSERT_EQ(reading.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_NE(std::get<1>(reading.get()).find("is a FIFO, not a file"), std::string::npos);
}

// A scenario names its input file relative to itself; it opens from any working directory, and
// saving writes the path relative to the scenario again.
TEST_F(StateFiles, AScenariosInputFileIsFoundNextToIt) {
  fs::create_directories(dir_ / "lesson" / "data");
  std::ofstream(dir_ / "lesson" / "data" / "values.txt") << "5 4 3\n2 1 0\n";
  const std::string scenario = write("lesson/scan.json", R"({"algorithm": "kogge-stone", "tpb": 8, "dtype": "int32", "input": "@data/values.txt"})");
  auto loaded = load_scenario(scenario);
  ASSERT_TRUE(std::holds_alternative<Scenario>(loaded)) << std::get<std::string>(loaded);
  const Scenario& s = std::get<Scenario>(loaded);
  EXPECT_EQ(*s.options.input, "@" + (dir_ / "lesson" / "data" / "values.txt").string());
  auto resolved = resolve(builtin_registry(), s.options);
  ASSERT_TRUE(std::holds_alternative<RunConfig>(resolved)) << std::get<ConfigError>(resolved).text();
  const RunConfig& c = std::get<RunConfig>(resolved);
  EXPECT_EQ(c.problem.n, 6);
  EXPECT_EQ(c.input.values, (std::vector<double>{5, 4, 3, 2, 1, 0}));
  // The Controls form shows the file, not its numbers.
  EXPECT_EQ(ControlsForm::from(c).values, "@" + (dir_ / "lesson" / "data" / "values.txt").string());

  const std::string copy = (dir_ / "lesson" / "copy.json").string();
  ASSERT_FALSE(save_scenario(copy, scenario_of(c, 0, 1)));
  std::ifstream saved(copy);
  EXPECT_EQ(nlohmann::json::parse(saved)["input"], "@data/values.txt");
  const std::string elsewhere = (dir_ / "other" / "copy.json").string();
  fs::create_directories(dir_ / "other");
  ASSERT_FALSE(save_scenario(elsewhere, scenario_of(c, 0, 1)));
  // Elsewhere the file would be outside the scenario's folder (refused on opening): its values go in.
  std::ifstream saved_elsewhere(elsewhere);
  EXPECT_EQ(nlohmann::json::parse(saved_elsewhere)["input"], "5,4,3,2,1,0");
  ASSERT_TRUE(std::holds_alternative<Scenario>(load_scenario(elsewhere)));

  // A missing input file is named with the scenario's field.
  const std::string broken = write("lesson/broken.json", R"({"algorithm": "kogge-stone", "input": "@data/nothing.txt"})");
  auto broken_options = std::get<Scenario>(load_scenario(broken)).options;
  auto refused = resolve(builtin_registry(), broken_options);
  ASSERT_TRUE(std::holds_alternative<ConfigError>(refused));
  EXPECT_EQ(std::get<ConfigError>(refused).json_text(),
            "\"input\" @" + (dir_ / "lesson" / "data" / "nothing.txt").string() + ": cannot open (No such file or directory)");
}

// The Controls panel's values field takes @FILE too, but only a regular file: a FIFO would block
// the window.
TEST_F(StateFiles, TheValuesFieldReadsAFileButNotAFifo) {
  std::ofstream(dir_ / "v.txt") << "1,2,3,4";
  ControlsForm f;
  f.input = InputChoice::Values;
  f.values = "@" + (dir_ / "v.txt").string();
  FormCheck check = check_form(builtin_registry(), f);
  ASSERT_TRUE(check.config) << check.errors.begin()->second;
  EXPECT_EQ(check.config->problem.n, 4);
  const std::string fifo = (dir_ / "v.fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  f.values = "@" + fifo;
  check = check_form(builtin_registry(), f);
  EXPECT_FALSE(check.config);
  EXPECT_EQ(check.errors.at(ConfigField::Input), f.values + ": is a FIFO, not a file");
  f.values = "@" + (dir_ / "none.txt").string();
  check = check_form(builtin_registry(), f);
  EXPECT_EQ(check.errors.at(ConfigField::Input), f.values + ": cannot open (No such file or directory)");
  f.values = "@-";
  check = check_form(builtin_registry(), f);
  EXPECT_EQ(check.errors.at(ConfigField::Input), "@-: standard input is the terminal's; the values field reads @FILE from a file");
}

}  // namespace
}  // namespace syncscope::app
