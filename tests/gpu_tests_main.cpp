// syncscope_gpu_tests' entry point: also the kernel worker (core/worker/worker_main.h), as the
// syncscope executable is, because a test that loads a student's .cu program in this process
// starts its worker from this very executable (/proc/self/exe).
#include <gtest/gtest.h>

#include <string>

#include "core/worker/worker_main.h"

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "worker") return syncscope::worker::kernel_worker_main();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
