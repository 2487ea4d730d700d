// Arguments of a call into a student's template, as the translator passes them
// (translate/rewrite_rules.cpp). A `const T*` parameter is translated to cu::ptr<const T>, a class
// template: C++ deduces T from a `float*` argument for `const T*`, but not from a ptr<float> for
// ptr<const T>. The argument for such a parameter is therefore given its qualifiers first, so that
// T is deduced as nvcc deduces it.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "core/cuda_in/cu_device.h"

namespace syncscope::cu {

template <class T>
inline constexpr bool is_ptr_v = false;
template <class E, class Ctx>
inline constexpr bool is_ptr_v<ptr<E, Ctx>> = true;

// The same pointer with the parameter's qualifiers added; anything else as it is.
template <bool Const, bool Volatile, class A>
  requires(!is_ptr_v<std::remove_cvref_t<A>>)
[[gnu::always_inline]] inline A&& qualified_argument(A&& a) {
  return std::forward<A>(a);
}
template <bool Const, bool Volatile, class E, class Ctx>
[[gnu::always_inline]] inline auto qualified_argument(const ptr<E, Ctx>& p) {
  using WithConst = std::conditional_t<Const, const E, E>;
  return ptr<std::conditional_t<Volatile, volatile WithConst, WithConst>, Ctx>(p);
}

// A launch's call of a kernel template: argument k is qualified as bit k of the masks says.
template <unsigned long long ConstMask, unsigned long long VolatileMask, class Call, class... A>
[[gnu::always_inline]] inline void call_qualified(Call&& call, A&... arguments) {
  [&]<size_t... K>(std::index_sequence<K...>) {
    call(qualified_argument<(K < 64 && ((ConstMask >> (K % 64)) & 1) != 0), (K < 64 && ((VolatileMask >> (K % 64)) & 1) != 0)>(
        arguments)...);
  }(std::index_sequence_for<A...>{});
}

}  // namespace syncscope::cu
