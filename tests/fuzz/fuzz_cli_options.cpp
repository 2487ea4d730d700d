// libFuzzer target: the command line's words (one per line of the input) through `syncscope`'s
// parser and the configuration checks, as far as a run would start (CliStage::CheckOnly: nothing
// is compiled or simulated). Every answer must be an exit code of 0 or 2 with a message, never a
// crash, a hang, undefined behaviour or an exception escaping.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;  // command lines, not books
  std::vector<std::string> args;
  std::string word;
  for (size_t k = 0; k < size; ++k) {
    const char c = static_cast<char>(data[k]);
    if (c == '\n') {
      args.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  args.push_back(word);
  if (args.size() > 64) return -1;
  for (const std::string& a : args) {
    // @FILE reads a file: the input-list target covers that with files it writes itself; here a
    // word could name /dev/stdin or /dev/zero and wait or read for ever.
    if (a.find('@') != std::string::npos) return -1;
  }
  std::ostringstream out, err;
  const int code = syncscope::cli::run_cli(args, out, err, syncscope::cli::CliStage::CheckOnly);
  if (code != 0 && code != 2) std::abort();          // 1 is an internal error: a bug
  if (code == 2 && err.str().empty()) std::abort();  // refused without a word of why
  return 0;
}
