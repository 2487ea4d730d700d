#!/usr/bin/env bash
# CUDA as people write it, beyond the corpus's conventions (tests/cuda/README.md): how a program
# stops early (a runaway recursion, assert() in device and host code, exit(), abort()), each said at
# the .cu's own line; `*p` or `p[i].x` written as a macro's argument; what nvcc's implicit headers
# give (INT_MAX); `extern "C"` kernels; the runtime's device queries, occupancy and unified memory's
# hints.
# Usage: cuda_programs_as_written.sh path/to/syncscope
set -euo pipefail
APP=$(realpath "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SYNCSCOPE_CACHE_DIR="$WORK/cache"
source "$(dirname "$0")/test_lib.sh"
skip_unless_translating
mkdir -p "$WORK/simt"
# A runaway recursion in a __device__ function is a stack overflow named at its line under every
# schedule. Under lockstep the stack runs out inside the runner's code (each call reports its
# position); its frames have no frame-pointer chain, and looking for the line there once went to a
# debuginfod client, whose socket the sandbox refused: "the kernel tried to open a network socket".
cat >"$WORK/simt/recursion.cu" <<'CU'
#include <cstdio>
__device__ int down(int n) { if (n < 0) return 0; return down(n + 1) + 1; }
__global__ void k(int *p)
{
    int t = threadIdx.x;
    if (t == 3) p[t] = down(t);
}
int main() { int *d; cudaMalloc(&d, 64 * sizeof(int)); k<<<1, 32>>>(d); cudaError_t e = cudaDeviceSynchronize(); printf("%s\n", cudaGetErrorString(e)); return 0; }
CU
for schedule in lockstep forward; do
  out=$("$APP" run "$WORK/simt/recursion.cu" --schedule "$schedule" 2>&1) && fail "recursion.cu under $schedule passed: $out"
  grep -q "crashed: stack overflow in T3 (recursion at recursion.cu:2?)" <<<"$out" ||
    fail "recursion.cu under $schedule: no stack overflow at line 2: $out"
done
# A student's folder named like the simulator's own (sim/) is still the student's.
mkdir -p "$WORK/sim" && cp "$WORK/simt/recursion.cu" "$WORK/sim/recursion.cu"
out=$("$APP" run "$WORK/sim/recursion.cu" 2>&1) && fail "sim/recursion.cu passed: $out"
grep -q "crashed: stack overflow in T3 (recursion at recursion.cu:2?)" <<<"$out" || fail "a .cu in a folder named sim: no line: $out"
pass "a runaway recursion in a __device__ function: a stack overflow at its line under lockstep and forward, in a folder named sim/ too"

# How a program stops early (core/cuda_in/cu_exit.h). A device assert() fails its launch with
# cudaErrorAssert, and every later call with it, as on a GPU; the error names the thread, the test
# and the line (through a macro and a __host__ __device__ function too). exit() in host code ends
# main() with its status and keeps the launches so far, with no exception a catch (...) could take
# and no macro that a field named exit meets; a failed host assert() ends it as abort() does; a
# program's own NDEBUG turns its asserts off, as under nvcc (which defines none).
cat >"$WORK/simt/asserts.cu" <<'CU'
#include <cstdio>
#include <cstdlib>
#include <cassert>
__host__ __device__ int twice(int x) { assert(x < 100); return 2 * x; }
#define CHECK(c) assert(c)
template <int N>
__global__ void k(int *p)
{
    int t = threadIdx.x;
    CHECK(t < N);
    p[t] = twice(t);
} struct Span { int entry, exit; Span(int a, int b) : entry(a), exit(b) {} };
int main(int argc, char **argv)
{
    int *d, h[32];
    cudaMalloc(&d, 32 * sizeof(int));
    k<32><<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("first: %d %s\n", h[31], cudaGetErrorName(cudaGetLastError()));
    k<16><<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("second: %s, %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    printf("copy after it: %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)));
    if (argc > 5) return 0;
    try { Span s(1, 2); int _c = s.exit; exit(e == cudaErrorAssert ? 6 + _c / 2 : 1); } catch (...) { return 99; }
}
CU
for schedule in lockstep forward; do
  out=$("$APP" run "$WORK/simt/asserts.cu" --schedule "$schedule" 2>&1) || true
  for want in "first: 62 cudaSuccess" "second: cudaErrorAssert, device-side assert triggered" "copy after it: cudaErrorAssert" \
              "launches: 2" "main() returned 7, after a launch failed"; do
    grep -qF "$want" <<<"$out" || fail "asserts.cu under $schedule: no '$want': $out"
  done
  grep -qE "^error: thread (1[6-9]|2[0-9]|3[01]) of block 0: assertion \`t < N\` failed at .*asserts.cu:10 " <<<"$out" ||
    fail "asserts.cu under $schedule: the error names no thread, test and line: $out"
done
sed -i 's/^    if (argc > 5) return 0;/    assert(argc > 5);/' "$WORK/simt/asserts.cu"
out=$("$APP" run "$WORK/simt/asserts.cu" 2>&1) || true
grep -qF "asserts.cu:24: int main(int, char**): Assertion \`argc > 5' failed." <<<"$out" || fail "a host assert: no message: $out"
grep -qF "main() returned 134" <<<"$out" || fail "a host assert: main() did not end as abort() does: $out"
sed -i '1i #define NDEBUG' "$WORK/simt/asserts.cu"
out=$("$APP" run "$WORK/simt/asserts.cu" 2>&1) || true
grep -qF "second: cudaSuccess, no error" <<<"$out" || fail "NDEBUG did not turn the asserts off: $out"
sed -i 's/^    assert(argc > 5);/    abort();/' "$WORK/simt/asserts.cu"
out=$("$APP" run "$WORK/simt/asserts.cu" 2>&1) || true
grep -qF "launches: 2" <<<"$out" && grep -qF "main() returned 134" <<<"$out" || fail "abort() in main: $out"
# A __host__ __device__ function has no kernel context: its assert, run by a kernel, still fails
# the thread (it once threw main()'s exit through the kernel and terminated the worker).
cat >"$WORK/simt/host_device_assert.cu" <<'CU'
#include <cstdio>
#include <cassert>
__host__ __device__ int twice(int x) { assert(x < 100); return 2 * x; }
__global__ void k(int *p) { p[threadIdx.x] = twice(threadIdx.x * 10); }
int main() { int *d; cudaMalloc(&d, 32 * sizeof(int)); k<<<1, 32>>>(d); printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize())); return 0; }
CU
out=$("$APP" run "$WORK/simt/host_device_assert.cu" 2>&1) || true
grep -qx "cudaErrorAssert" <<<"$out" && grep -qE "^error: thread [0-9]+ of block 0: assertion \`x < 100\` failed at .*host_device_assert.cu:3 " <<<"$out" ||
  fail "an assert in a __host__ __device__ function run by a kernel: $out"
pass "assert() and exit(): a device assert fails its launch with cudaErrorAssert at its line; exit() ends main() with its status; NDEBUG as under nvcc"

# `*p` and `p[i].x` written as a macro's argument are edited where they are written, once, though
# the macro uses its argument twice (SQ); an assert of them is checked. One written in a macro's own
# definition is refused at its line, once.
cat >"$WORK/simt/macro_args.cu" <<'CU'
#include <cassert>
#include <cstdio>
#define SQ(x) ((x) * (x))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
struct P { int x; int y; };
__global__ void k(int *p, P *q, int *out)
{
    int i = threadIdx.x;
    assert(*p == 3);
    assert(q[i].x < LIMIT);
    out[i] = SQ(*p) + MAX2(q[i].x, q[i].y);
}
int main()
{
    int h = 3, out[4];
    P hq[4] = {{1, 5}, {7, 2}, {0, 0}, {4, 4}};
    int *dp, *dout;
    P *dq;
    cudaMalloc(&dp, sizeof(int)); cudaMalloc(&dq, sizeof(hq)); cudaMalloc(&dout, sizeof(out));
    cudaMemcpy(dp, &h, sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice);
    k<<<1, 4>>>(dp, dq, dout);
    cudaError_t e = cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
    printf("%s: %d %d %d %d\n", cudaGetErrorName(e), out[0], out[1], out[2], out[3]);
    return e == cudaSuccess && out[0] == 14 && out[1] == 16 && out[2] == 9 && out[3] == 13 ? 0 : 1;
}
CU
sed 's/LIMIT/100/' "$WORK/simt/macro_args.cu" >"$WORK/simt/macro_args_pass.cu"
out=$("$APP" run "$WORK/simt/macro_args_pass.cu" 2>&1) || fail "macro arguments: $out"
grep -qx "cudaSuccess: 14 16 9 13" <<<"$out" || fail "macro arguments: the values: $out"
sed 's/LIMIT/5/' "$WORK/simt/macro_args.cu" >"$WORK/simt/macro_args_fail.cu"
out=$("$APP" run "$WORK/simt/macro_args_fail.cu" 2>&1) && fail "a failed field assert passed: $out"
grep -qE "^error: thread 1 of block 0: assertion \`q\[i\]\.x < 5\` failed at .*macro_args_fail.cu:10 " <<<"$out" ||
  fail "a failed assert of a field: no thread, test and line: $out"
sed 's/^#define SQ(x) ((x) \* (x))/#define SQ(x) ((*x) * (*x))/; s/SQ(\*p)/SQ(p)/; s/LIMIT/100/' "$WORK/simt/macro_args.cu" >"$WORK/simt/macro_body.cu"
set +e
out=$("$APP" run "$WORK/simt/macro_body.cu" 2>&1)
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "a '*' in a macro's definition: exit $rc: $out"
[[ $(grep -c "macro_body.cu:11:.*error: a '\*' written inside a macro's definition" <<<"$out") -eq 1 ]] ||
  fail "a '*' in a macro's definition: not said once at line 11: $out"
pass "*p and q[i].x as macro arguments: translated once (SQ(*p) = 9), a field's assert fails at :10; a '*' in a macro's body refused at :11"

# nvcc's implicit headers give limits.h; `extern "C"` around kernels (alone and as a block with a
# host function) goes, as a kernel becomes a template; the device's attributes, occupancy, a
# kernel's attributes and unified memory's hints are the runtime's calls, a kernel named as a value.
cat >"$WORK/simt/as_written.cu" <<'CU'
#include <cstdio>
extern "C" __global__ void fill(float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * i; }
extern "C" {
__device__ int twice(int x) { return 2 * x; }
__global__ void count(int *c) { if (threadIdx.x == 0) c[0] = twice(INT_MAX / 4); }
int plusOne(int v) { return v + 1; }
}
int main()
{
    int minGrid = 0, block = 0, numSMs = 0, perSM = 0, c = 0;
    const int n = 3000;
    float *y, h[3000];
    int *dc;
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMalloc(&dc, sizeof(int));
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, fill, 0, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, fill, 256, 0);
    cudaDeviceGetAttribute(&numSMs, cudaDevAttrMultiProcessorCount, 0);
    cudaFuncSetAttribute(count, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    cudaFuncSetCacheConfig(&count, cudaFuncCachePreferShared);
    cudaMemLocation here = {};
    here.type = cudaMemLocationTypeDevice;
    cudaMemPrefetchAsync(y, n * sizeof(float), here, 0, 0);
    fill<<<(n + block - 1) / block, block>>>(y, n);
    count<<<1, 32>>>(dc);
    cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost);
    cudaDeviceSynchronize();
    memcpy(h, y, sizeof h);
    bool ok = h[2999] == 5998.0f && c == 2 * (INT_MAX / 4) && plusOne(1) == 2 && numSMs >= 1 && block >= 32 && perSM >= 1;
    printf("SMs %d, block %d, %d blocks of 256 an SM, c = %d: %s\n", numSMs, block, perSM, c, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/simt/as_written.cu" 2>&1) || fail "as_written.cu: $out"
grep -qx "SMs 1, block 1024, 8 blocks of 256 an SM, c = 1073741822: PASS" <<<"$out" || fail "as_written.cu: $out"
pass "INT_MAX with no #include, extern \"C\" kernels, cudaDeviceGetAttribute, occupancy, cudaFuncSetAttribute, cudaMemPrefetchAsync"

# Vectorized access: reinterpret_cast<int4 *>(out)[i] = reinterpret_cast<const int4 *>(in)[i] copies
# four cells at a time (the corpus's vectorized_copy_float4.cu); its tail bug is out of bounds at its
# line; a float4 made at a float's offset 1 is a misaligned address, said at its line.
CORPUS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tail_line=$(grep -n "out\[rest\] = in\[rest\]" "$CORPUS/vectorized_copy_float4.cu" | cut -d: -f1)
out=$("$APP" run "$CORPUS/vectorized_copy_float4.cu" --bug tail-past-end 2>&1) || fail "vectorized_copy_float4.cu tail-past-end: $out"
grep -q "^error: out-of-bounds write of dOut\[1030\] at .*vectorized_copy_float4.cu:$tail_line " <<<"$out" ||
  fail "vectorized_copy_float4.cu tail-past-end: no write past dOut at :$tail_line: $out"
cat >"$WORK/simt/misaligned.cu" <<'CU'
#include <cstdio>
__global__ void k(const float *in, float *out) { float4 v = reinterpret_cast<const float4 *>(in + 1)[0]; out[threadIdx.x] = v.x; }
int main() { float *a, *b; cudaMalloc(&a, 64 * sizeof(float)); cudaMalloc(&b, 64 * sizeof(float)); k<<<1, 4>>>(a, b); printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize())); return 0; }
CU
out=$("$APP" run "$WORK/simt/misaligned.cu" 2>&1) && fail "a misaligned float4 passed: $out"
grep -q "accessed a 16-byte element at byte 4 of a at .*misaligned.cu:2 (a misaligned address on a GPU)" <<<"$out" ||
  fail "a misaligned float4: $out"
pass "reinterpret_cast<int4 *> views: the tail bug writes dOut[1030] at :$tail_line; a float4 at byte 4 is misaligned at :2"

# Blocks that order their accesses with __threadfence() and atomics (the Programming Guide's
# last-block sum, CUDA by Example's lock): the race between them is a warning that says so, not an
# error telling the student to split the launch; without the __threadfence() it stays an error.
tf="$CORPUS/threadfence_reduction.cu"
write_line=$(grep -n "result\[blockIdx.x\] = " "$tf" | head -1 | cut -d: -f1)
out=$("$APP" run "$tf" 2>&1) || fail "threadfence_reduction.cu: $out"
grep -q "^error:" <<<"$out" && fail "threadfence_reduction.cu: an error on the correct program: $out"
grep -q "^warning: cross-block race (RAW) between write at .*threadfence_reduction.cu:$write_line and read at .* that their __threadfence() and atomics may order" <<<"$out" ||
  fail "threadfence_reduction.cu: no warning that the fence and atomics may order the partial sums: $out"
out=$("$APP" run "$tf" --bug no-threadfence 2>&1) || fail "threadfence_reduction.cu no-threadfence: $out"
grep -q "^error: cross-block race (RAW) between write at .*threadfence_reduction.cu:$write_line and read at " <<<"$out" ||
  fail "threadfence_reduction.cu no-threadfence: the race is not an error: $out"
# __threadfence_block() orders nothing between blocks: the same program with it is still an error;
# so is a block's write before its own atomic (it acquired nothing yet).
sed 's/__threadfence();/__threadfence_block();/' "$tf" >"$WORK/simt/fence_block.cu"
out=$("$APP" run "$WORK/simt/fence_block.cu" 2>&1) || fail "fence_block.cu: $out"
grep -q "^error: cross-block race (RAW) between write at .*fence_block.cu:$write_line and read at " <<<"$out" ||
  fail "__threadfence_block() softened a race between blocks: $out"
cat >"$WORK/simt/same_cell.cu" <<'CU'
#include <cstdio>
__global__ void k(float *res, unsigned int *done)
{
    if (threadIdx.x == 0) {
        res[0] = blockIdx.x;
        __threadfence();
        atomicAdd(done, 1u);
    }
}
int main() { float *r; unsigned int *d; cudaMalloc(&r, 4 * sizeof(float)); cudaMalloc(&d, sizeof(unsigned int)); k<<<4, 32>>>(r, d); cudaDeviceSynchronize(); return 0; }
CU
out=$("$APP" run "$WORK/simt/same_cell.cu" 2>&1) || fail "same_cell.cu: $out"
grep -q "^error: cross-block race (WAW) between write at .*same_cell.cu:5 and write at .*same_cell.cu:5" <<<"$out" ||
  fail "a write before the block's own atomic was softened: $out"
cat >"$WORK/simt/lock.cu" <<'CU'
#include <cstdio>
__global__ void k(int *mutex, volatile float *c) {
    if (threadIdx.x == 0) {
        while (atomicCAS(mutex, 0, 1) != 0) { }
        __threadfence();
        *c = *c + 1.0f;
        __threadfence();
        atomicExch(mutex, 0);
    }
}
int main() {
    int *mutex; float *c, r = 0;
    cudaMalloc(&mutex, sizeof(int)); cudaMalloc(&c, sizeof(float));
    cudaMemset(mutex, 0, sizeof(int)); cudaMemset(c, 0, sizeof(float));
    k<<<4, 32>>>(mutex, c);
    cudaMemcpy(&r, c, sizeof(float), cudaMemcpyDeviceToHost);
    printf("%g\n", r);
    return r != 4;
}
CU
out=$("$APP" run "$WORK/simt/lock.cu" 2>&1) || fail "lock.cu: $out"
grep -q "^error:\|atomicAdd" <<<"$out" && fail "lock.cu: a lock's critical section is called an error or a lost update: $out"
grep -q "^warning: cross-block race (WAW) .*lock.cu:6 .* may order" <<<"$out" || fail "lock.cu: no warning at :6: $out"
# CUDA by Example's Lock: a struct whose __device__ methods use its own pointer field, passed to the
# kernel by value, whose host destructor frees the mutex (after the kernel on a GPU, whose cudaFree
# waits for it: once, and cudaGetLastError() says no error). It has no __threadfence(): an error.
cat >"$WORK/simt/book_lock.cu" <<'CU'
#include <cstdio>
struct Lock {
    int *mutex;
    Lock(void) { cudaMalloc((void **)&mutex, sizeof(int)); cudaMemset(mutex, 0, sizeof(int)); }
    ~Lock(void) { cudaFree(mutex); }
    __device__ void lock(void) { while (atomicCAS(mutex, 0, 1) != 0); }
    __device__ void unlock(void) { atomicExch(mutex, 0); }
};
__global__ void add(Lock lock, float *c)
{
    if (threadIdx.x == 0) {
        lock.lock();
        *c += 1.0f;
        lock.unlock();
    }
}
int main(void)
{
    float *dc, c = 0;
    cudaMalloc((void **)&dc, sizeof(float));
    cudaMemcpy(dc, &c, sizeof(float), cudaMemcpyHostToDevice);
    Lock lock;
    add<<<8, 64>>>(lock, dc);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    cudaMemcpy(&c, dc, sizeof(float), cudaMemcpyDeviceToHost);
    printf("c = %g\n", c);
    return c == 8 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/simt/book_lock.cu" 2>&1) || fail "book_lock.cu: $out"
grep -qx "c = 8" <<<"$out" && grep -qx "no error" <<<"$out" || fail "book_lock.cu: $out"
grep -q "^error: cross-block race (RAW) between write at .*book_lock.cu:13 and read at .*book_lock.cu:13 " <<<"$out" ||
  fail "book_lock.cu: no error without a fence: $out"
pass "fences and atomics between blocks: a warning for the last-block sum and a fenced lock; an error without the __threadfence(), with __threadfence_block(), for a write before the block's atomic; the book's Lock struct runs"

# A copy CUDA refuses (cudaErrorInvalidValue) is said at its line: the direction written the wrong
# way round, a size past the array's end.
cat >"$WORK/simt/copies.cu" <<'CU'
#include <cstdio>
int main()
{
    int *d, h[64] = {0};
    cudaMalloc(&d, 32 * sizeof(int));
    cudaError_t wrongWay = cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaError_t tooLong = cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    printf("%s %s\n", cudaGetErrorName(wrongWay), cudaGetErrorName(tooLong));
    return 0;
}
CU
out=$("$APP" run "$WORK/simt/copies.cu" 2>&1) || fail "copies.cu: $out"
grep -qx "cudaErrorInvalidValue cudaErrorInvalidValue" <<<"$out" || fail "copies.cu: the errors: $out"
grep -q "copies.cu:6: the copy returns cudaErrorInvalidValue: it copies from host memory to device memory but says cudaMemcpyDeviceToHost" <<<"$out" ||
  fail "copies.cu: the wrong direction is not said at :6: $out"
grep -q "copies.cu:7: the copy returns cudaErrorInvalidValue: its 256 bytes go past the end of d (128 bytes)" <<<"$out" ||
  fail "copies.cu: the size past the end is not said at :7: $out"
pass "a refused cudaMemcpy is said at its line: the wrong direction (:6), past the array's end (:7)"

# Host code that dereferences a cudaMalloc'ed pointer dies as on a real machine; the message says so
# at its line (it said "the kernel wrote outside its memory").
cat >"$WORK/simt/host_deref.cu" <<'CU'
#include <cstdio>
int main()
{
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    printf("%d\n", d[0]);
    return 0;
}
CU
out=$("$APP" run "$WORK/simt/host_deref.cu" 2>&1) && fail "host_deref.cu passed: $out"
grep -q "^error: host code read or wrote device memory through a pointer cudaMalloc returned at host_deref.cu:6, .*cudaMemcpy" <<<"$out" ||
  fail "host_deref.cu: $out"
grep -q "^match: no (the run stopped before main() returned" <<<"$out" || fail "host_deref.cu: the match line: $out"
pass "host code dereferencing device memory is said at its line"

# Headers: one beside the .cu is found by #include <...> too (nvcc's build has -I there); a missing
# CUDA Samples helper says where syncscope looks and what to do; an unsimulated library's #error is
# the one error (not followed by the errors its missing names cause).
mkdir -p "$WORK/inc"
printf '#define CHECK(x) do { if ((x) != cudaSuccess) return 1; } while (0)\n' >"$WORK/inc/mycheck.h"
printf '#include <mycheck.h>\n__global__ void k(int *p) { p[0] = 1; }\nint main() { int *d; CHECK(cudaMalloc(&d, 4)); k<<<1, 1>>>(d); CHECK(cudaDeviceSynchronize()); return 0; }\n' >"$WORK/inc/useit.cu"
out=$("$APP" run "$WORK/inc/useit.cu" 2>&1) || fail "#include <mycheck.h> beside the .cu: $out"
printf '#include <helper_cuda.h>\nint main() { return 0; }\n' >"$WORK/inc/samples.cu"
set +e
out=$("$APP" run "$WORK/inc/samples.cu" 2>&1)
rc=$?
set -e
[[ $rc -eq 2 ]] && grep -q "samples.cu:1:10: error: 'helper_cuda.h' file not found: .*CUDA Samples" <<<"$out" || fail "helper_cuda.h: exit $rc: $out"
printf '#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int *p) { cg::thread_block b = cg::this_thread_block(); b.sync(); }\nint main() { return 0; }\n' >"$WORK/inc/cg.cu"
set +e
out=$("$APP" run "$WORK/inc/cg.cu" 2>&1)
rc=$?
set -e
[[ $rc -eq 2 && $(grep -c "error:" <<<"$out") -eq 1 ]] && grep -q "cg.cu:1:10: error: .*cooperative groups are not simulated" <<<"$out" ||
  fail "cooperative groups: not one error at :1: $out"
pass "#include <header beside the .cu>; a missing helper_cuda.h says what to do; cooperative groups refused once"

# A uchar4 inside a struct of the student's is refused at its line with what to do (a struct's cells
# are 4 bytes; a uchar4's are 1).
printf 'struct Px { uchar4 c; int n; };\n__global__ void grey(const Px *px, unsigned char *out) { out[threadIdx.x] = px[threadIdx.x].c.x; }\nint main() { return 0; }\n' >"$WORK/simt/pixels.cu"
expect_refused "$WORK/simt/pixels.cu" \
  "pixels.cu:2:32: error: 'px' points to Px, whose field 'c' is a uchar4, CUDA's vector of bytes: syncscope simulates arrays of them, not one inside a struct" \
  "uchar4 in a struct"
pass "a uchar4 inside a struct in device memory is refused at its line with what to do"

# The review's reproducers (each failed to compile before its mend): reinterpret_cast of a __shared__
# array, NULL in a macro's definition, nested fields in one macro argument, overloads of a dependent
# call, a parenthesized kernel in a launch. Each program checks itself: main() returns 0.
mkdir -p "$WORK/review"
cat >"$WORK/review/cast_shared.cu" <<'CU'
#include <cstdio>
__global__ void k(const float *in, float *out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  reinterpret_cast<float4 *>(tile)[t] = reinterpret_cast<const float4 *>(in)[t];
  __syncthreads();
  out[t] = tile[127 - t];
}
int main() {
  float h[128]; for (int i = 0; i < 128; ++i) h[i] = i;
  float *in, *out; cudaMalloc(&in, sizeof h); cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(in, out);
  cudaMemcpy(h, out, 32 * 4, cudaMemcpyDeviceToHost);
  return h[0] == 127 ? 0 : 1;
}
CU
cat >"$WORK/review/null_macro.cu" <<'CU'
#define SKIP_IF_NULL(p) if ((p) == NULL) return
__global__ void k(float *out) {
  SKIP_IF_NULL(out);
  out[threadIdx.x] = 1.0f;
}
int main() {
  float *d; cudaMalloc(&d, 32 * 4);
  k<<<1, 32>>>(d);
  float h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  return h[31] == 1.0f ? 0 : 1;
}
CU
cat >"$WORK/review/nested_field_macro.cu" <<'CU'
struct In { float v; float w; };
struct Out { In a; float b; float c; };
#define ID(x) (x)
__global__ void k(const Out *q, float *o) { int i = threadIdx.x; o[i] = ID(q[i].a.v); }
int main() {
  Out h[32]; for (int i = 0; i < 32; ++i) h[i] = {{float(i), 0.f}, 0.f, 0.f};
  Out *d; float *o; cudaMalloc(&d, sizeof h); cudaMalloc(&o, 32 * 4);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d, o);
  float r[32]; cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  return r[31] == 31.f ? 0 : 1;
}
CU
cat >"$WORK/review/overloads.cu" <<'CU'
template <class T> __device__ T get(const T *p, int i) { return p[i]; }
template <class T> __device__ void get(T *p, int i, T v) { p[i] = v; }
template <class T> __global__ void k(T *buf) {
  if (threadIdx.x == 0) get(buf, 1, get(buf, 0) + 1);
}
int main() {
  float h[2] = {41, 0};
  float *d; cudaMalloc(&d, 8);
  cudaMemcpy(d, h, 8, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
  return h[1] == 42 ? 0 : 1;
}
CU
cat >"$WORK/review/paren_kernel.cu" <<'CU'
__global__ void k(int *o) { o[threadIdx.x] = 1; }
int main() {
  int *d; cudaMalloc(&d, 32 * 4);
  (k)<<<1, 32>>>(d);
  int h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  return h[31] == 1 ? 0 : 1;
}
CU
for name in cast_shared null_macro nested_field_macro overloads paren_kernel; do
  out=$("$APP" run "$WORK/review/$name.cu" 2>&1) || fail "$name.cu: $out"
  grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "$name.cu: $out"
done
pass "the review's reproducers: a __shared__ array's reinterpret_cast, NULL in a macro, nested fields in a macro argument, overloads, (k)<<<...>>>"

# CUDA's byte vectors in device memory (rgba_to_greyscale.cu, after CS344): a uchar4 is 4 cells of one
# byte each, one bank on a GPU (its tile has no bank conflict), its channels fields in the reports.
rgba="$CORPUS/rgba_to_greyscale.cu"
out=$("$APP" run "$rgba" 2>&1) || fail "rgba_to_greyscale.cu: $out"
grep -q "16 shared-memory, no bank conflict" <<<"$out" || fail "rgba_to_greyscale.cu: a uchar4 tile's column is not one bank a pixel: $out"
store_line=$(grep -n "tile\[ty\]\[tx\] = make_uchar4" "$rgba" | cut -d: -f1)
mirror_line=$(grep -n "= tile\[15 - ty\]\[tx\]" "$rgba" | cut -d: -f1)
out=$("$APP" run "$rgba" --bug no-barrier 2>&1) || true
grep -q "^error: race (RAW) between write at .*rgba_to_greyscale.cu:$store_line and read at .*rgba_to_greyscale.cu:$mirror_line .* on tile" <<<"$out" ||
  fail "rgba_to_greyscale.cu --bug no-barrier: no race on tile at :$store_line/:$mirror_line: $out"
grey_line=$(grep -n "uchar4 rgba = rgbaImage" "$rgba" | cut -d: -f1)
out=$("$APP" run "$rgba" --bug no-bounds-check 2>&1) || true
grep -q "^error: out-of-bounds read of d_rgba\[1200\].x, d_rgba\[1200\].y, .* at .*rgba_to_greyscale.cu:$grey_line " <<<"$out" ||
  fail "rgba_to_greyscale.cu --bug no-bounds-check: no read past d_rgba's pixels at :$grey_line: $out"
cat >"$WORK/review/byte_views.cu" <<'CU'
__global__ void k(uchar4 *px, const char4 *deltas, unsigned char *grey) {
  int t = threadIdx.x;
  unsigned char *bytes = (unsigned char *)px;
  bytes[4 * t + 3] = 7;                        // the alpha channel, through the bytes
  char4 d = deltas[t];
  uchar4 p = px[t];
  grey[t] = p.x + d.x + p.w;                   // a signed byte's -1 stays -1
  px[t] = make_uchar4(p.x, p.y, p.z, ((uchar4 *)bytes)[t].w + 1);
}
int main() {
  uchar4 h[32]; char4 dl[32]; unsigned char g[32];
  for (int i = 0; i < 32; ++i) { h[i] = make_uchar4(i, 0, 0, 0); dl[i] = make_char4(-1, 0, 0, 0); }
  uchar4 *dp; char4 *dd; unsigned char *dg;
  cudaMalloc(&dp, sizeof h); cudaMalloc(&dd, sizeof dl); cudaMalloc(&dg, sizeof g);
  cudaMemcpy(dp, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, dl, sizeof dl, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(dp, dd, dg);
  cudaMemcpy(h, dp, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(g, dg, sizeof g, cudaMemcpyDeviceToHost);
  return g[5] == 5 - 1 + 7 && h[5].w == 8 && h[5].x == 5 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/review/byte_views.cu" 2>&1) || fail "byte_views.cu: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "byte_views.cu: $out"
pass "uchar4 and char4 in device memory: rgba_to_greyscale.cu's races at their lines, no bank conflict, byte views"

# The CUDA samples' idioms (the second round of programs no one here had seen): a shuffle of a
# template's T, dynamic shared memory as raw bytes cast to T (for float and double) and an int array
# cast to float; a char buffer passed where the kernel reads unsigned int is refused at the launch (it
# came out one byte a word, silently).
cat >"$WORK/review/samples.cu" <<'CU'
#include <cstdio>
template <class T> __global__ void warpSum(const T *in, T *out) {
  T v = in[threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x == 0) *out = v;
}
template <class T> __global__ void reverse(T *d) {
  extern __shared__ unsigned char smem_raw[];
  T *s = reinterpret_cast<T *>(smem_raw);
  s[threadIdx.x] = d[threadIdx.x];
  __syncthreads();
  d[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
__global__ void halve(float *d) {
  extern __shared__ int words[];
  float *s = (float *)words;
  s[threadIdx.x] = d[threadIdx.x] / 2;
  __syncthreads();
  d[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
template <class T> bool check() {
  T h[32], sum = 0, *d, *o;
  for (int i = 0; i < 32; ++i) h[i] = (T)(i + 1);
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof(T));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  warpSum<T><<<1, 32>>>(d, o);
  reverse<T><<<1, 32, 32 * sizeof(T)>>>(d);
  cudaMemcpy(&sum, o, sizeof(T), cudaMemcpyDeviceToHost);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  return sum == 528 && h[0] == 32 && h[31] == 1;
}
int main() {
  float f[8] = {2, 4, 6, 8, 10, 12, 14, 16}, *df;
  cudaMalloc(&df, sizeof f); cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice);
  halve<<<1, 8, 8 * sizeof(int)>>>(df);
  cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost);
  bool ok = check<float>() && check<double>() && check<int>() && f[0] == 2 && f[7] == 1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/review/samples.cu" 2>&1) || fail "samples.cu: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "samples.cu: $out"
out=$("$APP" run "$WORK/review/samples.cu" --steps 2>&1) || fail "samples.cu --steps: $out"
grep -q "^launch 1/.*  shared 32 B  steps 2" <<<"$out" || fail "samples.cu --steps: halve's launch does not say its 32 bytes of shared memory: $(grep '^launch' <<<"$out")"
cat >"$WORK/review/bytes_as_words.cu" <<'CU'
__global__ void k(const unsigned int *words, unsigned int *out) { out[threadIdx.x] = words[threadIdx.x]; }
int main() {
  unsigned char h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned char *d; unsigned int *o, r[2] = {0, 0};
  cudaMalloc(&d, 8); cudaMalloc(&o, 8);
  cudaMemcpy(d, h, 8, cudaMemcpyHostToDevice);
  k<<<1, 2>>>((const unsigned int *)d, o);
  cudaMemcpy(r, o, 8, cudaMemcpyDeviceToHost);
  return r[0] == 0x04030201u ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/review/bytes_as_words.cu" 2>&1) || true
grep -q "bytes_as_words.cu:7: the launch of k passes d (1-byte elements) to a parameter of 4-byte elements: a GPU would read its bytes 4 at a time, which syncscope does not simulate" <<<"$out" ||
  fail "bytes_as_words.cu: the launch was not refused: $out"
pass "CUDA samples' idioms: a template's shuffle, raw dynamic shared bytes cast to T, a char buffer read as words refused"

# Device code the translator leaves as written (an operator, a conversion, a class template's method)
# is refused where it would need the simulator: a pointer field there crashed at its line (a device
# address read as host memory), and the CUDA samples' SharedMemory<T> was a g++ error.
cat >"$WORK/review/operator.cu" <<'CU'
struct Vec {
  float *data;
  __device__ float &operator[](int i) { return data[i]; }
};
__global__ void copy(Vec in, Vec out) { out[threadIdx.x] = in[threadIdx.x]; }
int main() { return 0; }
CU
cat >"$WORK/review/shared_memory_struct.cu" <<'CU'
template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; __smem[0] = 0; return (T *)__smem; }
};
template <class T> __global__ void rev(T *d) { T *s = SharedMemory<T>(); s[threadIdx.x] = d[threadIdx.x]; }
int main() { return 0; }
CU
expect_refused "$WORK/review/operator.cu" \
  "operator.cu:3:48: error: pointer field 'data' in operator\[\] of Vec: its device memory would be read as host memory; .* write a named method" \
  "operator[] reading a pointer field"
expect_refused "$WORK/review/shared_memory_struct.cu" \
  "shared_memory_struct.cu:2:60: error: __shared__ '__smem' in the conversion operator of the class template SharedMemory is not translated yet; .*extern __shared__ unsigned char smem\[\]" \
  "SharedMemory<T> that does more than return its memory"
pass "an operator's pointer field and a conversion's __shared__ that it uses are refused at their lines with what to write"

# An atomicMax loop for floats that leaves when its value is already beaten (most students' form):
# those threads' plain first read against other blocks' atomicCAS is a warning that says what it may
# see, not an error telling them to split the launch.
cat >"$WORK/review/max_early_exit.cu" <<'CU'
__device__ float atomicMaxFloat(float *addr, float value) {
  int *addr_as_int = (int *)addr;
  int old = *addr_as_int, assumed;
  while (value > __int_as_float(old)) {
    assumed = old;
    old = atomicCAS(addr_as_int, assumed, __float_as_int(value));
    if (old == assumed) break;
  }
  return __int_as_float(old);
}
__global__ void kmax(const float *x, float *mx) { atomicMaxFloat(mx, x[blockIdx.x * blockDim.x + threadIdx.x]); }
int main() {
  float h[256], lo = -1, got = 0, *dx, *dm;
  for (int i = 0; i < 256; ++i) h[i] = (float)((i * 37) % 101);
  cudaMalloc(&dx, sizeof h); cudaMalloc(&dm, sizeof(float));
  cudaMemcpy(dx, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, &lo, sizeof(float), cudaMemcpyHostToDevice);
  kmax<<<2, 128>>>(dx, dm);
  cudaMemcpy(&got, dm, sizeof(float), cudaMemcpyDeviceToHost);
  return got == 100.0f ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/review/max_early_exit.cu" 2>&1) || fail "max_early_exit.cu: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "max_early_exit.cu: $out"
! grep -q "^error:" <<<"$out" || fail "max_early_exit.cu: an error on a correct atomicMax loop: $out"
grep -q "^warning: cross-block race (RAW) between atomic at .*max_early_exit.cu:6 and read at .*max_early_exit.cu:3 .*: a plain read of a cell other threads update with atomics sees it before or after their update" <<<"$out" ||
  fail "max_early_exit.cu: no warning on the plain first read: $out"
grep -q "^fix: the read at .*max_early_exit.cu:3 may see the value from before the atomic at .*max_early_exit.cu:6: as the first guess of a compare-and-swap loop" <<<"$out" ||
  fail "max_early_exit.cu: the fix does not say what the read may see: $out"
pass "an atomicMax loop that leaves early: its plain first read is a warning that says what it may see"

# A __host__ __device__ function taking a pointer, called from a kernel (PMPP's merge_sequential): a
# g++ error about the simulator's pointer before; now refused at the call with what to write.
printf '__host__ __device__ void add1(int *p, int n) { for (int i = 0; i < n; i++) p[i] += 1; }\n__global__ void k(int *a) { add1(&a[threadIdx.x * 2], 2); }\nint main() { int h[8] = {0}; add1(h, 8); return h[7] == 1 ? 0 : 1; }\n' >"$WORK/review/host_device.cu"
expect_refused "$WORK/review/host_device.cu" \
  "host_device.cu:2:34: error: 'add1' is __host__ __device__ and is given device memory ('p'): .* make it __device__" \
  "__host__ __device__ with a pointer"
pass "a __host__ __device__ function given device memory is refused at the call with what to write"

# The review's reproducers of this change's first version: a dynamic shared array of bytes read as
# bytes (it had become 4-byte cells), a __host__ __device__ function given a thread's own array (it
# had been refused), and an atomicAdd's count read without a barrier (it had become a warning).
cat >"$WORK/review/ext_bytes.cu" <<'CU'
__global__ void flags(int *out, int n) {
  extern __shared__ unsigned char seen[];
  int t = threadIdx.x;
  seen[t] = (t % 3 == 0);
  __syncthreads();
  out[t] = seen[(t + 1) % n];
}
__host__ __device__ float sum3(const float *v) { return v[0] + v[1] + v[2]; }
__global__ void k(float *out) {
  float v[3] = {1.0f * threadIdx.x, 2.0f, 3.0f};
  out[threadIdx.x] = sum3(v);
}
int main() {
  const int n = 64;
  int *d, h[n], s = 0; float *f, hf[32];
  cudaMalloc(&d, n * sizeof(int)); cudaMalloc(&f, sizeof hf);
  flags<<<1, n, n>>>(d, n);
  k<<<1, 32>>>(f);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) s += h[i];
  return s == 22 && hf[5] == 10 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/review/ext_bytes.cu" 2>&1) || fail "ext_bytes.cu: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "ext_bytes.cu: $out"
cat >"$WORK/review/count_read_early.cu" <<'CU'
__global__ void count(const int *in, int *out) {
  __shared__ int hits;
  if (threadIdx.x == 0) hits = 0;
  __syncthreads();
  if (threadIdx.x < 64 && in[threadIdx.x] > 0) atomicAdd(&hits, 1);
  if (threadIdx.x == 64) out[0] = hits;
}
int main() {
  int h[96], r = 0, *d, *o;
  for (int i = 0; i < 96; ++i) h[i] = 1;
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof(int));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  count<<<1, 96>>>(d, o);
  cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
  return 0;
}
CU
out=$("$APP" run "$WORK/review/count_read_early.cu" 2>&1) || true
grep -q "^error: race (RAW) between atomic at .*count_read_early.cu:5 and read at .*count_read_early.cu:6 " <<<"$out" ||
  fail "count_read_early.cu: an atomicAdd's count read without a barrier is not an error: $out"
pass "bytes of dynamic shared memory, a __host__ __device__ function on a thread's array, an atomicAdd's count read early"

# References in device code: a uchar4 tile of shared memory counted at 4 bytes an element (a 96 x 96
# one, 36 KiB, had been refused as 144 KiB), and a struct in device memory bound to `P& p`, refused at
# the argument where g++ had said "no matching function".
mkdir -p "$WORK/refs"
cat >"$WORK/refs/tile.cu" <<'CU'
#define T 96
__global__ void flip(const uchar4 *in, uchar4 *out) {
  __shared__ uchar4 tile[T * T];
  for (int k = threadIdx.x; k < T * T; k += blockDim.x) tile[k] = in[k];
  __syncthreads();
  for (int k = threadIdx.x; k < T * T; k += blockDim.x) out[k] = tile[T * T - 1 - k];
}
int main() {
  const int n = T * T;
  uchar4 *h = (uchar4 *)malloc(n * sizeof(uchar4)), *a, *b;
  for (int k = 0; k < n; ++k) h[k] = make_uchar4(k & 255, (k >> 8) & 255, 1, 2);
  cudaMalloc(&a, n * sizeof(uchar4));
  cudaMalloc(&b, n * sizeof(uchar4));
  cudaMemcpy(a, h, n * sizeof(uchar4), cudaMemcpyHostToDevice);
  flip<<<1, 256>>>(a, b);
  cudaMemcpy(h, b, n * sizeof(uchar4), cudaMemcpyDeviceToHost);
  return h[0].x == 255 && h[0].y == 35 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/refs/tile.cu" 2>&1) || fail "tile.cu: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "tile.cu: $out"
cat >"$WORK/refs/struct_ref.cu" <<'CU'
struct P { float x, y; };
__device__ void move(P &p) { p.x += p.y; }
__global__ void k(P *ps) { move(ps[threadIdx.x]); }
int main() { P *d; cudaMalloc(&d, 32 * sizeof(P)); k<<<1, 32>>>(d); return 0; }
CU
expect_refused "$WORK/refs/struct_ref.cu" "struct_ref.cu:3:.*a struct in device memory cannot be bound to 'P& p' yet" "struct_ref.cu"
# Two refusals: the headline is the first, said once, and the second follows it.
sed -i 's/__global__ void k(P \*ps) { move(ps\[threadIdx.x\]); }/__global__ void k(P *ps) { move(ps[threadIdx.x]); move(ps[0]); }/' "$WORK/refs/struct_ref.cu"
out=$("$APP" run "$WORK/refs/struct_ref.cu" 2>&1) && fail "struct_ref.cu with two refusals ran: $out"
[[ $(grep -c "struct_ref.cu:3:[0-9]*: error: a struct in device memory" <<<"$out") == 2 ]] ||
  fail "struct_ref.cu: two refusals are not said once each: $out"
pass "a 36 KiB uchar4 tile of shared memory runs; a struct in device memory bound to 'P& p' is refused at the argument, each refusal said once"

# main() that ends without `return 0;` (C++ returns 0 for it; the translated main may not fall off
# its end, where it had run on into main() again, forever), and `i < n ? in[i] : 0`, whose float a
# GPU keeps (it had been made an int through the element's conversion: 2.5 came out 2).
cat >"$WORK/refs/ends.cu" <<'CU'
#include <cstdio>
__global__ void halo(float *out, const float *in, int n) {
  int i = threadIdx.x;
  out[i] = (i < n) ? in[i] : 0;
  out[i] += i >= n ? -1 : in[i];
}
int main() {
  float h[8], o[8], *d_in, *d_out;
  for (int i = 0; i < 8; ++i) h[i] = 2.5f;
  cudaMalloc(&d_in, sizeof(h)); cudaMalloc(&d_out, sizeof(h));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  halo<<<1, 8>>>(d_out, d_in, 6);
  cudaMemcpy(o, d_out, sizeof(o), cudaMemcpyDeviceToHost);
  printf("%g %g %s\n", o[0], o[7], o[0] == 5.0f && o[7] == -1.0f ? "PASS" : "FAIL");
}
CU
out=$(timeout 120 "$APP" run "$WORK/refs/ends.cu" 2>&1) || fail "ends.cu: exit $?: $(head -c 600 <<<"$out")"
[[ $(grep -c PASS <<<"$out") -eq 1 ]] || fail "ends.cu: main() did not run once: $(head -c 600 <<<"$out")"
grep -q "^5 -1 PASS$" <<<"$out" || fail "ends.cu: an element beside an int in ?: lost its fraction: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "ends.cu: $out"
pass "main() without a return returns 0 once; 'i < n ? in[i] : 0' keeps the float"

# A field of a struct in device memory given to a `float&` parameter as a call's first argument (the
# call's context and the field's rewrite had met at one place: `push((_c, ps[i] ->* ...`), and a
# local reference to a struct in device memory, refused at its line.
cat >"$WORK/refs/fields.cu" <<'CU'
#include <cstdio>
struct Particle { float x, v; };
__device__ void push(float &x, const float &v, float dt) { x += v * dt; }
__global__ void step(Particle *ps, float dt) { push(ps[threadIdx.x].x, ps[threadIdx.x].v, dt); }
int main() {
  Particle h[32], *d;
  for (int i = 0; i < 32; i++) { h[i].x = i; h[i].v = 1.0f; }
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  step<<<1, 32>>>(d, 0.5f);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  return h[3].x == 3.5f ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/refs/fields.cu" 2>&1) || fail "fields.cu: $out"
grep -q "^main() returned 0 (its own check passed)" <<<"$out" || fail "fields.cu: $out"
cat >"$WORK/refs/struct_local.cu" <<'CU'
struct Particle { float x, v; };
__global__ void step(Particle *ps) {
  Particle &p = ps[threadIdx.x];
  p.x += p.v;
}
int main() { Particle *d; cudaMalloc(&d, 32 * sizeof(Particle)); step<<<1, 32>>>(d); return 0; }
CU
expect_refused "$WORK/refs/struct_local.cu" "struct_local.cu:3:.*a reference to a struct in device memory ('Particle& p') is not translated yet: use a pointer" "struct_local.cu"
pass "a struct field in device memory given to a float& parameter; 'Particle &p = ps[i];' refused at its line"

# The CUDA samples' SharedMemory<T> (reduction, threadFenceReduction): `T *sdata = SharedMemory<T>();`
# is the launch's dynamic shared memory as T elements, for the class template and for its explicit
# specialization for double; it had been refused. Its missing barrier races on the samples' __smem.
cat >"$WORK/refs/shared_memory_struct.cu" <<'CU'
#include <cstdio>
template <class T>
struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
  __device__ inline operator const T *() const { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <>
struct SharedMemory<double> {
  __device__ inline operator double *() { extern __shared__ double __smem_d[]; return (double *)__smem_d; }
  __device__ inline operator const double *() const { extern __shared__ double __smem_d[]; return (double *)__smem_d; }
};
template <class T>
__global__ void reduce0(T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template <class T>
T run(unsigned int n) {
  T *h = new T[n], *d_in, *d_out, out[4], total = 0;
  for (unsigned int i = 0; i < n; ++i) h[i] = (T)(i % 7) + (T)0.5;  // halves: a ?: made int would drop them
  cudaMalloc(&d_in, n * sizeof(T)); cudaMalloc(&d_out, 4 * sizeof(T));
  cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice);
  reduce0<T><<<4, 64, 64 * sizeof(T)>>>(d_in, d_out, n);
  cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; ++b) total += out[b];
  delete[] h;
  return total;
}
int main() {
  float f = run<float>(256);
  double d = run<double>(256);
  printf("%g %g %s\n", f, d, f == 890 && d == 890 ? "PASS" : "FAIL");
  return f == 890 && d == 890 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/refs/shared_memory_struct.cu" 2>&1) || fail "shared_memory_struct.cu: $out"
grep -q "^890 890 PASS$" <<<"$out" || fail "shared_memory_struct.cu: $out"
grep -q "^hazards: none" <<<"$out" || fail "shared_memory_struct.cu: a correct reduction has hazards: $out"
set +e; out=$("$APP" run "$WORK/refs/shared_memory_struct.cu" --bug no-barrier 2>&1); set -e
grep -qE "^(error|warning): race \(RAW\) between write at .*shared_memory_struct.cu:17 and read at .*shared_memory_struct.cu:22 .* on __smem" <<<"$out" ||
  fail "shared_memory_struct.cu --bug no-barrier: no race on __smem between :17 and :22: $out"
pass "the samples' SharedMemory<T>, float and its double specialization: the launch's dynamic shared memory"

# Fix lines. A counter read and written back in two statements by many threads is a lost update:
# an atomic, not a barrier (a barrier there would sit in a divergent if and lose the update still).
mkdir -p "$WORK/fixes"
cat >"$WORK/fixes/counter.cu" <<'CU'
__global__ void compact(const int *in, int *out, int *count) {
  __shared__ int s_count, s_buf[128];
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  int i = threadIdx.x;
  if (in[i] > 0) {
    int pos = s_count;
    s_count = pos + 1;
    s_buf[pos] = in[i];
  }
  __syncthreads();
  if (threadIdx.x == 0) *count = s_count;
}
int main() {
  int h[128], c, *d_in, *d_out, *d_c;
  for (int i = 0; i < 128; i++) h[i] = (i % 3) - 1;
  cudaMalloc(&d_in, sizeof(h)); cudaMalloc(&d_out, sizeof(h)); cudaMalloc(&d_c, sizeof(int));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  compact<<<1, 128>>>(d_in, d_out, d_c);
  cudaMemcpy(&c, d_c, sizeof(int), cudaMemcpyDeviceToHost);
  return c == 42 ? 0 : 1;
}
CU
for schedule in lockstep reverse; do
  out=$("$APP" run "$WORK/fixes/counter.cu" --schedule "$schedule" 2>&1) || true
  grep -q "^fix: several threads read one cell at .*counter.cu:7 and write it back at .*counter.cu:8 in the same step (a lost update.*one atomic at .*counter.cu:7, with the write at .*counter.cu:8 removed: for a counter, int old = atomicAdd(&counter, 1); returns the old value" <<<"$out" ||
    fail "counter.cu under $schedule: no atomicAdd fix for the two-statement counter: $out"
  ! grep -q "^fix: .*barrier between .*counter.cu:7 and .*counter.cu:8" <<<"$out" || fail "counter.cu under $schedule: told of a barrier: $out"
done
# A counter clamped with a plain store inside the branch that took the atomic (PMPP's privatized
# frontier): the store races with the atomics; the fix is an atomic store, or a barrier only where
# every thread passes it, never "a barrier between" two lines of the branch alone.
cat >"$WORK/fixes/clamp.cu" <<'CU'
#define CAP 8
__global__ void k(const int *in, int *out) {
  __shared__ int n_s;
  if (threadIdx.x == 0) n_s = 0;
  __syncthreads();
  if (in[threadIdx.x] > 0) {
    int idx = atomicAdd(&n_s, 1);
    if (idx >= CAP)
      n_s = CAP;
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = n_s;
}
int main() {
  int h[64], *d, *o, r = 0;
  for (int i = 0; i < 64; i++) h[i] = i % 3;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&o, sizeof(int));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 64>>>(d, o);
  cudaMemcpy(&r, o, sizeof(int), cudaMemcpyDeviceToHost);
  return r == CAP ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/fixes/clamp.cu" 2>&1) || true
[[ $(grep -c "^fix: " <<<"$out") -eq 1 ]] &&
  grep -q "^fix: the plain write at .*clamp.cu:9 races with other threads' atomics at .*clamp.cu:7 on the same cell in the same step: make it atomic too (atomicExch, or atomicMin/atomicMax" <<<"$out" ||
  fail "clamp.cu: the clamped counter is not told to make its store atomic (one fix): $out"
# One statement's runs meeting on a cell are a lost update or rounds merged by a missing barrier: a
# Brent-Kung up-sweep without its loop's barrier is told of the barrier before :7 comes round again
# (an atomicAdd there would still read XY[index - stride] too early); blocks of a grid-stride loop
# that steps by blockDim.x alone are told to check the stride.
cat >"$WORK/fixes/upsweep.cu" <<'CU'
__global__ void upsweep(int *out) {
  __shared__ int XY[64];
  XY[threadIdx.x] = 1; __syncthreads();
  for (unsigned int stride = 1; stride < 64; stride *= 2) {
    unsigned int index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index < 64)
      XY[index] += XY[index - stride];
  }
  __syncthreads();
  out[threadIdx.x] = XY[threadIdx.x];
}
int main() { int *d; cudaMalloc(&d, 64 * sizeof(int)); upsweep<<<1, 64>>>(d); cudaDeviceSynchronize(); return 0; }
CU
out=$("$APP" run "$WORK/fixes/upsweep.cu" 2>&1) || true
grep -q "^fix: several threads read-modify-write one cell at .*upsweep.cu:7 in the same step, a loop with no barrier coming back to it: .* a barrier at the end of the round, before .*upsweep.cu:7 comes round again" <<<"$out" ||
  fail "upsweep.cu: the merged rounds are not told of the loop's barrier: $out"
cat >"$WORK/fixes/stride.cu" <<'CU'
__global__ void add(int n, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    y[i] = x[i] + y[i];
}
int main() { float *x, *y; cudaMalloc(&x, 256 * sizeof(float)); cudaMalloc(&y, 256 * sizeof(float)); add<<<4, 64>>>(256, x, y); cudaDeviceSynchronize(); return 0; }
CU
out=$("$APP" run "$WORK/fixes/stride.cu" 2>&1) || true
grep -q "^fix: threads of several blocks read-modify-write one cell at .*stride.cu:3 (two blocks reached the same element): where each element should be one thread's, check the index and its stride (a grid-stride loop steps by blockDim.x \* gridDim.x)" <<<"$out" ||
  fail "stride.cu: the grid-stride loop's stride is not named: $out"
# Straight-line warp code under a serial schedule: one thread ran ahead, which is no loop.
cat >"$WORK/fixes/warp_reduce.cu" <<'CU'
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}
__global__ void k(const int *in, int *out) {
  __shared__ int sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) out[0] = sdata[0];
}
int main() {
  int h[64], r, *d_in, *d_out;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&d_in, sizeof(h)); cudaMalloc(&d_out, sizeof(int));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 64>>>(d_in, d_out);
  cudaMemcpy(&r, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  return r == 2016 ? 0 : 1;
}
CU
for schedule in forward reverse; do
  out=$("$APP" run "$WORK/fixes/warp_reduce.cu" --schedule "$schedule" 2>&1) || true
  grep -q "^fix: one __syncwarp() (or a barrier) between .*warp_reduce.cu:6 and .*warp_reduce.cu:7 would order all [0-9] pairs of lines" <<<"$out" ||
    fail "warp_reduce.cu under $schedule: no barrier between :6 and :7: $out"
  ! grep -q "comes round again" <<<"$out" || fail "warp_reduce.cu under $schedule: a loop invented: $out"
done
# A real loop still wraps: bitonic sort's rounds merged under a serial schedule are ordered between
# the round's last access and the store after the loop, as under lockstep.
out=$("$APP" run "$CORPUS/bitonic_sort.cu" --bug no-barrier --schedule forward 2>&1) || true
grep -q "^fix: one barrier between .*bitonic_sort.cu:37 and .*bitonic_sort.cu:49 would order all" <<<"$out" ||
  fail "bitonic_sort.cu --bug no-barrier under reverse: $out"
pass "fix lines: a two-statement counter gets atomicAdd; straight-line warp code under forward/reverse gets a __syncwarp between its lines, no invented loop; bitonic's loop still one barrier"

# A __device__ struct variable set with cudaMemcpyToSymbol and read field by field (it was g++'s
# "record_ref has no member named 'scale'"), in a ?: too.
mkdir -p "$WORK/symbols"
cat >"$WORK/symbols/params.cu" <<'CU'
#include <cstdio>
struct Params { float scale; float bias; };
__device__ Params g_params;
__global__ void k(float *out) {
  out[threadIdx.x] = g_params.scale * threadIdx.x + (threadIdx.x > 0 ? g_params.bias : 0.0f);
}
int main() {
  Params p = {2.0f, 1.0f};
  cudaMemcpyToSymbol(g_params, &p, sizeof(p));
  float *d, h[32];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("out[3] = %g %s\n", h[3], h[3] == 7.0f && h[0] == 0.0f ? "PASS" : "FAIL");
  return h[3] == 7.0f && h[0] == 0.0f ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/symbols/params.cu" 2>&1) || fail "params.cu: $out"
grep -qx "out\[3\] = 7 PASS" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "params.cu: a __device__ struct's fields: $out"
pass "a __device__ struct variable's fields are read in a kernel (cudaMemcpyToSymbol sets it)"

# extern __shared__ is one array however many declarations name it: a helper's own declaration
# (GPU Gems 3's n-body tile) reads the kernel's; a byte array cut into parts by casts of its
# elements' addresses (the Programming Guide's partition) in a kernel that is no template.
mkdir -p "$WORK/dynamic"
cat >"$WORK/dynamic/helper.cu" <<'CU'
#include <cstdio>
__device__ int sumTile() {
  extern __shared__ int sh[];
  int s = 0;
  for (int i = 0; i < blockDim.x; i++) s += sh[i];
  return s;
}
__global__ void k(int *out) {
  extern __shared__ int sh[];
  sh[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = sumTile();
}
__global__ void partition(int *out, int n) {
  extern __shared__ unsigned char smem[];
  float *vals = (float *)smem;
  int *keys = (int *)&smem[n * sizeof(float)];
  int t = threadIdx.x;
  vals[t] = 0.5f * t;
  keys[t] = 100 + t;
  __syncthreads();
  out[t] = keys[(t + 1) % n] + (int)vals[t];
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 32, 32 * sizeof(int)>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  bool ok = h[0] == 496 && h[31] == 496;
  partition<<<1, 32, 32 * 8>>>(d, 32);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  ok = ok && h[0] == 101 && h[4] == 107 && h[31] == 115;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/dynamic/helper.cu" 2>&1) || fail "helper.cu: $out"
grep -q "^PASS$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "helper.cu: $out"
pass "extern __shared__ in a helper is the kernel's; (int *)&smem[n * sizeof(float)] in a plain kernel is the bytes after the floats"

# Threads that all store the value a cell holds (a BFS's "something changed" flag) race with no
# effect: no hazard, as racecheck has it; storing their own values is a WAW. CUDA's min of an
# unsigned and an int (PMPP's merge: min((blockIdx.x + 1) * per_block, n)) is no ambiguity.
mkdir -p "$WORK/flag"
cat >"$WORK/flag/flag.cu" <<'CU'
#include <cstdio>
__global__ void relax(const int *in, int *out, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int end = min((blockIdx.x + 1) * blockDim.x, n);
  if (i < end && in[i] > out[i]) {
    out[i] = in[i];
#ifdef BUG_OWN_VALUE
    *changed = i;
#else
    *changed = 1;
#endif
  }
}
int main() {
  const int n = 256;
  int h[n], *d_in, *d_out, *d_changed, c = 0;
  for (int i = 0; i < n; i++) h[i] = i % 5;
  cudaMalloc(&d_in, sizeof(h)); cudaMalloc(&d_out, sizeof(h)); cudaMalloc(&d_changed, sizeof(int));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, sizeof(h)); cudaMemset(d_changed, 0, sizeof(int));
  relax<<<4, 64>>>(d_in, d_out, d_changed, n);
  cudaMemcpy(&c, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
  printf("changed %s\n", c != 0 ? "yes" : "no");
  return c != 0 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/flag/flag.cu" 2>&1) || fail "flag.cu: $out"
grep -q "^changed yes$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "flag.cu: same-value writes reported: $out"
out=$("$APP" run "$WORK/flag/flag.cu" --bug own-value 2>&1) || true
grep -q "^error: race (WAW) between write at .*flag.cu:8 and write at .*flag.cu:8" <<<"$out" || fail "flag.cu --bug own-value: no WAW: $out"
pass "a flag every thread sets to 1 is no hazard (its own value is a WAW); min(unsigned, int) compiles"

# A kernel launched from a host loop (a Jacobi sweep, a BFS level) with its barrier left out: one
# line per race naming the launches it happened in, not one per launch.
mkdir -p "$WORK/loop"
cat >"$WORK/loop/sweeps.cu" <<'CU'
__global__ void step(float *a) {
  __shared__ float s[64];
  s[threadIdx.x] = a[blockIdx.x * 64 + threadIdx.x];
  float v = 0.5f * (s[threadIdx.x] + s[(threadIdx.x + 1) % 64]);
  a[blockIdx.x * 64 + threadIdx.x] = v;
}
int main() {
  float *d, h[128];
  for (int i = 0; i < 128; i++) h[i] = (float)i;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  for (int it = 0; it < 8; it++) step<<<2, 64>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  return 0;
}
CU
out=$("$APP" run "$WORK/loop/sweeps.cu" 2>&1) || true
[[ $(grep -c "^error: race (RAW) between write at .*sweeps.cu:3 and read at .*sweeps.cu:4 .* on s, launches 1-8 (8)$" <<<"$out") == 1 ]] &&
  [[ $(grep -c "^error:" <<<"$out") == 1 ]] && [[ $(grep -c "^fix:" <<<"$out") == 1 ]] ||
  fail "sweeps.cu: not one error and one fix for 8 launches: $out"
pass "a race repeated by 8 launches from a host loop: one error line naming launches 1-8, one fix"

# A __device__ helper that returns a pointer into device memory: `return p + i;`, the Programming
# Guide's pitched row, a const one, and nullptr (they had been g++ template errors).
mkdir -p "$WORK/returns"
cat >"$WORK/returns/rowptr.cu" <<'CU'
#include <cstdio>
__device__ float *row(float *base, size_t pitch, int r) { return (float *)((char *)base + r * pitch); }
__device__ const float *cat(const float *p, int i) { return p + i; }
static __device__ inline int *none(int *p) { if (p == nullptr) return nullptr; return p; }
__global__ void k(float *img, size_t pitch, int w, const float *src, int *flag) {
  float *line = row(img, pitch, blockIdx.x);
  line[threadIdx.x] = *cat(src, threadIdx.x) + blockIdx.x;
  if (threadIdx.x == 0 && blockIdx.x == 0) none(flag)[0] = 7;
}
int main() {
  float *img, *src, h[4 * 64], s[32];
  int *flag, f = 0;
  size_t pitch;
  for (int i = 0; i < 32; i++) s[i] = i;
  cudaMallocPitch(&img, &pitch, 32 * sizeof(float), 4);
  cudaMalloc(&src, sizeof(s)); cudaMalloc(&flag, sizeof(int));
  cudaMemcpy(src, s, sizeof(s), cudaMemcpyHostToDevice);
  k<<<4, 32>>>(img, pitch, 32, src, flag);
  cudaMemcpy2D(h, 32 * sizeof(float), img, pitch, 32 * sizeof(float), 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&f, flag, sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = h[0] == 0 && h[32 + 5] == 6 && h[3 * 32 + 31] == 34 && f == 7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/returns/rowptr.cu" 2>&1) || fail "rowptr.cu: $out"
grep -q "^PASS$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "rowptr.cu: $out"
pass "__device__ helpers returning float *, const float * and nullptr into device memory run"

# Several declarators in one declaration, some of them pointers: each is a declaration of its own on
# the same line (the pointers' types are rewritten, the others keep their specifiers), so a race in
# one is reported at that line.
mkdir -p "$WORK/declarators"
cat >"$WORK/declarators/several.cu" <<'CU'
#include <cstdio>
#define N 64
__device__ float first(const float *p, int i) { const float *q = p, *r = p + 1; float s = q[i], t = 0; return s + t * r[0]; }
__global__ void shift(float *x, float *y, int n) {
  __shared__ float tile[N];
  int i = threadIdx.x, j = i + 1, *none = nullptr;
  float *in = x, v = 0.0f, *out = y;
  tile[i] = first(in, i);
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  const float *src = tile, *unused = x; v = src[j % n];
  float *both[2] = {x, y}, w = none ? 1.0f : 0.0f;
  out[i] = v + w + both[0][0] * 0 + unused[0] * 0;
}
int main() {
  float *dx, *dy, h[N];
  cudaMalloc(&dx, sizeof h); cudaMalloc(&dy, sizeof h);
  for (int i = 0; i < N; ++i) h[i] = i;
  cudaMemcpy(dx, h, sizeof h, cudaMemcpyHostToDevice);
  shift<<<1, N>>>(dx, dy, N);
  cudaMemcpy(h, dy, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < N; ++i) wrong += h[i] != (float)((i + 1) % N);
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/declarators/several.cu" 2>&1) || fail "several.cu: $out"
grep -q "^0 wrong$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "several.cu: $out"
out=$("$APP" run "$WORK/declarators/several.cu" --bug no-barrier --schedule forward 2>&1) || true
grep -q "^[1-9][0-9]* wrong$" <<<"$out" && grep -Eq "several\.cu:12\b.*several\.cu:8\b|several\.cu:8\b.*several\.cu:12\b" <<<"$out" ||
  fail "several.cu's race is not reported between lines 8 and 12: $out"
cat >"$WORK/declarators/loop.cu" <<'CU'
__global__ void copy(float *x, float *y) {
  for (float *p = x, *q = y; p < x + 4; ++p, ++q) *q = *p;
}
CU
set +e; out=$("$APP" run "$WORK/declarators/loop.cu" --grid 1 --block 4 2>&1); rc=$?; set -e
[ "$rc" = 2 ] && [ "$(grep -c "error:" <<<"$out")" = 1 ] &&
  grep -q "loop.cu:2:.*declare 'p' in a declaration of its own, not with 'q': syncscope rewrites its type, and a for loop's start cannot be split apart (declare it before the loop)" <<<"$out" ||
  fail "pointers declared together in a for loop's start: rc $rc, $out"
cat >"$WORK/declarators/macros.cu" <<'CU'
#include <cstdio>
#define IDX(r, c) ((r) * 32 + (c))
#define NO_OUTPUT NULL
__global__ void copy(const float *x, float *y, float *extra) {
  int i = threadIdx.x;
  const float *a = x + IDX(0, i), *b = x + i;
  float *out = y + IDX(0, i), *spare = extra;
  *out = *a + *b * 0 + (spare ? 1.0f : 0.0f);
}
int main() {
  float h[32], *x, *y;
  for (int i = 0; i < 32; ++i) h[i] = i;
  cudaMalloc(&x, sizeof h); cudaMalloc(&y, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  copy<<<1, 32>>>(x, y, NO_OUTPUT);
  cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 32; ++i) wrong += h[i] != i;
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/declarators/macros.cu" 2>&1) || fail "macros.cu: $out"
grep -q "^0 wrong$" <<<"$out" || fail "macros.cu: $out"
cat >"$WORK/declarators/lambda.cu" <<'CU'
__global__ void k(float *x) {
  auto f = [&](int i) { if (i < 0) float *p = x, v = (x[0] = 9.0f); };
  f(threadIdx.x);
}
CU
set +e; out=$("$APP" run "$WORK/declarators/lambda.cu" --grid 1 --block 4 2>&1); rc=$?; set -e
[ "$rc" = 2 ] && grep -q "lambda.cu:2:.*declare 'p' in a declaration of its own, not with 'v': syncscope rewrites its type, and here the declaration is a branch's or loop's only statement" <<<"$out" ||
  fail "pointers declared together as a lambda's branch: rc $rc, $out"
pass "float *a = x, v = 0, *b = y; runs (a declaration each, on its line; a race there reported at its line); after a macro's initializer; NULL through a macro; in a for loop's start or as a branch's only statement: one message"

# A 2D __shared__ tile handed to a helper as `float tile[][33]` or `float (*tile)[33]`: the helper reads
# the tile's cells (a missing barrier races at the helper's line); a kernel's rows of global memory are
# refused with what to write.
mkdir -p "$WORK/tiles"
cat >"$WORK/tiles/row_sums.cu" <<'CU'
#include <cstdio>
__device__ float row_sum(float tile[][33], int r) {
  float s = 0;
  for (int c = 0; c < 32; c++) s += tile[r][c];
  return s;
}
__device__ void fill_row(float (*tile)[33], int r) { for (int c = 0; c < 32; c++) tile[r][c] = (float)(r + c); }
__global__ void sums(float *out) {
  __shared__ float tile[32][33];
  fill_row(tile, threadIdx.x);
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  out[threadIdx.x] = row_sum(tile, (threadIdx.x + 1) % 32);
}
int main() {
  float *d, h[32];
  cudaMalloc(&d, sizeof(h));
  sums<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int t = 0; t < 32; t++) wrong += h[t] != 32.0f * ((t + 1) % 32) + 496.0f;
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/tiles/row_sums.cu" 2>&1) || fail "row_sums.cu: $out"
grep -q "^0 wrong$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "row_sums.cu: $out"
out=$("$APP" run "$WORK/tiles/row_sums.cu" --bug no-barrier --schedule forward 2>&1) || true
grep -q "^[1-9][0-9]* wrong$" <<<"$out" && grep -q "row_sums\.cu:4\b" <<<"$out" && grep -q "row_sums\.cu:7\b" <<<"$out" ||
  fail "row_sums.cu's race is not reported between lines 4 and 7: $out"
cat >"$WORK/tiles/rows_param.cu" <<'CU'
__global__ void scale(float (*rows)[16]) { rows[threadIdx.y][threadIdx.x] *= 2.0f; }
CU
set +e; out=$("$APP" run "$WORK/tiles/rows_param.cu" --grid 1 --block 16,4 2>&1); rc=$?; set -e
[ "$rc" = 2 ] && grep -q "rows_param.cu:1:.*a kernel's parameter 'rows' points to rows of float\[16\]: take a float \* and index it \[r \* 16 + c\]" <<<"$out" ||
  fail "a kernel's float (*rows)[16]: rc $rc, $out"
pass "a helper's float tile[][33] and float (*tile)[33] are the kernel's tile (a race in the helper at its line); a kernel's rows refused with what to write"

# A pitched row's cast written in a macro's body cannot be edited where it is used: one message for the
# use, naming the macro and what to write; as a bug variant it is refused as the file would be (exit 2).
mkdir -p "$WORK/macro_cast"
cat >"$WORK/macro_cast/rows.cu" <<'CU'
#include <cstdio>
#define ROW(base, pitch, y) ((float *)((char *)(base) + (y) * (pitch)))
__global__ void twos(float *out, size_t pitch) {
#ifdef BUG_MACRO
  ROW(out, pitch, threadIdx.y)[threadIdx.x] = 2.0f;
#else
  ((float *)((char *)out + threadIdx.y * pitch))[threadIdx.x] = 2.0f;
#endif
}
int main() {
  float *d, h[8 * 4];
  size_t pitch;
  cudaMallocPitch((void **)&d, &pitch, 8 * sizeof(float), 4);
  twos<<<1, dim3(8, 4)>>>(d, pitch);
  cudaMemcpy2D(h, 8 * sizeof(float), d, pitch, 8 * sizeof(float), 4, cudaMemcpyDeviceToHost);
  printf("%s\n", h[31] == 2.0f ? "PASS" : "FAIL");
  return h[31] == 2.0f ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/macro_cast/rows.cu" 2>&1) || fail "rows.cu: $out"
grep -q "^PASS$" <<<"$out" || fail "rows.cu: $out"
set +e; out=$("$APP" run "$WORK/macro_cast/rows.cu" --bug macro 2>&1); rc=$?; set -e
[ "$rc" = 2 ] && [ "$(grep -c "error:" <<<"$out")" = 1 ] &&
  grep -q "rows.cu:5:3: error: a pointer cast (char \* to float \*) written in macro ROW is simulated only where it is written out: write the cast at the line that uses ROW, or make ROW a __device__ function returning float \*" <<<"$out" ||
  fail "a cast in a macro's body, as a bug variant: rc $rc, $out"
pass "a pointer cast in a macro's body: one message naming the macro and what to write; a bug variant that does not translate exits 2"

# Round H of unseen programs: NULL as a launch's argument (the CUDA samples' shfl_scan), the runtime's
# version and a kernel's attributes, an event without timing; refused at their lines with what to do: a
# launch through a kernel pointer or a helper's parameter, a __managed__ variable, texture objects.
mkdir -p "$WORK/round_h"
cat >"$WORK/round_h/null_arg.cu" <<'CU'
#include <cstdio>
__global__ void bump(int *data, int *partial_sums) {
  data[threadIdx.x] += 1;
  if (partial_sums != NULL && threadIdx.x == 0) partial_sums[blockIdx.x] = data[0];
}
int main() {
  int *d, h[32], version = 0;
  cudaRuntimeGetVersion(&version);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, bump);
  cudaEvent_t done;
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  bump<<<1, 32>>>(d, NULL);
  cudaEventRecord(done);
  cudaEventSynchronize(done);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 32; ++i) wrong += h[i] != 1;
  printf("%d wrong, CUDA %d, at most %d threads\n", wrong, version, attributes.maxThreadsPerBlock);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/round_h/null_arg.cu" 2>&1) || fail "null_arg.cu: $out"
grep -q "^0 wrong, CUDA 13000, at most 1024 threads$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "null_arg.cu: $out"
refused() {  # FILE LINE MESSAGE: the file is refused (exit 2) with the message at that line
  set +e; out=$("$APP" run "$WORK/round_h/$1" 2>&1); rc=$?; set -e
  [ "$rc" = 2 ] && grep -qF "$1:$2: error: $3" <<<"$out" || fail "$1: rc $rc, expected '$1:$2: error: $3' in: $out"
}
cat >"$WORK/round_h/pointer_launch.cu" <<'CU'
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
template <class K> void timed(K kernel, int *p) { kernel<<<1, 32>>>(p, 2); }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  void (*fp)(int *, int) = fill;
  fp<<<1, 32>>>(d, 1);
  timed(fill, d);
  return 0;
}
CU
refused pointer_launch.cu 2:51 "a launch through 'kernel' (a pointer to a kernel, or a parameter or template argument holding one) is not simulated: launch the kernel by its name"
refused pointer_launch.cu 7:3 "a launch through 'fp'"
cat >"$WORK/round_h/managed.cu" <<'CU'
__managed__ int counter = 0;
__global__ void count() { atomicAdd(&counter, 1); }
int main() { count<<<2, 64>>>(); cudaDeviceSynchronize(); return counter != 128; }
CU
refused managed.cu 1:17 "__managed__ 'counter' is not simulated: make it a __device__ variable, set and read on the host with cudaMemcpyToSymbol and cudaMemcpyFromSymbol"
cat >"$WORK/round_h/texture.cu" <<'CU'
__global__ void fetch(cudaTextureObject_t t, float *out) { out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }
int main() { return 0; }
CU
refused texture.cu 1:23 "'cudaTextureObject_t' is unavailable: texture memory is not simulated: read the array through a pointer"
cat >"$WORK/round_h/star_launch.cu" <<'CU'
__global__ void fill(int *p) { p[threadIdx.x] = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  void (*fp)(int *) = fill;
  (*fp)<<<1, 32>>>(d);
  return 0;
}
CU
refused star_launch.cu 6:3 "a launch through 'fp'"
cat >"$WORK/round_h/tile_row.cu" <<'CU'
__device__ float first(float row[][8]) { return row[0][0]; }
__global__ void k(float *out) {
  __shared__ float t[8][8];
  t[threadIdx.x][0] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = first(&t[threadIdx.x]);
}
int main() { return 0; }
CU
refused tile_row.cu 6:28 "the helper's 'row' takes a whole 2D tile: pass the tile itself, not a row of it"
pass "NULL as a launch argument, cudaRuntimeGetVersion, cudaFuncGetAttributes, cudaEventCreateWithFlags run; a kernel pointer's launch, __managed__ and textures are refused at their lines"

# `if (i >= n) return;` before a barrier: as on a GPU (README, "How the simulator works"), the others are
# not held up and the barrier orders them; a warning names the return and the barrier, with the fix.
mkdir -p "$WORK/early_return"
cat >"$WORK/early_return/shift.cu" <<'CU'
#include <cstdio>
__global__ void shift(const float *in, float *out, int n) {
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  int j = (threadIdx.x + 1 < blockDim.x && i + 1 < n) ? threadIdx.x + 1 : threadIdx.x;
  out[i] = s[j] * 2.0f;
}
int main() {
  const int n = 100;
  float h[n], o[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  float *d, *e;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&e, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  shift<<<2, 64>>>(d, e, n);
  cudaMemcpy(o, e, sizeof(o), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += o[i] != 2.0f * ((i % 64 + 1 < 64 && i + 1 < n) ? i + 1 : i);
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
for schedule in lockstep forward reverse; do
  out=$("$APP" run "$WORK/early_return/shift.cu" --schedule $schedule 2>&1) || fail "shift.cu ($schedule): $out"
  grep -q "^0 wrong$" <<<"$out" && grep -q "^main() returned 0" <<<"$out" &&
    grep -q "^warning: T[0-9]* returned at .*shift\.cu:5 before the barrier at .*shift\.cu:7, where T[0-9]* waits: a GPU goes on without threads that exited" <<<"$out" &&
    grep -q "^fix: keep every thread until the barrier at .*shift\.cu:7: instead of returning at .*shift\.cu:5, put the work under the opposite condition" <<<"$out" &&
    ! grep -q "^error:" <<<"$out" || fail "shift.cu ($schedule): $out"
done
pass "threads that returned before a barrier are not waited for (right values under 3 schedules); a warning and a fix at the return and the barrier"

# NVIDIA's warp-aggregated atomic (__activemask() in a branch, a leader's atomicAdd, a shuffle of its
# base): right under every schedule (outside lockstep a lane's active mask is its own lane).
mkdir -p "$WORK/aggregated"
cat >"$WORK/aggregated/filter.cu" <<'CU'
#include <cstdio>
__global__ void filter(const int *src, int *dst, int *ctr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && src[i] > 0) {
    unsigned active = __activemask();
    int leader = __ffs(active) - 1, lane = threadIdx.x & 31, base = 0;
    if (lane == leader) base = atomicAdd(ctr, __popc(active));
    base = __shfl_sync(active, base, leader);
    dst[base + __popc(active & ((1u << lane) - 1))] = src[i];
  }
}
int main() {
  const int n = 64;
  int h[n], c = 0;
  for (int i = 0; i < n; ++i) h[i] = (i % 3 == 0) ? 1 : 0;
  int *ds, *dd, *dc;
  cudaMalloc(&ds, sizeof(h)); cudaMalloc(&dd, sizeof(h)); cudaMalloc(&dc, 4);
  cudaMemcpy(ds, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, 4);
  filter<<<1, n>>>(ds, dd, dc, n);
  cudaMemcpy(&c, dc, 4, cudaMemcpyDeviceToHost);
  printf(c == 22 ? "PASS\n" : "FAIL c=%d\n", c);
  return c == 22 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/aggregated/filter.cu" --schedule all 2>&1) || fail "filter.cu: $out"
grep -q "^schedules: 1 distinct output in 19 runs" <<<"$out" && grep -q "^ *19 runs  main() returned 0 " <<<"$out" ||
  fail "the warp-aggregated atomic under every schedule: $out"
pass "a warp-aggregated atomic (__activemask in a branch) is right under all 19 schedules"

# `auto *` and `auto &` in device code: a pointer into device memory declared `auto *p = s;` (or
# `const auto *`) and a reference bound to an element, `auto &x = s[i];`, as modern CUDA writes them.
# The reference's accesses are at the lines that use it, as with `float &x`.
mkdir -p "$WORK/auto"
cat >"$WORK/auto/deduced.cu" <<'CU'
#include <cstdio>
#define N 64
template <typename T>
__global__ void k(T *out, const T *in) {
  __shared__ T s[N];
  auto *alias = s;
  const auto *row = s;
  auto *mine = &s[threadIdx.x];
  *mine = in[threadIdx.x];
  auto &next = s[(threadIdx.x + 1) % N];
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  T v = next + row[threadIdx.x];
  T local = 5;
  auto &l = local;
  l += 1;
  out[threadIdx.x] = v + local + alias[0] * 0;
}
int main() {
  float h[N], *d, *e;
  for (int i = 0; i < N; ++i) h[i] = i;
  cudaMalloc(&d, sizeof h); cudaMalloc(&e, sizeof h);
  cudaMemcpy(e, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, N>>>(d, e);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < N; ++i) wrong += h[i] != (float)((i + 1) % N + i + 6);
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/auto/deduced.cu" 2>&1) || fail "deduced.cu: $out"
grep -q "^0 wrong$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "deduced.cu: $out"
out=$("$APP" run "$WORK/auto/deduced.cu" --bug no-barrier --schedule forward 2>&1) || true
grep -q "^[1-9][0-9]* wrong$" <<<"$out" && grep -Eq "deduced\.cu:14\b.*deduced\.cu:9\b|deduced\.cu:9\b.*deduced\.cu:14\b" <<<"$out" ||
  fail "deduced.cu's race is not reported between lines 9 and 14: $out"
pass "auto * and auto & into device memory (a template kernel's too) run, a race through the reference at the line that uses it"

# A launch written by a macro (`LAUNCH(k, g, b, x)` whose body is `k<<<g, b>>>(x)`) is refused at the
# macro's use, naming the macro (it was silently dropped); a launch handed whole to a macro runs.
mkdir -p "$WORK/macro_launch"
cat >"$WORK/macro_launch/by_macro.cu" <<'CU'
#include <cstdio>
#define N 64
#define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
__global__ void twice(int *a) { a[threadIdx.x] *= 2; }
int main() {
  int h[N], *d;
  cudaMalloc(&d, sizeof h);
  LAUNCH(twice, 1, N, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  return 0;
}
CU
set +e; out=$("$APP" run "$WORK/macro_launch/by_macro.cu" 2>&1); rc=$?; set -e
[ "$rc" = 2 ] && grep -q "by_macro.cu:8:3: error: the launch of 'twice' is written inside the macro 'LAUNCH': .*write twice<<<grid, block>>>(...) at this line" <<<"$out" ||
  fail "a launch written by a macro: rc $rc, $out"
cat >"$WORK/macro_launch/handed_whole.cu" <<'CU'
#include <cstdio>
#define N 64
#define TIMED(call) do { call; cudaDeviceSynchronize(); } while (0)
__global__ void twice(int *a) { a[threadIdx.x] *= 2; }
int main() {
  int h[N], *d;
  for (int i = 0; i < N; ++i) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  TIMED((twice<<<1, N>>>(d)));
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[1], h[63]);
  return !(h[1] == 2 && h[63] == 126);
}
CU
out=$("$APP" run "$WORK/macro_launch/handed_whole.cu" 2>&1) || fail "handed_whole.cu: $out"
grep -q "^2 126$" <<<"$out" && grep -q "^launches: 1$" <<<"$out" || fail "handed_whole.cu: $out"
pass "a launch written by a macro is refused naming the macro; a launch handed whole to a macro runs"

# A thread's own memory given to a helper's pointer parameter (`swapf(&x, &y)`, `fill(regs, 4)`,
# out-parameters `minmax(in, 4, &lo, &hi)`), the same helper given shared memory too: the own
# memory is the thread's (no cell, never a race), the shared cells are simulated and race.
mkdir -p "$WORK/own_memory"
cat >"$WORK/own_memory/helpers.cu" <<'CU'
#include <cstdio>
#define N 64
__device__ void swapf(float *a, float *b) { float t = *a; *a = *b; *b = t; }
__device__ void fill(float *a, int n, float base) { for (int i = 0; i < n; ++i) a[i] = base + i; }
__device__ void minmax(const float *a, int n, float *lo, float *hi) {
  *lo = a[0]; *hi = a[0];
  for (int i = 1; i < n; ++i) { *lo = fminf(*lo, a[i]); *hi = fmaxf(*hi, a[i]); }
}
__global__ void k(float *out) {
  __shared__ float s[N];
  float regs[4], x = threadIdx.x, y = 2.0f * threadIdx.x, lo, hi;
  fill(regs, 4, x);
  swapf(&x, &y);
  minmax(regs, 4, &lo, &hi);
  s[threadIdx.x] = y - x + hi - lo;
  if (threadIdx.x % 2 == 0) {
#ifndef BUG_NO_BARRIER
  }
  __syncthreads();
  if (threadIdx.x % 2 == 0) {
#endif
    swapf(&s[threadIdx.x], &s[threadIdx.x + 1]);
  }
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
int main() {
  float h[N], *d;
  cudaMalloc(&d, sizeof h);
  k<<<1, N>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < N; ++i) wrong += h[i] != (float)(-(i ^ 1) + 3);
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/own_memory/helpers.cu" 2>&1) || fail "helpers.cu: $out"
grep -q "^0 wrong$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "helpers.cu: $out"
out=$("$APP" run "$WORK/own_memory/helpers.cu" --bug no-barrier --schedule forward 2>&1) || true
grep -q "^[1-9][0-9]* wrong$" <<<"$out" && grep -Eq "race.*on s" <<<"$out" && grep -Eq "helpers\.cu:(3|15)\b" <<<"$out" ||
  fail "helpers.cu's race on s is not reported: $out"
cat >"$WORK/own_memory/local_pointers.cu" <<'CU'
#include <cstdio>
__global__ void k(float *out) {
  float x = threadIdx.x, regs[4] = {1, 2, 3, 4};
  float *p = &x;
  float *r = regs, *q = &regs[2];
  *p += r[1] + *q;
  out[threadIdx.x] = x;
}
int main() {
  float h[32], *d;
  cudaMalloc(&d, sizeof h);
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[0], h[31]);
  return !(h[0] == 5 && h[31] == 36);
}
CU
out=$("$APP" run "$WORK/own_memory/local_pointers.cu" 2>&1) || fail "local_pointers.cu: $out"
grep -q "^5 36$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "local_pointers.cu: $out"
pass "a helper's pointer parameter given a thread's own memory (&x, a register array, out-parameters) and shared memory; local pointers to a thread's own variables"

# `const` cast away (or added) on a pointer into device memory, C-style and const_cast: the same
# cells through the simulator's pointer of the new type; a thread's own address cast stays an address.
mkdir -p "$WORK/const_casts"
cat >"$WORK/const_casts/away.cu" <<'CU'
#include <cstdio>
#define N 32
__device__ float bump(float *v) { *v += 1.0f; return *v; }
__global__ void k(const int *in, const float *scale, float *out) {
  int *p = (int *)in;
  float *q = const_cast<float *>(scale);
  float x = 2.0f;
  const float *mine = (const float *)&x;
  p[threadIdx.x] += 1;
  if (threadIdx.x == 0) q[0] = 3.0f;
  __syncthreads();
  out[threadIdx.x] = p[threadIdx.x] * q[0] + *mine + bump(&x);
}
int main() {
  int h[N], *d;
  float one = 1.0f, *s, *o, r[N];
  for (int i = 0; i < N; ++i) h[i] = i;
  cudaMalloc(&d, sizeof h); cudaMalloc(&s, sizeof one); cudaMalloc(&o, sizeof r);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(s, &one, sizeof one, cudaMemcpyHostToDevice);
  k<<<1, N>>>(d, s, o);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < N; ++i) wrong += r[i] != (i + 1) * 3.0f + 2.0f + 3.0f;
  printf("%d wrong\n", wrong);
  return wrong != 0;
}
CU
out=$("$APP" run "$WORK/const_casts/away.cu" 2>&1) || fail "away.cu: $out"
grep -q "^0 wrong$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "away.cu: $out"
pass "const cast away on pointers into device memory ((int *)in, const_cast<float *>), a thread's own address cast"

# CUDA by Example's lock (atomicCAS ... atomicExch) with its __threadfence() left out: the race
# between the lock holders' updates is an error whose fix names the fence (it said "use an
# atomic"); with the fence, the blocks' atomics may order them (a warning).
mkdir -p "$WORK/lock"
cat >"$WORK/lock/mutex.cu" <<'CU'
#include <cstdio>
__global__ void add(int *mutex, float *c) {
  if (threadIdx.x == 0) {
    while (atomicCAS(mutex, 0, 1) != 0) {}
    *c += 1.0f;
#ifndef BUG_NO_FENCE
    __threadfence();
#endif
    atomicExch(mutex, 0);
  }
}
int main() {
  int *m; float *c, h = 0;
  cudaMalloc(&m, sizeof(int)); cudaMalloc(&c, sizeof(float));
  cudaMemset(m, 0, sizeof(int)); cudaMemset(c, 0, sizeof(float));
  add<<<4, 32>>>(m, c);
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g\n", h);
  return h != 4.0f;
}
CU
out=$("$APP" run "$WORK/lock/mutex.cu" 2>&1) || fail "mutex.cu: $out"
grep -q "^4$" <<<"$out" && ! grep -q "^error" <<<"$out" && grep -q "^warning: .*may order" <<<"$out" || fail "mutex.cu with its fence: $out"
out=$("$APP" run "$WORK/lock/mutex.cu" --bug no-fence 2>&1) || true
has_lines "mutex.cu without its fence" "$out" "^error: cross-block race .*mutex\.cu:5\b" \
  "^fix: if blocks [0-9]* and [0-9]* take turns through their global atomics (a lock, a ticket), nothing makes the write at .*mutex\.cu:5 visible to the next block: put __threadfence() after it"
pass "a lock without its __threadfence(): the race's fix names the fence"

# One block launched three times with a race: the report counts one block, not one a launch.
mkdir -p "$WORK/relaunch"
cat >"$WORK/relaunch/thrice.cu" <<'CU'
#include <cstdio>
__global__ void shift(int *a) {
  a[threadIdx.x] = a[(threadIdx.x + 1) % blockDim.x];
}
int main() {
  int *d, h[64];
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  for (int k = 0; k < 3; ++k) shift<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[0]);
  return 0;
}
CU
out=$("$APP" run "$WORK/relaunch/thrice.cu" --schedule forward 2>&1) || fail "thrice.cu: $out"
grep -q "^error: race .*thrice\.cu:3.*\[hazards: [0-9]*, blocks: 0\] on d, launches 1-3 (3)$" <<<"$out" ||
  fail "thrice.cu's race is not counted in one block of three launches: $out"
out=$("$APP" run "$WORK/relaunch/thrice.cu" --schedule forward --json 2>/dev/null) || fail "thrice.cu --json: $out"
python3 -c 'import json, sys; h = json.load(sys.stdin)["hazards"]; assert [g["launches"] for g in h] == [3] * len(h) and h, h' <<<"$out" ||
  fail "thrice.cu --json: a global array's race names not its 3 launches: $out"
pass "a race in one block launched three times counts one block and names its three launches (a global array's too)"

# __shared__ declared at file scope (it was refused): one array a block, for the kernel and the
# helper that name it; a 2D tile and a scalar; the bug variant's races are at their own lines.
mkdir -p "$WORK/file_shared"
cat >"$WORK/file_shared/rows.cu" <<'CU'
#include <cstdio>
#define W 8
__shared__ float tile[W][W + 1];
__shared__ int total;

__device__ void add_row(int r) {
  float sum = 0;
  for (int c = 0; c < W; ++c) sum += tile[r][c];
  atomicAdd(&total, (int)sum);
}

__global__ void sums(const float *in, int *out) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x == 0 && y == 0) total = 0;
  tile[y][x] = in[y * W + x];
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  if (x == 0) add_row(y);
  __syncthreads();
  if (x == 0 && y == 0) out[blockIdx.x] = total;
}

int main() {
  float h[W * W];
  int want = 0;
  for (int i = 0; i < W * W; ++i) { h[i] = i % 5; want += i % 5; }
  float *d; int *o, got[2] = {-1, -1};
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof got);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  sums<<<2, dim3(W, W)>>>(d, o);
  cudaMemcpy(got, o, sizeof got, cudaMemcpyDeviceToHost);
  const bool right = got[0] == want && got[1] == want;
  printf("%s %d %d\n", right ? "PASS" : "FAIL", got[0], got[1]);
  return right ? 0 : 1;
}
CU
for schedule in lockstep reverse random:3; do
  out=$("$APP" run "$WORK/file_shared/rows.cu" --schedule "$schedule" 2>&1) || fail "rows.cu ($schedule): $out"
  grep -q "^PASS 126 126$" <<<"$out" && grep -q "^hazards: none" <<<"$out" || fail "rows.cu ($schedule): $out"
done
out=$("$APP" run "$WORK/file_shared/rows.cu" --bug no-barrier 2>&1) || true
has_lines "rows.cu --bug no-barrier" "$out" "^error: race (WAW) between write at .*rows\.cu:14 and atomic at .*rows\.cu:9 .* on total$" \
  "^warning: race (RAW) between write at .*rows\.cu:15 and read at .*rows\.cu:8 .* on tile$"
# Declared twice (extern): one array; two names in one declaration, one inside a namespace, or a
# use in host code: refused at the line.
printf '#include <cstdio>\nextern __shared__ float dyn[];\nextern __shared__ float dyn[];\n__global__ void k(float *o) {\n  dyn[threadIdx.x] = threadIdx.x;\n  __syncthreads();\n  o[threadIdx.x] = dyn[63 - threadIdx.x];\n}\nint main() {\n  float *d, h[64];\n  cudaMalloc(&d, sizeof h);\n  k<<<1, 64, sizeof h>>>(d);\n  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  printf("%%g\\n", h[0]);\n  return 0;\n}\n' >"$WORK/file_shared/twice.cu"
out=$("$APP" run "$WORK/file_shared/twice.cu" 2>&1) || fail "twice.cu: $out"
grep -q "^63$" <<<"$out" || fail "twice.cu: $out"
printf '__shared__ float a[64], b[64];\n__global__ void k(float *o) { a[threadIdx.x] = b[threadIdx.x] = 1; o[0] = a[0]; }\n' >"$WORK/file_shared/pair.cu"
expect_refused "$WORK/file_shared/pair.cu" "pair\.cu:1:18: error: __shared__ 'a' shares its declaration at file scope with another: declare each on its own" "two file-scope __shared__ in one declaration"
printf 'namespace tiles { __shared__ float s[64]; }\n__global__ void k(float *o) { tiles::s[threadIdx.x] = 1; o[0] = tiles::s[0]; }\n' >"$WORK/file_shared/spaced.cu"
expect_refused "$WORK/file_shared/spaced.cu" "spaced\.cu:1:36: error: __shared__ 's' inside a namespace or a class cannot be translated" "a file-scope __shared__ in a namespace"
printf '__shared__ int tile[64];\n__global__ void k(int *o) { tile[threadIdx.x] = 1; o[threadIdx.x] = tile[0]; }\nint main() { int *o; cudaMalloc(&o, sizeof(tile)); k<<<1, 64>>>(o); return 0; }\n' >"$WORK/file_shared/host.cu"
expect_refused "$WORK/file_shared/host.cu" "host\.cu:3:44: error: __shared__ 'tile' is used in host code" "a file-scope __shared__ in host code"
pass "__shared__ at file scope: one array a block for a kernel and its helper (a 2D tile, a scalar, extern twice); refused in one declaration with another, in a namespace, in host code"

# A kernel template's explicit instantiations (`template __global__ void k<256>(...);`, a g++
# error in the translation before): left blank beside a main(); the kernels a file without main()
# launches, by the name they print (`--kernel-name 'scale<float,4>'`, spaces or not).
mkdir -p "$WORK/instantiated"
cat >"$WORK/instantiated/scale.cu" <<'CU'
template <typename T, int K>
__global__ void scale(T *a) {
  __shared__ T s[64];
  s[threadIdx.x] = a[threadIdx.x] * K;
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  a[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
template __global__ void scale<float, 4>(float *);
template
__global__ void scale<int, 2>(int *);
CU
out=$("$APP" run "$WORK/instantiated/scale.cu" --grid 1 --block 64 2>&1) && fail "scale.cu without --kernel-name: $out"
grep -q "kernel-name is needed: the file has kernels scale<float, 4>, scale<int, 2>" <<<"$out" || fail "scale.cu without --kernel-name: $out"
out=$("$APP" run "$WORK/instantiated/scale.cu" --grid 1 --block 64 --kernel-name 'scale<int,2>' --json 2>&1) || fail "scale<int,2>: $out"
python3 - "$out" <<'PY' || fail "scale<int,2>: $out"
import json, sys
text = sys.argv[1]
run = json.loads(text[text.index("{"):])
assert run["hazards"] == [], run["hazards"]
assert run["counters"]["launches"][0]["label"] == "scale<int, 2>", run["counters"]["launches"]
assert run["program"]["main_returned"] == 0
PY
out=$("$APP" run "$WORK/instantiated/scale.cu" --grid 1 --block 64 --kernel-name 'scale<float, 4>' --bug no-barrier 2>&1) || true
grep -q "^error: race (RAW) between write at .*scale\.cu:4 and read at .*scale\.cu:8" <<<"$out" || fail "scale<float, 4> --bug no-barrier: $out"
cat >"$WORK/instantiated/main.cu" <<'CU'
#include <cstdio>
template <int BS>
__global__ void total(const int *in, int *out) {
  __shared__ int s[BS];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int k = BS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = s[0];
}
template __global__ void total<64>(const int *, int *);
int main() {
  int h[64], r = 0;
  for (int i = 0; i < 64; ++i) h[i] = i;
  int *d, *o;
  cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof r);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  total<64><<<1, 64>>>(d, o);
  cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
  printf("sum %d\n", r);
  return r != 2016;
}
CU
out=$("$APP" run "$WORK/instantiated/main.cu" 2>&1) || fail "main.cu: $out"
grep -q "^sum 2016$" <<<"$out" || fail "main.cu: $out"
# Written after a use (the specialization's point of instantiation is the use, not the statement).
cat >"$WORK/instantiated/after.cu" <<'CU'
#include <cstdio>
template <int N> __global__ void k(int* o) { o[threadIdx.x] = N; }
void go(int* o) { k<4><<<1, 32>>>(o); }
template __global__ void k<4>(int*);
int main() {
  int* o; cudaMalloc(&o, 128);
  go(o);
  int h[32]; cudaMemcpy(h, o, 128, cudaMemcpyDeviceToHost);
  printf("%d\n", h[3]);
  return h[3] == 4 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/instantiated/after.cu" 2>&1) || fail "after.cu: $out"
grep -q "^4$" <<<"$out" || fail "after.cu: $out"
pass "a kernel template's explicit instantiations: blank beside main(), launchable without it"

# A name the translation uses itself: refused at its line (it was a g++ "conflicting declaration").
mkdir -p "$WORK/own_names"
printf '__global__ void k(float *a, float _c) {\n  a[threadIdx.x] *= _c;\n}\n' >"$WORK/own_names/context.cu"
printf '__global__ void k(float *a, int syncscope_count) {\n  a[threadIdx.x] += syncscope_count;\n}\n' >"$WORK/own_names/count.cu"
out=$("$APP" run "$WORK/own_names/context.cu" --grid 1 --block 32 2>&1) && fail "context.cu: $out"
grep -q "context\.cu:1:35: error: the name '_c' is one syncscope's translation of the file uses itself (_c in device code): rename it" <<<"$out" ||
  fail "context.cu: $out"
out=$("$APP" run "$WORK/own_names/count.cu" --grid 1 --block 32 2>&1) && fail "count.cu: $out"
grep -q "count\.cu:1:33: error: the name 'syncscope_count' is one syncscope's translation" <<<"$out" || fail "count.cu: $out"
pass "a student's name that the translation uses itself (_c in device code, syncscope_...) is refused at its line"

# Same-value stores (every thread may set a shared flag to 1) stay no hazard when the read after
# them races for want of a barrier: that read is the race, and its fix the barrier (the stores
# were an error "give each thread a cell of its own").
mkdir -p "$WORK/flag"
cat >"$WORK/flag/any.cu" <<'CU'
__global__ void anyThree(const int *A, int *result) {
    __shared__ int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (A[blockIdx.x * blockDim.x + threadIdx.x] % 7 == 3) flag = 1;
#ifndef BUG_NO_BARRIER
    __syncthreads();
#endif
    if (threadIdx.x == 0) result[blockIdx.x] = flag;
}
CU
out=$("$APP" run "$WORK/flag/any.cu" --grid 2 --block 64 2>&1) || fail "any.cu: $out"
grep -q "^hazards: none" <<<"$out" || fail "any.cu: $out"
out=$("$APP" run "$WORK/flag/any.cu" --grid 2 --block 64 --bug no-barrier 2>&1) || true
[ "$(grep -c "^error\|^warning" <<<"$out")" = 1 ] && grep -q "^error: race (RAW) between write at .*any\.cu:5 and read at .*any\.cu:9 " <<<"$out" &&
  grep -q "^fix: a barrier between .*any\.cu:5 and .*any\.cu:9 would order these accesses$" <<<"$out" || fail "any.cu --bug no-barrier: $out"
pass "same-value flag stores stay no hazard beside the read that races after them"

# A compare-and-swap that finds another value writes nothing: plain reads of the cell beside it are
# no race (a BFS's claim of a vertex already at this level); one that swaps is the warning either
# way round, within a block or across blocks (the read before another block's atomic was an error).
mkdir -p "$WORK/claims"
cat >"$WORK/claims/bfs.cu" <<'CU'
#include <cstdio>
__global__ void bfs_level(const int *next, int *dist, int level, int n) {
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    if (dist[u] != level) return;
    int v = next[u];
    if (v >= 0) atomicCAS(&dist[v], -1, level + 1);
}
__global__ void settled(int *owner, int *seen) {
    seen[threadIdx.x] = owner[0];
    atomicCAS(&owner[0], -1, threadIdx.x);
}
int main() {
    const int n = 64;
    int nx[n], dist[n], *d_next, *d_dist, *d_seen;
    for (int i = 0; i < n; i++) { nx[i] = i - 1; dist[i] = i == n - 1 ? 0 : -1; }
    cudaMalloc(&d_next, sizeof nx); cudaMalloc(&d_dist, sizeof dist); cudaMalloc(&d_seen, sizeof dist);
    cudaMemcpy(d_next, nx, sizeof nx, cudaMemcpyHostToDevice);
    cudaMemcpy(d_dist, dist, sizeof dist, cudaMemcpyHostToDevice);
    for (int level = 0; level < n; level++) bfs_level<<<2, 32>>>(d_next, d_dist, level, n);
    cudaMemcpy(dist, d_dist, sizeof dist, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += dist[i] != n - 1 - i;
    settled<<<1, 64>>>(d_dist, d_seen);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
CU
out=$("$APP" run "$WORK/claims/bfs.cu" 2>&1) || fail "bfs.cu: $out"
grep -q "^PASS$" <<<"$out" && ! grep -q "^error" <<<"$out" || fail "bfs.cu: $out"
grep -q "^warning: cross-block race (WAR) between read at .*bfs\.cu:5 and atomic at .*bfs\.cu:7 .*: a plain read of a cell other threads update with atomics sees it before or after their update" <<<"$out" ||
  fail "bfs.cu: the read before another block's compare-and-swap is no warning: $out"
! grep -q "bfs\.cu:1[01]\b" <<<"$out" || fail "bfs.cu: compare-and-swaps that find another value race with reads: $out"
# The same with 8-byte values (a CAS built of two cells' CASes); and a read against another
# block's compare-and-swap is the same warning whichever block runs first.
cat >"$WORK/claims/claim64.cu" <<'CU'
#include <cstdio>
#ifndef T
#define T unsigned long long
#endif
__global__ void claim(T* level, int* out) {
  int t = threadIdx.x;
  T old = 0;
  if (t % 2 == 0) old = atomicCAS(&level[0], (T)-1, (T)t);  // fails: level[0] is 7
  else old = level[0];
  out[t] = (int)old;
}
int main() {
  T* d; int* o;
  cudaMalloc(&d, sizeof(T)); cudaMalloc(&o, 64 * sizeof(int));
  T h = 7;
  cudaMemcpy(d, &h, sizeof(T), cudaMemcpyHostToDevice);
  claim<<<2, 64>>>(d, o);
  int r[64];
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  return r[5] == 7 ? 0 : 1;
}
CU
out=$("$APP" run "$WORK/claims/claim64.cu" 2>&1) || fail "claim64.cu: $out"
grep -q "^hazards: none" <<<"$out" || fail "claim64.cu: a failed 8-byte compare-and-swap races with reads: $out"
cat >"$WORK/claims/blocks.cu" <<'CU'
#include <cstdio>
__global__ void k(int* x, int* y, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    atomicAdd(y, 1);
    out[0] = *x;
  } else {
    atomicCAS(x, 0, 5);
  }
}
int main() {
  int *x, *y, *o;
  cudaMalloc(&x, 4); cudaMalloc(&y, 4); cudaMalloc(&o, 4);
  cudaMemset(x, 0, 4); cudaMemset(y, 0, 4);
  k<<<2, 32>>>(x, y, o);
  int r;
  cudaMemcpy(&r, o, 4, cudaMemcpyDeviceToHost);
  printf("%d\n", r);
  return 0;
}
CU
for schedule in lockstep reverse; do
  out=$("$APP" run "$WORK/claims/blocks.cu" --schedule "$schedule" 2>&1) || fail "blocks.cu: $out"
  grep -q "^warning: cross-block race .*blocks\.cu:[68] .*blocks\.cu:[68] .*: a plain read of a cell other threads update with atomics" <<<"$out" &&
    ! grep -q "^error" <<<"$out" || fail "blocks.cu under $schedule: $out"
done
pass "a compare-and-swap that fails (or stores what is there) is a read; a plain read against another block's one is a warning either way round"

# Threads that skip a barrier inside `if (t < n) { ... }` and run to the kernel's end exited, as a
# return's do: the same warning, the launch goes on (it was barrier divergence, a failed launch);
# a loop over chunks that some threads leave a round early too. Two barriers, one in each branch,
# stay an error whose fix is one barrier after the branch.
mkdir -p "$WORK/skipped"
cat >"$WORK/skipped/rev.cu" <<'CU'
#include <cstdio>
__global__ void rev(int *a, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
#ifdef BUG_GUARD_BLOCK
    if (t < n) {
        s[t] = a[t];
        __syncthreads();
        a[t] = s[n - 1 - t];
    }
#elif defined(BUG_TWO_BARRIERS)
    if (t < n) { s[t] = a[t]; __syncthreads(); }
    else { __syncthreads(); }
    if (t < n) a[t] = s[n - 1 - t];
#else
    if (t >= n) return;
    s[t] = a[t];
    __syncthreads();
    a[t] = s[n - 1 - t];
#endif
}
int main() {
    const int n = 40;
    int h[64], *d;
    for (int i = 0; i < 64; i++) h[i] = i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    rev<<<1, 64>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += h[i] != (i < n ? n - 1 - i : i);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
CU
out=$("$APP" run "$WORK/skipped/rev.cu" 2>&1) || fail "rev.cu: $out"
grep -q "^warning: T40 returned at .*rev\.cu:16 before the barrier at .*rev\.cu:18" <<<"$out" || fail "rev.cu: $out"
out=$("$APP" run "$WORK/skipped/rev.cu" --bug guard-block 2>&1) || fail "rev.cu --bug guard-block: $out"
grep -q "^PASS$" <<<"$out" && grep -q "^main() returned 0" <<<"$out" &&
  grep -q "^warning: T40 finished the kernel before the barrier at .*rev\.cu:8, where T0 waits" <<<"$out" &&
  grep -q "^fix: T40 finished the kernel without reaching the barrier at .*rev\.cu:8, .*move it out of that branch" <<<"$out" ||
  fail "rev.cu --bug guard-block: $out"
out=$("$APP" run "$WORK/skipped/rev.cu" --bug two-barriers 2>&1) || true
grep -q "^error: barrier divergence at .*rev\.cu:1[23]\b" <<<"$out" && grep -q "^fix: T[0-9]* waits at the barrier at .*rev\.cu:1[23] and T[0-9]* at the one at .*rev\.cu:1[23]: they are two barriers .*put one barrier after the branch" <<<"$out" ||
  fail "rev.cu --bug two-barriers: $out"
pass "threads that skip a barrier in a branch and finish the kernel are a warning as a return's are; two barriers an error with its fix"

# A race whose line is inside a __device__ helper: the fix names the helper's call, where the
# barrier goes (it said "after :14 and before :7", inside the helper's loop), and groups with the
# caller's pairs; a helper called twice with the race between its calls names both calls.
mkdir -p "$WORK/helpers"
cat >"$WORK/helpers/rank.cu" <<'CU'
#include <cstdio>
// a __device__ helper reads shared memory that the kernel filled just before calling it
__device__ int lowerBound(const int *s, int n, int key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (s[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
}

__global__ void rank(const int *sorted, const int *keys, int *out) {
    __shared__ int s[128];
    s[threadIdx.x] = sorted[threadIdx.x];
#ifndef BUG_NO_BARRIER
    __syncthreads();
#endif
    out[threadIdx.x] = lowerBound(s, 128, keys[threadIdx.x]);
}

__device__ void add_right(const int *s, int *r, int t) {
  int v = s[t] + s[t + 1];
  r[t] = v;
}

__global__ void twice(int *d) {
  __shared__ int a[65], b[65];
  int t = threadIdx.x;
  a[t] = d[t];
  if (t == 0) a[64] = b[64] = 0;
  __syncthreads();
  add_right(a, b, t);
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  add_right(b, a, t);
  __syncthreads();
  d[t] = a[t];
}

int main() {
    int h[128], k[128], o[128], *d_s, *d_k, *d_o;
    for (int i = 0; i < 128; i++) { h[i] = 2 * i; k[i] = (i * 37) % 256; }
    cudaMalloc(&d_s, sizeof h); cudaMalloc(&d_k, sizeof k); cudaMalloc(&d_o, sizeof o);
    cudaMemcpy(d_s, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(d_k, k, sizeof k, cudaMemcpyHostToDevice);
    rank<<<1, 128>>>(d_s, d_k, d_o);
    twice<<<1, 64>>>(d_s);
    cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 128; i++) bad += o[i] != (k[i] + 1) / 2;
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
CU
out=$("$APP" run "$WORK/helpers/rank.cu" 2>&1) || fail "rank.cu: $out"
grep -q "^hazards: none" <<<"$out" || fail "rank.cu: $out"
out=$("$APP" run "$WORK/helpers/rank.cu" --bug no-barrier 2>&1) || true
grep -q "^fix: a barrier between .*rank\.cu:14 and .*rank\.cu:18 would order these accesses (.*rank\.cu:18 calls lowerBound, where .*rank\.cu:7 is)$" <<<"$out" ||
  fail "rank.cu --bug no-barrier: the fix names no call: $out"
grep -q "^fix: .*comes round again (the code goes back between them: a loop, or the function called again; add_right is called at .*rank\.cu:32 and .*rank\.cu:36)" <<<"$out" ||
  fail "rank.cu --bug no-barrier: the helper called twice names no calls: $out"
# A method and a free function of one name: each's calls are its own (known by the lines it spans).
cat >"$WORK/helpers/overloads.cu" <<'CU'
#include <cstdio>
struct Acc {
  __device__ void shift(int* s, int t) {
    for (int d = 1; d < 64; d *= 2) {
      int v = t >= d ? s[t - d] : 0;
      s[t] += v;
    }
  }
};
__device__ void shift(int* s, int t) { s[t] = s[(t + 1) % 64]; }
__global__ void scan(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  Acc a;
  s[t] = in[t];
  __syncthreads();
  a.shift(s, t);
  __syncthreads();
  shift(s, t);
  __syncthreads();
  a.shift(s, t);
  out[t] = s[t];
}
int main() {
  int *in, *out;
  cudaMalloc(&in, 256); cudaMalloc(&out, 256);
  int h[64]; for (int i = 0; i < 64; ++i) h[i] = 1;
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<1, 64>>>(in, out);
  return 0;
}
CU
out=$("$APP" run "$WORK/helpers/overloads.cu" 2>&1) || fail "overloads.cu: $out"
grep -q "^fix: .*shift is called at .*overloads\.cu:17 and .*overloads\.cu:21)" <<<"$out" || fail "overloads.cu: $out"
pass "a race inside a __device__ helper: its fix names the call where the barrier goes, or the helper's calls (overloads apart)"
