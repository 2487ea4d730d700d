// Today's date in UTC, YYYY-MM-DD: the date saved results and recordings are labelled with.
#pragma once

#include <chrono>
#include <ctime>
#include <string>

namespace syncscope {

inline std::string utc_date() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
  return text;
}

}  // namespace syncscope
