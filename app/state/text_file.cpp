#include "app/state/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace syncscope::app {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO, not a file";
  if (S_ISSOCK(mode)) return "is a socket, not a file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a file";
  return nullptr;
}

std::string megabytes(size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

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
  auto refused = [&](const std::string& why) { return Result(std::in_place_index<1>, path + ": " + why); };
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) return refused(std::string("cannot open (") + std::strerror(errno) + ")");
  if (const char* kind = kind_of(before.st_mode)) return refused(kind);
  if (static_cast<size_t>(before.st_size) > max_bytes)
    return refused("is " + megabytes(static_cast<size_t>(before.st_size)) + "; at most " + megabytes(max_bytes) + " is read");
  // O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return refused(std::string("cannot open (") + std::strerror(errno) + ")");
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || kind_of(opened.st_mode)) {
    ::close(fd);
    return refused(opened.st_mode ? kind_of(opened.st_mode) : "cannot be examined");
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return refused("cannot read (" + why + ")");
    }
    if (got == 0) break;
    text.append(buffer, static_cast<size_t>(got));
    if (text.size() > max_bytes) {  // it grew since the stat
      ::close(fd);
      return refused("is larger than " + megabytes(max_bytes));
    }
  }
  ::close(fd);
  if (const size_t bad = first_binary_byte(text); bad != std::string::npos)
    return refused("binary data at byte " + std::to_string(bad + 1) + ", not text");
  return Result(std::in_place_index<0>, std::move(text));
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
