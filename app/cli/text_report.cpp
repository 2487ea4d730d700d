#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "app/cli/report.h"
#include "app/state/gpu_child.h"

#include "sim/describe.h"
#include "sim/events.h"
#include "sim/limits.h"
#include "sim/warp_instructions.h"

namespace syncscope::cli {
namespace {

// Long arrays: the head and the tail, with a count of what is left out.
constexpr size_t kShowAll = 128;
constexpr size_t kShowHead = 64;
constexpr size_t kShowTail = 16;

template <class Format>
std::string join_elided(size_t count, Format format) {
  std::ostringstream s;
  for (size_t i = 0; i < count; ++i) {
    if (count > kShowAll && i == kShowHead) {
      s << " … (" << count - kShowHead - kShowTail << " more) …";
      i = count - kShowTail - 1;
      continue;
    }
    if (i) s << ' ';
    s << format(i);
  }
  return s.str();
}

std::string bits_text(DType t, const std::vector<uint32_t>& bits, const std::vector<uint8_t>& poison) {
  return join_elided(bits.size(), [&](size_t i) { return format_value(t, bits[i], !poison.empty() && poison[i]); });
}

// A shared array's cells as its elements (sim/element_layout.h): a double from its two cells, a
// struct as its fields, "{1.5, 3}".
std::string elements_text(const sim::ArrayInfo& a, const std::vector<uint32_t>& bits, const std::vector<uint8_t>& poison) {
  const sim::ElementLayout layout = sim::ElementLayout::of(a);
  if (layout.plain()) return bits_text(a.dtype, bits, poison);
  return join_elided(bits.size() / layout.cells, [&](size_t e) {
    return sim::format_element(layout, [&](int k) {
      const size_t cell = e * layout.cells + k;
      return std::pair<uint32_t, bool>{bits[cell], cell < poison.size() && poison[cell]};
    });
  });
}

std::string numbers_text(DType t, const std::vector<double>& v) {
  return join_elided(v.size(), [&](size_t i) { return format_number(t, v[i]); });
}

std::string indices_text(const std::vector<int>& idx, int total) {
  std::ostringstream s;
  for (size_t i = 0; i < idx.size(); ++i) s << (i ? ", " : "") << idx[i];
  if (total > static_cast<int>(idx.size())) s << ", …";
  return s.str();
}

std::string dims(Dim3 d) {
  std::ostringstream s;
  s << d.x;
  if (d.y > 1 || d.z > 1) s << "×" << d.y;
  if (d.z > 1) s << "×" << d.z;
  return s.str();
}

// Device printf of a step, one line per call, in the order the threads printed: "T3 printed at
// file.cu:12: ...", a newline inside shown as \n.
void print_printed(std::ostream& out, const sim::LaunchTrace& lt, const sim::StepTrace& st) {
  for (const sim::PrintedLine& p : st.printed) {
    std::string text;
    for (char c : p.text) text += c == '\n' ? std::string("\\n") : std::string(1, c);
    out << "      " << sim::thread_name(lt.block, p.thread) << " printed at " << sim::LineTable::describe(p.line) << ": "
        << text << "\n";
  }
  if (st.printed_dropped)
    out << "      (" << st.printed_dropped << " more printf calls in this step not kept: the trace keeps "
        << sim::kMaxPrintedLinesPerStep << " a step and " << sim::kMaxPrintedLinesPerBlock << " a block)\n";
}

void print_steps(std::ostream& out, const RunResult& r) {
  const sim::Trace& t = r.sim.trace;
  const DType dtype = r.config.problem.dtype;
  for (size_t l = 0; l < t.launches.size(); ++l) {
    const sim::LaunchTrace& lt = t.launches[l];
    out << "\nlaunch " << l + 1 << "/" << t.launches.size() << "  " << lt.label << "  grid " << dims(lt.grid)
        << "  block " << dims(lt.block) << "  shared " << sim::shared_bytes_declared(t, static_cast<int>(l)) << " B  steps " << lt.steps << "\n";
    // Divergence and bank conflicts of each shown block's steps (lockstep only: other schedules
    // do not run a warp's lanes together).
    std::vector<sim::WarpMetrics> warps;
    for (const auto& b : lt.blocks) warps.push_back(sim::warp_metrics(b, t, static_cast<int>(l)));
    for (int step = 0; step < lt.steps; ++step) {
      out << "  step " << step;
      // All shown blocks end the step at the same barrier in a well-formed kernel; name the first.
      for (const auto& b : lt.blocks)
        if (step < static_cast<int>(b.steps.size())) {
          const sim::LineId bar = b.steps[step].barrier;
          out << (bar == sim::kNoLine ? "  ends when the threads exit" : "  ends at barrier " + sim::LineTable::describe(bar));
          break;
        }
      out << "\n";
      for (size_t shown = 0; shown < lt.blocks.size(); ++shown) {
        const sim::BlockTrace& b = lt.blocks[shown];
        if (step >= static_cast<int>(b.steps.size())) continue;
        const sim::StepTrace& st = b.steps[step];
        out << "    block " << b.block;
        if (lt.grid.y > 1) out << " (" << b.block_idx.x << "," << b.block_idx.y << ")";
        if (!st.caption.empty()) out << "  " << st.caption;  // the kernel's c.caption for the step
        out << "\n";
        std::map<int, std::vector<std::string>> by_thread;
        const std::vector<int> halves = sim::element_halves(st.events, t);  // an 8-byte access: one element
        for (size_t k = 0; k < st.events.size(); ++k) {
          const sim::Event& e = st.events[k];
          if (e.kind == sim::EventKind::Barrier || e.kind == sim::EventKind::Exit || sim::is_paired_high_half(halves, k)) continue;
          by_thread[e.thread].push_back(sim::describe_event(e, t, dtype, halves[k] >= 0 ? &st.events[halves[k]] : nullptr));
        }
        // A barrier right after another (or a step only some blocks have work in) leaves an interval
        // in which this block did nothing: said, so an empty block line does not look cut off.
        if (by_thread.empty() && st.printed.empty()) out << "      no thread did anything in this step\n";
        for (const auto& [thread, things] : by_thread) {
          const std::string name = sim::thread_name(lt.block, thread);  // "T5", or "(5,0)" in a 2D block
          out << "      " << std::left << std::setw(6) << name << std::right << (name.size() >= 6 ? " " : "");
          for (size_t k = 0; k < things.size(); ++k) out << (k ? ", " : "") << things[k];
          out << "\n";
        }
        print_printed(out, lt, st);
        const sim::WarpMetrics& w = warps[shown];
        if (w.available && step < static_cast<int>(w.per_step.size()) && w.per_step[step].instructions > 0)
          out << "      warps: " << sim::describe_warp_counts(w.per_step[step]) << "\n";
        for (const auto& snap : st.shared)
          out << "      " << sim::array_name(t, snap.array) << ": [" << elements_text(t.arrays[snap.array], snap.bits, snap.poison)
              << "]\n";
      }
    }
  }
  out << "\n";
}

}  // namespace

GpuReport run_gpu_side(const RunResult& r) {
  GpuReport g;
  g.status = gpu_status();
  if (!g.status.usable) return g;
  if (r.config.algorithm->info.program) {
    g.program = run_program_on_gpu(r.config.algorithm->info.name, r.config.problem.bug);
    if (g.program->ran) g.copies = compare_host_copies(r.sim.host_copies, g.program->host_copies);
    return g;
  }
  g.run = app::gpu_side_in_child(r.config) ? app::run_on_gpu_in_child(app::own_executable(), r.config, r.input, 1).front()
                                           : run_on_gpu(r.config.algorithm->info.name, r.config.problem, r.input);
  if (g.run.ok) static_cast<GpuComparison&>(g) = compare_gpu_output(r, g.run.output_bits);
  return g;
}

void print_list(std::ostream& out, const Registry& registry) {
  size_t width = 20;
  for (const auto& e : registry.all()) width = std::max(width, e.info.name.size());
  const int column = static_cast<int>(width) + 2;
  for (const std::string& group : registry.groups()) {
    out << group << "\n";
    for (const auto& e : registry.all()) {
      const AlgoInfo& a = e.info;
      if (a.group != group) continue;
      const Problem& d = a.defaults;
      out << "  " << std::left << std::setw(column) << a.name << std::right << a.title << "\n";
      out << "  " << std::string(column, ' ') << "defaults: --n " << d.n;
      if (a.two_dimensional) out << " --rows " << d.rows;
      out << " --tpb " << d.tpb << " --dtype " << sim::to_string(d.dtype) << " --input iota\n";
      out << "  " << std::string(column, ' ') << "from " << a.origin << "\n";
      for (const BugInfo& b : a.bugs)
        out << "  " << std::string(column, ' ') << "--bug " << std::left << std::setw(24) << b.name << std::right << b.shows
            << "\n";
    }
  }
  // The configuration's options from the field table, then the run command's own.
  std::vector<std::string> words;
  for (const FieldInfo& field : kFieldInfos)
    if (field.field != ConfigField::Algorithm) words.push_back(std::string(field.option) + " " + field.placeholder);
  for (const char* flag : {"--steps", "--verbose", "--gpu", "--gpu-runs [R]", "--json"}) words.push_back(flag);
  std::string line = "run options:";
  const std::string indent(line.size(), ' ');
  out << "\n";
  for (const std::string& word : words) {
    if (line.size() + 1 + word.size() > 100) {
      out << line << "\n";
      line = indent;
    }
    line += " " + word;
  }
  out << line << "\n";
}

void print_outcomes(std::ostream& out, const RunResult& r, const Outcomes& o, bool with_schedules) {
  const DType dtype = r.config.problem.dtype;
  const bool program = r.config.algorithm && r.config.algorithm->info.program;
  const bool kernels_only = program && r.config.algorithm->info.kernels_only;
  for (const Outcome& d : o.distinct) {
    out << "  " << std::setw(5) << d.runs << (d.runs == 1 ? " run   " : " runs  ");
    if (program && !d.bits.empty())  // its output is what main() returned (or the launch's failure)
      out << (kernels_only ? (d.bits[0] == 0 ? "the launch succeeded" : "the launch failed")
                           : "main() returned " + std::to_string(static_cast<int32_t>(d.bits[0])));
    else if (d.match && d.wrong == 0) out << "output = expected";
    else if (d.match) out << "within float tolerance of expected";
    else out << d.wrong << " of " << d.bits.size() << " elements wrong, first at " << d.first_wrong;
    if (with_schedules) {
      out << "  (";
      for (size_t k = 0; k < d.schedules.size(); ++k) out << (k ? ", " : "") << d.schedules[k];
      out << ")";
    }
    out << "\n";
    if (!(d.match && d.wrong == 0) && !program) out << "              output: " << bits_text(dtype, d.bits, d.poison) << "\n";
    if (!d.differs_from_first.empty()) out << "              unlike the first: " << d.differs_from_first << "\n";
  }
}

namespace {

// A program's output, each line indented: its last `max_lines` lines (where its verdict is).
std::string indented(const std::string& text, int max_lines) {
  std::istringstream stream(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  const size_t skipped = lines.size() > static_cast<size_t>(max_lines) ? lines.size() - max_lines : 0;
  std::string out = skipped ? "  ... (" + std::to_string(skipped) + " earlier lines)\n" : "";
  for (size_t k = skipped; k < lines.size(); ++k) out += "  " + lines[k] + "\n";
  return out;
}

// A .cu program on the GPU: what main() returned there, what it printed, and its copies to the
// host against the simulator's.
void print_program_on_gpu(std::ostream& out, const GpuReport& gpu) {
  const ProgramGpuRun& p = *gpu.program;
  if (!p.ran) {
    out << "gpu: failed (" << p.error << ")\n";
    if (!p.output.empty()) out << "gpu-output:\n" << indented(p.output, 20);
    return;
  }
  out << "gpu: main() returned " << p.main_returned << (p.main_returned == 0 ? " (its own check passed)" : " (its own check failed)")
      << "\n";
  out << "gpu-device: " << gpu.status.device << ", " << std::fixed << std::setprecision(2) << p.seconds
      << " s for the whole program\n" << std::defaultfloat;
  if (!p.output.empty()) out << "gpu-output:\n" << indented(p.output, 20);
  const size_t copies = p.host_copies.size();
  if (gpu.copies.identical)
    out << "gpu-vs-sim: identical (" << copies << (copies == 1 ? " copy" : " copies") << " to the host, byte for byte)\n";
  else out << "gpu-vs-sim: " << gpu.copies.difference << "\n";
}

}  // namespace

void print_run(std::ostream& out, const RunResult& r, bool steps, const std::optional<GpuReport>& gpu,
               const LabReport& lab, bool verbose) {
  const DType dtype = r.config.problem.dtype;
  const sim::Trace& t = r.sim.trace;
  out << r.config.describe() << "\n";
  const bool program = r.config.algorithm && r.config.algorithm->info.program;
  if (!program) out << "input:    " << numbers_text(dtype, r.input) << "\n";
  if (steps) print_steps(out, r);
  if (program) {
    out << "launches: " << t.launches.size() << "\n";
    if (!r.sim.output_bits.empty() && r.config.algorithm->info.kernels_only)
      out << (t.error || r.sim.output_bits[0] != 0 ? "the launch failed (the error below)"
              : r.out_of_bounds            ? "the launch ran, but reached past its arrays (the out-of-bounds errors below: "
                                                       "a GPU reads and writes whatever lies there, or stops the launch)"
                                                     : "the launch succeeded")
          << "\n";
    else if (!r.sim.output_bits.empty())
      out << "main() returned " << static_cast<int32_t>(r.sim.output_bits[0])
          << (t.error ? ", after a launch failed (the error below; every CUDA call after it failed too, as on a GPU)"
              : r.sim.output_bits[0] == 0 ? " (its own check passed)" : " (its own check failed)")
          << "\n";
  }
  if (!program) out << "output:   " << bits_text(dtype, r.sim.output_bits, r.sim.output_poison) << "\n";
  if (!program) out << "expected: " << numbers_text(dtype, r.expected) << "\n";
  const Comparison& c = r.comparison;
  out << "match: " << (c.match ? "yes" : "no");
  // A program's one "element" is what main() returned (or whether its launch failed): say that.
  if (c.differing > 0 && program)
    out << (r.sim.output_bits.empty()                  ? " (the run stopped before main() returned: the error below)"
            : r.config.algorithm->info.kernels_only ? " (the launch failed)"
                                                    : " (main() returned " + std::to_string(static_cast<int32_t>(r.sim.output_bits[0])) + ", not 0)");
  else if (!c.match && program && r.config.algorithm->info.kernels_only && r.out_of_bounds)
    out << " (out-of-bounds accesses)";
  else if (c.differing > 0)
    out << " (" << sim::elements_differ(c.differing, r.expected.size()) << ": "
        << indices_text(c.differing_indices, c.differing) << ")";
  out << "\n";
  if (t.error) out << "error: " << t.error->message << "\n";

  sim::CounterSummary all;
  for (const auto& l : t.launches) all.merge(l.counters);
  const sim::ThreadCounters& m = all.max_per_thread;
  out << "per thread (max): global reads " << m.global_reads << ", global writes " << m.global_writes
      << ", shared reads " << m.shared_reads << ", shared writes " << m.shared_writes << ", barriers " << m.barriers;
  // A .cu's arithmetic is the student's own C++, which the simulator does not count (its accesses are).
  if (!program) out << ", adds " << m.adds;
  out << "\n";
  const sim::WarpMetrics warps = sim::run_warp_metrics(t);
  if (warps.available) out << "warps (shown blocks): " << sim::describe_warp_counts(warps) << "\n";
  else if (!t.launches.empty())
    out << "warps: counted under --schedule lockstep only (divergent warp instructions, bank conflicts)\n";

  const auto groups = t.hazards_across_launches();
  if (groups.empty()) out << "hazards: none\n";
  // The races one missing barrier causes read as one line where their first report would be (the
  // reports themselves under --verbose), and one fix: not nine errors, nine warnings and nine fixes.
  const auto fixes = sim::group_by_barrier(groups, sim::loops_seen(t));
  std::vector<int> gathered_in(groups.size(), -1);
  for (size_t f = 0; f < fixes.size(); ++f)
    if (fixes[f].pairs.size() > 1)
      for (size_t k : fixes[f].reports) gathered_in[k] = static_cast<int>(f);
  std::vector<bool> shown(fixes.size(), false);
  for (size_t k = 0; k < groups.size(); ++k) {
    const int f = gathered_in[k];
    if (f < 0) {
      out << sim::describe_hazard(groups[k], t) << "\n";
      continue;
    }
    if (shown[f]) continue;
    shown[f] = true;
    out << sim::describe_barrier_group(fixes[f], groups, t) << (verbose ? ":" : " (--verbose lists them)") << "\n";
    if (verbose)
      for (size_t r : fixes[f].reports) out << "  " << sim::describe_hazard(groups[r], t) << "\n";
  }
  for (const auto& f : fixes) out << "fix: " << f.fix.text << "\n";

  if (gpu) {
    if (!gpu->status.usable) {
      out << "gpu: unavailable (" << gpu->status.reason << ")\n";
    } else if (gpu->program) {
      print_program_on_gpu(out, *gpu);
    } else if (!gpu->run.ok) {
      out << "gpu: failed (" << gpu->run.error << ")\n";
    } else {
      out << "gpu: " << bits_text(dtype, gpu->run.output_bits, {}) << "\n";
      out << "gpu-device: " << gpu->status.device << ", " << std::fixed << std::setprecision(3)
          << gpu->run.milliseconds << " ms\n" << std::defaultfloat;
      if (gpu->vs_sim.identical) out << "gpu-vs-sim: identical\n";
      else
        out << "gpu-vs-sim: " << sim::elements_differ(gpu->vs_sim.differing) << ": "
            << indices_text(gpu->vs_sim.differing_indices, gpu->vs_sim.differing) << "\n";
    }
  }
  if (lab.schedules && !lab.schedules->error.empty()) {
    out << "schedules: stopped at " << lab.schedules->error << "\n";
  } else if (lab.schedules) {
    out << "schedules: " << lab.schedules->distinct.size() << " distinct output"
        << (lab.schedules->distinct.size() == 1 ? "" : "s") << " in " << lab.schedules->runs
        << " runs (lockstep, forward, reverse, random:1..16)\n";
    print_outcomes(out, r, *lab.schedules, true);
  }
  if (lab.gpu) {
    out << "gpu-runs: " << gpu_verdict(*lab.gpu, r.config) << "\n";
    print_outcomes(out, r, *lab.gpu, false);
  }
}

}  // namespace syncscope::cli
