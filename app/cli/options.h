// The configuration options `syncscope run` and `syncscope gui` share.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "kernels/run.h"

namespace syncscope::cli {

struct ConfigArgs {
  RunOptions options;
  // Whole numbers arrive as text so that a bad one gets our message (option, value, limit).
  std::optional<std::string> n, rows, tpb;
  std::vector<std::string> blocks;
};

void add_config_options(CLI::App& cmd, ConfigArgs& args);
// Converts the whole-number options into args.options; the message (exit code 2) if one is bad.
std::optional<std::string> finish_config(ConfigArgs& args);

}  // namespace syncscope::cli
