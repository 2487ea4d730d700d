#include "app/state/text_file.h"

#include <sstream>

#include "core/regular_file.h"

namespace syncscope::app {

namespace {

// The first byte that cannot be in UTF-8 text (a NUL, a control character other than tab, CR and
// LF, or a malformed sequence), or npos.
size_t first_binary_byte(const std::string& text) {
  for (size_t k = 0; k < text.size();) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return k;
      ++k;
      continue;
    }
    const int more = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (more < 0) return k;
    for (int m = 1; m <= more; ++m)
      if (k + m >= text.size() || (static_cast<unsigned char>(text[k + m]) & 0xC0) != 0x80) return k;
    k += static_cast<size_t>(more) + 1;
  }
  return std::string::npos;
}

}  // namespace

std::variant<std::string, std::string> read_text_file(const std::string& path, size_t max_bytes) {
  using Result = std::variant<std::string, std::string>;
  auto read = read_regular_file(path, max_bytes);
  if (read.index() == 1) return Result(std::in_place_index<1>, path + ": " + std::get<1>(read));
  const std::string& text = std::get<0>(read);
  if (const size_t bad = first_binary_byte(text); bad != std::string::npos)
    return Result(std::in_place_index<1>, path + ": binary data at byte " + std::to_string(bad + 1) + ", not text");
  return read;
}

std::variant<std::string, std::string> read_layout_file(const std::string& path) {
  auto read = read_text_file(path);
  if (read.index() == 1) return read;
  std::istringstream lines(std::get<0>(read));
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == ';' || (line[0] == '[' && line.find(']') != std::string::npos) ||
        (line[0] != '[' && line.find('=') != std::string::npos))
      continue;
    return std::variant<std::string, std::string>(
        std::in_place_index<1>, path + ": line " + std::to_string(number) + " is neither a [section] nor a key=value setting");
  }
  return read;
}

}  // namespace syncscope::app
