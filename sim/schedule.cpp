#include "sim/schedule.h"

#include <charconv>

namespace syncscope::sim {

std::string Schedule::name() const {
  switch (kind) {
    case ScheduleKind::Lockstep: return "lockstep";
    case ScheduleKind::Forward: return "forward";
    case ScheduleKind::Reverse: return "reverse";
    case ScheduleKind::Random: return "random:" + std::to_string(seed);
  }
  return "?";
}

std::optional<Schedule> Schedule::parse(std::string_view text, std::string* error) {
  if (text == "lockstep") return Schedule{ScheduleKind::Lockstep, 0};
  if (text == "forward") return Schedule{ScheduleKind::Forward, 0};
  if (text == "reverse") return Schedule{ScheduleKind::Reverse, 0};
  if (text.starts_with("random:")) {
    const std::string_view digits = text.substr(7);
    uint64_t seed = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), seed);
    if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size())
      return Schedule{ScheduleKind::Random, seed};
    if (error) *error = "random:SEED needs a whole number from 0 to 18446744073709551615 after 'random:'";
    return std::nullopt;
  }
  if (error) *error = "expected lockstep, forward, reverse or random:SEED";
  return std::nullopt;
}

}  // namespace syncscope::sim
