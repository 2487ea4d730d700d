// The headless command line: `syncscope list`, `syncscope run ALGO ...`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace syncscope::cli {

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace syncscope::cli
