// One event per thing a simulated thread does that another thread could observe: memory accesses,
// barriers, warp operations, exit. Observers (trace recorder, counters, hazard detector) read them.
#pragma once

#include <cstdint>

#include "contract/warp_ops.h"
#include "sim/source_lines.h"

namespace syncscope::sim {

enum class EventKind : uint8_t {
  SharedRead,
  SharedWrite,
  GlobalRead,
  GlobalWrite,
  Barrier,
  WarpSync,
  Shuffle,
  Exit,
  WarpVote,  // votes, reductions, matches and active_mask (contract/warp_ops.h): `array` holds the WarpOp, value_bits the result
  Fence,     // __threadfence(): ordering only, no value
};

using syncscope::WarpKind;
using syncscope::WarpOp;  // contract/warp_ops.h: the table of warp operations

// The event a warp operation of this kind records.
constexpr EventKind event_kind_of(WarpOp op) {
  switch (warp_op_info(op).kind) {
    case WarpKind::Shuffle: return EventKind::Shuffle;
    case WarpKind::Sync: return EventKind::WarpSync;
    default: return EventKind::WarpVote;
  }
}

// Read-modify-write operations on one cell (atomicAdd, ...). An atomic is recorded as a write event
// with kAtomic set, its old value in old_bits and what it stored in value_bits.
enum class AtomicOp : uint8_t { None, Add, Min, Max, Exch, Cas };

enum EventFlag : uint8_t {
  kValuePoison = 1,     // the value read or written derives from poison (shown as ?)
  kOldPoison = 2,       // a write replaced a poison cell
  kOutOfBounds = 4,     // index outside the array: the access did not touch memory
  kRacy = 8,            // the access is one side of a data race
  kOwnValue = 16,       // shuffle: the lane kept its own value (source lane out of range)
  kRaceInOneWarp = 32,  // with kRacy: every race this access completed is between lanes of one warp (a warning)
  kAtomic = 64,         // a write event that is an atomic read-modify-write (Event::atomic says which)
  kWarpInstructionStart = 128,  // lockstep: the first event of a warp instruction (the lanes' accesses that follow,
                                // up to the next such event, were made together)
};

struct Event {
  EventKind kind = EventKind::Exit;
  uint8_t flags = 0;
  uint16_t thread = 0;  // block-local thread index
  LineId line = kNoLine;
  uint16_t array = 0;   // Trace::arrays index (memory events); WarpOp (shuffles)
  int32_t index = 0;    // cell index (memory events), source lane (shuffles)
  uint32_t old_bits = 0;    // writes: the value before
  uint32_t value_bits = 0;  // reads: the value read; writes: the value written; shuffles: received
  AtomicOp atomic = AtomicOp::None;  // with kAtomic
  // Memory events: a cell of one access of several cells (a double: 2, a float4: 4), which a GPU
  // makes as one instruction; `access_part` counts its cells in the order they were made. 0: a cell
  // accessed on its own.
  uint8_t access_cells = 0;
  uint8_t access_part = 0;

  bool is_read() const { return kind == EventKind::SharedRead || kind == EventKind::GlobalRead; }
  bool is_write() const { return kind == EventKind::SharedWrite || kind == EventKind::GlobalWrite; }
  bool is_memory() const { return is_read() || is_write(); }
};

}  // namespace syncscope::sim
