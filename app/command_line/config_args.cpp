#include "app/command_line/config_args.h"

#include <charconv>

namespace syncscope::command_line {

std::optional<std::string> parse_whole(const std::string& option, const std::string& text, std::optional<int>& out,
                                       const char* range) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return option + " " + text + ": expected a whole number in " + range;
  out = v;
  return std::nullopt;
}

void add_config_options(CLI::App& cmd, ConfigArgs& a) {
  cmd.add_option("--n", a.n, "elements (axis-sum: elements per row), 1..16777216");
  cmd.add_option("--rows", a.rows, "rows (2D algorithms), 1..65535");
  cmd.add_option("--tpb", a.tpb, "threads per block, 1..1024");
  cmd.add_option("--dtype", a.options.dtype, "float32 | int32");
  cmd.add_option("--input", a.options.input, "iota | ones | random:SEED | v1,v2,... | @FILE (numbers separated by commas, spaces or newlines; @- stdin)");
  cmd.add_option("--schedule", a.options.schedule, "lockstep | forward | reverse | random:SEED (run: also all)");
  cmd.add_option("--bug", a.options.bug, "a bug variant of the algorithm (see `syncscope list`), or none");
  cmd.add_option("--time-limit", a.options.time_limit,
                 "seconds one block may run before the simulation stops it as a runaway, 0.05..86400 (default 2)");
  cmd.add_option("--block", a.blocks, "block to show in full (repeatable; default: all when <= 4, else 0)");
}

std::optional<std::string> finish_config(ConfigArgs& a) {
  std::optional<std::string> bad;
  if (a.n && !bad) bad = parse_whole("--n", *a.n, a.options.n, "1..16777216");
  if (a.rows && !bad) bad = parse_whole("--rows", *a.rows, a.options.rows, "1..65535");
  if (a.tpb && !bad) bad = parse_whole("--tpb", *a.tpb, a.options.tpb, "1..1024");
  for (const std::string& b : a.blocks) {
    std::optional<int> block;
    if (!bad) bad = parse_whole("--block", b, block, "0..blocks-1");
    if (block) a.options.blocks.push_back(*block);
  }
  return bad;
}

}  // namespace syncscope::command_line
