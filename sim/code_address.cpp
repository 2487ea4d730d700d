#include "sim/code_address.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace syncscope::sim {

namespace {

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string describe_code_address(uintptr_t pc) {
  if (pc == 0) return "";
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc), &info) == 0 || !info.dli_fname || !info.dli_fbase) return "";
  std::string object = info.dli_fname;
  if (object.empty()) object = "/proc/self/exe";
  // Position-independent objects: addr2line wants the offset from where the object was loaded.
  const uintptr_t offset = pc - reinterpret_cast<uintptr_t>(info.dli_fbase);
  char address[32];
  std::snprintf(address, sizeof address, "0x%zx", static_cast<size_t>(offset));
  // -i: the chain of inlined calls, innermost first. The kernel API is inlined into the kernel, so
  // the line wanted is the first one outside the simulator's own headers and the standard library.
  const std::string command = "addr2line -i -e " + shell_quoted(object) + " " + address + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "";
  std::vector<std::string> frames;
  std::array<char, 4096> line{};
  while (std::fgets(line.data(), line.size(), pipe)) {
    std::string where = line.data();
    if (const size_t cut = where.find_first_of(" \n"); cut != std::string::npos) where.resize(cut);  // " (discriminator 2)"
    if (where.empty() || where[0] == '?' || where.ends_with(":0") || where.ends_with(":?")) continue;
    frames.push_back(std::move(where));
  }
  pclose(pipe);
  if (frames.empty()) return "";
  auto runtime = [](const std::string& f) {
    return f.find("/sim/") != std::string::npos || f.find("/contract/") != std::string::npos || f.rfind("/usr/", 0) == 0;
  };
  auto kernel = std::find_if(frames.begin(), frames.end(), [&](const std::string& f) { return !runtime(f); });
  std::string where = kernel != frames.end() ? *kernel : frames.front();
  if (const size_t slash = where.rfind('/'); slash != std::string::npos) where.erase(0, slash + 1);
  return where;
}

}  // namespace syncscope::sim
