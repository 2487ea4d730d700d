#include "core/outcomes.h"

#include "core/host_copies.h"

#include <algorithm>
#include <map>
#include <optional>

namespace syncscope {
namespace {

void add(Outcomes& o, const RunConfig& c, const std::vector<double>& expected, std::vector<uint32_t> bits,
         std::vector<uint8_t> poison, const std::string& schedule, std::vector<HostCopy> copies = {}) {
  ++o.runs;
  for (Outcome& known : o.distinct)
    if (known.bits == bits && known.poison == poison && same_output_copies(known.copies, copies)) {
      ++known.runs;
      if (!schedule.empty()) known.schedules.push_back(schedule);
      return;
    }
  Outcome n;
  const Comparison cmp = compare_with_reference(c.problem.dtype, bits, poison, expected);
  n.wrong = cmp.differing;
  n.first_wrong = cmp.differing_indices.empty() ? -1 : cmp.differing_indices.front();
  n.match = cmp.match;
  n.bits = std::move(bits);
  n.poison = std::move(poison);
  n.copies = std::move(copies);
  n.runs = 1;
  if (!schedule.empty()) n.schedules.push_back(schedule);
  o.distinct.push_back(std::move(n));
}

void order(Outcomes& o, bool kernels_only = false) {
  std::stable_sort(o.distinct.begin(), o.distinct.end(), [](const Outcome& a, const Outcome& b) { return a.runs > b.runs; });
  for (size_t k = 1; k < o.distinct.size(); ++k)
    o.distinct[k].differs_from_first =
        compare_host_copies(o.distinct[0].copies, o.distinct[k].copies, "the first output", "this one", !kernels_only).difference;
}

}  // namespace

bool same_output_copies(const std::vector<HostCopy>& a, const std::vector<HostCopy>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const HostCopy& x, const HostCopy& y) { return x.line == y.line && x.bytes == y.bytes; });
}

int Outcomes::correct_runs() const {
  int n = 0;
  for (const Outcome& d : distinct)
    if (d.match) n += d.runs;
  return n;
}

std::vector<std::string> lab_schedules() {
  std::vector<std::string> s = {"lockstep", "forward", "reverse"};
  for (int seed = 1; seed <= 16; ++seed) s.push_back("random:" + std::to_string(seed));
  return s;
}

// The CPU reference, or nullopt with o.error set (a kernel file's worker can die in it).
static std::optional<std::vector<double>> reference_or_error(const RunConfig& config, const std::vector<double>& input, Outcomes& o) {
  try {
    return config.algorithm->reference(config.problem, input);
  } catch (const std::exception& e) {
    o.error = std::string("the CPU reference failed: ") + e.what();
    return std::nullopt;
  }
}

Outcomes simulate_all_schedules(const RunConfig& config, Progress* progress) {
  Outcomes o;
  const std::vector<double> input = make_input(config);
  const std::optional<std::vector<double>> reference = reference_or_error(config, input, o);
  if (!reference) return o;
  const std::vector<double>& expected = *reference;
  for (const std::string& name : lab_schedules()) {
    RunConfig c = config;
    c.schedule = *sim::Schedule::parse(name, nullptr);
    c.detail_blocks = {0};
    c.global_memory = false;  // only the output is read
    sim::SimOptions options = sim_options(c);
    if (progress) options.progress = progress->begin_run(name);
    SimOutcome run = c.algorithm->simulate(c.problem, input, options);
    if (progress) progress->end_run();
    // A runaway kernel is one under every schedule: one time budget spent is enough; so is a
    // kernel whose worker died (no output at all).
    if (run.trace.error && (run.trace.error->kind == sim::SimErrorKind::TimeBudget || run.output_bits.empty())) {
      o.error = name + ": " + run.trace.error->message;
      break;
    }
    // A kernel-only file's output is its launch's success: what it left in its arrays tells
    // schedules apart. A program's is what its main() returned, its own check.
    std::vector<HostCopy> copies;
    if (config.algorithm->info.kernels_only) copies = std::move(run.host_copies);
    add(o, config, expected, std::move(run.output_bits), std::move(run.output_poison), name, std::move(copies));
  }
  order(o, config.algorithm->info.kernels_only);
  return o;
}

Outcomes gpu_outcomes(const RunConfig& config, const std::vector<double>& input, int runs) {
  return gpu_outcomes_of(config, input, runs, [&] { return run_on_gpu(config.algorithm->info.name, config.problem, input); });
}

Outcomes gpu_outcomes_of(const RunConfig& config, const std::vector<double>& input, int runs,
                         const std::function<GpuRun()>& one_run) {
  if (!gpu_status().usable) {
    Outcomes o;
    o.error = gpu_status().reason;
    o.unavailable = true;
    return o;
  }
  std::vector<GpuRun> results;
  for (int r = 0; r < runs; ++r) {
    results.push_back(one_run());
    if (!results.back().ok) break;  // a fault leaves this process's GPU context unusable
  }
  return tally_gpu_runs(config, input, results);
}

Outcomes tally_gpu_runs(const RunConfig& config, const std::vector<double>& input, const std::vector<GpuRun>& results) {
  Outcomes o;
  const std::optional<std::vector<double>> reference = reference_or_error(config, input, o);
  if (!reference) return o;
  const std::vector<double>& expected = *reference;
  for (const GpuRun& g : results) {
    if (!g.ok) {
      o.error = g.error;
      break;
    }
    add(o, config, expected, g.output_bits, std::vector<uint8_t>(expected.size(), 0), "");
  }
  order(o);
  return o;
}

std::string gpu_verdict(const Outcomes& o, const RunConfig& config) {
  if (o.unavailable) return "GPU unavailable: " + o.error;
  const std::string gpu = o.recorded_on.empty() ? "GPU" : "GPU, recorded on " + o.recorded_on;
  if (!o.error.empty())
    return (o.recorded_on.empty() ? "GPU run" : gpu + ": a run") + " failed after " + std::to_string(o.runs) + " good run" +
           (o.runs == 1 ? "" : "s") + ": " + o.error;
  const int correct = o.correct_runs();
  if (correct == o.runs)
    return gpu + ": correct " + std::to_string(correct) + "/" + std::to_string(o.runs) +
           (config.problem.bug ? " - the bug is hidden at TPB " + std::to_string(config.problem.tpb) : "");
  const size_t distinct = o.distinct.size() + o.distinct_not_kept;
  std::string text = gpu + ": " + std::to_string(distinct) + " distinct output" + (distinct == 1 ? "" : "s") + " in " +
                     std::to_string(o.runs) + " runs, " + std::to_string(o.runs - correct) + " wrong";
  if (o.distinct_not_kept)
    text += " (the " + std::to_string(o.distinct.size()) + " most frequent kept in the recording)";
  return text;
}

bool faults_on_a_gpu(const sim::Trace& t) {
  for (const auto& g : t.hazards.groups()) {
    const sim::HazardEvent& e = g.first;
    if (e.kind != sim::HazardKind::OutOfBounds || e.array < 0 || t.arrays[e.array].space != sim::MemSpace::Shared) continue;
    const int launch = t.arrays[e.array].launch;
    int offset = 0;  // where the array starts in the launch's shared memory (arrays are carved in order)
    for (int a = 0; a < e.array; ++a)
      if (t.arrays[a].space == sim::MemSpace::Shared && t.arrays[a].launch == launch) offset += shared_bytes_for(t.arrays[a].size);
    const int bytes = t.launches.at(launch).shared_bytes;
    const int allocated = (bytes + kSharedAllocationUnitBytes - 1) / kSharedAllocationUnitBytes * kSharedAllocationUnitBytes;
    for (int index : g.indices)
      if (index < 0 || offset + 4 * index >= allocated) return true;
  }
  return false;
}

}  // namespace syncscope
