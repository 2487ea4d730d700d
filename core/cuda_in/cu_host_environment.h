// The rest of the host side of a translated .cu (core/cuda_in/cu_host.h): what a program asks of
// its device (properties, events) and the queues its work goes through (streams, pinned memory).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/cuda_in/cu_host.h"

// One simulated device; events keep no clock (the simulator's time is not the GPU's): 0 ms.
// (translate/cuda_parse_shim.h declares the same struct for Clang: keep the two alike.)
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, totalConstMem;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate, major, minor,
      multiProcessorCount, maxThreadsPerMultiProcessor, memoryClockRate, memoryBusWidth, l2CacheSize;
  size_t sharedMemPerMultiprocessor;
};
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop || device != 0) return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "syncscope simulator");
  prop->totalGlobalMem = size_t{1} << 30;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->sharedMemPerMultiprocessor = 48 * 1024;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024, prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647, prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
  prop->major = 9, prop->minor = 0;
  prop->multiProcessorCount = 1;
  prop->maxThreadsPerMultiProcessor = 2048;
  return cudaSuccess;
}
// Attributes one at a time (NVIDIA's grid-stride blog asks for the SM count so): the same numbers
// as cudaGetDeviceProperties. CUDA's own enum values. (translate/cuda_parse_shim.h declares these
// enums and structs for Clang, and cudaMemLocation's below: keep the two alike.)
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3, cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
};
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  cudaDeviceProp p;
  if (!value || cudaGetDeviceProperties(&p, device) != cudaSuccess) return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: case cudaDevAttrMaxBlockDimZ:
      *value = p.maxThreadsDim[attribute - cudaDevAttrMaxBlockDimX]; break;
    case cudaDevAttrMaxGridDimX: case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ:
      *value = p.maxGridSize[attribute - cudaDevAttrMaxGridDimX]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    default: return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
// Occupancy of the simulated device (one SM of 2048 threads and 48 KiB of shared memory, as
// cudaGetDeviceProperties says): the largest block, and as many blocks as fit. A GPU weighs the
// kernel's registers too, so its answer may be smaller; a program whose result depends on it
// differs there, which --gpu shows.
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel, int block_size, size_t dynamic_shared = 0) {
  if (!blocks || block_size <= 0 || block_size > 1024) return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  int fit = 2048 / block_size;
  if (dynamic_shared > 0) fit = std::min<int>(fit, static_cast<int>(48 * 1024 / dynamic_shared));
  *blocks = fit;
  return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, Kernel kernel, size_t dynamic_shared = 0,
                                               int block_size_limit = 0) {
  if (!min_grid || !block_size) return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  *block_size = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  int blocks = 0;
  if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, *block_size, dynamic_shared); e != cudaSuccess)
    return e;
  *min_grid = blocks;
  return cudaSuccess;
}
// A kernel's attributes and cache preference: accepted and kept nowhere (the simulator has no
// caches; a block's shared memory stays at most 48 KiB, which a launch asking for more is told).
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
template <class Kernel>
cudaError_t cudaFuncSetAttribute(Kernel, cudaFuncAttribute, int) { return cudaSuccess; }
template <class Kernel>
cudaError_t cudaFuncSetCacheConfig(Kernel, cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int* count) { return count ? (*count = 1, cudaSuccess) : cudaErrorInvalidValue; }
inline cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidValue; }
inline cudaError_t cudaGetDevice(int* device) { return device ? (*device = 0, cudaSuccess) : cudaErrorInvalidValue; }
inline cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  if (free_bytes) *free_bytes = size_t{1} << 30;
  if (total_bytes) *total_bytes = size_t{1} << 30;
  return cudaSuccess;
}
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUstream_st* cudaStream_t;
inline cudaError_t cudaEventCreate(cudaEvent_t* event) {
  static char events;
  return event ? (*event = reinterpret_cast<cudaEvent_t>(&events), cudaSuccess) : cudaErrorInvalidValue;
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = nullptr) { return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) { return ms ? (*ms = 0.0f, cudaSuccess) : cudaErrorInvalidValue; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) { return cudaEventCreate(event); }
// The CUDA whose API the translated program sees (nvcc 13.0 built the corpus on the device).
inline cudaError_t cudaRuntimeGetVersion(int* version) { return version ? (*version = 13000, cudaSuccess) : cudaErrorInvalidValue; }
inline cudaError_t cudaDriverGetVersion(int* version) { return cudaRuntimeGetVersion(version); }
// What the simulator knows of a kernel: its limits. Registers, local and static shared memory are a
// compiler's, which the simulator has not: 0.
struct cudaFuncAttributes {
  size_t sharedSizeBytes = 0, constSizeBytes = 0, localSizeBytes = 0;
  int maxThreadsPerBlock = 1024, numRegs = 0, ptxVersion = 0, binaryVersion = 0, cacheModeCA = 0,
      maxDynamicSharedSizeBytes = 48 * 1024, preferredShmemCarveout = -1;
};
template <class Kernel>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, Kernel) {
  return attributes ? (*attributes = cudaFuncAttributes{}, cudaSuccess) : cudaErrorInvalidValue;
}

// Pinned host memory is host memory here: pinning changes how fast a copy goes, not what it copies.
inline cudaError_t cudaMallocHost(void** pointer, size_t bytes) {
  if (!pointer) return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  *pointer = std::malloc(bytes ? bytes : 1);
  return *pointer ? cudaSuccess : syncscope::cu::current_device->record(cudaErrorMemoryAllocation);
}
template <class T>
cudaError_t cudaMallocHost(T** pointer, size_t bytes, unsigned int = 0) {
  return cudaMallocHost(reinterpret_cast<void**>(pointer), bytes);
}
inline cudaError_t cudaHostAlloc(void** pointer, size_t bytes, unsigned int) { return cudaMallocHost(pointer, bytes); }
template <class T>
cudaError_t cudaHostAlloc(T** pointer, size_t bytes, unsigned int) {
  return cudaMallocHost(reinterpret_cast<void**>(pointer), bytes);
}
inline cudaError_t cudaFreeHost(void* pointer) {
  std::free(pointer);
  return cudaSuccess;
}
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00

// Streams (syncscope::cu::note_stream): a stream is a name; its work has run by the time it is issued.
inline cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  static char streams[64];
  static unsigned next = 0;
  return stream ? (*stream = reinterpret_cast<cudaStream_t>(&streams[next++ % 64]), cudaSuccess)
                : syncscope::cu::current_device->record(cudaErrorInvalidValue);
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int) { return cudaStreamCreate(stream); }
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return syncscope::cu::current_device->peek_last_error(); }
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0) { return cudaSuccess; }
inline cudaError_t cudaMemcpyAsync(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = nullptr,
                                   int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  syncscope::cu::note_stream(stream, file, static_cast<unsigned>(line));
  return syncscope::cu::current_device->copy(to, from, bytes, kind, line, file);
}
// Unified memory's hints (where pages should live): the simulator has one memory, so they do nothing.
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2, cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6,
};
#define cudaCpuDeviceId (-1)
inline cudaError_t cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t = nullptr) { return cudaSuccess; }
inline cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t = nullptr) { return cudaSuccess; }
inline cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, cudaMemLocation) { return cudaSuccess; }
inline cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int) { return cudaSuccess; }
inline cudaError_t cudaMemsetAsync(void* pointer, int value, size_t bytes, cudaStream_t = nullptr) {
  return syncscope::cu::current_device->fill(pointer, value, bytes);
}

// Pitched memory (the Programming Guide's cudaMallocPitch): each row starts at a multiple of 512
// bytes, as on the GPUs syncscope was checked against; a row's padding is part of the array and
// never copied. 2D copies and fills go row by row, so each row copied to the host is one copy there
// and on the GPU's run (core/cuda_program_gpu.cpp records them so).
inline constexpr size_t kPitchAlignment = 512;
template <class E>
cudaError_t syncscope_cuda_malloc_pitch_named(const char* name, E** pointer, size_t* pitch, size_t width, size_t height) {
  auto& device = *syncscope::cu::current_device;
  if (!pitch || width == 0 || height == 0) return device.record(cudaErrorInvalidValue);
  *pitch = (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  return device.allocate(name, pointer, *pitch * height);
}
template <class E>
cudaError_t cudaMallocPitch(E** pointer, size_t* pitch, size_t width, size_t height) {
  return syncscope_cuda_malloc_pitch_named("pitched array", pointer, pitch, width, height);
}
inline cudaError_t cudaMemcpy2D(void* to, size_t to_pitch, const void* from, size_t from_pitch, size_t width, size_t height,
                                cudaMemcpyKind kind, int line = __builtin_LINE()) {
  auto& device = *syncscope::cu::current_device;
  if (!to || !from || width > to_pitch || width > from_pitch) return device.record(cudaErrorInvalidValue);
  for (size_t r = 0; r < height; ++r)
    if (const cudaError_t e = device.copy(static_cast<char*>(to) + r * to_pitch, static_cast<const char*>(from) + r * from_pitch,
                                          width, kind, line);
        e != cudaSuccess)
      return e;
  return cudaSuccess;
}
inline cudaError_t cudaMemset2D(void* pointer, size_t pitch, int value, size_t width, size_t height) {
  auto& device = *syncscope::cu::current_device;
  if (!pointer || width > pitch) return device.record(cudaErrorInvalidValue);
  for (size_t r = 0; r < height; ++r)
    if (const cudaError_t e = device.fill(static_cast<char*>(pointer) + r * pitch, value, width); e != cudaSuccess) return e;
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2DAsync(void* to, size_t to_pitch, const void* from, size_t from_pitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream = nullptr,
                                     int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  syncscope::cu::note_stream(stream, file, static_cast<unsigned>(line));
  return cudaMemcpy2D(to, to_pitch, from, from_pitch, width, height, kind, line);
}
// One simulated device: a copy between "devices" is a copy on device 0, and another number is refused.
inline cudaError_t cudaMemcpyPeer(void* to, int to_device, const void* from, int from_device, size_t bytes,
                                  int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  auto& device = *syncscope::cu::current_device;
  if (to_device != 0 || from_device != 0) return device.record(cudaErrorInvalidValue);
  return device.copy(to, from, bytes, cudaMemcpyDeviceToDevice, line, file);
}
inline cudaError_t cudaMemcpyPeerAsync(void* to, int to_device, const void* from, int from_device, size_t bytes,
                                       cudaStream_t stream = nullptr, int line = __builtin_LINE(),
                                       const char* file = __builtin_FILE()) {
  syncscope::cu::note_stream(stream, file, static_cast<unsigned>(line));
  return cudaMemcpyPeer(to, to_device, from, from_device, bytes, line, file);
}
// Pinning host memory changes how fast a copy goes, not what it copies: nothing to do here.
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
inline cudaError_t cudaHostRegister(void* pointer, size_t bytes, unsigned int) {
  return pointer && bytes ? cudaSuccess : syncscope::cu::current_device->record(cudaErrorInvalidValue);
}
inline cudaError_t cudaHostUnregister(void* pointer) {
  return pointer ? cudaSuccess : syncscope::cu::current_device->record(cudaErrorInvalidValue);
}
// Device limits: kept and read back (CUDA's defaults until set); the simulator's own limits
// (sim/limits.h: printf bytes, stack depth) are what a run is held to.
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
                 cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
                 cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6 };
inline size_t* syncscope_device_limit(cudaLimit limit) {
  static size_t values[] = {1024, size_t{1} << 20, size_t{8} << 20, 2, 2048, 64, 0};
  return limit >= cudaLimitStackSize && limit <= cudaLimitPersistingL2CacheSize ? &values[limit] : nullptr;
}
inline cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  size_t* kept = syncscope_device_limit(limit);
  return kept ? (*kept = value, cudaSuccess) : syncscope::cu::current_device->record(cudaErrorInvalidValue);
}
inline cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  const size_t* kept = syncscope_device_limit(limit);
  return kept && value ? (*value = *kept, cudaSuccess) : syncscope::cu::current_device->record(cudaErrorInvalidValue);
}
