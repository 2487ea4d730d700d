#include "core/registry.h"

#include "kernels/algorithms.h"

namespace syncscope {

void link_builtin_simt_twins();  // core/registry_simt.cpp

const Registry& builtin_registry() {
  link_builtin_simt_twins();
  static const Registry r = Registry::of(kernels::Algorithms{});
  return r;
}

}  // namespace syncscope
