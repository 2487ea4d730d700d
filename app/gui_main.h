// The desktop app's command line (`syncscope`, `syncscope --scenario FILE`, `syncscope gui ...`).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace syncscope::app {

// Exit codes as the CLI's: 0 ran, 1 internal failure (no window), 2 bad arguments.
int run_gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace syncscope::app
