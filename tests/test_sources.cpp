// The code panel shows the kernel source embedded at build time; every line a trace names must be
// in it, and every algorithm's listed sources must be there.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "contract/warp_ops.h"
#include "core/api_table.h"
#include "core/sources.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

const SourceFile* find_source(const std::string& path) {
  for (const auto& f : kernel_sources())
    if (f.path == path) return &f;
  return nullptr;
}

std::string line_of(const SourceFile& f, uint32_t line) {
  std::istringstream in(f.text);
  std::string s;
  for (uint32_t k = 1; std::getline(in, s); ++k)
    if (k == line) return s;
  return "";
}

// The warp operations' table (contract/warp_ops.h) is where their rows in kernels/README.md come
// from: the page has every one as `syncscope list --api` writes it.
TEST(Contract, TheReadmeHasEveryWarpOperationsRow) {
  std::ifstream in(data_path("kernels/README.md"));
  if (!in && std::getenv("SYNCSCOPE_DATA_DIR")) GTEST_SKIP() << "kernels/README.md is not in this copy";
  ASSERT_TRUE(in) << data_path("kernels/README.md");
  std::stringstream page;
  page << in.rdbuf();
  const std::vector<std::string> rows = warp_api_rows();
  EXPECT_EQ(rows.size(), std::size(kWarpOps) - 2);  // every operation but None and ActiveMask
  for (const std::string& row : rows) EXPECT_NE(page.str().find(row + "\n"), std::string::npos) << "missing: " << row;
}

TEST(Contract, TheTableNamesEveryOperationOnce) {
  for (size_t k = 0; k < std::size(kWarpOps); ++k) {
    EXPECT_EQ(static_cast<size_t>(kWarpOps[k].op), k) << kWarpOps[k].name;
    for (size_t j = 0; j < k; ++j) EXPECT_STRNE(kWarpOps[k].name, kWarpOps[j].name);
  }
}

TEST(Sources, EveryAlgorithmsFilesAreEmbedded) {
  for (const auto& e : builtin_registry().all())
    for (const auto& path : e.info.sources) {
      const SourceFile* f = find_source(path);
      ASSERT_NE(f, nullptr) << path;
      EXPECT_NE(f->text.find("struct"), std::string::npos) << path;
    }
}

TEST(Sources, TraceLinesPointAtTheStatementsInTheEmbeddedText) {
  const RunResult r = run_algorithm({.algorithm = "kogge-stone"});
  const sim::BlockTrace& b = r.sim.trace.launches.at(0).blocks.at(0);
  // Barriers point at `c.sync()`, shared reads of the read phase at `partner = s[t - offset]`.
  for (const auto& step : b.steps) {
    if (step.barrier == sim::kNoLine) continue;
    const sim::SourceLine& l = sim::LineTable::get(step.barrier);
    const SourceFile* f = find_source(l.file);
    ASSERT_NE(f, nullptr) << l.file;
    EXPECT_NE(line_of(*f, l.line).find("c.sync()"), std::string::npos) << l.file << ":" << l.line;
  }
  for (const sim::Event& e : b.steps.at(1).events) {
    if (!e.is_read()) continue;
    const sim::SourceLine& l = sim::LineTable::get(e.line);
    EXPECT_NE(line_of(*find_source(l.file), l.line).find("partner = s[t - offset]"), std::string::npos);
  }
}

}  // namespace
}  // namespace syncscope::test
