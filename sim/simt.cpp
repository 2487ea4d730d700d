#include "sim/simt.h"

#include <map>
#include <mutex>
#include <shared_mutex>
#include <typeindex>

#include "sim/block_runner.h"

namespace syncscope::sim {
namespace {

struct TwinTable {
  std::shared_mutex mutex;
  std::map<std::type_index, KernelEntry> entries;
};
TwinTable& twins() {
  static TwinTable table;  // first use may be another unit's static initialization
  return table;
}

}  // namespace

void register_simt_twin(const std::type_info& closure, KernelEntry entry) {
  std::unique_lock lock(twins().mutex);
  // The newest wins: a kernel file compiled again after an edit registers the same closure type
  // from its new library, and the edit is what must run.
  twins().entries[std::type_index(closure)] = entry;
}

KernelEntry find_simt_twin(const std::type_info& closure) {
  std::shared_lock lock(twins().mutex);
  const auto it = twins().entries.find(std::type_index(closure));
  return it == twins().entries.end() ? nullptr : it->second;
}

}  // namespace syncscope::sim

// Called at the start of every basic block of code built with -fsanitize-coverage=trace-pc. Only
// SIMT twins are; outside a twin's kernel code tls_simt_kernel is null and this returns at once.
// (Not in the fuzzing build: libFuzzer defines this hook itself, and its twins are plain code.)
#if !defined(SYNCSCOPE_FUZZ)
extern "C" void __sanitizer_cov_trace_pc() {
  syncscope::sim::BlockRunner* runner = syncscope::sim::tls_simt_kernel;
  if (runner) [[unlikely]]
    runner->simt_basic_block(reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}
#endif
