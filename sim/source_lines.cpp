#include "sim/source_lines.h"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "sim/fault_guard.h"

namespace syncscope::sim {
namespace {

struct Table {
  std::mutex mutex;
  std::map<std::pair<std::string, uint32_t>, LineId> ids;
  // Fixed capacity so that published entries never move while other threads read them.
  std::unique_ptr<SourceLine[]> lines{new SourceLine[65536]};
  uint32_t size = 1;  // id 0 is "no line"
};

Table& table() {
  static Table t;
  return t;
}

}  // namespace

LineId LineTable::intern_slow(const char* file, uint32_t line, const char* function) {
  const RuntimeSection runtime(running_fiber_runtime_depth());  // a lock and an allocation: never left halfway
  Table& t = table();
  std::lock_guard lock(t.mutex);
  auto key = std::make_pair(std::string(file), line);
  if (auto it = t.ids.find(key); it != t.ids.end()) return it->second;
  if (t.size >= 65536) throw std::length_error("more than 65535 distinct kernel source lines");
  const LineId id = static_cast<LineId>(t.size++);
  t.lines[id] = SourceLine{key.first, line, function};
  t.ids.emplace(std::move(key), id);
  return id;
}

const SourceLine& LineTable::get(LineId id) { return table().lines[id]; }

uint32_t LineTable::size() {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  return t.size;
}

std::string LineTable::describe(LineId id) {
  if (id == kNoLine) return "?";
  const SourceLine& l = get(id);
  return l.file + ":" + std::to_string(l.line);
}

LineId LineTable::find(const std::string& file, uint32_t line) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  auto it = t.ids.find({file, line});
  return it == t.ids.end() ? kNoLine : it->second;
}

}  // namespace syncscope::sim
