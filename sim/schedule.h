// The order in which simulated threads of a block interleave between two barriers.
//   lockstep  lanes of a warp advance one memory access at a time, round-robin (the SIMT order that
//             makes many racy kernels look right on a GPU); warps one after another
//   forward   thread 0 runs until it blocks (barrier, warp operation, exit), then thread 1, ...
//   reverse   the highest thread first
//   random:S  a random runnable thread for each memory access, from seed S
// Blocks of a launch run one after another: in order (lockstep, forward), last first (reverse) or
// shuffled (random:S).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace syncscope::sim {

enum class ScheduleKind : uint8_t { Lockstep, Forward, Reverse, Random };

struct Schedule {
  ScheduleKind kind = ScheduleKind::Lockstep;
  uint64_t seed = 0;

  // Schedules that switch threads at every memory access rather than only where a thread blocks.
  bool switches_at_each_access() const {
    return kind == ScheduleKind::Lockstep || kind == ScheduleKind::Random;
  }
  std::string name() const;
  // nullopt and *error set when the text is not a schedule.
  static std::optional<Schedule> parse(std::string_view text, std::string* error);
  bool operator==(const Schedule&) const = default;
};

}  // namespace syncscope::sim
