#include "core/worker/worker_codec.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>
#include <unordered_map>

namespace syncscope::worker {

namespace {

using sim::LineId;

// A count of items each at least `min_bytes` long, then the items.
template <class T, class Write>
void write_list(WireWriter& w, const std::vector<T>& items, Write each) {
  w.put<uint64_t>(items.size());
  for (const T& item : items) each(item);
}
template <class T, class Read>
std::vector<T> read_list(WireReader& r, size_t min_bytes, Read each) {
  const uint64_t count = r.get_count(min_bytes);
  std::vector<T> items;
  items.reserve(count);
  for (uint64_t k = 0; k < count; ++k) items.push_back(each());
  return items;
}

void write_dim3(WireWriter& w, const Dim3& d) {
  w.put<int32_t>(d.x);
  w.put<int32_t>(d.y);
  w.put<int32_t>(d.z);
}
Dim3 read_dim3(WireReader& r) {
  Dim3 d;
  d.x = r.get<int32_t>();
  d.y = r.get<int32_t>();
  d.z = r.get<int32_t>();
  return d;
}

// An outcome repeats arrays: the last launch's snapshot is the final one, the output is the final
// snapshot of its array, an input array is the same before and after every launch. Each snapshot
// is therefore written whole only when it differs from the last one of its array written before
// in the same outcome; otherwise as "the same as that one", which the reader decodes again from
// where that one's bytes lie in the message (so a reference cannot point forward or outside).
// An array not yet written (every cell the same, all poisoned) is sent as one cell and a count.
enum class SnapshotForm : uint8_t { Whole, PoisonClear, Uniform, SameAsLast };

// Every element is `value`: the first is, and each equals the next (one memcmp of the vector
// against itself shifted by one, as fast as the C library compares).
template <class T>
bool all_equal(const std::vector<T>& v, T value) {
  return v.empty() || (v[0] == value && std::memcmp(v.data(), v.data() + 1, (v.size() - 1) * sizeof(T)) == 0);
}

struct SnapshotMemoWriter {
  struct Written {
    const std::vector<uint32_t>* bits;
    const std::vector<uint8_t>* poison;
  };
  std::unordered_map<int32_t, Written> last;
};
// A uniform array is the one form whose size the message does not bound: bounded here instead, as
// sim::ArrayInfo bounds an array's size.
constexpr uint64_t kMaxUniformCells = std::numeric_limits<int32_t>::max();

struct SnapshotMemoReader {
  struct Decoded {
    std::span<const uint32_t> bits;
    std::span<const uint8_t> poison;
  };
  // The cells of the last snapshot of each array decoded whole, where they lie in the outcome
  // being read (a snapshot's vectors are moved into their place, their memory stays where it is,
  // and nothing changes it while the message is read): a reference is a copy of those, so it
  // can only stand for cells already read.
  std::unordered_map<int32_t, Decoded> last;
  // Cells every snapshot decoded so far may still add up to: a reference or a uniform array is a few
  // bytes that stand for megabytes, so a garbled message could ask for any memory.
  uint64_t cells_left = 0;
  void spend(size_t cells) {
    if (cells > cells_left) throw WireError("the snapshots stand for more cells than a run can hold");
    cells_left -= cells;
  }
};

void write_cells(WireWriter& w, SnapshotMemoWriter& memo, int32_t array, const std::vector<uint32_t>& bits,
                 const std::vector<uint8_t>& poison) {
  w.put<int32_t>(array);
  if (auto it = memo.last.find(array);
      it != memo.last.end() && *it->second.bits == bits && *it->second.poison == poison) {
    w.put(SnapshotForm::SameAsLast);
    return;
  }
  memo.last[array] = {&bits, &poison};
  const bool same_size = poison.size() == bits.size();
  if (same_size && !bits.empty() && all_equal(bits, bits[0]) && all_equal(poison, poison[0])) {
    w.put(SnapshotForm::Uniform);
    w.put<uint64_t>(bits.size());
    w.put(bits[0]);
    w.put(poison[0]);
    return;
  }
  const bool clear = same_size && all_equal(poison, uint8_t{0});
  w.put(clear ? SnapshotForm::PoisonClear : SnapshotForm::Whole);
  w.put(bits);
  if (!clear) w.put(poison);
}
void read_cells(WireReader& r, SnapshotMemoReader& memo, int32_t& array, std::vector<uint32_t>& bits,
                std::vector<uint8_t>& poison) {
  array = r.get<int32_t>();
  const SnapshotForm form = r.get_enum(SnapshotForm::SameAsLast);
  if (form == SnapshotForm::SameAsLast) {
    auto it = memo.last.find(array);
    if (it == memo.last.end()) throw WireError("array " + std::to_string(array) + " is the same as none before it");
    memo.spend(it->second.bits.size());
    bits.assign(it->second.bits.begin(), it->second.bits.end());
    poison.assign(it->second.poison.begin(), it->second.poison.end());
    return;
  }
  if (form == SnapshotForm::Uniform) {
    const uint64_t count = r.get<uint64_t>();
    if (count > kMaxUniformCells) throw WireError("an array of " + std::to_string(count) + " cells");
    memo.spend(count);
    bits.assign(count, r.get<uint32_t>());
    poison.assign(count, r.get<uint8_t>());
  } else {
    bits = r.get_vector<uint32_t>();
    memo.spend(bits.size());
    if (form == SnapshotForm::PoisonClear) poison.assign(bits.size(), 0);
    else poison = r.get_vector<uint8_t>();
    // A flag per cell, or none: cells_left then bounds what a reference to this one copies.
    if (!poison.empty() && poison.size() != bits.size())
      throw WireError("array " + std::to_string(array) + ": " + std::to_string(poison.size()) + " poison flags for " +
                      std::to_string(bits.size()) + " cells");
  }
  memo.last[array] = {bits, poison};
}
void write_snapshot(WireWriter& w, SnapshotMemoWriter& memo, const sim::ArraySnapshot& s) {
  write_cells(w, memo, s.array, s.bits, s.poison);
}
sim::ArraySnapshot read_snapshot(WireReader& r, SnapshotMemoReader& memo) {
  sim::ArraySnapshot s;
  read_cells(r, memo, s.array, s.bits, s.poison);
  return s;
}
void write_snapshots(WireWriter& w, SnapshotMemoWriter& memo, const std::vector<sim::ArraySnapshot>& v) {
  write_list(w, v, [&](const sim::ArraySnapshot& s) { write_snapshot(w, memo, s); });
}
std::vector<sim::ArraySnapshot> read_snapshots(WireReader& r, SnapshotMemoReader& memo) {
  return read_list<sim::ArraySnapshot>(r, 5, [&] { return read_snapshot(r, memo); });
}

// Events are most of a trace: each is one record of fixed size, written with one append and read
// back field by field from bytes checked once for the whole list, not a bounds check per field.
constexpr size_t kEventBytes = 1 + 1 + 2 + sizeof(LineId) + 2 + 4 + 4 + 4 + 1 + 1 + 1;

void write_events(WireWriter& w, const std::vector<sim::Event>& events) {
  w.put<uint64_t>(events.size());
  char* at = w.grow(events.size() * kEventBytes);
  if (!at) return;  // counting
  for (const sim::Event& e : events) {
    auto field = [&](const auto& v) {
      std::memcpy(at, &v, sizeof v);
      at += sizeof v;
    };
    field(e.kind), field(e.flags), field(e.thread), field(e.line), field(e.array), field(e.index), field(e.old_bits),
        field(e.value_bits), field(e.atomic), field(e.access_cells), field(e.access_part);
  }
}
std::vector<sim::Event> read_events(WireReader& r) {
  const uint64_t count = r.get_count(kEventBytes);
  const char* at = r.get_raw(count * kEventBytes).data();
  std::vector<sim::Event> events;
  events.reserve(count);  // each made once, in place, not a vector of count events to be assigned again
  for (uint64_t k = 0; k < count; ++k) {
    sim::Event& e = events.emplace_back();
    auto field = [&](auto& v) {
      std::memcpy(&v, at, sizeof v);
      at += sizeof v;
    };
    uint8_t kind = 0, atomic = 0;
    field(kind), field(e.flags), field(e.thread), field(e.line), field(e.array), field(e.index), field(e.old_bits),
        field(e.value_bits), field(atomic), field(e.access_cells), field(e.access_part);
    if (kind > static_cast<uint8_t>(sim::EventKind::Fence) || atomic > static_cast<uint8_t>(sim::AtomicOp::Cas))
      throw WireError("an event of kind " + std::to_string(kind) + ", atomic " + std::to_string(atomic));
    e.kind = static_cast<sim::EventKind>(kind);
    e.atomic = static_cast<sim::AtomicOp>(atomic);
  }
  return events;
}

void write_counters(WireWriter& w, const sim::ThreadCounters& c) {
  for (uint32_t v : {c.global_reads, c.global_writes, c.shared_reads, c.shared_writes, c.barriers, c.adds}) w.put(v);
}
sim::ThreadCounters read_counters(WireReader& r) {
  sim::ThreadCounters c;
  for (uint32_t* v : {&c.global_reads, &c.global_writes, &c.shared_reads, &c.shared_writes, &c.barriers, &c.adds})
    *v = r.get<uint32_t>();
  return c;
}

void write_block(WireWriter& w, SnapshotMemoWriter& memo, const sim::BlockTrace& b) {
  w.put<int32_t>(b.block);
  write_dim3(w, b.block_idx);
  write_list(w, b.steps, [&](const sim::StepTrace& s) {
    w.put(s.barrier);
    write_events(w, s.events);
    write_snapshots(w, memo, s.shared);
    w.put(s.caption);
    write_list(w, s.printed, [&](const sim::PrintedLine& p) {
      w.put(p.thread);
      w.put(p.line);
      w.put(p.text);
    });
    w.put(s.printed_dropped);
  });
  write_list(w, b.counters, [&](const sim::ThreadCounters& c) { write_counters(w, c); });
}
sim::BlockTrace read_block(WireReader& r, SnapshotMemoReader& memo) {
  sim::BlockTrace b;
  b.block = r.get<int32_t>();
  b.block_idx = read_dim3(r);
  b.steps = read_list<sim::StepTrace>(r, 38, [&] {
    sim::StepTrace s;
    s.barrier = r.get<LineId>();
    s.events = read_events(r);
    s.shared = read_snapshots(r, memo);
    s.caption = r.get_string();
    s.printed = read_list<sim::PrintedLine>(r, 2 + sizeof(LineId) + 8, [&] {
      sim::PrintedLine p;
      p.thread = r.get<uint16_t>();
      p.line = r.get<LineId>();
      p.text = r.get_string();
      return p;
    });
    s.printed_dropped = r.get<uint32_t>();
    return s;
  });
  b.counters = read_list<sim::ThreadCounters>(r, 24, [&] { return read_counters(r); });
  return b;
}

void write_launch(WireWriter& w, SnapshotMemoWriter& memo, const sim::LaunchTrace& l) {
  w.put(l.label);
  write_dim3(w, l.grid);
  write_dim3(w, l.block);
  w.put<int32_t>(l.shared_bytes);
  w.put<int32_t>(l.steps);
  write_list(w, l.blocks, [&](const sim::BlockTrace& b) { write_block(w, memo, b); });
  write_counters(w, l.counters.total);
  write_counters(w, l.counters.max_per_thread);
  w.put(l.counters.threads);
  write_snapshots(w, memo, l.globals_after);
  w.put(l.blocks_rerun);
  w.put(l.simt_twin);
}
sim::LaunchTrace read_launch(WireReader& r, SnapshotMemoReader& memo) {
  sim::LaunchTrace l;
  l.label = r.get_string();
  l.grid = read_dim3(r);
  l.block = read_dim3(r);
  l.shared_bytes = r.get<int32_t>();
  l.steps = r.get<int32_t>();
  l.blocks = read_list<sim::BlockTrace>(r, 32, [&] { return read_block(r, memo); });
  l.counters.total = read_counters(r);
  l.counters.max_per_thread = read_counters(r);
  l.counters.threads = r.get<uint64_t>();
  l.globals_after = read_snapshots(r, memo);
  l.blocks_rerun = r.get<uint64_t>();
  l.simt_twin = r.get_bool();
  return l;
}

void write_hazard(WireWriter& w, const sim::HazardEvent& e) {
  w.put(e.kind);
  w.put(e.severity);
  for (int v : {e.array, e.index, e.launch, e.block, e.step, e.thread_first, e.thread_second, e.block_first})
    w.put<int32_t>(v);
  w.put(e.line_first);
  w.put(e.line_second);
  for (bool b : {e.cross_block, e.same_warp, e.second_is_write, e.first_atomic, e.second_atomic, e.through_atomics, e.read_of_atomics, e.same_value, e.unfenced_handover, e.unchanged_cell}) w.put(b);
  w.put(e.mask);
  w.put(e.mask_problem);
}
sim::HazardEvent read_hazard(WireReader& r) {
  sim::HazardEvent e{};
  e.kind = r.get_enum(sim::HazardKind::ExitedBeforeBarrier);
  e.severity = r.get_enum(sim::Severity::Error);
  for (int* v : {&e.array, &e.index, &e.launch, &e.block, &e.step, &e.thread_first, &e.thread_second, &e.block_first})
    *v = r.get<int32_t>();
  e.line_first = r.get<LineId>();
  e.line_second = r.get<LineId>();
  for (bool* b : {&e.cross_block, &e.same_warp, &e.second_is_write, &e.first_atomic, &e.second_atomic, &e.through_atomics, &e.read_of_atomics, &e.same_value, &e.unfenced_handover, &e.unchanged_cell})
    *b = r.get_bool();
  e.mask = r.get<uint32_t>();
  e.mask_problem = r.get_enum(sim::MaskProblem::CallerNotInMask);
  return e;
}

void write_hazard_group(WireWriter& w, const sim::HazardGroup& g) {
  write_hazard(w, g.first);
  w.put(g.count);
  w.put(g.blocks);
  w.put(g.block_count);
  w.put(g.indices);
  w.put(g.all_same_value);
  w.put<int32_t>(g.launches);
  w.put<int32_t>(g.last_launch);
}
sim::HazardGroup read_hazard_group(WireReader& r) {
  sim::HazardGroup g;
  g.first = read_hazard(r);
  g.count = r.get<uint64_t>();
  g.blocks = r.get_vector<int>();
  g.block_count = r.get<uint64_t>();
  g.indices = r.get_vector<int>();
  g.all_same_value = r.get_bool();
  g.launches = r.get<int32_t>();
  g.last_launch = r.get<int32_t>();
  return g;
}

void write_error(WireWriter& w, const std::optional<sim::SimError>& error) {
  w.put(error.has_value());
  if (!error) return;
  w.put(error->kind);
  w.put(error->message);
  w.put<int32_t>(error->launch);
  w.put<int32_t>(error->block);
  w.put<int32_t>(error->step);
  w.put(error->lines);
}
std::optional<sim::SimError> read_error(WireReader& r) {
  if (!r.get_bool()) return std::nullopt;
  sim::SimError e;
  e.kind = r.get_enum(sim::SimErrorKind::Cancelled);
  e.message = r.get_string();
  e.launch = r.get<int32_t>();
  e.block = r.get<int32_t>();
  e.step = r.get<int32_t>();
  e.lines = r.get_vector<LineId>();
  return e;
}

// Every line id an outcome holds, to renumber them into this process's table.
template <class F>
void for_each_line(SimOutcome& out, std::vector<sim::HazardGroup>& hazards, F renumber) {
  for (auto& launch : out.trace.launches)
    for (auto& block : launch.blocks)
      for (auto& step : block.steps) {
        renumber(step.barrier);
        for (auto& e : step.events) renumber(e.line);
        for (auto& p : step.printed) renumber(p.line);
      }
  for (auto& g : hazards) {
    renumber(g.first.line_first);
    renumber(g.first.line_second);
  }
  if (out.trace.error)
    for (auto& line : out.trace.error->lines) renumber(line);
}

}  // namespace

void write_problem(WireWriter& w, const Problem& p) {
  w.put<int32_t>(p.n);
  w.put<int32_t>(p.rows);
  w.put<int32_t>(p.tpb);
  w.put(p.dtype);
  w.put<int32_t>(p.bug);
}
Problem read_problem(WireReader& r) {
  Problem p;
  p.n = r.get<int32_t>();
  p.rows = r.get<int32_t>();
  p.tpb = r.get<int32_t>();
  p.dtype = r.get_enum(DType::Int32);
  p.bug = r.get<int32_t>();
  return p;
}

void write_check(WireWriter& w, const CheckResult& c) {
  w.put(c.has_value());
  if (!c) return;
  w.put(c->field);
  w.put(c->why);
  w.put(c->names_options);
}
CheckResult read_check(WireReader& r) {
  if (!r.get_bool()) return std::nullopt;
  ProblemError e;
  e.field = r.get_enum(ProblemField::Dtype);
  e.why = r.get_string();
  e.names_options = r.get_bool();
  return e;
}

void write_algo_info(WireWriter& w, const AlgoInfo& info) {
  for (const std::string* s : {&info.name, &info.group, &info.title, &info.description, &info.origin}) w.put(*s);
  write_problem(w, info.defaults);
  w.put(info.two_dimensional);
  write_list(w, info.sources, [&](const std::string& s) { w.put(s); });
  write_list(w, info.bugs, [&](const BugInfo& b) {
    w.put(b.name);
    w.put(b.shows);
  });
  w.put(info.float_order_depends_on_timing);
  w.put(info.program);
  w.put(info.kernels_only);
}
AlgoInfo read_algo_info(WireReader& r) {
  AlgoInfo info;
  for (std::string* s : {&info.name, &info.group, &info.title, &info.description, &info.origin}) *s = r.get_string();
  info.defaults = read_problem(r);
  info.two_dimensional = r.get_bool();
  info.sources = read_list<std::string>(r, 8, [&] { return r.get_string(); });
  info.bugs = read_list<BugInfo>(r, 16, [&] {
    BugInfo b;
    b.name = r.get_string();
    b.shows = r.get_string();
    return b;
  });
  info.float_order_depends_on_timing = r.get_bool();
  info.program = r.get_bool();
  info.kernels_only = r.get_bool();
  return info;
}

void write_sim_options(WireWriter& w, const sim::SimOptions& o) {
  w.put(o.schedule.kind);
  w.put(o.schedule.seed);
  w.put(o.detail_blocks);
  w.put<uint64_t>(o.snapshot_limit_elements);
  w.put(o.global_memory);
  w.put<int32_t>(o.threads);
  w.put(o.budget.seconds);
}
sim::SimOptions read_sim_options(WireReader& r) {
  sim::SimOptions o;
  o.schedule.kind = r.get_enum(sim::ScheduleKind::Random);
  o.schedule.seed = r.get<uint64_t>();
  o.detail_blocks = r.get_vector<int>();
  o.snapshot_limit_elements = r.get<uint64_t>();
  o.global_memory = r.get_bool();
  o.threads = r.get<int32_t>();
  o.budget.seconds = r.get<double>();
  return o;
}

void write_doubles(WireWriter& w, const std::vector<double>& v) { w.put(v); }
std::vector<double> read_doubles(WireReader& r) { return r.get_vector<double>(); }

namespace {

void write_outcome_parts(WireWriter& w, const SimOutcome& out) {
  SnapshotMemoWriter memo;
  const sim::Trace& t = out.trace;
  write_list(w, t.arrays, [&](const sim::ArrayInfo& a) {
    w.put(a.name);
    w.put(a.space);
    w.put(a.dtype);
    w.put<int32_t>(a.size);
    w.put<int32_t>(a.launch);
    w.put<int32_t>(a.columns);
    w.put<int32_t>(a.plane_rows);
    w.put(a.layout);
  });
  write_snapshots(w, memo, t.globals_before);
  write_list(w, t.launches, [&](const sim::LaunchTrace& l) { write_launch(w, memo, l); });
  write_list(w, t.hazards.groups(), [&](const sim::HazardGroup& g) { write_hazard_group(w, g); });
  write_error(w, t.error);
  write_cells(w, memo, out.output_array, out.output_bits, out.output_poison);
  write_snapshots(w, memo, out.globals_final);
  write_list(w, out.host_copies, [&](const HostCopy& c) {
    w.put(c.line);
    w.put(c.array);
    w.put(c.element_size);
    w.put(c.bytes);
  });
  // The line table last: the reader renumbers what it read before.
  const uint32_t lines = sim::LineTable::size();
  w.put(lines);
  for (uint32_t id = 1; id < lines; ++id) {
    const sim::SourceLine& l = sim::LineTable::get(static_cast<LineId>(id));
    w.put(l.file);
    w.put(l.line);
    w.put(l.function);
  }
  // Where the program calls its helpers (reports name a helper's line by its call).
  write_list(w, sim::LineTable::calls(), [&](const sim::LineTable::Call& call) {
    w.put(call.file);
    w.put(call.callee);
    for (uint32_t v : {call.line, call.caller_first, call.caller_last, call.callee_first, call.callee_last}) w.put(v);
  });
}

}  // namespace

void write_outcome(WireWriter& w, const SimOutcome& out) {
  // A fresh buffer is reserved at once from the same walk, counting; one used before is written
  // into as it is (it grows by doubling only when this outcome is longer than the last).
  if (w.capacity() < (size_t{1} << 20)) {
    WireWriter counter = WireWriter::counting();
    write_outcome_parts(counter, out);
    w.reserve(w.size() + counter.size());
  }
  write_outcome_parts(w, out);
}

SimOutcome read_outcome(WireReader& r, uint64_t max_snapshot_cells) {
  SnapshotMemoReader memo;
  memo.cells_left = max_snapshot_cells;
  SimOutcome out;
  sim::Trace& t = out.trace;
  t.arrays = read_list<sim::ArrayInfo>(r, 34, [&] {
    sim::ArrayInfo a;
    a.name = r.get_string();
    a.space = r.get_enum(sim::MemSpace::Global);
    a.dtype = r.get_enum(DType::Int32);
    a.size = r.get<int32_t>();
    a.launch = r.get<int32_t>();
    a.columns = r.get<int32_t>();
    a.plane_rows = r.get<int32_t>();
    a.layout = r.get_string();
    return a;
  });
  t.globals_before = read_snapshots(r, memo);
  t.launches = read_list<sim::LaunchTrace>(r, 64, [&] { return read_launch(r, memo); });
  std::vector<sim::HazardGroup> hazards = read_list<sim::HazardGroup>(r, 80, [&] { return read_hazard_group(r); });
  t.error = read_error(r);
  read_cells(r, memo, out.output_array, out.output_bits, out.output_poison);
  out.globals_final = read_snapshots(r, memo);
  out.host_copies = read_list<HostCopy>(r, 16, [&] {
    HostCopy c;
    c.line = r.get<int32_t>();
    c.array = r.get_string();
    c.element_size = r.get<uint32_t>();
    c.bytes = r.get_vector<uint8_t>();
    return c;
  });

  const auto lines = r.get<uint32_t>();
  if (lines == 0 || lines > 65536) throw WireError("a line table of " + std::to_string(lines) + " lines");
  std::vector<LineId> here(lines, sim::kNoLine);
  for (uint32_t id = 1; id < lines; ++id) {
    std::string file = r.get_string();
    const auto line = r.get<uint32_t>();
    std::string function = r.get_string();
    here[id] = sim::LineTable::intern(file, line, function);
  }
  const auto calls = read_list<sim::LineTable::Call>(r, 36, [&] {
    sim::LineTable::Call c;
    c.file = r.get_string();
    c.callee = r.get_string();
    for (uint32_t* v : {&c.line, &c.caller_first, &c.caller_last, &c.callee_first, &c.callee_last}) *v = r.get<uint32_t>();
    return c;
  });
  r.expect_end();
  std::map<std::string, std::vector<sim::LineTable::Call>> by_file;
  for (const auto& call : calls) by_file[call.file].push_back(call);
  for (const auto& [file, its] : by_file) sim::LineTable::set_calls(file, its);
  for_each_line(out, hazards, [&](LineId& id) {
    if (id >= lines) throw WireError("line " + std::to_string(id) + " is not in the table");
    id = here[id];
  });
  for (const auto& g : hazards) t.hazards.add_group(g);
  return out;
}

}  // namespace syncscope::worker
