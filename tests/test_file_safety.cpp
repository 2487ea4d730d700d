// Files the user names and files the app writes (issue 25, items 4-6): an input is opened only
// when it is a regular file (a FIFO, a device or a directory is refused at once, never waited on),
// a scenario reads inputs only from its own folder, an error never shows a file's contents, a
// write that fails says why and leaves the old file as it was, and a scenario's unknown key or
// step past the end is named with what would have been right.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "app/state/controls_form.h"
#include "app/state/scenario.h"
#include "app/state/session.h"
#include "core/atomic_file.h"
#include "core/regular_file.h"
#include "tests/test_util.h"

namespace syncscope {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `work` on another thread and fails the test (ending it: the reader would block it forever)
// when it has not finished within 10 s.
template <class Work>
auto within_seconds(Work work) {
  auto running = std::async(std::launch::async, work);
  if (running.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ADD_FAILURE() << "still running after 10 s: something waits on a FIFO or a device";
    std::abort();
  }
  return running.get();
}

class FileSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("syncscope_file_safety_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_);
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string fifo(const std::string& name) {
    const std::string path = (dir_ / name).string();
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    return path;
  }
  // What resolve() says of `--input TEXT` for kogge-stone, as the command line and a scenario write it.
  static ConfigError input_refused(const std::string& text) {
    RunOptions o;
    o.algorithm = "kogge-stone";
    o.input = text;
    auto resolved = within_seconds([&] { return resolve(builtin_registry(), o); });
    EXPECT_TRUE(std::holds_alternative<ConfigError>(resolved)) << text;
    return std::holds_alternative<ConfigError>(resolved) ? std::get<ConfigError>(resolved) : ConfigError{};
  }
  fs::path dir_;
};

// ---- item 4: only regular files are opened, without waiting ----

TEST_F(FileSafety, OnlyRegularFilesAreOpenedAndNothingWaits) {
  const std::string pipe = fifo("values.fifo");
  auto refusal = [](const std::string& path) {
    auto opened = within_seconds([&] { return open_regular_file(path); });
    if (opened.index() == 0) ::close(std::get<0>(opened));
    return opened.index() == 1 ? std::get<1>(opened) : std::string("opened");
  };
  EXPECT_EQ(refusal(pipe), "is a FIFO, not a file");
  EXPECT_EQ(refusal(dir_.string()), "is a directory");
  EXPECT_EQ(refusal("/dev/zero"), "is a device, not a file");
  EXPECT_EQ(refusal((dir_ / "missing").string()), "cannot open (No such file or directory)");
  EXPECT_EQ(refusal(write("v.txt", "1 2")), "opened");

  // Every way an input file comes in: the command line, a scenario, the Controls field.
  EXPECT_EQ(input_refused("@" + pipe).text(), "--input @" + pipe + ": is a FIFO, not a file");
  EXPECT_EQ(input_refused("@/dev/zero").text(), "--input @/dev/zero: is a device, not a file");
  EXPECT_EQ(input_refused("@" + dir_.string()).json_text(), "\"input\" @" + dir_.string() + ": is a directory");
  const std::string scenario = write("fifo-input.json", R"({"algorithm": "kogge-stone", "input": "@values.fifo"})");
  auto loaded = app::load_scenario(scenario);
  ASSERT_TRUE(std::holds_alternative<app::Scenario>(loaded)) << std::get<std::string>(loaded);
  EXPECT_EQ(input_refused(*std::get<app::Scenario>(loaded).options.input).json_text(),
            "\"input\" @" + pipe + ": is a FIFO, not a file");
  app::ControlsForm form;
  form.input = app::InputChoice::Values;
  form.values = "@" + pipe;
  auto check = within_seconds([&] { return app::check_form(builtin_registry(), form); });
  EXPECT_EQ(check.errors.at(ConfigField::Input), "@" + pipe + ": is a FIFO, not a file");
}

TEST_F(FileSafety, AScenarioReadsInputsOnlyFromItsOwnFolder) {
  write("lesson/data/v.txt", "1 2 3 4");
  write("secret.txt", "7 7 7 7");
  fs::create_symlink(dir_ / "secret.txt", dir_ / "lesson" / "link.txt");
  const std::string folder = fs::weakly_canonical(dir_ / "lesson").string();
  auto opened = [&](const std::string& input) {
    const std::string path = write("lesson/s.json", R"({"algorithm": "kogge-stone", "input": ")" + input + "\"}");
    auto loaded = app::load_scenario(path);
    return std::holds_alternative<std::string>(loaded) ? std::get<std::string>(loaded)
                                                        : *std::get<app::Scenario>(loaded).options.input;
  };
  const std::string scenario = (dir_ / "lesson" / "s.json").string();
  const std::string outside = "; a scenario reads input files only from its own folder and below";
  EXPECT_EQ(opened("@data/v.txt"), "@" + (dir_ / "lesson" / "data" / "v.txt").string());
  EXPECT_EQ(opened("@data/../data/v.txt"), "@" + (dir_ / "lesson" / "data" / "v.txt").string());
  EXPECT_EQ(opened("@../secret.txt"),
            scenario + ": \"input\" @../secret.txt: outside the scenario's folder " + folder + outside);
  EXPECT_EQ(opened("@../../../../../../etc/hostname"),
            scenario + ": \"input\" @../../../../../../etc/hostname: outside the scenario's folder " + folder + outside);
  EXPECT_EQ(opened("@/etc/hostname"), scenario + ": \"input\" @/etc/hostname: outside the scenario's folder " + folder + outside);
  EXPECT_EQ(opened("@/proc/self/environ"),
            scenario + ": \"input\" @/proc/self/environ: outside the scenario's folder " + folder + outside);
  EXPECT_EQ(opened("@link.txt"), scenario + ": \"input\" @link.txt: outside the scenario's folder " + folder + outside);
  EXPECT_EQ(opened("@-"), scenario + ": \"input\" @-: a scenario's input is a file in its folder, not standard input");
  // An absolute path inside the folder is fine.
  EXPECT_EQ(opened("@" + (dir_ / "lesson" / "data" / "v.txt").string()), "@" + (dir_ / "lesson" / "data" / "v.txt").string());
}

// A message quotes at most the offending word, and only a short printable one: never another
// file's lines or the environment.
TEST_F(FileSafety, AnErrorNeverShowsAFilesContents) {
  const std::string secret = "PASSWORD=hunter2-and-a-long-tail-of-secret-text";
  const ConfigError long_word = input_refused("@" + write("long.txt", "1 2\n3 " + secret + "\n"));
  EXPECT_EQ(long_word.message, "line 2, column 3: a word of 47 bytes is not a number");
  const ConfigError binary = input_refused("@" + write("env.bin", std::string("HOME=/root\0USER=x\0", 18)));
  EXPECT_EQ(binary.message, "line 1, column 1: a word of 18 bytes with unprintable ones (binary data?) is not a number");
  const ConfigError endless = input_refused("@" + write("one-word.txt", std::string(100000, 'x')));
  EXPECT_EQ(endless.message, "line 1, column 1: a word of more than 64 bytes is not a number");
  EXPECT_EQ(input_refused("@" + write("short.txt", "1 x5 3")).message, "line 1, column 3: 'x5' is not a number");
  EXPECT_EQ(input_refused("@" + write("env.txt", "HOME=/root")).message, "line 1, column 1: a word of 10 bytes is not a number");
  const ConfigError environ = input_refused("@/proc/self/environ");  // the user's own, from the command line
  EXPECT_EQ(environ.text().find('='), std::string::npos) << environ.text();
}

// `yes 1 | syncscope run --input @-` stops after the values a run can take instead of reading on.
TEST_F(FileSafety, StandardInputIsReadOnlyAsFarAsNeeded) {
  const std::string command = "yes 1 | timeout 60 " + test::syncscope_executable() +
                              " run kogge-stone --input @- 2>" + (dir_ / "err.txt").string() + " >/dev/null";
  const int status = within_seconds([&] { return std::system(command.c_str()); });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_EQ(contents(dir_ / "err.txt"),
            "syncscope: --input @-: more than 16777216 values; a run takes at most 16777216 (--n's limit)\n");
}

// ---- item 5: atomic writes ----

// A file-size limit (what a full disk looks like to a writer) set for this process while `work`
// runs; SIGXFSZ ignored, so a write past it fails with EFBIG.
template <class Work>
auto with_file_size_limit(rlim_t bytes, Work work) {
  rlimit before{};
  ::getrlimit(RLIMIT_FSIZE, &before);
  rlimit limited = before;
  limited.rlim_cur = bytes;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  auto result = work();
  ::setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, old_handler);
  return result;
}

TEST_F(FileSafety, AFailedWriteSaysWhyAndKeepsTheOldFile) {
  const std::string target = write("picture.png", "the old picture");
  EXPECT_EQ(write_file_atomically(target, "the new picture"), std::nullopt);
  EXPECT_EQ(contents(target), "the new picture");

  const std::string large(64 << 10, 'x');
  const auto failed = with_file_size_limit(4096, [&] { return write_file_atomically(target, large); });
  EXPECT_EQ(failed, target + ": cannot write (File too large)");
  EXPECT_EQ(contents(target), "the new picture");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1) << "a temporary file was left";

  EXPECT_EQ(write_file_atomically((dir_ / "no-folder" / "x.png").string(), "x"),
            (dir_ / "no-folder" / "x.png").string() + ": cannot write (No such file or directory)");
  fs::create_directories(dir_ / "a-folder");
  EXPECT_EQ(write_file_atomically((dir_ / "a-folder").string(), "x"),
            (dir_ / "a-folder").string() + ": cannot replace (Is a directory)");
  if (::geteuid() != 0) {  // root writes into any folder
    fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(write_file_atomically(target, "x"), target + ": cannot write (Permission denied)");
    fs::permissions(dir_, fs::perms::owner_all);
    EXPECT_EQ(contents(target), "the new picture");
  }
  // A file written over keeps its permissions.
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  ASSERT_EQ(write_file_atomically(target, "again"), std::nullopt);
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(FileSafety, AScenarioSaveThatFailsKeepsTheOldScenario) {
  RunOptions o;
  o.algorithm = "kogge-stone";
  const RunConfig config = std::get<RunConfig>(resolve(builtin_registry(), o));
  const std::string path = (dir_ / "s.json").string();
  ASSERT_EQ(app::save_scenario(path, app::scenario_of(config, 0, 1)), std::nullopt);
  const std::string before = contents(path);
  app::Scenario big = app::scenario_of(config, 0, 2);
  big.title = std::string(8192, 't');
  EXPECT_EQ(with_file_size_limit(1024, [&] { return app::save_scenario(path, big); }), path + ": cannot write (File too large)");
  EXPECT_EQ(contents(path), before);
}

// ---- item 6: a scenario's keys and positions ----

TEST_F(FileSafety, UnknownScenarioKeysNameTheNearestKnownOne) {
  auto refused = [](const std::string& text) {
    auto r = app::scenario_from_json(nlohmann::json::parse(text));
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string("accepted");
  };
  EXPECT_EQ(refused(R"({"algorithm": "kogge-stone", "time_limit": "5"})"),
            "unknown key \"time_limit\"; did you mean \"time-limit\"?");
  EXPECT_EQ(refused(R"({"algorithm": "kogge-stone", "tbp": 8})"), "unknown key \"tbp\"; did you mean \"tpb\"?");
  EXPECT_EQ(refused(R"({"algorithm": "kogge-stone", "kernel": "k.h"})"),
            "unknown key \"kernel\"; a scenario's keys are \"algorithm\", \"n\", \"rows\", \"tpb\", \"dtype\", \"input\", "
            "\"schedule\", \"bug\", \"blocks\", \"time-limit\", \"syncscope_scenario\", \"title\", \"launch\", \"step\" "
            "(a kernel file opens with `syncscope gui --kernel FILE`)");
  EXPECT_EQ(refused(R"({"algorithm": "kogge-stone", "title": 5})"), "\"title\" must be text, got 5");
  EXPECT_EQ(refused(R"({"algorithm": "kogge-stone", "launch": -2})"), "\"launch\" -2: counts from 0");
  // A value's error names the key as the file spells it.
  const std::string path = write("tpb.json", R"({"algorithm": "kogge-stone", "tpb": -1})");
  app::AppState state;
  app::Session session(state);
  session.run_gpu_automatically = false;
  EXPECT_EQ(session.open_scenario(path), path + ": \"tpb\" -1: threads per block must be 1..1024");
}

TEST_F(FileSafety, AStepOrLaunchPastTheEndIsSaidWithTheLimit) {
  app::AppState state;
  app::Session session(state);
  session.run_gpu_automatically = false;
  auto notice_for = [&](const std::string& name, const std::string& position) {
    const std::string path = write(name, R"({"algorithm": "kogge-stone", "n": 8, "tpb": 8, )" + position + "}");
    EXPECT_EQ(session.open_scenario(path), std::nullopt);
    session.settle();
    return std::make_pair(path, session.take_scenario_notice());
  };
  auto [fine, none] = notice_for("fine.json", R"("step": 2)");
  EXPECT_EQ(none, std::nullopt) << *none;
  EXPECT_EQ(state.step(), 2);
  const int last = state.timeline().size() - 1;
  auto [step_path, step_notice] = notice_for("step.json", R"("step": 99)");
  EXPECT_EQ(step_notice, step_path + ": \"step\" 99: launch 0 has steps 0.." + std::to_string(last) +
                             "; shown at launch 0, step " + std::to_string(last));
  EXPECT_EQ(session.take_scenario_notice(), std::nullopt);  // taken once
  auto [launch_path, launch_notice] = notice_for("launch.json", R"("launch": 3, "step": 1)");
  EXPECT_EQ(launch_notice, launch_path + ": \"launch\" 3: this run has launches 0..0; shown at launch 0, step 1");
}

}  // namespace
}  // namespace syncscope
