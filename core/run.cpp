#include "core/run.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstring>
#include <limits>
#include <sstream>
#include <string_view>

#include <unistd.h>

#include "core/regular_file.h"
#include "core/words.h"

#include "kernels/reference.h"
#include "sim/splitmix64.h"

namespace syncscope {
namespace {


// Value k (0-based) of an input as the user typed it, for messages: "99999999999", not "1e+11".
// Values from a file: the shortest text that reads back the same.
std::string typed_value(const std::string& input_text, const InputSpec& input, size_t k) {
  if (input_text.starts_with("@")) return shortest_text(input.values[k]);
  std::stringstream items(input_text);
  std::string item;
  for (size_t position = 0; std::getline(items, item, ','); ++position)
    if (position == k) return trim(item);
  return shortest_text(input.values[k]);
}

bool in_range(ConfigField f, double v) {
  const FieldRange& range = *field_info(f).range;
  return v >= range.min && v <= range.max;
}

// "threads per block must be 1..1024": the field's noun and range from the table.
std::string must_be(ConfigField f, const std::string& before_range = "") {
  return std::string(field_info(f).noun) + " must be " + before_range + limit_text(f);
}

}  // namespace

std::string InputSpec::text() const {
  switch (kind) {
    case InputKind::Iota: return "iota";
    case InputKind::Ones: return "ones";
    case InputKind::Random: return "random:" + std::to_string(seed);
    case InputKind::Values: {
      if (!file.empty()) return "@" + file;  // short, and read again where the configuration goes (a scenario)
      std::string s;
      for (size_t i = 0; i < values.size(); ++i) {
        if (i) s += ',';
        std::ostringstream v;
        v.precision(17);
        v << values[i];
        s += v.str();
      }
      return s;
    }
  }
  return "?";
}

namespace {

InputSpec input_of_kind(InputKind kind, uint64_t seed = 0) {
  InputSpec spec;
  spec.kind = kind;
  spec.seed = seed;
  return spec;
}

// A word of an input file as an error may quote it: a short one of letters, digits and . + - _ (a
// mistyped number) as it is; anything else (another file's text, NAME=value from an environment,
// binary data) only by its length.
std::string quotable_word(std::string_view word) {
  constexpr size_t kLongestQuoted = 24;
  auto plain = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-' || c == '_'; };
  auto printable = [](char c) { return c > ' ' && c < 0x7f; };
  if (word.size() <= kLongestQuoted && std::all_of(word.begin(), word.end(), plain)) return "'" + std::string(word) + "'";
  return "a word of " + std::to_string(word.size()) + " bytes" +
         (std::all_of(word.begin(), word.end(), printable) ? "" : " with unprintable ones (binary data?)");
}

bool separates_values(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Numbers separated by commas, spaces or newlines, from a regular file or "-" (standard input); a
// bad one is named by its line and column. Reading stops at the first bad word and once there are
// more values than a run takes: standard input may never end (`yes 1 | syncscope run --input @-`).
std::optional<InputSpec> parse_input_file(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;  // the error's value names the file
    return std::nullopt;
  };
  int fd = STDIN_FILENO;
  if (path != "-") {
    auto opened = open_regular_file(path);
    if (opened.index() == 1) return fail(std::get<1>(opened));
    fd = std::get<0>(opened);
  }
  struct CloseFile {
    int fd;
    ~CloseFile() {
      if (fd != STDIN_FILENO) ::close(fd);
    }
  } close_file{fd};
  constexpr uint64_t kLargest = uint64_t{256} << 20;  // 2^24 values at up to 16 characters each
  const auto most_values = static_cast<size_t>(field_info(ConfigField::N).range->max);
  InputSpec spec = input_of_kind(InputKind::Values);
  spec.file = path == "-" ? "" : path;
  std::string pending;  // an unfinished word at the end of what was read so far
  int line = 1;
  uint64_t column = 1, bytes = 0;
  // One complete word: a number, or the error.
  auto take_word = [&](uint64_t word_column) -> std::optional<std::string> {
    double v = 0;
    const auto [stop, ec] = std::from_chars(pending.data(), pending.data() + pending.size(), v);
    if (ec != std::errc() || stop != pending.data() + pending.size() || !std::isfinite(v))
      return "line " + std::to_string(line) + ", column " + std::to_string(word_column) + ": " + quotable_word(pending) +
             " is not a number";
    if (spec.values.size() == most_values)
      return "more than " + std::to_string(most_values) + " values; a run takes at most " +
             shortest_text(field_info(ConfigField::N).range->max) + " (" + field_info(ConfigField::N).option + "'s limit)";
    spec.values.push_back(v);
    pending.clear();
    return std::nullopt;
  };
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(std::string("cannot read (") + std::strerror(errno) + ")");
    if (got == 0) break;
    bytes += static_cast<uint64_t>(got);
    if (bytes > kLargest) return fail("larger than 256 MiB (at most 2^24 values are taken)");
    for (ssize_t k = 0; k < got; ++k) {
      const char c = buffer[k];
      if (!separates_values(c)) {
        constexpr size_t kLongestNumber = 64;  // no number is written longer; stop at once
        if (pending.size() == kLongestNumber)
          return fail("line " + std::to_string(line) + ", column " + std::to_string(column - pending.size()) +
                      ": a word of more than " + std::to_string(kLongestNumber) + " bytes is not a number");
        pending += c;
        ++column;
        continue;
      }
      if (!pending.empty()) {
        if (auto bad = take_word(column - pending.size())) return fail(*bad);
      }
      if (c == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  }
  if (!pending.empty()) {
    if (auto bad = take_word(column - pending.size())) return fail(*bad);
  }
  if (spec.values.empty()) return fail("holds no numbers");
  return spec;
}

}  // namespace

std::optional<InputSpec> InputSpec::parse(const std::string& text, std::string* error) {
  if (text.starts_with("@")) return parse_input_file(text.substr(1), error);
  if (text == "iota") return input_of_kind(InputKind::Iota);
  if (text == "ones") return input_of_kind(InputKind::Ones);
  if (text.starts_with("random:")) {
    const std::string digits = text.substr(7);
    uint64_t seed = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), seed);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      if (error) *error = "random:SEED needs a whole number after 'random:'";
      return std::nullopt;
    }
    return input_of_kind(InputKind::Random, seed);
  }
  InputSpec spec = input_of_kind(InputKind::Values);
  std::stringstream items(text);
  std::string item;
  int position = 0;
  while (std::getline(items, item, ',')) {
    ++position;
    const std::string t = trim(item);
    double v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) {
      if (error)
        *error = "value " + std::to_string(position) + " ('" + t +
                 "') is not a number; expected iota, ones, random:SEED or numbers separated by commas";
      return std::nullopt;
    }
    spec.values.push_back(v);
  }
  if (spec.values.empty() || (!text.empty() && text.back() == ',')) {
    if (error) *error = "expected iota, ones, random:SEED or numbers separated by commas";
    return std::nullopt;
  }
  return spec;
}

int RunConfig::blocks() const {
  if (algorithm && algorithm->first_launch_blocks) {
    if (const int blocks = algorithm->first_launch_blocks(problem); blocks > 0) return blocks;
  }
  if (algorithm && algorithm->info.two_dimensional) return problem.rows;
  return ceil_div(problem.n, problem.tpb);
}

std::string RunConfig::bug_name() const {
  if (!algorithm || problem.bug == 0) return "none";
  return algorithm->info.bugs.at(problem.bug - 1).name;
}

std::string RunConfig::describe() const {
  std::ostringstream s;
  s << (algorithm ? algorithm->info.name : "?");
  if (problem.bug) s << " bug=" << bug_name();
  if (algorithm && algorithm->info.kernels_only) {
    s << " (CUDA kernels: syncscope's main() launches one with --grid and --block) schedule=" << schedule.name();
    return s.str();
  }
  if (algorithm && algorithm->info.program) {
    s << " (a CUDA program: its main() chooses the launches) schedule=" << schedule.name();
    return s.str();
  }
  s << " n=" << problem.n;
  if (algorithm && algorithm->info.two_dimensional) s << " rows=" << problem.rows;
  s << " tpb=" << problem.tpb << " blocks=" << blocks() << " dtype=" << sim::to_string(problem.dtype)
    << " input=" << (input.kind == InputKind::Values ? "values" : input.text()) << " schedule=" << schedule.name();
  return s.str();
}

std::variant<RunConfig, ConfigError> resolve(const Registry& registry, const RunOptions& o) {
  RunConfig c;
  c.algorithm = registry.find(o.algorithm);
  if (!c.algorithm) {
    std::string known;
    for (const auto& e : registry.all()) known += (known.empty() ? "" : ", ") + e.info.name;
    return ConfigError{ConfigField::Algorithm, o.algorithm, "unknown algorithm; known: " + known};
  }
  const AlgoInfo& info = c.algorithm->info;
  c.problem = info.defaults;

  if (o.dtype) {
    if (*o.dtype == "float32") c.problem.dtype = DType::Float32;
    else if (*o.dtype == "int32") c.problem.dtype = DType::Int32;
    else return ConfigError{ConfigField::Dtype, *o.dtype, "expected float32 or int32"};
  }
  if (o.bug && *o.bug != "none") {
    // A variant also answers to its macro's spelling (a .cu's BUG_NO_BARRIER: NO_BARRIER, BUG_NO_BARRIER).
    std::string spelled = *o.bug;
    if (spelled.rfind("BUG_", 0) == 0) spelled = spelled.substr(4);
    if (spelled.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos)
      for (char& ch : spelled) ch = ch == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    std::string names;
    for (size_t k = 0; k < info.bugs.size(); ++k) {
      if (info.bugs[k].name == *o.bug || info.bugs[k].name == spelled) c.problem.bug = static_cast<int>(k) + 1;
      names += (names.empty() ? "" : ", ") + info.bugs[k].name;
    }
    if (c.problem.bug == 0)
      return ConfigError{ConfigField::Bug, *o.bug,
                         info.name + (names.empty() ? " has no bug variants" : " has no such variant; variants: " + names)};
  }
  if (o.schedule) {
    std::string why;
    auto s = sim::Schedule::parse(*o.schedule, &why);
    if (!s) return ConfigError{ConfigField::Schedule, *o.schedule, why};
    c.schedule = *s;
  }
  if (o.time_limit) {
    double seconds = 0;
    const std::string& text = *o.time_limit;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !in_range(ConfigField::TimeLimit, seconds))
      return ConfigError{ConfigField::TimeLimit, text, must_be(ConfigField::TimeLimit, "a number in ")};
    c.time_limit_s = seconds;
  }
  if (o.input) {
    std::string why;
    auto in = InputSpec::parse(*o.input, &why);
    if (!in) return ConfigError{ConfigField::Input, *o.input, why};
    c.input = *in;
  }
  if (o.rows) {
    if (!info.two_dimensional)
      return ConfigError{ConfigField::Rows, std::to_string(*o.rows),
                         info.name + " works on one row; " + field_info(ConfigField::Rows).option +
                             " applies to 2D algorithms (axis-sum)"};
    if (!in_range(ConfigField::Rows, *o.rows))
      return ConfigError{ConfigField::Rows, std::to_string(*o.rows),
                         must_be(ConfigField::Rows) + " (one block per row, gridDim.y)"};
    c.problem.rows = *o.rows;
  }
  if (o.tpb) {
    if (!in_range(ConfigField::Tpb, *o.tpb))
      return ConfigError{ConfigField::Tpb, std::to_string(*o.tpb), must_be(ConfigField::Tpb)};
    c.problem.tpb = *o.tpb;
  }
  const int rows = info.two_dimensional ? c.problem.rows : 1;
  if (o.n) {
    if (!in_range(ConfigField::N, *o.n))
      return ConfigError{ConfigField::N, std::to_string(*o.n),
                         info.two_dimensional ? "elements per row must be " + limit_text(ConfigField::N)
                                              : must_be(ConfigField::N)};
    c.problem.n = *o.n;
  }
  if (c.input.kind == InputKind::Values) {
    const int count = static_cast<int>(c.input.values.size());
    if (!o.n) {
      if (count % rows != 0)
        return ConfigError{ConfigField::Input, std::to_string(count) + " values",
                           "cannot split into " + std::to_string(rows) + " rows of equal length"};
      c.problem.n = count / rows;
    } else if (count != c.problem.n * rows) {
      return ConfigError{ConfigField::Input, std::to_string(count) + " values",
                         "expected " + std::to_string(int64_t{c.problem.n} * rows) + " values for " +
                             field_info(ConfigField::N).option + " " + std::to_string(c.problem.n) +
                             (info.two_dimensional
                                  ? " × " + std::string(field_info(ConfigField::Rows).option) + " " + std::to_string(rows)
                                  : std::string())};
    }
    for (size_t k = 0; k < c.input.values.size(); ++k) {
      const double v = c.input.values[k];
      if (c.problem.dtype == DType::Int32 &&
          (v != std::floor(v) || v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()))
        return ConfigError{ConfigField::Input, typed_value(o.input.value_or(""), c.input, k),
                           "value " + std::to_string(k + 1) + " is not an int32 (whole number in -2147483648..2147483647)"};
      if (c.problem.dtype == DType::Float32 && std::fabs(v) > std::numeric_limits<float>::max())
        return ConfigError{ConfigField::Input, typed_value(o.input.value_or(""), c.input, k), "value " + std::to_string(k + 1) + " does not fit in float32"};
    }
  }
  if (!in_range(ConfigField::N, static_cast<double>(int64_t{c.problem.n} * rows)))
    return ConfigError{ConfigField::N, std::to_string(c.problem.n),
                       std::to_string(c.problem.n) + " × " + std::to_string(rows) + " rows = " +
                           std::to_string(int64_t{c.problem.n} * rows) + " elements; the limit is " +
                           shortest_text(field_info(ConfigField::N).range->max)};
  c.problem.rows = rows;
  if (CheckResult refused = c.algorithm->check(c.problem)) return config_error(*refused, c.problem);
  const int blocks = o.blocks.empty() ? 0 : c.blocks();  // runs the host code: only when asked
  for (int b : o.blocks) {
    if (b < 0 || b >= blocks)
      return ConfigError{ConfigField::Blocks, std::to_string(b),
                         "the first launch has " + std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s") +
                             " (0.." + std::to_string(blocks - 1) + ")"};
  }
  c.detail_blocks = o.blocks;
  return c;
}

std::vector<double> make_input(const RunConfig& c) {
  const int count = c.problem.input_count();
  std::vector<double> in(count);
  switch (c.input.kind) {
    case InputKind::Iota:
      for (int i = 0; i < count; ++i) in[i] = i;
      break;
    case InputKind::Ones:
      for (int i = 0; i < count; ++i) in[i] = 1;
      break;
    case InputKind::Random: {
      // Small values a class can add in their heads: 0..9, or quarters 0..3.75 for float32.
      uint64_t state = c.input.seed;
      for (int i = 0; i < count; ++i) {
        const uint64_t r = sim::splitmix64(state);
        in[i] = c.problem.dtype == DType::Int32 ? static_cast<double>(r % 10) : static_cast<double>(r % 16) / 4.0;
      }
      break;
    }
    case InputKind::Values:
      in = c.input.values;
      break;
  }
  // What the device will hold: float32 rounds.
  for (double& v : in) v = reference::to_element(c.problem.dtype, v);
  return in;
}

bool differs_from_reference(DType dtype, double out, bool poisoned, double ref) {
  return poisoned || (dtype == DType::Int32 ? out != ref : std::fabs(out - ref) > 1e-5 * std::max(1.0, std::fabs(ref)));
}

GpuComparison compare_gpu_output(const RunResult& r, const std::vector<uint32_t>& gpu_bits) {
  return {compare_bits(r.sim.output_bits, gpu_bits, r.sim.output_poison),
          compare_with_reference(r.config.problem.dtype, gpu_bits, std::vector<uint8_t>(gpu_bits.size(), 0),
                                 r.expected)};
}

Comparison compare_with_reference(DType dtype, const std::vector<uint32_t>& bits, const std::vector<uint8_t>& poison,
                                  const std::vector<double>& ref) {
  Comparison c;
  if (bits.size() != ref.size()) {
    c.relative_error = std::numeric_limits<double>::infinity();
    c.differing = static_cast<int>(std::max(bits.size(), ref.size()));
    return c;
  }
  double diff2 = 0, ref2 = 0;
  bool poisoned = false;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double out = sim::bits_to_double(dtype, bits[i]);
    const bool bad = poison[i] != 0;
    poisoned |= bad;
    const double d = out - ref[i];
    diff2 += d * d;
    ref2 += ref[i] * ref[i];
    if (differs_from_reference(dtype, out, bad, ref[i])) {
      ++c.differing;
      if (c.differing_indices.size() < Comparison::kMaxListed) c.differing_indices.push_back(static_cast<int>(i));
    }
  }
  c.relative_error = poisoned ? std::numeric_limits<double>::infinity()
                              : ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  c.match = dtype == DType::Int32 ? c.differing == 0 : !poisoned && c.relative_error < 1e-5;
  return c;
}

BitComparison compare_bits(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                           const std::vector<uint8_t>& poison_a) {
  BitComparison c;
  if (a.size() != b.size()) {
    c.differing = static_cast<int>(std::max(a.size(), b.size()));
    return c;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i] || (i < poison_a.size() && poison_a[i])) continue;
    ++c.differing;
    if (c.differing_indices.size() < Comparison::kMaxListed) c.differing_indices.push_back(static_cast<int>(i));
  }
  c.identical = c.differing == 0;
  return c;
}

sim::SimOptions sim_options(const RunConfig& config, std::shared_ptr<const std::atomic<bool>> cancel) {
  sim::SimOptions options;
  options.schedule = config.schedule;
  options.detail_blocks = config.detail_blocks;
  options.budget.seconds = config.time_limit_s;
  options.global_memory = config.global_memory;
  options.budget.cancel = std::move(cancel);
  return options;
}

RunResult simulate(const RunConfig& config, std::shared_ptr<const std::atomic<bool>> cancel, Progress* progress) {
  static std::atomic<uint64_t> last_id{0};
  RunResult r;
  r.id = ++last_id;
  r.config = config;
  r.input = make_input(config);
  sim::SimOptions options = sim_options(config, std::move(cancel));
  if (progress) options.progress = progress->begin_run();
  r.sim = config.algorithm->simulate(config.problem, r.input, options);
  if (progress) progress->end_run();
  try {
    r.expected = config.algorithm->reference(config.problem, r.input);
  } catch (const std::exception& e) {  // a kernel file's worker died in its reference
    if (!r.sim.trace.error)
      r.sim.trace.error = sim::SimError{sim::SimErrorKind::Kernel, std::string("the CPU reference failed: ") + e.what(), 0, 0, 0, {}};
  }
  r.comparison = compare_with_reference(config.problem.dtype, r.sim.output_bits, r.sim.output_poison, r.expected);
  // A program's main() may print PASS and return 0 after a launch failed: the run did not succeed.
  if (config.algorithm->info.program && r.sim.trace.error) r.comparison.match = false;
  const std::vector<sim::HazardGroup> groups = r.sim.trace.hazards.groups();
  r.has_hazards = !groups.empty();
  r.out_of_bounds = std::any_of(groups.begin(), groups.end(),
                                [](const sim::HazardGroup& g) { return g.first.kind == sim::HazardKind::OutOfBounds; });
  // syncscope's main() has no check of its own: a launch that reached past its arrays did not succeed.
  if (config.algorithm->info.kernels_only && r.out_of_bounds) r.comparison.match = false;
  return r;
}

}  // namespace syncscope
