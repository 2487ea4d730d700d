#include "tests/user_kernels/list.h"

namespace syncscope::user {

void link_test_simt_twins();  // simt_twins.cpp

const Registry& user_registry() {
  link_test_simt_twins();
  static const Registry r = Registry::of(UserAlgorithms{});
  return r;
}

const Registry& held_out_registry() {
  link_test_simt_twins();
  static const Registry r = Registry::of(HeldOutAlgorithms{});
  return r;
}

const Registry& starter_registry() {
  link_test_simt_twins();
  static const Registry r = Registry::of(StarterAlgorithms{});
  return r;
}

const Registry& probe_registry() {
  link_test_simt_twins();
  static const Registry r = Registry::of(ProbeAlgorithms{});
  return r;
}

const Registry& runaway_registry() {
  link_test_simt_twins();
  static const Registry r = Registry::of(RunawayAlgorithms{});
  return r;
}

}  // namespace syncscope::user
