#include "sim/describe.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <set>
#include <sstream>
#include <tuple>

#include "sim/memory.h"

namespace syncscope::sim {

std::string format_number(DType dtype, double value) {
  char buf[64];
  if (dtype == DType::Int32) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(value));
    return std::string(buf, end);
  }
  // Shortest text that reads back as the same float.
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<float>(value));
  return std::string(buf, end);
}

std::string format_value(DType dtype, uint32_t bits, bool poison) {
  if (poison) return "?";
  return format_number(dtype, bits_to_double(dtype, bits));
}

std::string warp_op_name(WarpOp op) { return warp_op_info(op).name; }

std::string atomic_op_name(AtomicOp op) {
  switch (op) {
    case AtomicOp::Add: return "atomic_add";
    case AtomicOp::Min: return "atomic_min";
    case AtomicOp::Max: return "atomic_max";
    case AtomicOp::Exch: return "atomic_exch";
    case AtomicOp::Cas: return "atomic_cas";
    case AtomicOp::None: break;
  }
  return "atomic";
}

std::string vote_text(WarpOp op, uint32_t result, DType dtype, bool poison) {
  switch (warp_op_info(op).result) {
    case WarpResult::Bool: return result ? "1" : "0";
    case WarpResult::Value: return format_value(dtype, result, poison);
    default: break;
  }
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", result);
  return text;
}

std::string array_name(const Trace& t, int id) {
  if (id < 0 || id >= static_cast<int>(t.arrays.size())) return "?";
  const ArrayInfo& a = t.arrays[id];
  for (const ArrayInfo& other : t.arrays)
    if (other.space != a.space && other.name == a.name) return std::string(to_string(a.space)) + " " + a.name;
  return a.name;
}

Dim3 thread_index_in(Dim3 block, int thread) {
  const int x = std::max(block.x, 1), y = std::max(block.y, 1);
  return {thread % x, (thread / x) % y, thread / (x * y)};
}

std::string thread_name(Dim3 block, int thread) {
  if (block.y <= 1 && block.z <= 1) return "T" + std::to_string(thread);
  const Dim3 at = thread_index_in(block, thread);
  std::string name = "(" + std::to_string(at.x) + "," + std::to_string(at.y);
  if (block.z > 1) name += "," + std::to_string(at.z);
  return name + ")";
}

std::string element_type_note(const ArrayInfo& a) {
  const ElementLayout layout = ElementLayout::of(a);
  return layout.plain() ? "" : " (" + layout.type + ")";
}

std::vector<int> element_halves(const std::vector<Event>& events, const Trace& t) {
  std::vector<int> halves(events.size(), -1);
  std::vector<ElementLayout> layouts;  // by array, parsed where an event needs it
  std::vector<bool> parsed;
  auto starts_wide = [&](const Event& e) {
    if (!e.is_memory() || e.array >= t.arrays.size() || t.arrays[e.array].layout.empty()) return false;
    if (layouts.size() <= e.array) layouts.resize(e.array + 1), parsed.resize(e.array + 1, false);
    if (!parsed[e.array]) layouts[e.array] = ElementLayout::of(t.arrays[e.array]), parsed[e.array] = true;
    return layouts[e.array].starts_wide(e.index);
  };
  // Each event's thread's next event: a schedule may run other threads between the two cells of one
  // access (lanes interleave in lockstep, random preempts anywhere), never the same thread.
  std::vector<int> next_of_thread(events.size(), -1);
  std::vector<int> seen;  // by thread: the latest event looked at, walking backwards
  for (size_t k = events.size(); k-- > 0;) {
    const uint16_t thread = events[k].thread;
    if (seen.size() <= thread) seen.resize(thread + 1, -1);
    next_of_thread[k] = seen[thread];
    seen[thread] = static_cast<int>(k);
  }
  for (size_t k = 0; k < events.size(); ++k) {
    const Event& low = events[k];
    if (halves[k] >= 0 || !starts_wide(low) || next_of_thread[k] < 0) continue;
    const size_t j = static_cast<size_t>(next_of_thread[k]);
    const Event& high = events[j];
    // One access of both cells: the recorded parts where the kernel recorded them (sim::Event::access_part).
    const bool parts = low.access_cells < 2 || (high.access_cells == low.access_cells && high.access_part == low.access_part + 1);
    if (parts && high.kind == low.kind && high.array == low.array && high.index == low.index + 1 &&
        (high.flags & kAtomic) == (low.flags & kAtomic) && (high.flags & kOutOfBounds) == (low.flags & kOutOfBounds)) {
      halves[k] = static_cast<int>(j);
      halves[j] = static_cast<int>(k);
    }
  }
  return halves;
}

std::string describe_event(const Event& e, const Trace& t, DType dtype, const Event* other_half) {
  std::ostringstream s;
  const ArrayInfo* info = e.is_memory() && e.array < t.arrays.size() ? &t.arrays[e.array] : nullptr;
  const ElementLayout layout = info ? ElementLayout::of(*info) : ElementLayout{};
  const ElementLayout::Place place = layout.place(e.index);
  const bool wide = place.field && is_wide_kind(place.field->kind);
  // An 8-byte number's access: its value from both cells (the low one first); a cell of one alone, its word.
  const Event* low = wide && other_half ? (other_half->index < e.index ? other_half : &e) : nullptr;
  const Event* high = low ? (low == &e ? other_half : &e) : nullptr;
  auto cell_text = [&](bool old) {
    const uint8_t poison_flag = old ? kOldPoison : kValuePoison;
    if (low)
      return format_field(place.field->kind, old ? low->old_bits : low->value_bits, old ? high->old_bits : high->value_bits,
                          (low->flags | high->flags) & poison_flag);
    const uint32_t bits = old ? e.old_bits : e.value_bits;
    if (wide) return (e.flags & poison_flag) ? std::string("?") : std::to_string(bits);  // a word of a number, unsigned
    if (place.field) return format_field(place.field->kind, bits, 0, e.flags & poison_flag);
    return format_value(info ? info->dtype : dtype, bits, e.flags & poison_flag);
  };
  auto element = [&] {
    std::string at = layout.element_name(array_name(t, e.array), e.index);
    if (wide && !low) at += place.high ? " (its high word)" : " (its low word)";
    return at;
  };
  if (e.is_memory() && (e.flags & kAtomic)) {
    s << atomic_op_name(e.atomic) << ' ' << element();
    if (e.flags & kOutOfBounds) s << " (out of bounds)";
    else s << ": " << cell_text(true) << " -> " << cell_text(false);
  } else if (e.is_memory()) {
    s << (e.is_read() ? "reads " : "writes ") << element();
    if (e.flags & kOutOfBounds) s << " (out of bounds)";
    s << " = " << cell_text(false);
  } else if (e.kind == EventKind::WarpVote) {
    s << warp_op_name(static_cast<WarpOp>(e.array)) << " = " << vote_text(static_cast<WarpOp>(e.array), e.value_bits, dtype, e.flags & kValuePoison);
  } else if (e.kind == EventKind::Fence) {
    s << "fence (__threadfence)";
  } else if (e.kind == EventKind::Shuffle) {
    s << warp_op_name(static_cast<WarpOp>(e.array)) << " gets " << format_value(dtype, e.value_bits, e.flags & kValuePoison);
    if (e.flags & kOwnValue) s << " (own)";
    else s << " from lane " << e.index;
  } else if (e.kind == EventKind::WarpSync) {
    s << "sync_warp";
  } else if (e.kind == EventKind::Barrier) {
    s << "waits at the barrier";
  } else if (e.kind == EventKind::Exit) {
    s << "exits";
  }
  if ((e.flags & kRacy) || (low && ((low->flags | high->flags) & kRacy))) s << " (race)";
  return s.str();
}

namespace {

// "cache[8], cache[9]", "bins[2].sum" (the first few distinct elements, or fields, of a group)
std::string cells(const std::string& array, const HazardGroup& g, const ElementLayout& layout) {
  std::vector<std::string> names;
  for (int i : g.indices)
    if (std::string n = layout.element_name(array, i); std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(std::move(n));
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + names[k];
  if (g.indices.size() == HazardGroup::kMaxIndicesListed) s += ", ...";
  return s.empty() ? layout.element_name(array, g.first.index) : s;
}

ElementLayout layout_of(const Trace& t, int array) {
  return array >= 0 && array < static_cast<int>(t.arrays.size()) ? ElementLayout::of(t.arrays[array]) : ElementLayout{};
}

bool is_race(HazardKind k) {
  return k == HazardKind::ReadAfterWrite || k == HazardKind::WriteAfterRead || k == HazardKind::WriteAfterWrite;
}

}  // namespace

std::string describe_hazard(const HazardGroup& g, const Trace& t) {
  const HazardEvent& e = g.first;
  std::ostringstream s;
  s << to_string(e.severity) << ": ";
  const std::string array = array_name(t, e.array);
  const std::string first = LineTable::describe(e.line_first);
  const std::string second = LineTable::describe(e.line_second);
  // Threads by their threadIdx: "T32" in a 1D block, "(0,1)" in a 2D one.
  const Dim3 block = e.launch >= 0 && e.launch < static_cast<int>(t.launches.size()) ? t.launches[e.launch].block : Dim3{};
  const std::string threads =
      e.cross_block ? " (block " + std::to_string(e.block_first) + " " + thread_name(block, e.thread_first) + ", block " +
                          std::to_string(e.block) + " " + thread_name(block, e.thread_second) + ")"
                    : " (" + thread_name(block, e.thread_first) + ", " + thread_name(block, e.thread_second) + ")";
  switch (e.kind) {
    case HazardKind::ReadAfterWrite:
    case HazardKind::WriteAfterRead:
    case HazardKind::WriteAfterWrite: {
      // An atomic is named as such: "atomic" and a plain access of one cell race, two atomics never do.
      const bool first_writes = e.kind != HazardKind::WriteAfterRead;
      const bool second_writes = e.kind != HazardKind::ReadAfterWrite;
      auto side = [](bool atomic, bool writes) { return atomic ? "atomic" : writes ? "write" : "read"; };
      s << (e.cross_block ? "cross-block " : "") << "race (" << to_string(e.kind) << ") between "
        << side(e.first_atomic, first_writes) << " at " << first << " and " << side(e.second_atomic, second_writes)
        << " at " << second << threads;
      if (e.through_atomics) s << " that their __threadfence() and atomics may order (syncscope does not follow that order)";
      if (e.read_of_atomics) s << ": a plain read of a cell other threads update with atomics sees it before or after their update";
      if (e.unchanged_cell)
        s << ": every write to " << (g.indices.size() > 1 ? "these cells" : "this cell")
          << " in the launch stored the value already there, so no order changes what is read";
      break;
    }
    case HazardKind::OutOfBounds: {
      const int size = e.array >= 0 ? t.arrays[e.array].size / layout_of(t, e.array).cells : 0;
      s << "out-of-bounds " << (e.second_is_write ? "write" : "read") << " of " << cells(array, g, layout_of(t, e.array))
        << " at " << second
        << " (" << array << " has " << size << " elements"
        // Only extern __shared__ can be empty: its size is the launch's, which gave none.
        << (size == 0 && e.array >= 0 && t.arrays[e.array].space == MemSpace::Shared
                ? ": the launch gave no dynamic shared memory; give its bytes as <<<grid, block, BYTES>>>, or "
                  "--shared-bytes BYTES to a .cu without main()"
                : "")
        << ")";
      break;
    }
    case HazardKind::UninitializedRead:
      s << "read of uninitialized " << cells(array, g, layout_of(t, e.array)) << " at " << second;
      break;
    case HazardKind::BarrierDivergence:
      s << "barrier divergence at " << second;
      break;
    case HazardKind::WarpDivergence:
      s << "warp divergence: lanes of one warp reached different warp operations at " << first << " (T"
        << e.thread_first << ") and " << second << " (T" << e.thread_second << ")";
      break;
    case HazardKind::ExitedBeforeBarrier:
      s << "T" << e.thread_first
        << (e.line_first == kNoLine ? std::string(" finished the kernel") : " returned at " + first) << " before the barrier at "
        << second << ", where T" << e.thread_second
        << " waits: a GPU goes on without threads that exited, but CUDA promises a barrier only where every thread "
           "of the block reaches it";
      break;
    case HazardKind::ExitedLane:
      s << "warp operation at " << second << " (T" << e.thread_second << ") needs T" << e.thread_first
        << ", which already exited" << returned_text(e.line_first);
      break;
    case HazardKind::InactiveMaskLane: {
      char mask[16];
      std::snprintf(mask, sizeof mask, "0x%08x", e.mask);
      s << "mask " << mask << " at " << second << " (T" << e.thread_second << ")";
      switch (e.mask_problem) {
        case MaskProblem::LaneExited:
          s << " names T" << e.thread_first << ", which already exited" << returned_text(e.line_first);
          break;
        case MaskProblem::LaneElsewhere:
          s << " names T" << e.thread_first << ", which never gets there (it waits at " << first << ")";
          break;
        case MaskProblem::LaneNotInBlock: s << " names lane " << e.thread_first << ", which the block does not have"; break;
        case MaskProblem::CallerNotInMask: s << " does not name the calling lane itself"; break;
      }
      break;
    }
  }
  s << " [hazards: " << g.count << ", blocks: ";
  for (size_t i = 0; i < g.blocks.size(); ++i) s << (i ? "," : "") << g.blocks[i];
  if (g.block_count > g.blocks.size()) s << ",... (" << g.block_count << " blocks)";
  s << "]";
  if (e.same_warp) s << " within one warp";
  if (is_race(e.kind)) s << " on " << array;
  if (g.launches > 1) s << ", launches " << e.launch + 1 << "-" << g.last_launch + 1 << " (" << g.launches << ")";
  else if (t.launches.size() > 1) s << ", launch " << e.launch + 1;
  return s.str();
}

std::string describe_barrier_group(const BarrierGroup& b, const std::vector<HazardGroup>& groups, const Trace& t) {
  bool error = false;
  uint64_t count = 0;
  std::set<HazardKind> kinds;
  std::set<std::string> arrays;
  std::set<int> blocks;
  for (size_t k : b.reports) {
    const HazardGroup& g = groups.at(k);
    error = error || g.first.severity == Severity::Error;
    count += g.count;
    kinds.insert(g.first.kind);
    arrays.insert(array_name(t, g.first.array));
    blocks.insert(g.blocks.begin(), g.blocks.end());
  }
  std::ostringstream s;
  s << to_string(error ? Severity::Error : Severity::Warning) << ": " << b.pairs.size() << " pairs of lines race (";
  for (auto k = kinds.begin(); k != kinds.end(); ++k) s << (k == kinds.begin() ? "" : ", ") << to_string(*k);
  s << ") on ";
  for (auto a = arrays.begin(); a != arrays.end(); ++a) s << (a == arrays.begin() ? "" : ", ") << *a;
  s << ", all for want of one barrier [hazards: " << count << ", blocks: ";
  int listed = 0;
  for (int block : blocks) {
    if (listed++ == static_cast<int>(HazardGroup::kMaxBlocksListed)) {
      s << ",...";
      break;
    }
    s << (listed > 1 ? "," : "") << block;
  }
  s << "]";
  return s.str();
}

std::string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g s", seconds < 10 ? 2 : 4, seconds);
  return text;
}

std::string returned_text(LineId returned_at) {
  return returned_at == kNoLine ? "" : " (it returned at " + LineTable::describe(returned_at) + ")";
}

std::string describe_mask_violation(WarpOp op, const std::string& line, int thread, uint32_t mask, MaskProblem problem,
                                    int other, int lanes, const std::string& returned) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", mask);
  const std::string call = warp_op_name(op) + " at " + line + " (T" + std::to_string(thread) + ") has mask " + hex;
  switch (problem) {
    case MaskProblem::CallerNotInMask:
      return call + ", which does not name its own lane " + std::to_string(thread % kWarpSize) +
             "; a lane calls a *_sync operation only with a mask that includes itself";
    case MaskProblem::LaneNotInBlock:
      return call + ", which names lane " + std::to_string(other) + " of warp " +
             std::to_string(thread / kWarpSize) + ", but the block's warp has only " + std::to_string(lanes) + " lanes";
    case MaskProblem::LaneExited:
    case MaskProblem::LaneElsewhere:
      return call + ", which names T" + std::to_string(other) + ", but T" + std::to_string(other) +
             " already exited" + returned + ": every lane in the mask must take part";
  }
  return call;
}

std::string describe_bad_width(WarpOp op, const std::string& line, int width) {
  return warp_op_name(op) + " at " + line + ": width " + std::to_string(width) + " must be a power of two from 1 to 32";
}

std::string elements_differ(long count, size_t of) {
  std::string text = std::to_string(count);
  if (of) text += " of " + std::to_string(of) + " elements";
  else text += count == 1 ? " element" : " elements";
  // "1 of 8 elements differs": the verb agrees with the one, not with the eight.
  return text + (count == 1 ? " differs" : " differ");
}

std::string describe_threads(const std::vector<int>& threads) {
  std::ostringstream out;
  for (size_t i = 0; i < threads.size();) {
    size_t j = i;
    while (j + 1 < threads.size() && threads[j + 1] == threads[j] + 1) ++j;
    if (i) out << ", ";
    out << 'T' << threads[i];
    if (j > i) out << "-T" << threads[j];
    i = j + 1;
  }
  return out.str();
}

std::string describe_runaway(const BudgetFacts& f, int thread, const std::string& last_line) {
  const int passed = f.barriers_passed;
  std::ostringstream text;
  text << "T" << thread << " of block " << f.block << " is still running after " << format_seconds(f.seconds)
       << (passed == 0 ? std::string(" without reaching a barrier")
                       : " without reaching its next barrier (it passed " + std::to_string(passed) +
                             (passed == 1 ? " barrier)" : " barriers)"))
       << "; last line executed: " << last_line << " (the time budget is " << format_seconds(f.budget_seconds)
       << " a block; --time-limit raises it)";
  // A spin on a flag another block sets: the one runaway a longer budget never ends.
  if (f.blocks > 1)
    text << ". If it waits for another block: syncscope runs a launch's blocks one after another, so a block waiting "
            "for a later block's write waits forever; on a GPU it ends only while both blocks are resident at once, "
            "which CUDA does not promise";
  return text.str();
}

std::string describe_too_many_operations(const BudgetFacts& f, int thread, const std::string& last_line) {
  return "block " + std::to_string(f.block) + " made more than " + std::to_string(f.max_operations) +
         " kernel operations (memory accesses, shuffles, atomics) in one launch (the work budget; --time-limit raises "
         "it); is a loop endless? T" + std::to_string(thread) + " was at " + last_line;
}

std::string describe_endless_barrier_loop(const BudgetFacts& f, bool out_of_steps, const std::string& loop_line) {
  std::ostringstream why;
  why << "block " << f.block << " passed " << f.barriers_passed << " barriers ";
  if (out_of_steps) why << "in one launch (the step budget)";
  else why << "and is still running after " << format_seconds(f.seconds) << " (the time budget is "
           << format_seconds(f.budget_seconds) << " a block)";
  why << "; is the loop around " << loop_line << " endless? (--time-limit raises the budget)";
  return why.str();
}

std::string describe_cancelled(int block, int step) {
  return "the simulation was cancelled (block " + std::to_string(block) + ", step " + std::to_string(step) + ")";
}

}  // namespace syncscope::sim
