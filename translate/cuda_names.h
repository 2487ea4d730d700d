// The CUDA names the translator knows (translate/rewrite_rules.cpp): built-in variables, the
// intrinsics it rewrites onto the thread's context or syncscope's CUDA runtime, and the calls it
// refuses with what to do instead.
#pragma once

#include <map>
#include <string_view>

namespace syncscope::translate {

// CUDA's built-in variables and the context call each becomes.
inline const std::map<std::string_view, std::string_view> kBuiltinVariables = {
    {"threadIdx", "::syncscope::cu::thread_idx(_c)"},
    {"blockIdx", "::syncscope::cu::block_idx(_c)"},
    {"blockDim", "::syncscope::cu::block_dim(_c)"},
    {"gridDim", "::syncscope::cu::grid_dim(_c)"},
};

// Intrinsics that are calls on the thread's context (contract/kernel_context.h).
inline const std::map<std::string_view, std::string_view> kContextCalls = {
    {"__syncthreads", "_c.sync"},
    {"__syncthreads_count", "_c.sync_count"},
    {"__syncthreads_and", "_c.sync_and"},
    {"__syncthreads_or", "_c.sync_or"},
    {"__syncwarp", "_c.sync_warp"},
    {"__threadfence", "_c.fence"},
    {"__threadfence_block", "_c.fence_block"},
    {"__threadfence_system", "_c.fence"},
    {"__activemask", "_c.active_mask"},
    {"__nanosleep", "_c.nanosleep"},
    {"__ballot_sync", "_c.ballot_sync"},
    {"__any_sync", "_c.any_sync"},
    {"__all_sync", "_c.all_sync"},
    {"__match_any_sync", "_c.match_any_sync"},
    {"__reduce_add_sync", "_c.reduce_add_sync"},
    {"__reduce_min_sync", "_c.reduce_min_sync"},
    {"__reduce_max_sync", "_c.reduce_max_sync"},
    {"__reduce_and_sync", "_c.reduce_and_sync"},
    {"__reduce_or_sync", "_c.reduce_or_sync"},
    {"__reduce_xor_sync", "_c.reduce_xor_sync"},
};

// Intrinsics that are functions of syncscope's CUDA runtime (core/cuda_in/cu_device.h) taking the
// thread's context first: shuffles of any value CUDA shuffles (8-byte ones in two halves), the
// thread's clock.
inline const std::map<std::string_view, std::string_view> kRuntimeCalls = {
    {"__shfl_sync", "::syncscope::cu::shfl_sync"},
    {"__shfl_up_sync", "::syncscope::cu::shfl_up_sync"},
    {"__shfl_down_sync", "::syncscope::cu::shfl_down_sync"},
    {"__shfl_xor_sync", "::syncscope::cu::shfl_xor_sync"},
    {"clock64", "::syncscope::cu::clock64"},
    {"clock", "::syncscope::cu::clock32"},
};

// Calls the simulator does not have yet (or CUDA itself no longer has), and what to do instead.
// (Device malloc and free: translate/rewrite_calls.cpp, in device code only.)
inline const std::map<std::string_view, std::string_view> kNotSimulated = {
    {"cudaThreadSynchronize",
     "cudaThreadSynchronize was removed in CUDA 12 (nvcc no longer knows it): write cudaDeviceSynchronize()"},
    {"cudaLaunchKernel",
     "cudaLaunchKernel (the arguments as an array of pointers) is not simulated: launch with "
     "kernel<<<grid, block, shared_bytes, stream>>>(arguments...)"},
};

}  // namespace syncscope::translate
