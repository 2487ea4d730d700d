#include "core/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace syncscope {

std::optional<std::string> not_a_regular_file(unsigned mode) {
  if (S_ISREG(mode)) return std::nullopt;
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO, not a file";
  if (S_ISSOCK(mode)) return "is a socket, not a file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a file";
  return "is not a regular file";
}

std::variant<int, std::string> open_regular_file(const std::string& path) {
  using Result = std::variant<int, std::string>;
  auto refused = [](const std::string& why) { return Result(std::in_place_index<1>, why); };
  auto os_error = [](const char* what) { return std::string(what) + " (" + std::strerror(errno) + ")"; };
  struct stat before {};
  // Examined first, so a device is never opened at all (opening one can have effects).
  if (::stat(path.c_str(), &before) != 0) return refused(os_error("cannot open"));
  if (auto kind = not_a_regular_file(before.st_mode)) return refused(*kind);
  // O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return refused(os_error("cannot open"));
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) {
    const std::string why = os_error("cannot be examined");
    ::close(fd);
    return refused(why);
  }
  if (auto kind = not_a_regular_file(opened.st_mode)) {
    ::close(fd);
    return refused(*kind);
  }
  return Result(std::in_place_index<0>, fd);
}

std::string megabytes(size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

std::variant<std::string, std::string> read_regular_file(const std::string& path, size_t max_bytes) {
  using Result = std::variant<std::string, std::string>;
  auto refused = [](const std::string& why) { return Result(std::in_place_index<1>, why); };
  auto opened = open_regular_file(path);
  if (opened.index() == 1) return refused(std::get<1>(opened));
  const int fd = std::get<0>(opened);
  struct stat info {};
  if (::fstat(fd, &info) == 0 && static_cast<size_t>(info.st_size) > max_bytes) {
    ::close(fd);
    return refused("is " + megabytes(static_cast<size_t>(info.st_size)) + "; at most " + megabytes(max_bytes) + " is read");
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const std::string why = std::string("cannot read (") + std::strerror(errno) + ")";
      ::close(fd);
      return refused(why);
    }
    if (got == 0) break;
    text.append(buffer, static_cast<size_t>(got));
    if (text.size() > max_bytes) {  // it grew since the fstat, or says 0 bytes as /proc's files do
      ::close(fd);
      return refused("is larger than " + megabytes(max_bytes) + "; at most that is read");
    }
  }
  ::close(fd);
  return Result(std::in_place_index<0>, std::move(text));
}

}  // namespace syncscope
