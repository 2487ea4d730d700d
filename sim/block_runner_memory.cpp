// BlockRunner's shared-array declarations (sim/block_runner.h, shared_array) and a translated
// kernel's null pointer. A file of its own to keep block_runner.cpp within bounds.
#include <algorithm>

#include "sim/block_runner.h"

namespace syncscope::sim {

ArrayStore& BlockRunner::simt_shared_array(DType dtype, int count, const char* name, int columns, uint64_t site,
                                           int plane_rows, const char* layout) {
  return outside_kernel([&]() -> ArrayStore& { return shared_array(dtype, count, name, columns, site, plane_rows, layout); });
}

ArrayStore& BlockRunner::shared_array(DType dtype, int count, const char* name, int columns, uint64_t site,
                                      int plane_rows, const char* layout) {
  const RuntimeSection runtime = in_runtime();
  int slot = 0;
  if (site == 0) {
    slot = cur_->shared_allocs++;
  } else {
    const auto known = std::find(shared_sites_.begin(), shared_sites_.end(), site);
    slot = static_cast<int>(known - shared_sites_.begin());
    if (known == shared_sites_.end()) shared_sites_.push_back(site);
  }
  SharedCarving::Declared d = shared_.declare(current_, slot, dtype, count, name, layout);
  // Every extern __shared__ declaration is the launch's dynamic bytes (cu_device.h's site for them):
  // a second one with other elements asks for what one array cannot be.
  if (!d.array && site == kDynamicSharedSite && slot < shared_.count())
    d.error = std::string("extern __shared__ ") + (name ? name : "") + " (" + std::string(to_string(dtype)) +
              " elements) is the launch's dynamic shared memory, which extern __shared__ " +
              shared_.arrays()[slot].name + " already holds as " + std::string(to_string(shared_.arrays()[slot].dtype)) +
              " elements: syncscope keeps one element type for it; declare it once with one 4-byte type and take "
              "the other's part with a cast (extern __shared__ float a[]; int *b = (int *)&a[n];)";
  if (!d.array) fail_in_thread(SimErrorKind::SharedMemory, std::move(d.error), {});
  if (d.fresh) {
    d.array->columns = columns;
    d.array->plane_rows = plane_rows;
    d.array->layout = layout;
    d.array->id = host_->shared_array_id(*launch_, slot, *d.array);
  }
  return *d.array;
}

void BlockRunner::pointer_fault(LineId line, const std::string& what, const std::string& why) {
  const RuntimeSection runtime = in_runtime();
  fail_in_thread(SimErrorKind::Kernel,
                 "thread " + std::to_string(current_) + " of block " + std::to_string(block_linear_) + " " + what + " at " +
                     LineTable::describe(line) + " (" + why + ")",
                 {line});
}

void BlockRunner::null_pointer(LineId line) {
  const RuntimeSection runtime = in_runtime();
  fail_in_thread(SimErrorKind::Kernel,
                 "thread " + std::to_string(current_) + " of block " + std::to_string(block_linear_) +
                     " used a null pointer at " + LineTable::describe(line) + " (an illegal address on a GPU)",
                 {line});
}

}  // namespace syncscope::sim
