#include "sim/hazards.h"

#include <algorithm>

namespace syncscope::sim {

std::string_view to_string(HazardKind k) {
  switch (k) {
    case HazardKind::ReadAfterWrite: return "RAW";
    case HazardKind::WriteAfterRead: return "WAR";
    case HazardKind::WriteAfterWrite: return "WAW";
    case HazardKind::OutOfBounds: return "out-of-bounds";
    case HazardKind::UninitializedRead: return "uninitialized";
    case HazardKind::BarrierDivergence: return "barrier-divergence";
    case HazardKind::WarpDivergence: return "warp-divergence";
    case HazardKind::ExitedLane: return "exited-lane";
    case HazardKind::InactiveMaskLane: return "inactive-mask-lane";
    case HazardKind::ExitedBeforeBarrier: return "exited-before-barrier";
  }
  return "?";
}

std::string_view to_string(Severity s) { return s == Severity::Error ? "error" : "warning"; }

namespace {

// Adds v to an ascending list of distinct values that keeps its `limit` smallest, so the list is
// the same whatever order events and workers' logs arrive in. False when v is listed already.
bool list_smallest(std::vector<int>& list, int v, size_t limit) {
  const auto at = std::lower_bound(list.begin(), list.end(), v);
  if (at != list.end() && *at == v) return false;
  if (list.size() < limit || at != list.end()) {
    list.insert(at, v);
    if (list.size() > limit) list.pop_back();
  }
  return true;
}

int last_launch_of(const HazardGroup& g) { return g.launches > 1 ? g.last_launch : g.first.launch; }

}  // namespace

std::vector<HazardGroup> merge_launches(const std::vector<HazardGroup>& groups,
                                        const std::function<std::string(int array)>& identity) {
  std::vector<HazardGroup> out;
  std::map<std::tuple<int, int, std::string, LineId, LineId, int, int>, size_t> index;
  for (const HazardGroup& g : groups) {
    const HazardEvent& e = g.first;
    // Whatever its words say: a read or a write, atomics, one warp or one block.
    const int said = e.cross_block | e.same_warp << 1 | e.second_is_write << 2 | e.first_atomic << 3 | e.second_atomic << 4 |
                     e.through_atomics << 5 | e.read_of_atomics << 6 | e.unchanged_cell << 7;
    const auto key = std::tuple{static_cast<int>(e.kind), static_cast<int>(e.severity), identity(e.array), e.line_first,
                                e.line_second, static_cast<int>(e.mask_problem), said};
    auto [at, inserted] = index.try_emplace(key, out.size());
    if (inserted) {
      out.push_back(g);
      continue;
    }
    HazardGroup& mine = out[at->second];
    if (e.launch != mine.first.launch && e.launch != mine.last_launch) {
      mine.launches += g.launches;
      mine.last_launch = std::max(mine.last_launch, last_launch_of(g));
    }
    mine.count += g.count;
    for (int i : g.indices) list_smallest(mine.indices, i, HazardGroup::kMaxIndicesListed);
    for (int b : g.blocks) list_smallest(mine.blocks, b, HazardGroup::kMaxBlocksListed);
    mine.block_count = std::max(mine.block_count, g.block_count);  // the same blocks, launch after launch
    mine.all_same_value = mine.all_same_value && g.all_same_value;
  }
  return out;
}

HazardLog::Key HazardLog::key_of(const HazardEvent& e) {
  return {static_cast<int>(e.kind), static_cast<int>(e.severity), e.array,
          (e.cross_block ? 1 : 0) | (e.second_is_write ? 2 : 0) | (e.unchanged_cell ? 4 : 0) |
              (static_cast<int>(e.mask_problem) << 3),
          e.line_first,
          e.line_second};
}

HazardLog::HazardLog() = default;
HazardLog::~HazardLog() = default;
HazardLog::HazardLog(const HazardLog&) = default;
HazardLog::HazardLog(HazardLog&&) noexcept = default;
HazardLog& HazardLog::operator=(const HazardLog&) = default;
HazardLog& HazardLog::operator=(HazardLog&&) noexcept = default;

void HazardLog::clear() { groups_.clear(); }

void HazardLog::add_group(const HazardGroup& g) {
  HazardLog one;
  one.groups_.emplace(key_of(g.first), g);
  merge(one);
}

void HazardLog::add(const HazardEvent& e) {
  auto [it, inserted] = groups_.try_emplace(key_of(e));
  HazardGroup& g = it->second;
  if (inserted) g.first = e;
  g.all_same_value = (inserted || g.all_same_value) && e.same_value;
  ++g.count;
  list_smallest(g.indices, e.index, HazardGroup::kMaxIndicesListed);
  // Blocks arrive in ascending order per launch, so one not listed is new: counted even past the
  // listed few.
  if (list_smallest(g.blocks, e.block, HazardGroup::kMaxBlocksListed)) ++g.block_count;
}

void HazardLog::merge(const HazardLog& other, bool cross_block_only) { merge(other, cross_block_only, false); }

void HazardLog::merge_launch(const HazardLog& launch) { merge(launch, false, true); }

void HazardLog::merge(const HazardLog& other, bool cross_block_only, bool other_launch) {
  for (const auto& [key, g] : other.groups_) {
    if (cross_block_only && !g.first.cross_block) continue;
    auto [it, inserted] = groups_.try_emplace(key, g);
    if (inserted) continue;
    HazardGroup& mine = it->second;
    // A global array's race that launch after launch repeats is one group: it names its launches.
    if (other_launch) {
      mine.last_launch = std::max(last_launch_of(mine), last_launch_of(g));
      mine.launches += g.launches;
    }
    // Deterministic whatever order workers merge in: the earliest occurrence is "first".
    if (std::tie(g.first.launch, g.first.block, g.first.step) < std::tie(mine.first.launch, mine.first.block, mine.first.step))
      mine.first = g.first;
    mine.count += g.count;
    mine.all_same_value = mine.all_same_value && g.all_same_value;
    for (int i : g.indices) list_smallest(mine.indices, i, HazardGroup::kMaxIndicesListed);
    for (int b : g.blocks) list_smallest(mine.blocks, b, HazardGroup::kMaxBlocksListed);
    mine.block_count = other_launch ? std::max(mine.block_count, g.block_count) : mine.block_count + g.block_count;
  }
}

void HazardLog::add_missing(const HazardLog& other) {
  for (const auto& [key, g] : other.groups_) groups_.try_emplace(key, g);
}

void HazardLog::soften_cross_block(const std::function<bool(const HazardGroup&)>& ordered) {
  HazardLog softened;
  for (auto it = groups_.begin(); it != groups_.end();) {
    const HazardEvent& e = it->second.first;
    const bool race = e.kind == HazardKind::ReadAfterWrite || e.kind == HazardKind::WriteAfterRead ||
                      e.kind == HazardKind::WriteAfterWrite;
    if (!race || !e.cross_block || e.severity != Severity::Error || !ordered(it->second)) {
      ++it;
      continue;
    }
    HazardGroup g = it->second;
    g.first.severity = Severity::Warning;
    g.first.through_atomics = true;
    softened.groups_.emplace(key_of(g.first), g);
    it = groups_.erase(it);
  }
  merge(softened);
}

void HazardLog::note_unfenced_handovers(const std::function<bool(const HazardGroup&)>& unfenced) {
  for (auto& [key, g] : groups_)
    if (g.first.cross_block && g.first.severity == Severity::Error && unfenced(g)) g.first.unfenced_handover = true;
}

namespace {

// The read of a race with a write at `write` may be that write's own read-modify-write: on its line,
// or before it in the same function (`int v = hist[b]; hist[b] = v + 1;`), not a later consumer.
bool may_read_for_the_write(LineId read, LineId write) {
  const SourceLine& r = LineTable::get(read);
  const SourceLine& w = LineTable::get(write);
  return read == write || r.file != w.file || r.function != w.function || r.line <= w.line;
}

}  // namespace

// Threads that all store the value a cell holds (`*changed = 1`, a BFS's `cost[v] = level + 1`) leave
// it the same whatever their order: no hazard, as compute-sanitizer's racecheck has it. Unless the
// write's line also races as a read-modify-write of those cells (`hist[b]++`, whose lanes' second
// writes store what the first stored: a lost update, which the WAW tells apart). A read that only
// comes after the stores (`flag = 1;` ... `result = flag;` with no barrier between) is a race of
// its own, which leaves the stores no hazard.
bool HazardLog::benign(const HazardGroup& g) const {
  const HazardEvent& w = g.first;
  if (w.kind != HazardKind::WriteAfterWrite || !g.all_same_value) return false;
  for (const auto& [key, other] : groups_) {
    const HazardEvent& e = other.first;
    if (e.array != w.array || (e.kind != HazardKind::ReadAfterWrite && e.kind != HazardKind::WriteAfterRead) ||
        e.unchanged_cell)
      continue;
    const LineId read = e.kind == HazardKind::ReadAfterWrite ? e.line_second : e.line_first;
    const LineId write = e.kind == HazardKind::ReadAfterWrite ? e.line_first : e.line_second;
    if (write == w.line_second && may_read_for_the_write(read, write)) return false;
  }
  return true;
}

std::vector<HazardGroup> HazardLog::groups() const {
  std::vector<HazardGroup> out;
  out.reserve(groups_.size());
  for (const auto& [key, g] : groups_)
    if (!benign(g)) out.push_back(g);
  std::stable_sort(out.begin(), out.end(), [](const HazardGroup& a, const HazardGroup& b) {
    if (a.first.severity != b.first.severity) return a.first.severity == Severity::Error;
    return std::tie(a.first.launch, a.first.step, a.first.block) <
           std::tie(b.first.launch, b.first.step, b.first.block);
  });
  return out;
}

uint64_t HazardLog::total() const {
  uint64_t n = 0;
  for (const auto& [key, g] : groups_)
    if (!benign(g)) n += g.count;
  return n;
}

}  // namespace syncscope::sim
