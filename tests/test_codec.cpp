// One configuration codec: random configurations survive every path (options, JSON, scenario
// files, the GUI's form, the command line) unchanged, bug variant included.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <set>

#include "app/state/scenario.h"
#include "app/view/controls_model.h"
#include "core/config_codec.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::test {
namespace {

// The whole configuration: RunConfig::operator== compares every field, the time limit included.
void expect_same(const RunConfig& a, const RunConfig& b, const std::string& path) {
  EXPECT_TRUE(a == b) << path << ":\n  " << options_to_json(options_of(a)).dump() << "\n  "
                      << options_to_json(options_of(b)).dump();
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
    if (pick(0, 2)) o.time_limit = shortest_text(std::uniform_real_distribution<double>(0.05, 1000)(rng));
    auto r = resolve(registry, o);
    if (auto* c = std::get_if<RunConfig>(&r)) return *c;
  }
}

TEST(Codec, RandomConfigurationsSurviveEveryPath) {
  std::mt19937 rng(11);
  std::set<std::string> keys_written;
  for (const Registry* registry : {&builtin_registry(), &user::held_out_registry()})
    for (int k = 0; k < 150; ++k) {
      const RunConfig c = random_config(*registry, rng);
      const RunOptions o = options_of(c);
      const nlohmann::json written = options_to_json(o);
      for (const auto& [key, value] : written.items()) keys_written.insert(key);
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
  // A new row of the field table must be exercised here too.
  for (const FieldInfo& field : kFieldInfos) EXPECT_TRUE(keys_written.contains(field.key)) << field.key << " never round-tripped";
}

TEST(Codec, ConfigurationsDifferInAnyField) {
  const RunConfig c = resolved(builtin_registry(), {.algorithm = "kogge-stone"});
  EXPECT_EQ(c, resolved(builtin_registry(), {.algorithm = "kogge-stone"}));
  for (const RunOptions& other : std::vector<RunOptions>{
           {.algorithm = "kogge-stone", .n = 9},
           {.algorithm = "kogge-stone", .tpb = 16},
           {.algorithm = "kogge-stone", .dtype = "int32"},
           {.algorithm = "kogge-stone", .input = "ones"},
           {.algorithm = "kogge-stone", .schedule = "forward"},
           {.algorithm = "kogge-stone", .bug = "in-place"},
           {.algorithm = "kogge-stone", .blocks = {0}},
           {.algorithm = "kogge-stone", .time_limit = "3"},
           {.algorithm = "block-reduce"}})
    EXPECT_FALSE(c == resolved(builtin_registry(), other)) << options_to_json(other).dump();
}

// An error carries its field; each front end spells it its own way from the table.
TEST(Codec, AnErrorNamesItsFieldInEachFrontEndsWords) {
  const auto refused = resolve(builtin_registry(), {.algorithm = "kogge-stone", .tpb = 2000});
  ASSERT_TRUE(std::holds_alternative<ConfigError>(refused));
  const ConfigError& e = std::get<ConfigError>(refused);
  EXPECT_EQ(e.field, ConfigField::Tpb);
  EXPECT_EQ(e.text(), "--tpb 2000: threads per block must be 1..1024");
  EXPECT_EQ(e.json_text(), "\"tpb\" 2000: threads per block must be 1..1024");
  EXPECT_EQ(e.form_text(), "2000: threads per block must be 1..1024");

  const auto blocks = resolve(builtin_registry(), {.algorithm = "kogge-stone", .blocks = {3}});
  ASSERT_TRUE(std::holds_alternative<ConfigError>(blocks));
  EXPECT_EQ(std::get<ConfigError>(blocks).field, ConfigField::Blocks);
  EXPECT_EQ(std::get<ConfigError>(blocks).text(), "--block 3: the first launch has 1 block (0..0)");
  EXPECT_EQ(std::get<ConfigError>(blocks).json_text(), "\"blocks\" 3: the first launch has 1 block (0..0)");

  // An algorithm's own sentence names its options; the field is the typed one its check gave.
  const auto algorithm_says = resolve(builtin_registry(), {.algorithm = "hierarchical-scan", .tpb = 1});
  ASSERT_TRUE(std::holds_alternative<ConfigError>(algorithm_says));
  EXPECT_EQ(std::get<ConfigError>(algorithm_says).field, ConfigField::Tpb);
  EXPECT_EQ(std::get<ConfigError>(algorithm_says).text(),
            "--tpb 1 cannot shrink the block sums level by level; hierarchical-scan needs --tpb 2 or more");

  // A check's typed field and the problem's value, spelled by each front end.
  const auto not_a_power_of_two = resolve(builtin_registry(), {.algorithm = "block-reduce", .tpb = 48});
  ASSERT_TRUE(std::holds_alternative<ConfigError>(not_a_power_of_two));
  const ConfigError& power = std::get<ConfigError>(not_a_power_of_two);
  EXPECT_EQ(power.field, ConfigField::Tpb);
  const std::string why = "block-reduce halves the block at every step, so --tpb must be a power of two (1, 2, 4, ..., 1024)";
  EXPECT_EQ(power.text(), "--tpb 48: " + why);
  EXPECT_EQ(power.json_text(), "\"tpb\" 48: " + why);
  EXPECT_EQ(power.form_text(), "48: " + why);

  const auto too_many_blocks = resolve(builtin_registry(), {.algorithm = "two-phase-scan", .n = 100000, .tpb = 8});
  ASSERT_TRUE(std::holds_alternative<ConfigError>(too_many_blocks));
  EXPECT_EQ(std::get<ConfigError>(too_many_blocks).field, ConfigField::N);
  EXPECT_EQ(std::get<ConfigError>(too_many_blocks).text().substr(0, 30), "--n 100000 at --tpb 8 needs 12");
}

// Ranges and help come from the simulator's limits through the table.
TEST(Codec, TheTableTakesItsLimitsFromTheSimulator) {
  EXPECT_EQ(limit_text(ConfigField::Tpb), "1.." + std::to_string(sim::kMaxThreadsPerBlock));
  EXPECT_EQ(limit_text(ConfigField::N), "1.." + std::to_string(sim::kMaxElements));
  EXPECT_EQ(help_text(ConfigField::TimeLimit),
            "seconds one block may run before the simulation stops it as a runaway, 0.05..86400 (default 2)");
  EXPECT_EQ(help_text(ConfigField::Blocks), "block to show in full (repeatable; default: all when <= 4, else 0)");
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
