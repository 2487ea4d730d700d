// The words of `syncscope`, `syncscope --scenario FILE` and `syncscope gui ...`, read and checked
// before any window opens: the run options by the configuration's field table, the app's whole
// numbers (--launch, --step, --width, ...) by the CountOption table (core/config_fields.h), so a
// bad value gets the same kind of message as `syncscope run`'s.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "app/command_line/config_args.h"
#include "app/command_line/kernel_option.h"
#include "app/handout_request.h"

namespace syncscope::command_line {

struct GuiOptions {
  ConfigArgs config;
  std::optional<std::string> scenario;
  std::optional<int> launch, step, replay, focus;
  bool presenter = false;
  std::string screenshot;
  std::string state_file;
  int bench_frames = 0;
  bool play_through = false;
  int width = 1600, height = 1000;
  bool compare_schedules = false;
  int gpu_runs = 0;
  app::HandoutRequest handouts;
  std::string trace;
  std::string kernel_file;  // --kernel FILE: compiled, shown, and compiled again when saved
  LaunchWords launch_words;  // --grid, --block, --kernel-name, --arg: a .cu without main()
};

// The options, or the exit code when there is nothing to open: kExitRan after --help (printed on
// `out`), kExitBadArguments after a bad word (its message on `err`).
std::variant<GuiOptions, int> parse_gui_command(const std::vector<std::string>& args, std::ostream& out,
                                                std::ostream& err);

}  // namespace syncscope::command_line
