// Reading a file the app keeps for the user (a scenario, the window layout) without trusting it: a
// directory, a FIFO (which would block the start forever), a device, a file too large to be one of
// ours, binary data or an unreadable file each get a message naming the file and what it is.
#pragma once

#include <cstddef>
#include <string>
#include <variant>

namespace syncscope::app {

inline constexpr size_t kMaxStateFileBytes = 10u << 20;  // 10 MB: far beyond any scenario or layout

// The file's text, or why not: "PATH: is a directory", "PATH: is a FIFO, not a file",
// "PATH: is 12.5 MB; at most 10 MB", "PATH: binary data at byte 17, not text", "PATH: cannot open (...)".
std::variant<std::string, std::string> read_text_file(const std::string& path, size_t max_bytes = kMaxStateFileBytes);

// Dear ImGui's layout file: every line a [section] header, a key=value setting, or empty. The
// line that is neither is named.
std::variant<std::string, std::string> read_layout_file(const std::string& path);

}  // namespace syncscope::app
