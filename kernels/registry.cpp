#include "kernels/registry.h"

#include "kernels/algorithms.h"

namespace syncscope {

const Registry& builtin_registry() {
  static const Registry r = Registry::of(kernels::Algorithms{});
  return r;
}

}  // namespace syncscope
