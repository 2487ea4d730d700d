// What the view-model tests share: a run to look at and the texts of a row of cells.
#pragma once

#include <memory>
#include <vector>

#include "app/view/block_view_model.h"
#include "tests/test_util.h"

namespace syncscope::test {

inline std::shared_ptr<const RunResult> run(RunOptions o) { return std::make_shared<const RunResult>(run_algorithm(o)); }

inline Strings texts(const std::vector<app::CellView>& cells) {
  Strings out;
  for (const auto& c : cells) out.push_back(c.text);
  return out;
}

}  // namespace syncscope::test
