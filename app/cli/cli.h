// The headless command line: `syncscope list`, `syncscope run ALGO ...`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace syncscope::cli {

// Exit codes: 0 ran (also when the output mismatches), 1 internal failure, 2 bad arguments.
inline constexpr int kExitRan = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitBadArguments = 2;

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace syncscope::cli
