#include "sim/remedies.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace syncscope::sim {
namespace {

bool is_race(HazardKind k) {
  return k == HazardKind::ReadAfterWrite || k == HazardKind::WriteAfterRead || k == HazardKind::WriteAfterWrite;
}

bool same_function(LineId a, LineId b) {
  const SourceLine& x = LineTable::get(a);
  const SourceLine& y = LineTable::get(b);
  return x.file == y.file && x.function == y.function;
}

uint32_t line_number(LineId id) { return LineTable::get(id).line; }

// What takes a thread back from a later line to an earlier one of the same function: the trace
// shows the jump, not whether a loop or a second call of the function made it.
constexpr const char* kGoesBack = "the code goes back between them: a loop, or the function called again";

std::string at_line(const LineTable::Call& c) { return c.file + ":" + std::to_string(c.line); }

// Where the code goes back in a __device__ helper that is called from several places, those calls
// (a translated .cu's, sim::LineTable::set_calls): "...; shift_left is called at x.cu:15 and x.cu:19".
// "shift_left is called at x.cu:15 and x.cu:19"; "" unless the helper of `line` has several calls
// (and, given `from`, some of them in the function of that line).
std::string calls_text(LineId line, LineId from = kNoLine) {
  const SourceLine& l = LineTable::get(line);
  const std::vector<LineTable::Call> calls = LineTable::calls_into(l.file, l.line);
  if (calls.size() < 2) return "";
  // ... where `from` is in a function nothing calls (the kernel) that calls it: in a helper of its
  // own, the order is the kernel's to give.
  const SourceLine& f = LineTable::get(from);
  if (from != kNoLine && (!LineTable::calls_into(f.file, f.line).empty() ||
                          std::none_of(calls.begin(), calls.end(), [&](const LineTable::Call& c) {
                            return c.caller_first <= f.line && f.line <= c.caller_last;
                          })))
    return "";
  std::string text = calls.front().callee + " is called at ";
  for (size_t k = 0; k < calls.size(); ++k)
    text += (k == 0 ? "" : k + 1 == calls.size() ? " and " : ", ") + at_line(calls[k]);
  return text;
}
std::string goes_back(LineId line) {
  const std::string calls = calls_text(line);
  return calls.empty() ? kGoesBack : std::string(kGoesBack) + "; " + calls;
}

// Where the function of line `other` reaches `line`: the call of `line`'s helper (or of the helper
// that calls it, up to three deep). Called from one place, that call; called from several places in
// `other`'s function, the one nearest `other` on the side `line` ran on (`line_later`: the first
// after it, as `b[t] = left(a, t); out[t] = left(b, t);` reads b through the second; else the last
// before it, unless one is on `other`'s own line: `a[t] = avg(a, t)` may read a through it, or
// `b[t] = avg(a, t); a[t] = avg(b, t);` through the first, which the lines do not tell apart).
// Interned as a line of `other`'s function; kNoLine otherwise, or where both lines are of one function.
LineId call_reaching(LineId line, LineId other, bool line_later) {
  const SourceLine& l = LineTable::get(line);
  const SourceLine& o = LineTable::get(other);
  if (l.file != o.file || l.function == o.function) return kNoLine;
  uint32_t at = l.line;
  for (int depth = 0; depth < 3; ++depth) {
    const std::vector<LineTable::Call> calls = LineTable::calls_into(l.file, at);
    if (calls.size() == 1 && calls.front().caller_first <= o.line && o.line <= calls.front().caller_last)
      return LineTable::intern(o.file, calls.front().line, o.function);
    const LineTable::Call* nearest = nullptr;
    bool on_its_line = false;
    for (const LineTable::Call& c : calls) {
      if (c.caller_first > o.line || o.line > c.caller_last) continue;
      on_its_line |= c.line == o.line;
      if ((line_later ? c.line > o.line : c.line < o.line) &&
          (!nearest || (line_later ? c.line < nearest->line : c.line > nearest->line)))
        nearest = &c;
    }
    if (nearest && (line_later || !on_its_line)) return LineTable::intern(o.file, nearest->line, o.function);
    if (calls.size() != 1) return kNoLine;
    at = calls.front().line;
  }
  return kNoLine;
}

// The name of the helper whose lines span `line`.
std::string helper_called(LineId line) {
  const SourceLine& l = LineTable::get(line);
  const std::vector<LineTable::Call> calls = LineTable::calls_into(l.file, l.line);
  return calls.empty() ? LineTable::describe(line) : calls.front().callee;
}

// A loop of `loops` spans lines a and b of their function. Without loops to tell by, every pair
// that goes back in the source is taken to wrap round one.
bool in_one_loop(const std::optional<std::vector<LoopSpan>>& loops, LineId a, LineId b) {
  if (!loops) return true;
  const SourceLine& x = LineTable::get(a);
  const SourceLine& y = LineTable::get(b);
  if (x.file != y.file || x.function != y.function) return false;
  const uint32_t lo = std::min(x.line, y.line), hi = std::max(x.line, y.line);
  for (const LoopSpan& l : *loops)
    if (l.file == x.file && l.function == x.function && l.first <= lo && hi <= l.last) return true;
  return false;
}

// Two groups name a common cell. A group lists only its smallest few cells, so a full list may
// hide a common one: then they are taken to meet.
bool cells_meet(const HazardGroup& a, const HazardGroup& b) {
  if (a.indices.size() >= HazardGroup::kMaxIndicesListed || b.indices.size() >= HazardGroup::kMaxIndicesListed)
    return true;
  for (int i : a.indices)
    if (std::binary_search(b.indices.begin(), b.indices.end(), i)) return true;
  return false;
}

// A lost update: several threads read-modify-write one cell with one statement in one step
// (`hist[bin] += 1`). The detector shows it as a WAW between two runs of that line plus a RAW or WAR
// between two runs of it, on the same cells. A read-modify-write spread over two statements (`v =
// s[0];` ... `s[0] = v + 1;`) is not told apart from a swap that a missing barrier let race across
// rounds (a bitonic sort's `b = s[j];` ... `s[j] = a;`) by its pairs alone; but a counter's is: every
// thread reads and writes the one cell (`int pos = s_count;` then `s_count = pos + 1;`), where a
// swap's cells are many, so a write's runs meeting on one cell after its function read that cell
// earlier in the step are a lost update over two statements (one atomicAdd returns the old value
// and writes the new). Nor is one
// statement whose cells another statement of its function also writes in the step, racing with it
// (a Blelloch down-sweep's `temp[bi] += t` against `temp[ai] = temp[bi]`, a swap's `a = b` against
// `b = t`): values pass from statement to statement, the threads take turns that a missing barrier
// merged, and an atomic there would keep the wrong order. (A histogram whose bins are also cleared
// without a barrier first gets the barrier's fix, and its lost update once that barrier is in.)
struct LostUpdate {
  int array = -1;
  LineId line = kNoLine;
  LineId read_line = kNoLine;  // the counter's read, a statement before its write; kNoLine: one statement
  bool cross_block = false;
  bool covers(const HazardEvent& e) const {
    if (e.array != array || e.cross_block != cross_block) return false;
    if (e.line_first == line && e.line_second == line) return true;
    return read_line != kNoLine && ((e.line_first == read_line && e.line_second == line) ||
                                    (e.line_first == line && e.line_second == read_line));
  }
};

// The read of a counter that one write's runs meet on (`waw`, all at one cell): a race between that
// write and a read at an earlier line of its function on that cell. kNoLine when there is none.
LineId counter_read(const std::vector<HazardGroup>& groups, const HazardGroup& waw) {
  const HazardEvent& w = waw.first;
  if (waw.indices.size() != 1) return kNoLine;
  for (const HazardGroup& g : groups) {
    const HazardEvent& e = g.first;
    if (e.array != w.array || e.cross_block != w.cross_block || e.line_first == e.line_second) continue;
    if (e.kind != HazardKind::WriteAfterRead && e.kind != HazardKind::ReadAfterWrite) continue;
    if (e.line_first != w.line_first && e.line_second != w.line_first) continue;
    const LineId read = e.kind == HazardKind::WriteAfterRead ? e.line_first : e.line_second;
    if (read == w.line_first || !same_function(read, w.line_first) || line_number(read) >= line_number(w.line_first)) continue;
    if (g.indices == waw.indices) return read;
  }
  return kNoLine;
}

// A race of a block on `array` between `line` and a write at another line of its function.
bool written_by_another_statement(const std::vector<HazardGroup>& groups, int array, LineId line) {
  for (const HazardGroup& g : groups) {
    const HazardEvent& e = g.first;
    if (!is_race(e.kind) || e.array != array || e.cross_block || e.line_first == e.line_second) continue;
    if (e.line_first != line && e.line_second != line) continue;
    const LineId other = e.line_first == line ? e.line_second : e.line_first;
    const bool other_writes = other == e.line_first ? e.kind != HazardKind::WriteAfterRead
                                                    : e.kind != HazardKind::ReadAfterWrite;
    if (other_writes && same_function(other, line)) return true;
  }
  return false;
}

// Threads of the launch skipped a barrier of `line`'s function (in a branch, or a loop they left):
// they ran on into accesses of the round after it, which then meet the others' in "the same step".
// The barrier's line; kNoLine where none was skipped.
LineId barrier_skipped_near(const std::vector<HazardGroup>& groups, int launch, LineId line) {
  for (const HazardGroup& g : groups)
    if (g.first.kind == HazardKind::ExitedBeforeBarrier && g.first.launch == launch && same_function(g.first.line_second, line))
      return g.first.line_second;
  return kNoLine;
}

std::vector<LostUpdate> find_lost_updates(const std::vector<HazardGroup>& groups) {
  std::vector<LostUpdate> found;
  for (const HazardGroup& waw : groups) {
    const HazardEvent& w = waw.first;
    if (w.kind != HazardKind::WriteAfterWrite || w.line_first != w.line_second || w.through_atomics || w.unchanged_cell)
      continue;
    // A sort's swap whose rounds a skipped barrier merged is no lost update an atomic would mend.
    if (!w.cross_block && barrier_skipped_near(groups, w.launch, w.line_first) != kNoLine) continue;
    if (!w.cross_block && written_by_another_statement(groups, w.array, w.line_first)) continue;
    if (const LineId read = counter_read(groups, waw); read != kNoLine) {
      found.push_back({w.array, w.line_first, read, w.cross_block});
      continue;
    }
    const LostUpdate candidate{w.array, w.line_first, kNoLine, w.cross_block};
    for (const HazardGroup& other : groups) {
      const HazardEvent& r = other.first;
      if ((r.kind == HazardKind::ReadAfterWrite || r.kind == HazardKind::WriteAfterRead) && candidate.covers(r) &&
          cells_meet(waw, other)) {
        found.push_back(candidate);
        break;
      }
    }
  }
  return found;
}

std::string lost_update_text(const LostUpdate& u, bool looped) {
  const std::string L = LineTable::describe(u.line);
  // The atomic as the file spells it: CUDA's in a .cu, the kernel contract's in a kernel file.
  const std::string& file = LineTable::get(u.line).file;
  const bool cuda = file.ends_with(".cu") || file.ends_with(".cuh");
  const std::string atomic = cuda ? "atomicAdd" : "c.atomic_add";
  if (u.read_line != kNoLine) {
    const std::string R = LineTable::describe(u.read_line);
    return std::string(u.cross_block ? "threads of several blocks" : "several threads") + " read one cell at " + R +
           " and write it back at " + L +
           " in the same step (a lost update: two of them read the same old value and one update is lost); no barrier "
           "orders a thread's own read and write against the others', so make the two one atomic at " + R + ", with the write at " +
           L + " removed: for a counter, int old = " + atomic + "(&counter, 1); returns the old value and writes the new one; "
           "for a claim that stores only where it finds a value (if (x == -1) x = v;), " + (cuda ? "atomicCAS(&x, -1, v)" : "c.atomic_cas(x, -1, v)") +
           " lets one thread win";
  }
  // Blocks that meet on one element may add into a total, or may each have been meant to own it (a
  // grid-stride loop stepping by blockDim.x alone); threads of a loop with no barrier may add into
  // one cell, or may be rounds that must follow each other (an up-sweep's XY[i] += XY[i - stride]).
  // Nothing in the events tells these apart: both fixes are said, the atomic last.
  // A running maximum (`if (v > *m) *m = v;`) loses updates as a sum does: its atomic is another.
  const std::string atomic_fix = "use an atomic at " + L + " (" + atomic + " for a sum, " +
                                 (cuda ? "atomicMax or atomicMin" : "c.atomic_max or c.atomic_min") +
                                 " for a running maximum or minimum of integers; of floats, an atomicCAS loop)";
  if (u.cross_block)
    return "threads of several blocks read-modify-write one cell at " + L +
           " (two blocks reached the same element): where each element should be one thread's, check the index and "
           "its stride (a grid-stride loop steps by blockDim.x * gridDim.x); where they add into one total, " + atomic_fix;
  if (looped)
    return "several threads read-modify-write one cell at " + L +
           " in the same step, a loop with no barrier coming back to it: where each round must see the last one's "
           "writes (a tree's levels, a scan's strides), a barrier at the end of the round, before " + L +
           " comes round again, orders them; where they add into one total (a histogram), " + atomic_fix;
  return "several threads read-modify-write one cell at " + L +
         " in the same step (a lost update: two of them read the same old value and one update is lost); "
         "no barrier orders a thread's own read and write against the others', so " + atomic_fix;
}

// Blocks that both take global atomics, the first fencing nothing: a lock (atomicCAS ... atomicExch)
// or a ticket (the last block's atomicInc) orders them only once a __threadfence() has made the
// write visible before the atomic that hands over. Whether their atomics are such a hand-over (or a
// histogram's, beside an unrelated race) is not known here, so the fix says both.
std::string unfenced_handover_text(const HazardEvent& e) {
  const std::string write = LineTable::describe(e.kind == HazardKind::WriteAfterRead ? e.line_second : e.line_first);
  return "if blocks " + std::to_string(e.block_first) + " and " + std::to_string(e.block) +
         " take turns through their global atomics (a lock, a ticket), nothing makes the write at " + write +
         " visible to the next block: put __threadfence() after it, before the atomic that hands over (the lock's "
         "release, the ticket's atomicInc), as CUDA's threadFenceReduction does; if they do not, ";
}

std::string barrier_text(const HazardEvent& e, bool same_warp, const std::optional<std::vector<LoopSpan>>& loops) {
  const SourceLine& a = LineTable::get(e.line_first);
  const SourceLine& b = LineTable::get(e.line_second);
  const std::string A = LineTable::describe(e.line_first), B = LineTable::describe(e.line_second);
  const std::string barrier = same_warp ? "a __syncwarp() (or a barrier)" : "a barrier";
  if (e.through_atomics)
    return "block " + std::to_string(e.block_first) + " took an atomic after a __threadfence(), and block " +
           std::to_string(e.block) + " took one before " + B + ": if " + A + " comes before that fence and block " +
           std::to_string(e.block) + "'s atomic always comes after block " + std::to_string(e.block_first) +
           "'s (a ticket's last block, a lock's next holder), they are ordered; otherwise they race";
  if (e.unchanged_cell) {
    const LineId write = e.kind == HazardKind::WriteAfterRead ? e.line_second : e.line_first;
    return "nothing to fix for these values: the write at " + LineTable::describe(write) +
           " stores what the cell holds (as a Floyd-Warshall step rewrites row and column k with themselves); were it "
           "to store another value, " +
           (e.cross_block ? std::string("the blocks would race: split the work into two launches")
                          : "the threads would race: " + barrier + " between them");
  }
  if (e.read_of_atomics)
    return "the read at " + (e.first_atomic ? B : A) + " may see the value from before the atomic at " +
           (e.first_atomic ? A : B) + ": as the first guess of a "
           "compare-and-swap loop, a claim's test before its atomicCAS, or a maximum that only grows, that is fine; where the value must be current, "
           "read it with an atomic too (atomicAdd(p, 0)), or " + (e.cross_block ? "in a later launch" : "after a __syncthreads()");
  // Two blocks' runs of one write meet on a cell when an index runs past its bound (`x <= w` into the
  // next row) as often as by design.
  if (e.cross_block && e.kind == HazardKind::WriteAfterWrite && e.line_first == e.line_second)
    return "threads of two blocks write one cell at " + A + ": where each thread should own its cell, check the "
           "index and its bound (x < w, not x <= w; an if (i < n) guard); where the blocks take turns on it (rounds of a "
           "sort or a stencil in one launch), give each round a launch of its own; where they add into it, use an atomic";
  if (e.cross_block)
    return "blocks of one launch cannot wait for each other: the access at " + B + " needs what " + A +
           " does in another block finished first, so split the work into two launches (or use atomics)";
  // Both accesses on one line of a helper called on two lines of one function (an accessor's `return
  // data[r * W + c];`, written through at one call and read at the other): between those calls.
  if (e.line_first == e.line_second && e.kind != HazardKind::WriteAfterWrite) {
    const std::vector<LineTable::Call> calls = LineTable::calls_into(a.file, a.line);
    if (calls.size() == 2 && calls[0].caller_first == calls[1].caller_first && calls[0].line != calls[1].line) {
      HazardEvent by_call = e;
      by_call.line_first = LineTable::find(a.file, std::min(calls[0].line, calls[1].line));
      by_call.line_second = LineTable::find(a.file, std::max(calls[0].line, calls[1].line));
      if (by_call.line_first != kNoLine && by_call.line_second != kNoLine &&
          same_function(by_call.line_first, by_call.line_second))
        return barrier_text(by_call, same_warp, loops) + " (" + calls_text(e.line_first) + ", where " + A + " is)";
    }
  }
  // An in-place scan's `s[t] += s[t - d]` (one round: split the statement) and a reduction loop's
  // `s[t] += s[t + d]` with its barrier left out (rounds merged: a barrier ends each) look the same.
  if (e.line_first == e.line_second && e.kind != HazardKind::WriteAfterWrite)
    return "one statement at " + A + " reads a cell that another thread's run of it writes in the same step: "
           "where they take turns as a loop comes back to " + A + ", " + barrier + " after it would order them; "
           "where one round must read before it writes, read into a variable, then " + barrier + ", then write";
  // Two threads' runs of one statement, or one thread's run and another's next time round a loop:
  // nothing in the event tells them apart, so both fixes are said.
  if (e.line_first == e.line_second)
    return "threads write one cell at " + A + " in the same step: give each thread a cell of its own, or, where they "
           "take turns as a loop comes back to " + A + ", " + barrier + " after it would order them; where one of them "
           "should win (a claim: if (x == -1) x = t;), " +
           (a.file.ends_with(".cu") || a.file.ends_with(".cuh") ? "atomicCAS(&x, -1, t)" : "c.atomic_cas(x, -1, t)") +
           " in place of the test and the write";
  // One line in a helper that the other's function calls from one place: the barrier goes by that call.
  if (a.file == b.file && a.function != b.function) {
    const LineId via_first = call_reaching(e.line_first, e.line_second, false);
    const LineId via_second = via_first == kNoLine ? call_reaching(e.line_second, e.line_first, true) : kNoLine;
    if (via_first != kNoLine || via_second != kNoLine) {
      HazardEvent by_call = e;
      (via_first != kNoLine ? by_call.line_first : by_call.line_second) = via_first != kNoLine ? via_first : via_second;
      const LineId in_helper = via_first != kNoLine ? e.line_first : e.line_second;
      const LineId call = via_first != kNoLine ? via_first : via_second;
      return barrier_text(by_call, same_warp, loops) + " (" + LineTable::describe(call) +
             " calls " + helper_called(in_helper) + ", where " + LineTable::describe(in_helper) + " is)";
    }
  }
  if (a.file == b.file && a.function == b.function && a.line > b.line && in_one_loop(loops, e.line_first, e.line_second))
    return barrier + " after " + A + ", before " + B + " comes round again (" + goes_back(e.line_first) + "), "
           "would order these accesses";
  if (a.file == b.file && a.function == b.function && a.line > b.line)  // one ran ahead of the other
    return barrier + " between " + B + " and " + A + " would order these accesses";
  if (a.file == b.file && a.function == b.function) return barrier + " between " + A + " and " + B + " would order these accesses";
  // A helper called from several places: which call did it, the lines do not say; the calls do.
  const std::string calls_first = calls_text(e.line_first, e.line_second);
  const std::string calls = calls_first.empty() ? calls_text(e.line_second, e.line_first) : calls_first;
  return barrier + " after " + A + " and before " + B + " would order these accesses" +
         (calls.empty() ? "" : " (" + calls + ": the barrier goes between the call that reaches " +
                                   (calls_first.empty() ? B : A) + " and the other access)");
}

// The plain side of a race between an atomic and a plain write (kNoLine: it is not one).
LineId plain_write_against_atomic(const HazardEvent& e) {
  if (e.cross_block || e.first_atomic == e.second_atomic || e.line_first == e.line_second) return kNoLine;
  if (e.first_atomic && (e.kind == HazardKind::WriteAfterRead || e.kind == HazardKind::WriteAfterWrite)) return e.line_second;
  if (e.second_atomic && (e.kind == HazardKind::ReadAfterWrite || e.kind == HazardKind::WriteAfterWrite)) return e.line_first;
  return kNoLine;
}

std::string atomic_write_text(const HazardEvent& e, LineId plain) {
  const LineId atomic = plain == e.line_first ? e.line_second : e.line_first;
  const std::string W = LineTable::describe(plain), X = LineTable::describe(atomic);
  const std::string& file = LineTable::get(plain).file;
  const bool cuda = file.ends_with(".cu") || file.ends_with(".cuh");
  // The write first in the source (bins zeroed, then atomics into them): it must be over before any
  // atomic starts; an atomic write would only land after some of them and wipe them out.
  if (!e.cross_block && same_function(plain, atomic) && line_number(plain) < line_number(atomic))
    return "the plain write at " + W + " must be done before other threads' atomics at " + X +
           " start on its cell: put a barrier between " + W + " and " + X +
           " where every thread of the block passes it (not inside a branch); made atomic, it could still land after some "
           "of them and undo them";
  return "the plain write at " + W + " races with other threads' atomics at " + X +
         " on the same cell in the same step: make it atomic too (" +
         (cuda ? "atomicExch, or atomicMin/atomicMax to clamp a counter" : "c.atomic_exch, or c.atomic_min/c.atomic_max") +
         "), or put a barrier between " + X + " and " + W + " where every thread of the block passes it (not inside a branch)";
}

// Problems with one fix each, at a warp operation or a barrier (not a pair of accesses to order).
bool is_one_place_problem(HazardKind k) {
  return k == HazardKind::ExitedLane || k == HazardKind::InactiveMaskLane || k == HazardKind::WarpDivergence ||
         k == HazardKind::ExitedBeforeBarrier || k == HazardKind::BarrierDivergence;
}

std::string thread_text(int thread) { return "T" + std::to_string(thread); }

// A loop some threads leave before others (a last chunk only some have) and a barrier inside it.
constexpr const char* kSharedCondition =
    "give it a condition the whole block shares (over chunks of n: for (int base = 0; base < n; base += blockDim.x), "
    "with only the work under if (base + threadIdx.x < n))";

// Threads of one block at different barriers: one in each branch of an if, or one inside a loop
// some threads left for a barrier after it (a loop over chunks whose last chunk only some have).
std::string barrier_divergence_text(const HazardEvent& e) {
  const std::string B = LineTable::describe(e.line_second);
  if (e.thread_first < 0 || e.line_first == kNoLine)
    return "every thread of a block must reach each barrier as often as the others: move " + B +
           " out of the branch or loop only some threads run";
  return thread_text(e.thread_second) + " waits at the barrier at " + B + " and " + thread_text(e.thread_first) + " at the one at " +
         LineTable::describe(e.line_first) + ": they are two barriers (one in each branch of an if, or one in a loop "
         "some threads left), and a block's threads must all reach the same one: put one barrier after the branch, "
         "where every thread passes, or for a loop " + kSharedCondition;
}

// A warp operation that cannot complete: what its mask or its place must be.
std::string warp_call_text(const HazardEvent& e) {
  const std::string B = LineTable::describe(e.line_second), A = LineTable::describe(e.line_first);
  const std::string reach = "every lane a warp operation's mask names must call it, and the mask must name the caller";
  // Without a return's line the lane ran to the kernel's end: it skipped B's branch (or returned
  // where no line was kept).
  const std::string exited =
      e.line_first == kNoLine
          ? reach + ": " + thread_text(e.thread_first) + " finished without reaching " + B + " (" + thread_text(e.thread_second) +
                " waits there): it skipped the branch " + B + " is in, or returned, so call " + B +
                " where every lane of its mask gets (outside the if), or give it a mask of the lanes that reach it (a "
                "__ballot_sync of the condition, taken before the branch)"
          : reach + ": " + thread_text(e.thread_first) + " returned at " + A + " before reaching " + B + " (" +
                thread_text(e.thread_second) + " waits there), so return only after " + B + ", or give " + B +
                " a mask of the lanes that reach it (a __ballot_sync of the condition, taken before the return)";
  if (e.kind == HazardKind::ExitedLane) return exited;
  if (e.kind == HazardKind::ExitedBeforeBarrier && e.line_first == kNoLine)
    return thread_text(e.thread_first) + " finished the kernel without reaching the barrier at " + B + ", where " +
           thread_text(e.thread_second) + " waits: it left the loop or skipped the branch the barrier is in. Keep every "
           "thread until the barrier: move it out of that branch (only the work under the if, the barrier after it), "
           "or, for a loop, " + kSharedCondition;
  if (e.kind == HazardKind::ExitedBeforeBarrier)
    return "keep every thread until the barrier at " + B + ": instead of returning at " + A +
           ", put the work under the opposite condition (if (i < n) { ... }), with the barrier after that if, where "
           "every thread reaches it";
  if (e.kind == HazardKind::WarpDivergence)
    return "lanes of one warp call different warp operations at " + A + " and " + B +
           ": call the warp operation from code every lane of its mask runs (outside the branch), or give each "
           "branch's call a mask of the lanes in that branch";
  switch (e.mask_problem) {
    case MaskProblem::LaneExited: return exited;
    case MaskProblem::LaneElsewhere:
      return reach + ": the mask at " + B + " names " + thread_text(e.thread_first) + ", which waits at " + A +
             " instead, so leave it out of the mask or call " + B + " where every lane of the mask gets";
    case MaskProblem::LaneNotInBlock:
      return "the mask at " + B + " names lane " + std::to_string(e.thread_first) +
             ", which the block does not have: a partial last warp needs a mask of its own lanes ((1u << lanes) - 1)";
    case MaskProblem::CallerNotInMask:
      return reach + ": build the mask at " + B + " from the lanes that call it (__activemask() there, or a "
             "__ballot_sync of the condition that leads to it)";
  }
  return reach;
}

}  // namespace

std::optional<std::vector<LoopSpan>> loops_seen(const Trace& t) {
  std::vector<LoopSpan> out;
  bool any_events = false;
  std::vector<LineId> last;  // each thread's last memory access's line in the step
  std::vector<uint8_t> last_wrote;  // ... and whether it wrote
  for (const LaunchTrace& launch : t.launches)
    for (const BlockTrace& block : launch.blocks)
      for (const StepTrace& step : block.steps) {
        last.assign(launch.block.count(), kNoLine);
        last_wrote.assign(launch.block.count(), 0);
        for (const Event& e : step.events) {
          if (!e.is_memory() || e.line == kNoLine || e.thread >= last.size()) continue;
          any_events = true;
          const LineId before = last[e.thread];
          const bool wrote = std::exchange(last_wrote[e.thread], uint8_t{e.is_write()}) != 0;
          last[e.thread] = e.line;
          if (before == kNoLine || (e.access_cells > 0 && e.access_part > 0)) continue;  // a wide access's later cell
          const SourceLine& from = LineTable::get(before);
          const SourceLine& to = LineTable::get(e.line);
          // Back, or one line again after its write: one line's reads and write (s[t] += s[t - d]) are
          // not a round, a read of it after the write is (a one-line loop body, an up-sweep's).
          const bool again = before == e.line && wrote && !e.is_write();
          if (from.file != to.file || from.function != to.function || (to.line >= from.line && !again)) continue;
          bool known = false;
          for (LoopSpan& l : out)
            if (l.file == to.file && l.function == to.function && l.first == to.line && l.last == from.line) known = true;
          if (!known) out.push_back({to.file, to.function, to.line, from.line});
        }
      }
  if (!any_events) return std::nullopt;
  return out;
}

std::vector<Diagnosis> diagnose(const std::vector<HazardGroup>& groups, const std::optional<std::vector<LoopSpan>>& loops) {
  const std::vector<LostUpdate> lost = find_lost_updates(groups);
  // A plain write's race with atomics, by the write's line: that line's own runs join its fix.
  std::map<LineId, const HazardEvent*> atomic_race_of_write;
  for (const HazardGroup& g : groups)
    if (is_race(g.first.kind))
      if (const LineId plain = plain_write_against_atomic(g.first); plain != kNoLine) atomic_race_of_write.emplace(plain, &g.first);
  std::vector<Diagnosis> out;
  std::map<std::tuple<int, LineId, LineId, bool, bool>, size_t> index;  // (array | -1, lines, cross, lost) -> out
  for (size_t k = 0; k < groups.size(); ++k) {
    const HazardEvent* event = &groups[k].first;
    if (is_one_place_problem(event->kind)) {
      const HazardEvent& e = *event;
      // One fix per kind of problem at one warp operation.
      const auto key = std::tuple{-2 - static_cast<int>(e.kind) * 8 - static_cast<int>(e.mask_problem), e.line_second,
                                  e.line_second, false, false};
      auto [at, inserted] = index.try_emplace(key, out.size());
      if (inserted) {
        Diagnosis d;
        d.first = e.line_first;
        d.second = e.line_second;
        d.same_warp = e.kind != HazardKind::ExitedBeforeBarrier && e.kind != HazardKind::BarrierDivergence;
        d.warp_call = true;
        d.text = e.kind == HazardKind::BarrierDivergence ? barrier_divergence_text(e) : warp_call_text(e);
        out.push_back(std::move(d));
      }
      out[at->second].reports.push_back(k);
      continue;
    }
    if (!is_race(event->kind) || event->line_first == kNoLine) continue;
    if (!event->cross_block && event->kind == HazardKind::WriteAfterWrite && event->line_first == event->line_second)
      if (auto atomic = atomic_race_of_write.find(event->line_first); atomic != atomic_race_of_write.end())
        event = atomic->second;
    const HazardEvent& e = *event;
    const auto update = e.unchanged_cell ? lost.end()
                                         : std::find_if(lost.begin(), lost.end(), [&](const LostUpdate& u) { return u.covers(e); });
    const auto key = update != lost.end() ? std::tuple{update->array, update->line, update->line, e.cross_block, true}
                                          : std::tuple{e.unchanged_cell ? -3 : -1, e.line_first, e.line_second, e.cross_block, false};
    auto [at, inserted] = index.try_emplace(key, out.size());
    if (inserted) {
      Diagnosis d;
      d.first = e.line_first;
      d.second = e.line_second;
      d.same_warp = e.same_warp && e.severity == Severity::Warning;
      d.cross_block = e.cross_block;
      if (e.unchanged_cell) {
        d.unchanged_cell = true;
        d.text = barrier_text(e, d.same_warp, loops);
      } else if (update != lost.end()) {
        d.lost_update = true;
        d.text = lost_update_text(*update, loops && in_one_loop(loops, update->line, update->line));
      } else if (const LineId plain = plain_write_against_atomic(e); plain != kNoLine) {
        d.atomic_write = true;
        d.text = atomic_write_text(e, plain);
      } else {
        d.splits_statement = !e.cross_block && e.line_first == e.line_second && e.kind == HazardKind::WriteAfterRead;
        d.text = barrier_text(e, d.same_warp, loops);
        // A line in a helper called from one place: the barrier goes by the call (and groups with the
        // caller's pairs).
        if (!e.cross_block) {
          if (const LineId via = call_reaching(e.line_first, e.line_second, false); via != kNoLine)
            d.first = via;
          else if (const LineId via_second = call_reaching(e.line_second, e.line_first, true); via_second != kNoLine)
            d.second = via_second;
        }
      }
      if (e.cross_block && e.unfenced_handover) d.text = unfenced_handover_text(e) + d.text;
      if (const LineId skipped = e.cross_block ? kNoLine : barrier_skipped_near(groups, e.launch, e.line_first); skipped != kNoLine)
        d.text += "; but first keep every thread at the barrier at " + LineTable::describe(skipped) +
                  ": threads that skip it run on into the next round's accesses, which may be all this race is";
      out.push_back(std::move(d));
    }
    out[at->second].reports.push_back(k);
  }
  return out;
}

namespace {

// Where one barrier could go: just after line `after` of one function. A pair (A, B) in that
// function is ordered by it when it lies between them: A <= after < B when A comes first in the
// source, and after >= A or after < B when the loop goes back from A to B. A pair A < B that lies
// inside such a loop (B' <= A < B <= A' for a wrapping pair A', B') may race across rounds rather
// than inside one: a missing barrier merged the rounds, and any barrier in the loop orders it. A
// pair that raced inside one round shows again, with its own fix, when the run is repeated with
// the barrier in place.
struct PairSpan {
  uint32_t a = 0, b = 0;
  LineId first = kNoLine, second = kNoLine;  // a's and b's lines
  std::optional<std::pair<uint32_t, uint32_t>> loop;  // a straight pair's enclosing wrapping pairs' span
  bool ordered_after(uint32_t after) const {
    // One line's runs: only a barrier inside a loop around it orders them (its next round's).
    if (a == b) return loop && loop->first <= after && after <= loop->second;
    if (a > b) return after >= a || after < b;
    if (a <= after && after < b) return true;
    return loop && loop->first <= after && after <= loop->second;
  }
};

std::string group_text(const std::vector<Diagnosis>& pairs, LineId after, LineId before, bool wraps) {
  bool same_warp = true;
  for (const Diagnosis& d : pairs) same_warp = same_warp && d.same_warp;
  const std::string barrier = same_warp ? "one __syncwarp() (or a barrier)" : "one barrier";
  const std::string A = LineTable::describe(after), B = LineTable::describe(before);
  const std::string where = wraps ? barrier + " after " + A + ", before " + B +
                                        " comes round again (" + goes_back(after) + "),"
                                  : barrier + " between " + A + " and " + B;
  return where + " would order " + (pairs.size() == 2 ? std::string("both") : "all " + std::to_string(pairs.size())) +
         " pairs of lines";
}

}  // namespace

std::vector<BarrierGroup> group_by_barrier(const Trace& t) { return group_by_barrier(t.hazards_across_launches(), loops_seen(t)); }

std::vector<BarrierGroup> group_by_barrier(const std::vector<HazardGroup>& groups, const std::optional<std::vector<LoopSpan>>& loops) {
  const std::vector<Diagnosis> fixes = diagnose(groups, loops);
  std::vector<BarrierGroup> out;
  std::vector<bool> placed(fixes.size(), false);
  for (size_t k = 0; k < fixes.size(); ++k)
    while (!placed[k]) {  // each round places at least one pair
      const Diagnosis& d = fixes[k];
      // Pairs one barrier could order: of one function, inside a block, a barrier's to fix.
      auto groupable = [](const Diagnosis& o) {
        return !o.cross_block && !o.lost_update && !o.splits_statement && !o.warp_call && !o.atomic_write && !o.unchanged_cell &&
               same_function(o.first, o.second);
      };
      std::vector<size_t> bucket;
      if (groupable(d))
        for (size_t j = k; j < fixes.size(); ++j)
          if (!placed[j] && groupable(fixes[j]) && same_function(fixes[j].first, d.first)) bucket.push_back(j);
      if (bucket.size() < 2) {
        placed[k] = true;
        out.push_back({d, {d}, d.reports});
        continue;  // placed: the loop moves on
      }
      std::vector<PairSpan> spans;
      for (size_t j : bucket) {
        PairSpan span{line_number(fixes[j].first), line_number(fixes[j].second), fixes[j].first, fixes[j].second, std::nullopt};
        // Later in the source first, outside any loop seen: one ran ahead; the barrier goes between them.
        if (span.a > span.b && !in_one_loop(loops, span.first, span.second))
          std::swap(span.a, span.b), std::swap(span.first, span.second);
        spans.push_back(span);
      }
      for (PairSpan& s : spans) {
        if (s.a > s.b) continue;
        for (const PairSpan& w : spans)
          if (w.a > w.b && w.b <= s.a && s.b <= w.a)
            s.loop = s.loop ? std::pair{std::min(s.loop->first, w.b), std::max(s.loop->second, w.a)} : std::pair{w.b, w.a};
      }
      // The place after one of the pairs' first lines that orders the most of them; on a tie the
      // later one (the end of a loop's round). It orders the pair whose line it is, unless that pair is
      // one line's runs outside any loop of the bucket: when nothing orders them all, each keeps its own fix.
      size_t best = 0, best_count = 0;
      for (size_t c = 0; c < spans.size(); ++c) {
        size_t count = 0;
        for (const PairSpan& s : spans) count += s.ordered_after(spans[c].a);
        if (count > best_count || (count == best_count && spans[c].a > spans[best].a)) best = c, best_count = count;
      }
      if (best_count == 0) {
        placed[k] = true;
        out.push_back({d, {d}, d.reports});
        continue;
      }
      const uint32_t after = spans[best].a;
      BarrierGroup g;
      std::optional<size_t> next_before, first_before;  // the span whose second line follows the barrier
      for (size_t s = 0; s < spans.size(); ++s) {
        if (!spans[s].ordered_after(after)) continue;
        const size_t j = bucket[s];
        placed[j] = true;
        g.pairs.push_back(fixes[j]);
        g.reports.insert(g.reports.end(), fixes[j].reports.begin(), fixes[j].reports.end());
        if (spans[s].b > after && (!next_before || spans[s].b < spans[*next_before].b)) next_before = s;
        if (!first_before || spans[s].b < spans[*first_before].b) first_before = s;
      }
      std::sort(g.reports.begin(), g.reports.end());
      if (g.pairs.size() == 1) {
        g.fix = g.pairs.front();
      } else {
        const bool wraps = !next_before;
        g.fix = g.pairs.front();
        g.fix.first = spans[best].first;
        g.fix.second = spans[wraps ? *first_before : *next_before].second;
        g.fix.same_warp = std::all_of(g.pairs.begin(), g.pairs.end(), [](const Diagnosis& p) { return p.same_warp; });
        g.fix.reports = g.reports;
        g.fix.text = group_text(g.pairs, g.fix.first, g.fix.second, wraps);
      }
      out.push_back(std::move(g));
    }
  return out;
}

}  // namespace syncscope::sim
