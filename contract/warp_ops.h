// The warp-wide operations a kernel may call: one row each, and everything else about them is
// derived from this table — the methods of the simulator's context (sim/sim_ctx.h) and of the
// GPU's (core/cuda/device_ctx.cuh), the KernelContext concept (contract/kernel_context.h), the
// simulator's dispatch and event kinds, the names in reports and the step view, and the README's
// table (`syncscope list --api`, checked by a test). Adding an intrinsic of a kind that exists is a
// row here and its meaning in sim/warp_unit.cpp.
//
// Columns: the operation; the kernel's call over every lane of its warp; the call with CUDA's
// explicit mask (the same name for kind Sync); the CUDA intrinsic; the kind; a shuffle's third
// operand or a reduction's operator on two lanes' values (a function object below; `_` for the
// other kinds); how a result reads in reports; what each lane gets.
//
// Kinds and their operands (mask: the lanes taking part; the plain call takes every lane the block
// has in the warp):
//   Shuffle  c.NAME(v, arg)  c.NAME_SYNC(mask, v, arg, width = 32)   v: a 32-bit value, arg: the sixth column
//   Vote     c.NAME(pred)    c.NAME_SYNC(mask, pred)                   pred: bool
//   Sync     c.NAME()        c.NAME(mask)
//   Reduce   c.NAME(v)       c.NAME_SYNC(mask, v)                      v: a whole number
//   Match    c.NAME(v)       c.NAME_SYNC(mask, v)                      v: a 32-bit value
#pragma once

#include <type_traits>

#if defined(__CUDACC__)
#define SYNCSCOPE_WARP_COMBINE_HD __host__ __device__
#else
#define SYNCSCOPE_WARP_COMBINE_HD
#endif

namespace syncscope {

// A reduction's operator on two lanes' values, of the lanes' own type: min and max compare an int
// as signed and an unsigned as unsigned, as CUDA's two overloads of __reduce_min_sync do; a sum
// wraps (computed unsigned: the same bits either way, and no signed overflow).
struct WarpSum {
  template <class T>
  SYNCSCOPE_WARP_COMBINE_HD constexpr T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  }
};
struct WarpAnd {
  template <class T>
  SYNCSCOPE_WARP_COMBINE_HD constexpr T operator()(T a, T b) const { return a & b; }
};
struct WarpOr {
  template <class T>
  SYNCSCOPE_WARP_COMBINE_HD constexpr T operator()(T a, T b) const { return a | b; }
};
struct WarpXor {
  template <class T>
  SYNCSCOPE_WARP_COMBINE_HD constexpr T operator()(T a, T b) const { return a ^ b; }
};
struct WarpMin {
  template <class T>
  SYNCSCOPE_WARP_COMBINE_HD constexpr T operator()(T a, T b) const { return b < a ? b : a; }
};
struct WarpMax {
  template <class T>
  SYNCSCOPE_WARP_COMBINE_HD constexpr T operator()(T a, T b) const { return a < b ? b : a; }
};

}  // namespace syncscope

#define SYNCSCOPE_WARP_OPERATIONS(X)                                                                                 \
  X(ShflUp, shfl_up, shfl_up_sync, __shfl_up_sync, Shuffle, delta, Value,                                             \
    "the value of lane - delta (its own below its segment)")                                                         \
  X(ShflDown, shfl_down, shfl_down_sync, __shfl_down_sync, Shuffle, delta, Value,                                     \
    "the value of lane + delta (its own past its segment)")                                                          \
  X(ShflIdx, shfl_idx, shfl_sync, __shfl_sync, Shuffle, lane, Value, "the value of the lane it names in its segment")  \
  X(ShflXor, shfl_xor, shfl_xor_sync, __shfl_xor_sync, Shuffle, lane_mask, Value, "the value of lane ^ lane_mask")    \
  X(SyncWarp, sync_warp, sync_warp, __syncwarp, Sync, _, None, "nothing: the lanes wait for each other")              \
  X(Ballot, ballot, ballot_sync, __ballot_sync, Vote, _, Mask, "a bit per lane whose predicate is true")              \
  X(Any, any, any_sync, __any_sync, Vote, _, Bool, "1 when any lane's predicate is true")                             \
  X(All, all, all_sync, __all_sync, Vote, _, Bool, "1 when every lane's predicate is true")                           \
  X(ReduceAdd, reduce_add, reduce_add_sync, __reduce_add_sync, Reduce, WarpSum, Value,                                \
    "the sum of every lane's value (whole numbers)")                                                                 \
  X(ReduceMin, reduce_min, reduce_min_sync, __reduce_min_sync, Reduce, WarpMin, Value,                                \
    "the least of every lane's value (whole numbers; an int's signed, an unsigned's unsigned)")                      \
  X(ReduceMax, reduce_max, reduce_max_sync, __reduce_max_sync, Reduce, WarpMax, Value,                                \
    "the greatest of every lane's value (whole numbers; an int's signed, an unsigned's unsigned)")                   \
  X(ReduceAnd, reduce_and, reduce_and_sync, __reduce_and_sync, Reduce, WarpAnd, Value,                                \
    "the bitwise AND of every lane's value (whole numbers)")                                                         \
  X(ReduceOr, reduce_or, reduce_or_sync, __reduce_or_sync, Reduce, WarpOr, Value,                                     \
    "the bitwise OR of every lane's value (whole numbers)")                                                          \
  X(ReduceXor, reduce_xor, reduce_xor_sync, __reduce_xor_sync, Reduce, WarpXor, Value,                                \
    "the bitwise XOR of every lane's value (whole numbers)")                                                         \
  X(MatchAny, match_any, match_any_sync, __match_any_sync, Match, _, Mask, "a bit per lane holding the same value as it")

namespace syncscope {

// What a kind of warp operation takes and gives (the table's fifth column).
enum class WarpKind : unsigned char { None, Shuffle, Vote, Sync, Reduce, Match, ActiveMask };
// How a result reads (the sixth): a value of the kernel's type, a lane mask in hex, 0 or 1.
enum class WarpResult : unsigned char { None, Value, Mask, Bool };

// None first (no operation); ActiveMask last: __activemask() reads the lanes running now and is no
// rendezvous, so it is no row of the table and both contexts spell it out.
enum class WarpOp : unsigned char {
  None,
#define SYNCSCOPE_WARP_ENUM(op, name, name_sync, intrinsic, kind, arg, result, gives) op,
  SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_WARP_ENUM)
#undef SYNCSCOPE_WARP_ENUM
  ActiveMask,
};

struct WarpOpInfo {
  WarpOp op;
  const char* name;       // the kernel's call over the whole warp: "shfl_up"
  const char* name_sync;  // with an explicit mask: "shfl_up_sync"
  const char* intrinsic;  // CUDA's: "__shfl_up_sync"
  WarpKind kind;
  const char* arg;        // a shuffle's third operand ("delta"), a reduction's operator ("+")
  WarpResult result;
  const char* gives;  // what each lane gets
};

inline constexpr WarpOpInfo kWarpOps[] = {
    {WarpOp::None, "warp operation", "warp operation", "", WarpKind::None, "", WarpResult::None, ""},
#define SYNCSCOPE_WARP_INFO(op, name, name_sync, intrinsic, kind, arg, result, gives) \
  {WarpOp::op, #name, #name_sync, #intrinsic, WarpKind::kind, #arg, WarpResult::result, gives},
    SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_WARP_INFO)
#undef SYNCSCOPE_WARP_INFO
    {WarpOp::ActiveMask, "active_mask", "active_mask", "__activemask", WarpKind::ActiveMask, "", WarpResult::Mask,
     "a bit per lane of the warp running this instruction"},
};

constexpr const WarpOpInfo& warp_op_info(WarpOp op) { return kWarpOps[static_cast<unsigned>(op)]; }
static_assert(warp_op_info(WarpOp::ActiveMask).op == WarpOp::ActiveMask, "kWarpOps is in WarpOp's order");

}  // namespace syncscope
