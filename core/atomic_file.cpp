#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace syncscope {
namespace {

// A name no other writer of this process or another uses: the target's, hidden, with the process
// and a counter.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path target(path);
  const std::filesystem::path folder = target.parent_path();
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  return (folder / name).string();
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) return false;
    if (wrote == 0) {  // no progress and no error: treat as a full disk rather than loop
      errno = ENOSPC;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(wrote));
  }
  return true;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view bytes) {
  auto failed = [&](const char* what) { return path + ": " + what + " (" + std::strerror(errno) + ")"; };
  if (path.empty()) return std::string("no file name given");
  const std::string temp = temporary_name(path);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return failed("cannot write");
  auto give_up = [&](const char* what) {
    const std::string why = failed(what);
    ::close(fd);
    ::unlink(temp.c_str());
    return why;
  };
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode)) ::fchmod(fd, old.st_mode & 07777);
  if (!write_all(fd, bytes)) return give_up("cannot write");
  if (::fsync(fd) != 0) return give_up("cannot write");
  if (::close(fd) != 0) {
    const std::string why = failed("cannot write");
    ::unlink(temp.c_str());
    return why;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = failed("cannot replace");
    ::unlink(temp.c_str());
    return why;
  }
  return std::nullopt;
}

}  // namespace syncscope
