// The rules every label of the app is shortened and wrapped by (see step_layout.h).
#include <string>
#include <vector>

#include "app/view/step_layout.h"

namespace syncscope::app {

std::string fit_text(const std::string& text, float room, const TextMetrics& metrics) {
  if (metrics.width(text) <= room) return text;
  // Cut at a character boundary (UTF-8 continuation bytes stay with their lead byte).
  const std::string ellipsis = "…";
  size_t keep = text.size();
  while (keep > 0) {
    --keep;
    while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
    std::string shown = text.substr(0, keep) + ellipsis;
    if (metrics.width(shown) <= room) return keep == 0 ? std::string() : shown;
  }
  return {};
}

std::vector<std::string> wrap_at_spaces(const std::string& text, float room, const TextMetrics& metrics) {
  std::vector<std::string> lines;
  std::string line;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at + 1);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);  // with the space before it
    if (!line.empty() && metrics.width(line + word) > room) {
      lines.push_back(line);
      const size_t first = word.find_first_not_of(' ');
      line = word.substr(first == std::string::npos ? word.size() : first);
    } else {
      line += word;
    }
    at = end;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace syncscope::app
