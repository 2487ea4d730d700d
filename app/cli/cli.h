// The headless command line: `syncscope list`, `syncscope run ALGO ...`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace syncscope::cli {

// How far `run` goes: everything, or only reading and checking the words (the fuzzer's target:
// no kernel file is compiled, nothing is simulated; the configuration is printed instead).
enum class CliStage { Everything, CheckOnly };

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            CliStage stage = CliStage::Everything);

}  // namespace syncscope::cli
