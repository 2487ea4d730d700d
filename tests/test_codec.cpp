// One configuration codec: random configurations survive every path (options, JSON, scenario
// files, the GUI's form, the command line) unchanged, bug variant included.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>

#include "app/state/scenario.h"
#include "app/view/controls_model.h"
#include "core/config_codec.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::test {
namespace {

void expect_same(const RunConfig& a, const RunConfig& b, const std::string& path) {
  SCOPED_TRACE(path + ": " + a.describe());
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.problem.n, b.problem.n);
  EXPECT_EQ(a.problem.rows, b.problem.rows);
  EXPECT_EQ(a.problem.tpb, b.problem.tpb);
  EXPECT_EQ(a.problem.dtype, b.problem.dtype);
  EXPECT_EQ(a.problem.bug, b.problem.bug);
  EXPECT_EQ(a.input.kind, b.input.kind);
  EXPECT_EQ(a.input.seed, b.input.seed);
  EXPECT_EQ(a.input.values, b.input.values);
  EXPECT_EQ(a.schedule, b.schedule);
  EXPECT_EQ(a.detail_blocks, b.detail_blocks);
}

RunConfig resolved(const Registry& registry, const RunOptions& o) {
  auto r = resolve(registry, o);
  if (auto* e = std::get_if<ConfigError>(&r)) throw std::runtime_error(e->text());
  return std::get<RunConfig>(r);
}

// A random valid configuration of a random algorithm: every field set to something not default.
RunConfig random_config(const Registry& registry, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (;;) {
    const AlgorithmEntry& e = registry.all()[pick(0, static_cast<int>(registry.all().size()) - 1)];
    RunOptions o{.algorithm = e.info.name};
    o.tpb = 1 << pick(0, 10);
    o.rows = e.info.two_dimensional ? std::optional<int>(pick(1, 6)) : std::nullopt;
    o.dtype = pick(0, 1) ? "int32" : "float32";
    const int bug = pick(0, static_cast<int>(e.info.bugs.size()));
    o.bug = bug ? e.info.bugs[bug - 1].name : "none";
    switch (pick(0, 3)) {
      case 0: o.input = "iota"; break;
      case 1: o.input = "ones"; break;
      case 2: o.input = "random:" + std::to_string(pick(0, 1000)); break;
      default: {
        const int count = pick(1, 40) * o.rows.value_or(1);
        std::string values;
        for (int k = 0; k < count; ++k) values += (k ? "," : "") + std::to_string(pick(-50, 50));
        o.input = values;
      }
    }
    if (o.input->find(',') == std::string::npos && !std::isdigit(static_cast<unsigned char>((*o.input)[0])) &&
        (*o.input)[0] != '-')
      o.n = pick(1, 3000);
    const char* schedules[] = {"lockstep", "forward", "reverse"};
    o.schedule = pick(0, 3) == 3 ? "random:" + std::to_string(pick(1, 99)) : schedules[pick(0, 2)];
    o.blocks = {pick(0, 2)};
    auto r = resolve(registry, o);
    if (auto* c = std::get_if<RunConfig>(&r)) return *c;
  }
}

TEST(Codec, RandomConfigurationsSurviveEveryPath) {
  std::mt19937 rng(11);
  for (const Registry* registry : {&builtin_registry(), &user::held_out_registry()})
    for (int k = 0; k < 150; ++k) {
      const RunConfig c = random_config(*registry, rng);
      const RunOptions o = options_of(c);
      expect_same(c, resolved(*registry, o), "options");

      const auto back = options_from_json(nlohmann::json::parse(options_to_json(o).dump()));
      ASSERT_TRUE(std::holds_alternative<RunOptions>(back));
      expect_same(c, resolved(*registry, std::get<RunOptions>(back)), "json");

      const auto scenario = app::scenario_from_json(nlohmann::json::parse(app::scenario_to_json(app::scenario_of(c, 1, 2)).dump()));
      ASSERT_TRUE(std::holds_alternative<app::Scenario>(scenario));
      EXPECT_EQ(std::get<app::Scenario>(scenario).step, 2);
      expect_same(c, resolved(*registry, std::get<app::Scenario>(scenario).options), "scenario");

      expect_same(c, resolved(*registry, app::ControlsForm::from(c).to_options(c.algorithm)), "form");
    }
}

// The words after `syncscope run` give the same configuration when the real executable parses them.
TEST(Codec, CommandLineWordsGiveTheSameConfiguration) {
  std::mt19937 rng(5);
  for (int k = 0; k < 6; ++k) {
    const RunConfig c = random_config(builtin_registry(), rng);
    std::string cmd = "'" + syncscope_executable() + "' run";
    for (const std::string& w : options_to_args(options_of(c))) cmd += " '" + w + "'";
    cmd += " --json 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    std::string text;
    char buf[4096];
    while (size_t got = fread(buf, 1, sizeof buf, pipe.get())) text.append(buf, got);
    const auto doc = nlohmann::json::parse(text);
    const auto parsed = options_from_json(doc.at("config"));
    ASSERT_TRUE(std::holds_alternative<RunOptions>(parsed)) << doc.at("config").dump();
    expect_same(c, resolved(builtin_registry(), std::get<RunOptions>(parsed)), cmd);
  }
}

TEST(Codec, ASavedScenarioKeepsItsBugVariant) {
  const RunConfig c = resolved(builtin_registry(), {.algorithm = "kogge-stone", .bug = "in-place"});
  const std::string path = (std::filesystem::temp_directory_path() / "syncscope-bug-scenario.json").string();
  ASSERT_FALSE(app::save_scenario(path, app::scenario_of(c, 0, 3)).has_value());
  const auto loaded = app::load_scenario(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(std::holds_alternative<app::Scenario>(loaded));
  EXPECT_EQ(resolved(builtin_registry(), std::get<app::Scenario>(loaded).options).bug_name(), "in-place");
}

TEST(Codec, ABadFieldIsNamedWithItsValue) {
  const auto bad = options_from_json(nlohmann::json{{"algorithm", "kogge-stone"}, {"tpb", "many"}});
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_EQ(std::get<std::string>(bad), "\"tpb\" must be a whole number, got \"many\"");
}

}  // namespace
}  // namespace syncscope::test
