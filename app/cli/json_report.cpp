#include <bit>
#include <cmath>
#include <map>

#include "app/cli/json_arrays.h"
#include "app/cli/report.h"
#include "core/kernel_cache.h"
#include "core/config_codec.h"
#include "sim/describe.h"
#include "sim/limits.h"
#include "sim/warp_instructions.h"

namespace syncscope::cli {
namespace {

using nlohmann::json;

json value_json(DType t, uint32_t bits, bool poison) { return element_json(t, bits, poison); }

// A field of an element (sim/element_layout.h) from its cells: a number of its kind, null for '?'.
json field_json(char kind, uint32_t low, uint32_t high, bool poison) {
  if (poison) return nullptr;
  const uint64_t bits = uint64_t{high} << 32 | low;
  switch (kind) {
    case 'f': return std::bit_cast<float>(low);
    case 'u': return low;
    case 'd': return std::bit_cast<double>(bits);
    case 'l': return std::bit_cast<int64_t>(bits);
    case 'q': return bits;
    default: return std::bit_cast<int32_t>(low);
  }
}

// A shared array at the end of a step, element by element: a number, or a struct as its fields.
json shared_json(JsonArrays& arrays, const sim::ArrayInfo& a, const sim::ArraySnapshot& snap) {
  const sim::ElementLayout layout = sim::ElementLayout::of(a);
  if (layout.plain()) return arrays.bits(a.dtype, snap.bits, snap.poison);
  auto element = [&](size_t e) {
    json out = json::object();
    for (const sim::ElementLayout::Field& f : layout.fields) {
      const size_t cell = e * layout.cells + f.first_cell;
      const bool wide = sim::is_wide_kind(f.kind);
      const json v = field_json(f.kind, snap.bits[cell], wide ? snap.bits[cell + 1] : 0,
                                snap.poison[cell] || (wide && snap.poison[cell + 1]));
      if (f.name.empty()) return v;
      out[f.name] = v;
    }
    return out;
  };
  auto word = [&](size_t e) {  // the element's cells folded into one word, for the summary's hash
    uint32_t h = 0;
    for (int k = 0; k < layout.cells; ++k) h = (h << 5 | h >> 27) ^ snap.bits[e * layout.cells + k];
    return h;
  };
  return arrays.elements(snap.bits.size() / layout.cells, element, word);
}

// Indices where `bits` differ from the reference, the first Comparison::kMaxListed (a summary lists them).
std::vector<int> differing_from(const RunResult& r, const std::vector<uint32_t>& bits, const std::vector<uint8_t>& poison) {
  std::vector<int> listed;
  const DType t = r.config.problem.dtype;
  for (size_t i = 0; i < bits.size() && i < r.expected.size() && listed.size() < Comparison::kMaxListed; ++i)
    if (differs_from_reference(t, sim::bits_to_double(t, bits[i]), !poison.empty() && poison[i], r.expected[i]))
      listed.push_back(static_cast<int>(i));
  return listed;
}

// `adds`: counted (a kernel file's or a built-in's c.add); a .cu's arithmetic is not.
json counters_json(const sim::ThreadCounters& c, bool adds) {
  json j = {{"global_reads", c.global_reads}, {"global_writes", c.global_writes}, {"shared_reads", c.shared_reads},
            {"shared_writes", c.shared_writes}, {"barriers", c.barriers}};
  if (adds) j["adds"] = c.adds;
  return j;
}


json line_json(sim::LineId id) {
  if (id == sim::kNoLine) return nullptr;
  return sim::LineTable::describe(id);
}

const char* event_op(const sim::Event& e) {
  switch (e.kind) {
    case sim::EventKind::SharedRead:
    case sim::EventKind::GlobalRead: return "read";
    case sim::EventKind::SharedWrite:
    case sim::EventKind::GlobalWrite: return "write";
    case sim::EventKind::Shuffle: return "shuffle";
    case sim::EventKind::WarpSync: return "sync_warp";
    case sim::EventKind::Barrier: return "barrier";
    case sim::EventKind::Exit: return "exit";
    case sim::EventKind::WarpVote: return "vote";
    case sim::EventKind::Fence: return "fence";
  }
  return "?";
}

// Divergent warp instructions and bank conflicts; null where the block did not run under lockstep.
json warps_json(const sim::WarpCounts& w) {
  return {{"instructions", w.instructions},
          {"divergent", w.divergent},
          {"shared_instructions", w.shared_instructions},
          {"bank_conflicts", w.conflicted},
          {"worst_conflict_degree", w.worst_degree},
          {"extra_passes", w.extra_passes},
          {"text", sim::describe_warp_counts(w)}};
}

json steps_json(const RunResult& r, JsonArrays& arrays) {
  const sim::Trace& t = r.sim.trace;
  json launches = json::array();
  for (size_t l = 0; l < t.launches.size(); ++l) {
    const sim::LaunchTrace& lt = t.launches[l];
    json steps = json::array();
    std::vector<sim::WarpMetrics> warps;
    for (const auto& b : lt.blocks) warps.push_back(sim::warp_metrics(b, t, static_cast<int>(l)));
    for (int step = 0; step < lt.steps; ++step) {
      json blocks = json::array();
      for (size_t shown = 0; shown < lt.blocks.size(); ++shown) {
        const sim::BlockTrace& b = lt.blocks[shown];
        if (step >= static_cast<int>(b.steps.size())) continue;
        const sim::StepTrace& st = b.steps[step];
        json shared = json::object();
        for (const auto& snap : st.shared) shared[t.arrays[snap.array].name] = shared_json(arrays, t.arrays[snap.array], snap);
        std::map<int, json> threads;
        // An 8-byte access (a double, a long long) is one event of its number: index and value.
        const std::vector<int> halves = sim::element_halves(st.events, t);
        for (size_t k = 0; k < st.events.size(); ++k) {
          const sim::Event& e = st.events[k];
          if (e.kind == sim::EventKind::Barrier || e.kind == sim::EventKind::Exit || sim::is_paired_high_half(halves, k)) continue;
          json ev = {{"op", event_op(e)}, {"line", line_json(e.line)}};
          if (e.is_memory()) {
            const sim::ArrayInfo& a = t.arrays[e.array];
            const DType dt = a.dtype;
            ev["array"] = a.name;
            ev["space"] = a.space == sim::MemSpace::Shared ? "shared" : "global";
            ev["index"] = e.index;
            ev["value"] = value_json(dt, e.value_bits, e.flags & sim::kValuePoison);
            if (e.is_write()) ev["old"] = value_json(dt, e.old_bits, e.flags & sim::kOldPoison);
            // An element of several cells (sim/element_layout.h): its index, its field, its value.
            const sim::ElementLayout layout = sim::ElementLayout::of(a);
            const sim::ElementLayout::Place at = layout.place(e.index);
            if (at.field) {
              ev["index"] = at.element;
              if (!at.field->name.empty()) ev["field"] = at.field->name;
              const bool wide = sim::is_wide_kind(at.field->kind);
              if (halves[k] >= 0) {
                const sim::Event& high = st.events[halves[k]];
                ev["value"] = field_json(at.field->kind, e.value_bits, high.value_bits, (e.flags | high.flags) & sim::kValuePoison);
                if (e.is_write())
                  ev["old"] = field_json(at.field->kind, e.old_bits, high.old_bits, (e.flags | high.flags) & sim::kOldPoison);
                if (high.flags & sim::kRacy) ev["race"] = true;
              } else if (wide) {  // one word of a number, as the text report says
                ev["word"] = at.high ? "high" : "low";
                ev["value"] = (e.flags & sim::kValuePoison) ? json(nullptr) : json(e.value_bits);
                if (e.is_write()) ev["old"] = (e.flags & sim::kOldPoison) ? json(nullptr) : json(e.old_bits);
              } else {
                ev["value"] = field_json(at.field->kind, e.value_bits, 0, e.flags & sim::kValuePoison);
                if (e.is_write()) ev["old"] = field_json(at.field->kind, e.old_bits, 0, e.flags & sim::kOldPoison);
              }
            }
            if (e.flags & sim::kAtomic) ev["op"] = sim::atomic_op_name(e.atomic);
            if (e.flags & sim::kOutOfBounds) ev["out_of_bounds"] = true;
          } else if (e.kind == sim::EventKind::Shuffle) {
            ev["value"] = value_json(r.config.problem.dtype, e.value_bits, e.flags & sim::kValuePoison);
            ev["source_lane"] = (e.flags & sim::kOwnValue) ? json(nullptr) : json(e.index);
            ev["shuffle"] = sim::warp_op_name(static_cast<sim::WarpOp>(e.array));
          } else if (e.kind == sim::EventKind::WarpVote) {
            ev["op"] = sim::warp_op_name(static_cast<sim::WarpOp>(e.array));
            ev["result"] = e.value_bits;
          }
          if (e.flags & sim::kRacy) ev["race"] = true;
          threads[e.thread].push_back(std::move(ev));
        }
        json thread_list = json::array();
        for (auto& [thread, events] : threads) {
          // The thread's index as the kernel sees it (threadIdx.x, .y, .z): a 2D block's threads are (x,y).
          const Dim3 at = sim::thread_index_in(lt.block, thread);
          thread_list.push_back(
              {{"thread", thread}, {"x", at.x}, {"y", at.y}, {"z", at.z}, {"events", std::move(events)}});
        }
        // Device printf, one entry per call in the order the threads printed; "printed_dropped": calls past the caps.
        json printed = json::array();
        for (const sim::PrintedLine& p : st.printed) {
          const Dim3 at = sim::thread_index_in(lt.block, p.thread);
          printed.push_back({{"block", b.block},
                             {"thread", p.thread},
                             {"x", at.x},
                             {"y", at.y},
                             {"z", at.z},
                             {"line", line_json(p.line)},
                             {"text", p.text}});
        }
        // The kernel's own sentence for the step, as the text report and the step view show it.
        blocks.push_back({{"block", b.block},
                          {"printed", std::move(printed)},
                          {"printed_dropped", st.printed_dropped},
                          {"caption", st.caption.empty() ? json(nullptr) : json(st.caption)},
                          {"shared", std::move(shared)},
                          {"warps", warps[shown].available && step < static_cast<int>(warps[shown].per_step.size())
                                        ? warps_json(warps[shown].per_step[step])
                                        : json(nullptr)},
                          {"threads", std::move(thread_list)}});
      }
      json barrier = nullptr;
      for (const auto& b : lt.blocks)
        if (step < static_cast<int>(b.steps.size())) {
          barrier = line_json(b.steps[step].barrier);
          break;
        }
      steps.push_back({{"step", step}, {"barrier", barrier}, {"blocks", std::move(blocks)}});
    }
    launches.push_back({{"launch", l}, {"label", lt.label}, {"grid", {lt.grid.x, lt.grid.y, lt.grid.z}}, {"block", {lt.block.x, lt.block.y, lt.block.z}}, {"steps", std::move(steps)}});
  }
  return launches;
}

json hazards_json(const sim::Trace& t) {
  json list = json::array();
  for (const auto& g : t.hazards.groups()) {
    const sim::HazardEvent& e = g.first;
    json lines = json::array();
    if (e.line_first != sim::kNoLine) lines.push_back(sim::LineTable::describe(e.line_first));
    lines.push_back(line_json(e.line_second));
    // Indices as the program's (an 8-byte number's two cells are one; a struct's field is named).
    const sim::ElementLayout layout = e.array >= 0 ? sim::ElementLayout::of(t.arrays[e.array]) : sim::ElementLayout{};
    json indices = json::array();
    for (int cell : g.indices)
      if (const int element = layout.place(cell).element; indices.empty() || indices.back() != element) indices.push_back(element);
    json first = {{"launch", e.launch}, {"block", e.block}, {"step", e.step}, {"index", layout.place(e.index).element}};
    if (const sim::ElementLayout::Place at = layout.place(e.index); at.field && !at.field->name.empty()) first["field"] = at.field->name;
    list.push_back({{"kind", sim::to_string(e.kind)},
                    {"severity", sim::to_string(e.severity)},
                    {"array", e.array >= 0 ? json(t.arrays[e.array].name) : json(nullptr)},
                    {"lines", lines},
                    {"threads", json::array({e.thread_first, e.thread_second})},
                    {"blocks", g.blocks},
                    {"block_count", g.block_count},
                    {"count", g.count},
                    {"indices", indices},
                    {"cross_block", e.cross_block},
                    {"first", first},
                    {"launches", g.launches},
                    {"text", sim::describe_hazard(g, t)}});
  }
  return list;
}

const char* remedy_name(const sim::Diagnosis& d) {
  if (d.lost_update) return "atomic";
  if (d.warp_call) return d.same_warp ? "warp mask" : "keep the threads";
  if (d.cross_block) return "second launch";
  if (d.splits_statement) return "split the statement";
  return d.same_warp ? "syncwarp" : "barrier";
}

// `hazards`: indices into the document's "hazards" list (both come from hazards.groups(), in order).
json fix_json(const sim::Diagnosis& d) {
  return {{"lines", {line_json(d.first), line_json(d.second)}},
          {"remedy", remedy_name(d)},
          {"same_warp", d.same_warp},
          {"cross_block", d.cross_block},
          {"hazards", d.reports},
          {"text", d.text}};
}

// One entry per fix; the races one barrier would order are one entry holding its pairs (a fix that
// answers one pair holds that pair alone). lines: where the barrier goes, after the first, before the second.
json diagnosis_json(const sim::Trace& t) {
  json list = json::array();
  for (const auto& group : sim::group_by_barrier(t)) {
    json entry = fix_json(group.fix);
    json pairs = json::array();
    for (const auto& pair : group.pairs) pairs.push_back(fix_json(pair));
    entry["pairs"] = std::move(pairs);
    list.push_back(std::move(entry));
  }
  return list;
}

json outcomes_json(const RunResult& r, const Outcomes& o, JsonArrays& arrays) {
  json distinct = json::array();
  for (const Outcome& d : o.distinct)
    distinct.push_back({{"runs", d.runs},
                        {"schedules", d.schedules},
                        {"match", d.match},
                        {"wrong", d.wrong},
                        {"first_wrong", d.first_wrong < 0 ? json(nullptr) : json(d.first_wrong)},
                        {"output", arrays.bits(r.config.problem.dtype, d.bits, d.poison, differing_from(r, d.bits, d.poison))}});
  json j = {{"runs", o.runs}, {"correct_runs", o.correct_runs()}, {"distinct", distinct}};
  if (!o.error.empty()) j["error"] = o.error;
  return j;
}

}  // namespace

json list_json(const Registry& registry) {
  json algos = json::array();
  for (const auto& e : registry.all()) {
    const AlgoInfo& a = e.info;
    json defaults = {{"n", a.defaults.n}, {"tpb", a.defaults.tpb}, {"dtype", sim::to_string(a.defaults.dtype)},
                     {"input", "iota"}, {"schedule", "lockstep"}};
    if (a.two_dimensional) defaults["rows"] = a.defaults.rows;
    json params = json::array({"n", "tpb", "dtype", "input", "schedule"});
    if (a.two_dimensional) params.push_back("rows");
    json bugs = json::array();
    for (const BugInfo& b : a.bugs) bugs.push_back({{"name", b.name}, {"shows", b.shows}});
    algos.push_back({{"name", a.name},
                     {"bugs", bugs},
                     {"group", a.group},
                     {"title", a.title},
                     {"description", a.description},
                     {"origin", a.origin},
                     {"parameters", params},
                     {"defaults", defaults},
                     {"sources", a.sources}});
  }
  json limits = {{"shared_bytes", sim::kMaxSharedBytesPerBlock}};
  for (const FieldInfo& field : kFieldInfos)
    if (field.range) {  // the largest each ranged field takes, whole numbers written as such
      const double max = field.range->max;
      limits[field.key] = max == std::floor(max) ? json(static_cast<int64_t>(max)) : json(max);
    }
  return {{"algorithms", algos},
          {"schedules", json::array({"lockstep", "forward", "reverse", "random:SEED", "all"})},
          {"dtypes", json::array({"float32", "int32"})},
          {"inputs", json::array({"iota", "ones", "random:SEED", "v1,v2,..."})},
          {"limits", limits}};
}

json run_json(const RunResult& r, bool steps, const std::optional<GpuReport>& gpu, const LabReport& lab,
              JsonArrays* long_arrays) {
  JsonArrays whole;
  JsonArrays& arrays = long_arrays ? *long_arrays : whole;
  const DType dtype = r.config.problem.dtype;
  const sim::Trace& t = r.sim.trace;
  const bool program = r.config.algorithm && r.config.algorithm->info.program;
  // The configuration as the codec writes it (core/config_codec.h): it reads back as the same run.
  json config = options_to_json(options_of(r.config));
  config["grid_blocks"] = r.config.blocks();

  json counters = json::array();
  sim::CounterSummary all;
  for (const auto& l : t.launches) {
    all.merge(l.counters);
    counters.push_back({{"label", l.label},
                        {"simt_twin", l.simt_twin},  // lockstep ran the kernel's SIMT twin (sim/simt.h)
                        {"threads", l.counters.threads},
                        {"total", counters_json(l.counters.total, !program)},
                        {"max_per_thread", counters_json(l.counters.max_per_thread, !program)}});
  }
  const Comparison& c = r.comparison;
  json doc = {{"config", config},
              {"input", arrays.numbers(dtype, r.input)},
              {"output", arrays.bits(dtype, r.sim.output_bits, r.sim.output_poison, c.differing_indices)},
              {"expected", arrays.numbers(dtype, r.expected)},
              {"match", c.match},
              {"differing", c.differing_indices},
              {"relative_error", std::isfinite(c.relative_error) ? json(c.relative_error) : json(nullptr)},
              {"counters", {{"launches", counters},
                            {"total", counters_json(all.total, !program)},
                            {"max_per_thread", counters_json(all.max_per_thread, !program)}}},
              {"warps", [&] {  // the shown blocks' warp instructions; null unless run under lockstep
                 const sim::WarpMetrics w = sim::run_warp_metrics(t);
                 return w.available ? warps_json(w) : json(nullptr);
               }()},
              {"hazards", hazards_json(t)},
              {"diagnosis", diagnosis_json(t)},
              {"error", t.error ? json{{"message", t.error->message}, {"launch", t.error->launch},
                                       {"block", t.error->block}, {"step", t.error->step}}
                                : json(nullptr)}};
  // A CUDA program chose its own sizes and input and checks its own result: the problem's n, tpb,
  // dtype and input are not its, and its result is what main() returned.
  if (program) {
    for (const char* not_its : {"n", "rows", "tpb", "dtype", "input", "grid_blocks"}) doc["config"].erase(not_its);
    doc.erase("input");
    doc.erase("expected");
    doc.erase("output");
    // Its copies to the host, as --gpu compares them: where, from which array, how much, and a hash
    // of the bytes (FNV-1a, 64 bits) rather than the bytes.
    json copies = json::array();
    for (const HostCopy& c : r.sim.host_copies) {
      const std::string bytes(c.bytes.begin(), c.bytes.end());
      copies.push_back({{"line", c.line}, {"array", c.array}, {"element_size", c.element_size},
                        {"bytes", c.bytes.size()}, {"fnv1a64", hex(fnv1a(bytes))}});
    }
    doc["program"] = {{"launches", t.launches.size()},
                      {"main_returned", r.sim.output_bits.empty() ? json(nullptr)
                                                                  : json(static_cast<int32_t>(r.sim.output_bits[0]))},
                      {"host_copies", copies}};
  }
  if (steps) doc["steps"] = steps_json(r, arrays);
  if (lab.schedules) doc["schedules"] = outcomes_json(r, *lab.schedules, arrays);
  if (lab.gpu) {
    doc["gpu_runs"] = outcomes_json(r, *lab.gpu, arrays);
    doc["gpu_runs"]["verdict"] = gpu_verdict(*lab.gpu, r.config);
    if (!lab.gpu->recorded_on.empty()) {
      doc["gpu_runs"]["recorded_on"] = lab.gpu->recorded_on;
      doc["gpu_runs"]["distinct_not_kept"] = lab.gpu->distinct_not_kept;
    }
  }
  if (gpu) {
    json g = {{"available", gpu->status.usable}};
    if (!gpu->status.usable) {
      g["reason"] = gpu->status.reason;
    } else {
      g["device"] = gpu->status.device;
      g["ok"] = gpu->program ? gpu->program->ran : gpu->run.ok;
      if (gpu->program) {
        const ProgramGpuRun& p = *gpu->program;
        if (!p.ran) g["error"] = p.error;
        else {
          g["main_returned"] = p.main_returned;
          g["seconds"] = p.seconds;
          g["output_text"] = p.output;
          g["host_copies"] = p.host_copies.size();
          g["identical_to_sim"] = gpu->copies.identical;
          if (!gpu->copies.identical) g["difference"] = gpu->copies.difference;
        }
      } else if (!gpu->run.ok) {
        g["error"] = gpu->run.error;
      } else {
        g["output"] = arrays.bits(dtype, gpu->run.output_bits, {}, gpu->vs_sim.differing_indices);
        g["milliseconds"] = gpu->run.milliseconds;
        g["identical_to_sim"] = gpu->vs_sim.identical;
        g["differing_from_sim"] = gpu->vs_sim.differing_indices;
        g["match"] = gpu->vs_reference.match;
      }
    }
    doc["gpu"] = g;
  }
  return doc;
}

}  // namespace syncscope::cli
