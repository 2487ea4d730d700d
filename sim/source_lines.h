// Source lines of kernel accesses and barriers, interned to 16-bit ids so events and shadow memory
// stay small. File names are repository-relative ("kernels/kogge_stone.h") because the build maps
// the source root away (-ffile-prefix-map).
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include "sim/source_location.h"
#include <string>
#include <vector>

namespace syncscope::sim {

using LineId = uint16_t;
inline constexpr LineId kNoLine = 0;

struct SourceLine {
  std::string file;
  uint32_t line = 0;
  std::string function;
};

// Process-wide table; ids are stable for the life of the process.
class LineTable {
 public:
  [[gnu::always_inline]] static LineId intern(const SourceLocation& loc) {
    // A kernel touches a handful of lines millions of times. libstdc++'s source_location is one
    // pointer to static data per call site; a direct-mapped cache of (pointer, id) words answers
    // without locks (each slot is one atomic word, so readers never see half an entry).
#if !defined(__cpp_lib_source_location)
    return intern_slow(loc.file_name(), loc.line(), loc.function_name());  // the stand-in (sim/source_location.h): no cache
#else
    static_assert(sizeof(SourceLocation) == sizeof(uintptr_t));
    const auto key = std::bit_cast<uintptr_t>(loc);
    std::atomic<uint64_t>& slot = cache_[(key >> 4) & (kCacheSlots - 1)];
    const uint64_t entry = slot.load(std::memory_order_relaxed);
    if ((entry >> 16) == (key & 0xffffffffffffull) && (entry & 0xffff) != kNoLine) return static_cast<LineId>(entry & 0xffff);
    const LineId id = intern_slow(loc.file_name(), loc.line(), loc.function_name());
    slot.store(((key & 0xffffffffffffull) << 16) | id, std::memory_order_relaxed);
    return id;
#endif
  }
  static const SourceLine& get(LineId id);
  // "kernels/kogge_stone.h:21", or "?" for kNoLine.
  static std::string describe(LineId id);
  // Looks a line up without interning it; kNoLine when it was never seen.
  static LineId find(const std::string& file, uint32_t line);
  // A line another process named (the kernel worker's, core/worker/): its id in this one.
  static LineId intern(const std::string& file, uint32_t line, const std::string& function) {
    return intern_slow(file.c_str(), line, function.c_str());
  }
  // Ids in use are 1 .. size() - 1.
  static uint32_t size();
  // Where a translated .cu calls its __device__ helpers. Reports name a helper's line by its call
  // (sim/remedies.cpp). Not interned: a call's line may have no access of its own. A function is
  // known by the lines it spans (overloads share a name).
  struct Call {
    std::string file;
    uint32_t line = 0;
    std::string callee;  // its plain name, as the student wrote it
    uint32_t caller_first = 0, caller_last = 0, callee_first = 0, callee_last = 0;
    bool operator==(const Call&) const = default;
  };
  // The calls of one file, in place of what it had (a file edited and run again has new ones).
  static void set_calls(const std::string& file, const std::vector<Call>& calls);
  static std::vector<Call> calls();
  // The calls of the function whose lines span `line` of `file`, by line.
  static std::vector<Call> calls_into(const std::string& file, uint32_t line);

 private:
  static LineId intern_slow(const char* file, uint32_t line, const char* function);
  static constexpr size_t kCacheSlots = 1024;
  static inline std::atomic<uint64_t> cache_[kCacheSlots] = {};
};

}  // namespace syncscope::sim
