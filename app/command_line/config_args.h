// What the two entry points (`syncscope run ...` in app/cli, `syncscope gui ...` in app/gui_main)
// share: the configuration options, their checking, and the exit codes. The options are generated
// from the field table (core/config_fields.h): their names, help and limits live there.
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/run.h"

namespace syncscope::command_line {

// Exit codes: 0 the run completed (hazards, a mismatch or not); 1 the run was stopped (a crash,
// a runaway, a divergence, the kernel exited) or an output could not be written, or syncscope
// itself failed; 2 bad input.
inline constexpr int kExitRan = 0;
inline constexpr int kExitStopped = 1;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadArguments = 2;

struct ConfigArgs {
  RunOptions options;
  // Whole numbers arrive as text so that a bad one gets our message (option, value, limit).
  std::map<ConfigField, std::optional<std::string>> whole_words;
  std::map<ConfigField, std::vector<std::string>> whole_lists;  // repeatable (--block)
};

// "--n abc" -> message; the range is checked where the limits are applied (core/run.cpp).
std::optional<std::string> parse_whole(const std::string& option, const std::string& text, std::optional<int>& out,
                                       const char* range);

// A whole-number option of core/config_fields.h's CountOption table, quoted as typed when it is bad:
// "--step '': expected a whole number in 0..2147483647", "--launch -1: launches count from 0".
std::optional<std::string> parse_count(const CountOption& option, const std::string& text, std::optional<int>& out);

// Every field of the table but the positional ALGO, which each command names itself.
void add_config_options(CLI::App& cmd, ConfigArgs& args);
// Converts the whole-number options into args.options; the message (exit code 2) if one is bad.
std::optional<std::string> finish_config(ConfigArgs& args);

}  // namespace syncscope::command_line
