#include "sim/source_lines.h"

#include <algorithm>
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
  std::vector<LineTable::Call> calls;  // each once
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

void LineTable::set_calls(const std::string& file, const std::vector<Call>& calls) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  std::erase_if(t.calls, [&](const Call& c) { return c.file == file; });
  for (const Call& c : calls)
    if (c.file == file && std::find(t.calls.begin(), t.calls.end(), c) == t.calls.end()) t.calls.push_back(c);
}

std::vector<LineTable::Call> LineTable::calls() {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  return t.calls;
}

std::vector<LineTable::Call> LineTable::calls_into(const std::string& file, uint32_t line) {
  std::vector<Call> out;
  for (Call& c : calls())
    if (c.file == file && c.callee_first <= line && line <= c.callee_last) out.push_back(std::move(c));
  std::sort(out.begin(), out.end(), [](const Call& x, const Call& y) { return x.line < y.line; });
  return out;
}

}  // namespace syncscope::sim
