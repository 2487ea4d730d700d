#include "sim/trace.h"

#include <cstring>

namespace syncscope::sim {
namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T> void pod(const T& v) { bytes(&v, sizeof v); }
  void snapshot(const ArraySnapshot& s) {
    pod(s.array);
    bytes(s.bits.data(), s.bits.size() * sizeof(uint32_t));
    bytes(s.poison.data(), s.poison.size());
  }
};

}  // namespace

std::vector<HazardGroup> Trace::hazards_across_launches() const {
  return merge_launches(hazards.groups(), [this](int array) {
    if (array < 0 || array >= static_cast<int>(arrays.size())) return std::to_string(array);
    return arrays[array].name + (arrays[array].space == MemSpace::Shared ? "/shared" : "/global");
  });
}

uint64_t Trace::hash() const {
  Fnv f;
  for (const auto& s : globals_before) f.snapshot(s);
  for (const auto& l : launches) {
    f.pod(l.steps);
    for (const auto& b : l.blocks) {
      f.pod(b.block);
      for (const auto& s : b.steps) {
        // Lines are hashed by content, not by id, so the hash does not depend on interning order.
        const std::string where = LineTable::describe(s.barrier);
        f.bytes(where.data(), where.size());
        for (const auto& e : s.events) {
          const uint8_t head[4] = {static_cast<uint8_t>(e.kind), e.flags, static_cast<uint8_t>(e.thread),
                                   static_cast<uint8_t>(e.thread >> 8)};
          f.bytes(head, sizeof head);
          f.pod(LineTable::get(e.line).line);
          f.pod(e.array);
          f.pod(e.index);
          f.pod(e.old_bits);
          f.pod(e.value_bits);
        }
        for (const auto& sh : s.shared) f.snapshot(sh);
        for (const auto& p : s.printed) {
          f.pod(p.thread);
          f.pod(LineTable::get(p.line).line);
          f.bytes(p.text.data(), p.text.size());
        }
        f.pod(s.printed_dropped);
      }
    }
    for (const auto& s : l.globals_after) f.snapshot(s);
  }
  return f.h;
}

}  // namespace syncscope::sim
