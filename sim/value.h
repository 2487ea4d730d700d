// The scalar a simulated thread computes with. It carries, next to the number, whether the number
// derives from memory that nothing wrote ("poison"). That is how the simulator can show `?` for a
// value computed from uninitialized shared memory (seed 000's last block sum) instead of a made-up
// number. It also counts additions, one of the per-thread metrics.
#pragma once

#include <climits>
#include <compare>
#include <cstdint>
#include <type_traits>

#include "sim/counters.h"

namespace syncscope::sim {

// The counters of the simulated thread running on this OS thread (set by the block runner).
inline thread_local ThreadCounters* tls_running_thread_counters = nullptr;

template <class T>
struct Val {
  static_assert(sizeof(T) == 4 && std::is_arithmetic_v<T>, "syncscope simulates 32-bit scalars");
  using scalar_type = T;

  T v{};
  bool poison = false;

  constexpr Val() = default;
  constexpr Val(T value) : v(value) {}  // NOLINT: implicit, so `T(0)` and `v + 1` read naturally
  constexpr Val(T value, bool poisoned) : v(value), poison(poisoned) {}

  // The number as another arithmetic type, as a cast does on the GPU: `int(v)` makes an index of a
  // loaded value (a histogram's bin). The result is a plain number: where it is used as an index,
  // the access checks its bounds.
  template <class U>
    requires std::is_arithmetic_v<U>
  constexpr explicit operator U() const {
    return static_cast<U>(v);
  }

  friend Val operator+(Val a, Val b) {
    count_add();
    return {wrap_add(a.v, b.v), a.poison || b.poison};
  }
  friend Val operator-(Val a, Val b) {
    return {wrap_sub(a.v, b.v), a.poison || b.poison};
  }
  friend Val operator*(Val a, Val b) {
    return {wrap_mul(a.v, b.v), a.poison || b.poison};
  }
  friend Val operator/(Val a, Val b) {
    if constexpr (std::is_integral_v<T>) {
      // The GPU does not trap on integer division by zero; its result is meaningless, so poison.
      if (b.v == 0 || (a.v == INT32_MIN && b.v == -1)) return {0, true};
    }
    return {a.v / b.v, a.poison || b.poison};
  }
  // Whole numbers: remainder and bit operations, as the GPU computes them (a zero divisor gives an
  // undefined result there: poison here).
  friend Val operator%(Val a, Val b)
    requires std::is_integral_v<T>
  {
    if (b.v == 0 || (a.v == INT32_MIN && b.v == -1)) return {0, true};
    return {a.v % b.v, a.poison || b.poison};
  }
  friend Val operator&(Val a, Val b)
    requires std::is_integral_v<T>
  {
    return {a.v & b.v, a.poison || b.poison};
  }
  friend Val operator|(Val a, Val b)
    requires std::is_integral_v<T>
  {
    return {a.v | b.v, a.poison || b.poison};
  }
  friend Val operator^(Val a, Val b)
    requires std::is_integral_v<T>
  {
    return {a.v ^ b.v, a.poison || b.poison};
  }
  friend Val operator<<(Val a, int bits)
    requires std::is_integral_v<T>
  {
    return {T(uint32_t(a.v) << (bits & 31)), a.poison};
  }
  friend Val operator>>(Val a, int bits)
    requires std::is_integral_v<T>
  {
    return {T(a.v >> (bits & 31)), a.poison};
  }
  Val& operator%=(Val b) { return *this = *this % b; }
  Val& operator&=(Val b) { return *this = *this & b; }
  Val& operator|=(Val b) { return *this = *this | b; }
  Val& operator^=(Val b) { return *this = *this ^ b; }
  Val operator-() const { return Val(T(0)) - *this; }
  Val operator+() const { return *this; }

  Val& operator+=(Val b) { return *this = *this + b; }
  Val& operator-=(Val b) { return *this = *this - b; }
  Val& operator*=(Val b) { return *this = *this * b; }
  Val& operator/=(Val b) { return *this = *this / b; }

  friend bool operator==(Val a, Val b) { return a.v == b.v; }
  friend bool operator!=(Val a, Val b) { return a.v != b.v; }
  friend bool operator<(Val a, Val b) { return a.v < b.v; }
  friend bool operator>(Val a, Val b) { return a.v > b.v; }
  friend bool operator<=(Val a, Val b) { return a.v <= b.v; }
  friend bool operator>=(Val a, Val b) { return a.v >= b.v; }

 private:
  static void count_add() {
    if (tls_running_thread_counters) ++tls_running_thread_counters->adds;
  }
  // int32 arithmetic wraps on the GPU (add.s32); in C++ signed overflow is undefined, so go through
  // unsigned to get the same bits.
  static T wrap_add(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(uint32_t(a) + uint32_t(b));
    else return a + b;
  }
  static T wrap_sub(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(uint32_t(a) - uint32_t(b));
    else return a - b;
  }
  static T wrap_mul(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(uint32_t(a) * uint32_t(b));
    else return a * b;
  }
};

template <class T> struct is_val : std::false_type {};
template <class T> struct is_val<Val<T>> : std::true_type {};

// Storage type of a kernel-visible element type: Val<float> is stored as float.
template <class T> struct storage_of { using type = T; };
template <class T> struct storage_of<Val<T>> { using type = T; };
template <class T> using storage_t = typename storage_of<T>::type;

}  // namespace syncscope::sim
