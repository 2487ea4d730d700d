#include "core/kernel_cache.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/regular_file.h"

namespace syncscope {

namespace {

namespace fs = std::filesystem;

// mkdir with mode 0700 (whatever the umask), leaving an existing folder as it is.
std::string make_private_folder(const fs::path& dir) {
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return "cannot create " + dir.string() + ": " + std::strerror(errno);
  return "";
}

// Whether the process that made `name` ("build-…-PID", "…tmpPID") is gone.
bool maker_gone(const std::string& name) {
  size_t end = name.size(), start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1]))) --start;
  if (start == end) return false;
  const long pid = std::strtol(name.c_str() + start, nullptr, 10);
  return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

std::string untrusted_because(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0) return "cannot inspect " + path + ": " + std::strerror(errno);
  if (S_ISLNK(info.st_mode)) return path + " is a symbolic link";
  if (info.st_uid != geteuid())
    return path + " belongs to user " + std::to_string(info.st_uid) + ", not to you (" + std::to_string(geteuid()) + ")";
  if (info.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%03o", static_cast<unsigned>(info.st_mode & 0777));
    return path + " is writable by others (mode " + mode + ")";
  }
  return "";
}

std::string kernel_cache_path() {
  if (const char* own = std::getenv("SYNCSCOPE_CACHE_DIR"); own && *own) return own;
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = fs::path(home) / ".cache";
  if (base.empty()) {
    // No home of the user's: a folder of this process's own, never a guessable shared path.
    static const std::string mine = [] {
      std::string pattern = (fs::temp_directory_path() / "syncscope-XXXXXX").string();
      return mkdtemp(pattern.data()) ? pattern : std::string();
    }();
    return (fs::path(mine) / "kernels").string();
  }
  return (base / "syncscope" / "kernels").string();
}

std::variant<std::string, std::string> trusted_kernel_cache() {
  const fs::path cache = kernel_cache_path();
  // Ours: <base>/syncscope/kernels, both made here; an override (SYNCSCOPE_CACHE_DIR) is one folder.
  const char* own = std::getenv("SYNCSCOPE_CACHE_DIR");
  std::vector<fs::path> folders = {cache};
  if (!own || !*own) folders.insert(folders.begin(), cache.parent_path());
  std::error_code ec;
  fs::create_directories(folders.front().parent_path(), ec);
  for (const fs::path& dir : folders) {
    std::string why = make_private_folder(dir);
    if (why.empty()) why = untrusted_because(dir.string());
    if (!why.empty())
      return std::variant<std::string, std::string>(
          std::in_place_index<1>, "the kernel cache cannot be trusted: " + why +
                                      " (syncscope loads compiled kernels only from folders that are yours alone; "
                                      "`chmod 700` it or remove it)");
  }
  return std::variant<std::string, std::string>(std::in_place_index<0>, cache.string());
}

void remove_stale_builds(const std::string& cache) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cache, ec)) {
    const std::string name = entry.path().filename().string();
    const bool scratch = name.rfind("build-", 0) == 0 || name.rfind("gpu-build-", 0) == 0 || name.find(".tmp") != std::string::npos;
    if (scratch && maker_gone(name)) fs::remove_all(entry.path(), ec);
  }
}

std::variant<KernelText, std::string> read_kernel_text(const std::string& path_text) {
  using Result = std::variant<KernelText, std::string>;
  std::error_code ec;
  const fs::path path = fs::absolute(path_text, ec);
  auto read = read_regular_file(path.string(), kMaxKernelFileBytes);
  if (read.index() == 1) return Result(std::in_place_index<1>, "--kernel " + path_text + ": " + std::get<1>(read));
  std::string& text = std::get<0>(read);
  // Text: no NUL byte, and UTF-8 (a continuation byte only after a lead byte that asks for it).
  int line = 1, continuation = 0;
  for (unsigned char c : text) {
    const bool bad = c == 0 || (continuation > 0 ? (c & 0xC0) != 0x80 : (c & 0xC0) == 0x80 || c >= 0xF8);
    if (bad)
      return Result(std::in_place_index<1>, path.string() + ":" + std::to_string(line) + ": " +
                                                (c == 0 ? "a NUL byte" : "a byte that is not UTF-8") +
                                                ": a kernel file is text (is this the right file?)");
    if (continuation > 0) --continuation;
    else if (c >= 0xF0) continuation = 3;
    else if (c >= 0xE0) continuation = 2;
    else if (c >= 0xC0) continuation = 1;
    if (c == '\n') ++line;
  }
  if (continuation > 0)
    return Result(std::in_place_index<1>, path.string() + ":" + std::to_string(line) + ": the file ends inside a UTF-8 character");
  return KernelText{path.string(), std::move(text)};
}

uint64_t fnv1a(const std::string& text, uint64_t h) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string c_string_literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string hex(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(v));
  return text;
}

}  // namespace syncscope
