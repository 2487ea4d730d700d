// The host side of a translated .cu: the CUDA runtime calls a program makes, on the simulator.
// Device memory is the simulator's global arrays; a device pointer is an address in a range no
// host memory uses (so a host dereference of it faults, as on a real machine) that maps back to
// its array and element. A launch binds each pointer argument to its array and runs the kernel in
// every simulated thread; its grid, block and shared size are checked by the simulator.
#pragma once

#include <atomic>
#include <climits>  // INT_MAX, UINT_MAX with no #include, as nvcc's implicit cuda_runtime.h has them
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/cuda_in/cu_arguments.h"
#include "core/cuda_in/cu_device.h"
#include "core/cuda_in/cu_launch_bounds.h"
#include "core/cuda_in/device_addresses.h"
#include "core/registry.h"

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
};
typedef cudaError_t cudaError;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

namespace syncscope::cu {

// One cudaMalloc: its global array and how its elements move to and from host bytes.
struct Allocation {
  std::string name;  // its cudaMalloc's variable
  int array = -1;
  size_t bytes = 0;
  size_t element_size = 4;  // bytes per cell: the element's size, or 4 where an element has several cells
  void (*from_host)(sim::ArrayStore&, int first, const void* host, int count) = nullptr;
  void (*to_host)(const sim::ArrayStore&, int first, void* host, int count) = nullptr;
};

template <class E>
void elements_from_host(sim::ArrayStore& a, int first, const void* host, int count) {
  for (int k = 0; k < count; ++k) {
    E v;
    std::memcpy(&v, static_cast<const char*>(host) + k * sizeof(E), sizeof(E));
    a.bits[first + k] = sim::to_bits(static_cast<cell_t<E>>(v));
    a.poison[first + k] = 0;
  }
}
template <class E>
void elements_to_host(const sim::ArrayStore& a, int first, void* host, int count) {
  for (int k = 0; k < count; ++k) {
    const E v = static_cast<E>(sim::from_bits<cell_t<E>>(a.bits[first + k]));
    std::memcpy(static_cast<char*>(host) + k * sizeof(E), &v, sizeof(E));
  }
}
// Elements of several cells (double, long long, structs: cu_device.h's cells_of) move as their bytes,
// 4 to a cell, so every bit (and a struct's every field) arrives as the GPU has it.
inline void cells_from_host(sim::ArrayStore& a, int first, const void* host, int count) {
  std::memcpy(a.bits.data() + first, host, static_cast<size_t>(count) * 4);
  std::fill_n(a.poison.begin() + first, count, uint8_t{0});
}
inline void cells_to_host(const sim::ArrayStore& a, int first, void* host, int count) {
  std::memcpy(host, a.bits.data() + first, static_cast<size_t>(count) * 4);
}

class Device;

// A `__device__` variable at file scope. The translator leaves the student's variable in host memory,
// holding the value it was declared with, and adds one of these after it: every run of the program
// gives the variable a global array of its own (named by the variable, holding that value when
// main() starts), which device code reads and writes (device_memory) and cudaMemcpyToSymbol /
// FromSymbol copy to and from.
struct DeviceVariable {
  const char* name;
  const void* initial;  // the student's variable
  size_t bytes;
  void (*place)(Device&, DeviceVariable&);
  int array = -1;          // this run's global array
  uintptr_t address = 0;   // and its device address
};
namespace {
// Internal to the translated program's own library: one list per program.
[[maybe_unused]] std::vector<DeviceVariable*>& device_variables() {
  static std::vector<DeviceVariable*> all;
  return all;
}
}  // namespace
template <class T>
void place_variable(Device& device, DeviceVariable& v);
template <class T>
struct device_variable : DeviceVariable {
  device_variable(const T& student, const char* name) : DeviceVariable{name, &student, sizeof(T), &place_variable<T>} {
    device_variables().push_back(this);
  }
};

// The simulated device of one run of a program.
class Device {
 public:
  explicit Device(sim::Simulator& simulator) : simulator_(simulator) {
    for (DeviceVariable* v : device_variables()) v->place(*this, *v);
  }
  sim::Simulator& simulator() { return simulator_; }

  template <class E>
  cudaError_t allocate(const char* name, E** pointer, size_t bytes) {
    if (broken_ != cudaSuccess) return broken();
    if (!pointer) return record(cudaErrorInvalidValue);
    constexpr bool byte_cells = is_byte_vector_v<E>;  // a uchar4: a cell a byte, as an unsigned char array
    constexpr bool several_cells = cells_of<E> > 1 && !byte_cells;
    constexpr size_t cell_bytes = bytes_per_cell<E>;
    const size_t count = (bytes + cell_bytes - 1) / cell_bytes;
    if (count > (size_t{1} << 28)) return record(cudaErrorMemoryAllocation);
    Allocation a;
    a.name = name;
    a.array = simulator_.alloc_global(name, cells_dtype<E>, static_cast<int>(count), true, cells_layout<E>);
    a.bytes = bytes;
    a.element_size = cell_bytes;
    if constexpr (byte_cells) {
      a.from_host = &elements_from_host<byte_field_t<E>>;
      a.to_host = &elements_to_host<byte_field_t<E>>;
    } else if constexpr (several_cells) {
      a.from_host = &cells_from_host;
      a.to_host = &cells_to_host;
    } else {
      a.from_host = &elements_from_host<E>;
      a.to_host = &elements_to_host<E>;
    }
    const uintptr_t base = next_address_;
    next_address_ += (bytes + 511) / 256 * 256;
    allocations_[base] = a;
    *pointer = reinterpret_cast<E*>(base);
    return cudaSuccess;
  }
  // cudaMallocManaged: memory the host reads and writes where it is (host memory) and kernels see as
  // a global array. Each launch takes the host's bytes into the array before it runs and gives the
  // array's back when it ends: between launches the host's copy is the memory (launches run to the
  // end before the host goes on, so nothing else could tell them apart).
  template <class E>
  cudaError_t allocate_managed(const char* name, E** pointer, size_t bytes) {
    if (!pointer) return record(cudaErrorInvalidValue);
    E* device = nullptr;
    if (const cudaError_t e = allocate(name, &device, bytes); e != cudaSuccess) return e;
    void* host = std::calloc(bytes ? bytes : 1, 1);
    if (!host) return record(cudaErrorMemoryAllocation);
    managed_[reinterpret_cast<uintptr_t>(host)] = {reinterpret_cast<uintptr_t>(device), bytes};
    *pointer = static_cast<E*>(host);
    return cudaSuccess;
  }
  // The device address of a managed allocation's host address (0: not managed memory).
  uintptr_t managed_device_address(const void* pointer) const {
    const uintptr_t p = reinterpret_cast<uintptr_t>(pointer);
    auto it = managed_.upper_bound(p);
    if (it == managed_.begin()) return 0;
    --it;
    if (p >= it->first + it->second.bytes + (it->second.bytes == 0)) return 0;
    return it->second.device + (p - it->first);
  }
  void managed_to_device() { move_managed(true); }
  void managed_to_host() { move_managed(false); }
  ~Device() {
    for (const auto& [host, m] : managed_) std::free(reinterpret_cast<void*>(host));
  }
  // A launch's copies of its by-value arguments end before its blocks run here, and after its kernel
  // on a GPU (whose cudaFree waits for the kernel): a free their host destructors ask for (CUDA by
  // Example's ~Lock frees its mutex) waits for the launch's end, as it does there, and happens once
  // (here the launch copies an argument several times; a GPU's launch, once).
  struct LaunchInFlight {
    Device& device;
    explicit LaunchInFlight(Device& d) : device(d) { device.launching_ = true; }
    ~LaunchInFlight() {
      device.launching_ = false;
      for (const void* p : std::exchange(device.frees_after_launch_, {})) device.release(p);
    }
  };
  cudaError_t free(const void* pointer) {
    if (!launching_) return release(pointer);
    if (std::find(frees_after_launch_.begin(), frees_after_launch_.end(), pointer) == frees_after_launch_.end())
      frees_after_launch_.push_back(pointer);
    return cudaSuccess;
  }
  cudaError_t release(const void* pointer) {
    if (!pointer) return cudaSuccess;
    if (auto m = managed_.find(reinterpret_cast<uintptr_t>(pointer)); m != managed_.end()) {
      allocations_.erase(m->second.device);
      std::free(const_cast<void*>(pointer));
      managed_.erase(m);
      return cudaSuccess;
    }
    if (!allocations_.erase(reinterpret_cast<uintptr_t>(pointer))) return record(cudaErrorInvalidDevicePointer);
    return cudaSuccess;
  }
  // A pointer a kernel is given: device memory, or managed memory's host address.
  const Allocation* find_for_kernel(const void* pointer, int* element) const {
    if (const uintptr_t device = managed_device_address(pointer)) return find(reinterpret_cast<const void*>(device), element);
    return find(pointer, element);
  }
  // The allocation holding `pointer`, and its element index there (nullptr: not device memory).
  const Allocation* find(const void* pointer, int* element) const {
    const uintptr_t p = reinterpret_cast<uintptr_t>(pointer);
    auto it = allocations_.upper_bound(p);
    if (it == allocations_.begin()) return nullptr;
    --it;
    if (p >= it->first + it->second.bytes + (it->second.bytes == 0)) return nullptr;
    *element = static_cast<int>((p - it->first) / it->second.element_size);
    return &it->second;
  }
  // `line`: the cudaMemcpy's, for the copies to the host this device keeps (host_copies).
  cudaError_t copy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, int line = 0, const char* file = nullptr);
  cudaError_t refuse_copy(const char* file, int line, const std::string& why);
  cudaError_t fill(void* pointer, int value, size_t bytes);

  cudaError_t record(cudaError_t e) {
    if (e != cudaSuccess) last_error_ = e;
    return e;
  }
  cudaError_t take_last_error() {
    const cudaError_t e = last_error_;
    last_error_ = broken_;
    return e;
  }
  // A launch that failed (a thread crashed, a barrier no thread could pass, the time budget) leaves
  // the device as a fault leaves a GPU's context: every later call fails with the same error and
  // does nothing, so a program that goes on copies nothing back, as it would on the GPU.
  // A failed device assert() makes it cudaErrorAssert (core/cuda_in/cu_exit.h).
  void fail_launch() { broken_ = record(assert_failed_ ? cudaErrorAssert : cudaErrorLaunchFailure); }
  void note_failed_assert() { assert_failed_ = true; }
  cudaError_t broken() { return broken_ == cudaSuccess ? cudaSuccess : record(broken_); }
  cudaError_t peek_last_error() const { return last_error_; }
  // The device address of the __device__ variable whose student's variable is at `host` (0: none).
  static uintptr_t variable_address(const void* host) {
    for (const DeviceVariable* v : device_variables())
      if (v->initial == host) return v->address;
    return 0;
  }
  // The device address of cell `cell` of global array `array` (0: not a cudaMalloc'ed array).
  // The device address of `cell` of `array` (0: not an allocation of this device). Compared by
  // store, not by the trace's array id: the ids of shared arrays registered by launches come
  // between those of global ones.
  uintptr_t address_of(const sim::ArrayStore* array, int cell) {
    for (const auto& [base, a] : allocations_)
      if (&simulator_.global(a.array) == array) return base + static_cast<uintptr_t>(cell) * a.element_size;
    return 0;
  }
  // A copy to the host that is not a cudaMemcpy (cudaMemcpyFromSymbol of __constant__ memory).
  void note_host_copy(int line, const char* name, size_t element_size, const void* received, size_t bytes) {
    const auto* b = static_cast<const uint8_t*>(received);
    host_copies_.push_back({line, name, static_cast<uint32_t>(element_size), std::vector<uint8_t>(b, b + bytes)});
  }
  // Every copy to the host, in order, as the host received it: what the GPU's run is compared with.
  std::vector<HostCopy>& host_copies() { return host_copies_; }

 private:
  sim::Simulator& simulator_;
  std::map<uintptr_t, Allocation> allocations_;
  uintptr_t next_address_ = kFirstDeviceAddress;  // no host memory is mapped there
  cudaError_t last_error_ = cudaSuccess;
  cudaError_t broken_ = cudaSuccess;
  bool launching_ = false;
  std::vector<const void*> frees_after_launch_;
  std::atomic<bool> assert_failed_{false};  // set by the simulated threads, which blocks run on
  struct Managed {
    uintptr_t device;
    size_t bytes;
  };
  std::map<uintptr_t, Managed> managed_;  // by host address
  void move_managed(bool to_device) {
    for (const auto& [host, m] : managed_) {
      const Allocation& a = allocations_.at(m.device);
      sim::ArrayStore& store = simulator_.global(a.array);
      const int count = static_cast<int>(std::min<size_t>(m.bytes / a.element_size, static_cast<size_t>(store.size())));
      if (to_device) a.from_host(store, 0, reinterpret_cast<const void*>(host), count);
      else a.to_host(store, 0, reinterpret_cast<void*>(host), count);
    }
  }
  std::vector<HostCopy> host_copies_;
};

inline Device* current_device = nullptr;

template <class T>
void place_variable(Device& device, DeviceVariable& v) {
  using E = std::remove_cv_t<std::remove_all_extents_t<T>>;
  E* address = nullptr;
  device.allocate(v.name, &address, sizeof(T));
  int element = 0;
  v.array = device.find(address, &element)->array;
  v.address = reinterpret_cast<uintptr_t>(address);
  device.copy(address, v.initial, sizeof(T), cudaMemcpyHostToDevice);
}

// A __device__ variable in device code (the translator wraps every use): a number is its element
// (`counter += 1`, `atomicAdd(&counter, 1)`, with the line of the use), an array its pointer, a 2D
// array its rows.
template <class T, class Ctx>
[[gnu::always_inline]] inline auto device_memory(Ctx& c, const device_variable<T>& v,
                                                 sim::SourceLocation where = sim::SourceLocation::current()) {
  using E = std::remove_all_extents_t<T>;
  const ptr<E, Ctx> first(&c.runner(), &current_device->simulator().global(v.array), 0);
  if constexpr (std::rank_v<T> == 0) return first.at(0, where);
  else if constexpr (std::rank_v<T> == 1) return first;
  else return rows<E, Ctx>{first, static_cast<int>(std::extent_v<T, 1>)};
}

// A copy refused returns cudaErrorInvalidValue and nothing more; the student is told why, at the
// copy's line, on stderr (the launch's refusals are said the same way). All but one are CUDA's own
// refusals; a copy between arrays of other element sizes is the simulator's.
inline cudaError_t Device::refuse_copy(const char* file, int line, const std::string& why) {
  if (file) std::fprintf(stderr, "%s:%d: the copy returns cudaErrorInvalidValue: %s\n", file, line, why.c_str());
  else std::fprintf(stderr, "a copy at line %d returns cudaErrorInvalidValue: %s\n", line, why.c_str());
  return record(cudaErrorInvalidValue);
}

inline const char* memory_name(const Allocation* device_array) { return device_array ? "device memory" : "host memory"; }

inline cudaError_t Device::copy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, int line, const char* file) {
  if (broken_ != cudaSuccess) return broken();
  int to_element = 0, from_element = 0;
  const Allocation* to_device = find(to, &to_element);
  const Allocation* from_device = find(from, &from_element);
  const bool managed = managed_device_address(to) || managed_device_address(from);  // host memory between launches
  if (kind == cudaMemcpyHostToHost || ((kind == cudaMemcpyDefault || managed) && !to_device && !from_device)) {
    std::memmove(to, from, bytes);
    return cudaSuccess;
  }
  const bool host_to_device = kind == cudaMemcpyHostToDevice || (kind == cudaMemcpyDefault && to_device && !from_device);
  const bool device_to_host = kind == cudaMemcpyDeviceToHost || (kind == cudaMemcpyDefault && from_device && !to_device);
  const bool wrong_way = host_to_device ? (!to_device || from_device)
                       : device_to_host ? (!from_device || to_device)
                                        : (!to_device || !from_device);
  if (wrong_way) {
    static const char* const kinds[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost",
                                        "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault"};
    const int k = static_cast<int>(kind);
    return refuse_copy(file, line, std::string("it copies from ") + memory_name(from_device) + " to " + memory_name(to_device) +
                                       " but says " + (k >= 0 && k <= 4 ? kinds[k] : "another direction") +
                                       " (device memory is what cudaMalloc returned and cudaFree has not released)");
  }
  auto past_end = [&](const Allocation& a, int element) {
    return "its " + std::to_string(bytes) + " bytes go past the end of " + a.name + " (" + std::to_string(a.bytes) +
           " bytes" + (element ? ", from byte " + std::to_string(element * a.element_size) : std::string()) + ")";
  };
  if (host_to_device) {
    const int count = static_cast<int>(bytes / to_device->element_size);
    sim::ArrayStore& a = simulator_.global(to_device->array);
    if (to_element + count > a.size()) return refuse_copy(file, line, past_end(*to_device, to_element));
    to_device->from_host(a, to_element, from, count);
    return cudaSuccess;
  }
  if (device_to_host) {
    const int count = static_cast<int>(bytes / from_device->element_size);
    const sim::ArrayStore& a = simulator_.global(from_device->array);
    if (from_element + count > a.size()) return refuse_copy(file, line, past_end(*from_device, from_element));
    from_device->to_host(a, from_element, to, count);
    const auto* received = static_cast<const uint8_t*>(to);
    host_copies_.push_back({line, from_device->name, static_cast<uint32_t>(from_device->element_size),
                            std::vector<uint8_t>(received, received + count * from_device->element_size)});
    return cudaSuccess;
  }
  if (to_device->element_size != from_device->element_size)
    return refuse_copy(file, line, "its arrays hold elements of other sizes (" + std::string(from_device->name) + ", " +
                                       to_device->name + "): a GPU copies the bytes; syncscope copies only between arrays "
                                       "of one element size");
  const int count = static_cast<int>(bytes / to_device->element_size);
  sim::ArrayStore& target = simulator_.global(to_device->array);
  const sim::ArrayStore& source = simulator_.global(from_device->array);
  if (to_element + count > target.size()) return refuse_copy(file, line, past_end(*to_device, to_element));
  if (from_element + count > source.size()) return refuse_copy(file, line, past_end(*from_device, from_element));
  for (int k = 0; k < count; ++k) {
    target.bits[to_element + k] = source.bits[from_element + k];
    target.poison[to_element + k] = source.poison[from_element + k];
  }
  return cudaSuccess;
}

inline cudaError_t Device::fill(void* pointer, int value, size_t bytes) {
  if (broken_ != cudaSuccess) return broken();
  if (managed_device_address(pointer)) {
    std::memset(pointer, value, bytes);
    return cudaSuccess;
  }
  int element = 0;
  const Allocation* a = find(pointer, &element);
  if (!a) return record(cudaErrorInvalidValue);
  // cudaMemset sets bytes: every element of the range gets `value`'s low byte in each of its bytes.
  std::vector<unsigned char> host(bytes, static_cast<unsigned char>(value));
  sim::ArrayStore& store = simulator_.global(a->array);
  const int count = static_cast<int>(bytes / a->element_size);
  if (element + count > store.size()) return record(cudaErrorInvalidValue);
  a->from_host(store, element, host.data(), count);
  return cudaSuccess;
}

// A pointer argument as a launch holds it: its array and element (array -1: a null pointer).
template <class E>
struct DeviceArgument {
  using element_type = E;
  int array = -1;
  int offset = 0;
};

// Why a launch cannot pass an argument ("" where it can): a pointer's elements in cells of another
// size than the kernel's (an unsigned char array read as unsigned int: a GPU reads 4 of its bytes at
// a time, the simulator would read one cell, one byte).
// Internal to the translated program's own library, as device_variables().
namespace {
[[maybe_unused]] std::string& argument_refusal() {
  static std::string why;
  return why;
}
}  // namespace

template <class A>
auto launch_argument(const A& a) {
  if constexpr (std::is_pointer_v<A>) {
    using E = std::remove_cv_t<std::remove_pointer_t<A>>;
    DeviceArgument<E> d;
    if (a) {
      const Allocation* found = current_device->find_for_kernel(a, &d.offset);
      if (!found) return std::optional<DeviceArgument<E>>();
      if constexpr (!std::is_void_v<E>) {
        if (found->element_size != bytes_per_cell<E>) {
          argument_refusal() = "passes " + found->name + " (" + std::to_string(found->element_size) + "-byte elements) to a parameter of " +
                             std::to_string(sizeof(E)) + "-byte elements: a GPU would read its bytes " + std::to_string(sizeof(E)) +
                             " at a time, which syncscope does not simulate (each element is a cell of its own); give the "
                             "parameter the allocation's element type, or cudaMalloc through a pointer of the parameter's type";
          return std::optional<DeviceArgument<E>>();
        }
      }
      d.array = found->array;
    }
    return std::optional<DeviceArgument<E>>(d);
  } else {
    return std::optional<A>(a);
  }
}

template <class Ctx, class A>
[[gnu::always_inline]] inline auto thread_argument(Ctx& c, sim::Simulator& simulator, const A& a) {
  if constexpr (requires { typename A::element_type; a.array; }) {
    using E = typename A::element_type;
    if (a.array < 0) return ptr<E, Ctx>(&c.runner(), nullptr, 0);  // null: its use says so at its line
    return ptr<E, Ctx>(&c.runner(), &simulator.global(a.array), a.offset);
  } else if constexpr (std::is_null_pointer_v<A>) {
    return null_pointer_argument{&c.runner()};
  } else {
    return a;
  }
}

template <class Kernel, class... A>
struct LaunchClosure {
  sim::Simulator* simulator;
  Kernel kernel;
  std::tuple<A...> arguments;
};

template <class Ctx, class Kernel, class... A>
[[gnu::always_inline]] inline void run_closure(void* closure, sim::BlockRunner& runner, int thread) {
  auto& k = *static_cast<LaunchClosure<Kernel, A...>*>(closure);
  Ctx c(runner, thread);
  std::apply([&](const A&... a) { k.kernel(c, thread_argument(c, *k.simulator, a)...); }, k.arguments);
}

template <class Kernel, class... A>
void run_thread(void* closure, sim::BlockRunner& runner, int thread) {
  run_closure<sim::SimCtx, Kernel, A...>(closure, runner, thread);
}

// The kernel's SIMT twin (sim/simt.h), in the same unit: the translator has the kernel report its
// own program positions (cu::simt_position), so the unit needs no coverage flags, which would slow
// every other block's plain run too (x2.2 for Kogge-Stone at n = 2^18).
template <class Kernel, class... A>
void run_thread_simt(void* closure, sim::BlockRunner& runner, int thread) {
  run_closure<sim::SimtCtx, Kernel, A...>(closure, runner, thread);
}

inline Dim3 dims_of(const dim3& d) { return {static_cast<int>(d.x), static_cast<int>(d.y), static_cast<int>(d.z)}; }

// `kernel<<<grid, block, shared>>>` waiting for its arguments.
template <class Kernel>
struct Launch {
  Kernel kernel;
  const char* name;
  dim3 grid, block;
  size_t shared;
  sim::SourceLocation where;

  template <class... A>
  void operator()(const A&... arguments) const {
    Device& device = *current_device;
    if (device.broken() != cudaSuccess) return;
    const Device::LaunchInFlight in_flight(device);
    // What the CUDA runtime refuses with cudaErrorInvalidConfiguration: said here at the launch's line.
    const unsigned long long threads = 1ull * block.x * block.y * block.z;
    std::string refused;
    if (threads == 0 || threads > 1024)
      refused = "a block of " + std::to_string(block.x) + "x" + std::to_string(block.y) + "x" + std::to_string(block.z) + " = " +
                std::to_string(threads) + " threads; a block has 1 to 1024";
    else if (block.z > 64) refused = "block z = " + std::to_string(block.z) + "; at most 64";
    else if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.y > 65535 || grid.z > 65535)
      refused = "a grid of " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z) +
                "; every size is 1 or more (y and z at most 65535)";
    else if (shared > 48 * 1024)
      refused = std::to_string(shared) + " bytes of dynamic shared memory; a block has at most 49152 (more, opted into "
                "with cudaFuncSetAttribute on a GPU, is not simulated)";
    if (!refused.empty()) {
      std::fprintf(stderr, "%s:%u: the launch of %s is refused (invalid configuration): %s\n", where.file_name(),
                   where.line(), name, refused.c_str());
      device.record(cudaErrorInvalidConfiguration);
      return;
    }
    if (const int most = launch_bounds_of(name); most > 0 && threads > static_cast<unsigned>(most)) {
      // What an H200 answers (cudaErrorInvalidValue), measured 2026-11-29.
      std::fprintf(stderr, "%s:%u: the launch of %s is refused (invalid argument): %llu threads a block, and its "
                   "__launch_bounds__ allows %d\n", where.file_name(), where.line(), name, threads, most);
      device.record(cudaErrorInvalidValue);
      return;
    }
    auto bound = std::make_tuple(launch_argument(arguments)...);
    bool host_pointer = false;
    std::apply([&](const auto&... b) { ((host_pointer = host_pointer || !b.has_value()), ...); }, bound);
    if (host_pointer) {
      if (argument_refusal().empty())
        std::fprintf(stderr, "%s:%u: the launch of %s passes a pointer that cudaMalloc did not return (host memory?)\n",
                     where.file_name(), where.line(), name);
      else
        std::fprintf(stderr, "%s:%u: the launch of %s %s\n", where.file_name(), where.line(), name, argument_refusal().c_str());
      argument_refusal().clear();
      device.record(cudaErrorInvalidValue);
      return;
    }
    using Closure = LaunchClosure<Kernel, typename std::decay_t<decltype(*launch_argument(arguments))>...>;
    Closure closure{&device.simulator(), kernel, std::apply([](const auto&... b) { return std::make_tuple(*b...); }, bound)};
    // Static __shared__ arrays are carved as the kernel declares them: the launch offers the most a
    // block may have, the dynamic bytes on top (the simulator refuses more than a block can have).
    launch_dynamic_shared_bytes = static_cast<int>(shared);
    const int offered = shared > 48 * 1024 ? static_cast<int>(std::min<size_t>(shared, 1 << 30)) : 48 * 1024;
    device.managed_to_device();
    device.simulator().launch(name, dims_of(grid), dims_of(block), offered,
                              &run_thread<Kernel, typename std::decay_t<decltype(*launch_argument(arguments))>...>,
                              &run_thread_simt<Kernel, typename std::decay_t<decltype(*launch_argument(arguments))>...>, &closure);
    device.managed_to_host();
    if (device.simulator().failed()) device.fail_launch();
  }
};

// Streams: every launch and copy runs when the host issues it, in that order, whatever its stream.
// That is one order a GPU may run them in; kernels of two streams that would overlap there are not
// checked against each other, which the first launch on a stream says once.
inline void note_stream(const void* stream, const char* file, unsigned line) {
  static bool said = false;
  if (!stream || said) return;
  said = true;
  std::fprintf(stderr, "%s:%u: note: streams run one after another in the simulator, in the order main() issues "
               "their work: kernels that could overlap on a GPU are not checked against each other\n",
               file, line);
}

template <class Kernel>
Launch<Kernel> launch(Kernel kernel, const char* name, dim3 grid, dim3 block, size_t shared, const void* stream = nullptr,
                      sim::SourceLocation where = sim::SourceLocation::current()) {
  note_stream(stream, where.file_name(), where.line());
  return {kernel, name, grid, block, shared, where};
}

}  // namespace syncscope::cu

template <class E>
cudaError_t cudaMalloc(E** pointer, size_t bytes) {
  return syncscope::cu::current_device->allocate("device array", pointer, bytes);
}
inline cudaError_t cudaMalloc(void**, size_t) { return syncscope::cu::current_device->record(cudaErrorInvalidValue); }
template <class E>
cudaError_t syncscope_cuda_malloc_named(const char* name, E** pointer, size_t bytes) {
  return syncscope::cu::current_device->allocate(name, pointer, bytes);
}
template <class E>
cudaError_t cudaMallocManaged(E** pointer, size_t bytes, unsigned int = 1) {
  return syncscope::cu::current_device->allocate_managed("managed array", pointer, bytes);
}
template <class E>
cudaError_t syncscope_cuda_malloc_managed_named(const char* name, E** pointer, size_t bytes, unsigned int = 1) {
  return syncscope::cu::current_device->allocate_managed(name, pointer, bytes);
}
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
// In a simulated thread it is a host destructor run on a kernel's copy of a by-value argument (CUDA
// by Example's Lock frees its mutex in ~Lock): a GPU runs no host code there, so nothing is freed.
inline cudaError_t cudaFree(void* pointer) {
  if (syncscope::sim::tls_running_block) return cudaSuccess;
  return syncscope::cu::current_device->free(pointer);
}
// __builtin_LINE(): the caller's line (the translation keeps the .cu's), named beside a copy to
// the host that the GPU's run received otherwise.
inline cudaError_t cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, int line = __builtin_LINE(),
                              const char* file = __builtin_FILE()) {
  return syncscope::cu::current_device->copy(to, from, bytes, kind, line, file);
}
// A __device__ variable's copies are those of its global array (DeviceVariable); a __constant__
// variable is host memory in the simulation (core/cuda_in/cu_device.h): copies into and out of it
// from the host are plain copies, within the variable's bytes. A device array as the source or
// target of a __constant__ copy (cudaMemcpyDeviceToDevice) is not simulated: cudaErrorInvalidValue.
// A copy to the host is kept (as the GPU's run records cudaMemcpyFromSymbol too) with the caller's line.
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* from, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  auto& device = *syncscope::cu::current_device;
  if (offset > sizeof(T) || bytes > sizeof(T) - offset) return device.record(cudaErrorInvalidValue);
  if (const uintptr_t address = syncscope::cu::Device::variable_address(&symbol))
    return device.copy(reinterpret_cast<void*>(address + offset), from, bytes, kind);
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault) return device.record(cudaErrorInvalidValue);
  std::memcpy(reinterpret_cast<unsigned char*>(&symbol) + offset, from, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* to, const T& symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost, int line = __builtin_LINE()) {
  auto& device = *syncscope::cu::current_device;
  if (offset > sizeof(T) || bytes > sizeof(T) - offset) return device.record(cudaErrorInvalidValue);
  if (const uintptr_t address = syncscope::cu::Device::variable_address(&symbol))
    return device.copy(to, reinterpret_cast<const void*>(address + offset), bytes, kind, line);
  int element = 0;
  const bool to_device = device.find(to, &element) != nullptr;
  if (to_device || (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDefault)) return device.record(cudaErrorInvalidValue);
  std::memcpy(to, reinterpret_cast<const unsigned char*>(&symbol) + offset, bytes);
  device.note_host_copy(line, "__constant__ memory", sizeof(std::remove_all_extents_t<T>), to, bytes);
  return cudaSuccess;
}
// The device address of a __device__ variable (of a __constant__ one: not simulated).
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
  const uintptr_t found = syncscope::cu::Device::variable_address(&symbol);
  if (!address || !found) return syncscope::cu::current_device->record(cudaErrorInvalidValue);
  *address = reinterpret_cast<void*>(found);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(size_t* bytes, const T&) {
  return bytes ? (*bytes = sizeof(T), cudaSuccess) : syncscope::cu::current_device->record(cudaErrorInvalidValue);
}
inline cudaError_t cudaMemset(void* pointer, int value, size_t bytes) {
  return syncscope::cu::current_device->fill(pointer, value, bytes);
}
inline cudaError_t cudaDeviceSynchronize() { return syncscope::cu::current_device->peek_last_error(); }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return syncscope::cu::current_device->take_last_error(); }
inline cudaError_t cudaPeekAtLastError() { return syncscope::cu::current_device->peek_last_error(); }
inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorAssert: return "device-side assert triggered";
    default: return "unspecified launch failure";
  }
}
inline const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    default: return "cudaErrorUnknown";
  }
}
