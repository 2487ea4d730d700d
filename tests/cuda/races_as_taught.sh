#!/usr/bin/env bash
# Races as teachers teach them and verifiers' suites hold them, beyond the corpus: what the report
# and its fix lines say for each (a helper's unseen kernels, rounds K1 and K2).
# Usage: races_as_taught.sh path/to/syncscope
set -euo pipefail
APP=$(realpath "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SYNCSCOPE_CACHE_DIR="$WORK/cache"
source "$(dirname "$0")/test_lib.sh"
skip_unless_translating

# Floyd-Warshall as textbooks write it: row and column k are rewritten with their own values, which
# other blocks read in the same launch. No order changes what they read: warnings that say so, and
# no "split the launch". A write that stores its cell's value after another block changed it is
# still a race with a later reader (the cell changed in the launch).
cat >"$WORK/fw.cu" <<'CU'
#include <cstdio>
__global__ void fw_step(int *d, int n, int k) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y;
    if (j < n)
        d[i * n + j] = min(d[i * n + j], d[i * n + k] + d[k * n + j]);
}
int main() {
    const int n = 8;
    int h[n * n], ref[n * n], *d;
    for (int i = 0; i < n * n; i++) h[i] = (i / n == i % n) ? 0 : 1 + (i * 7) % 13;
    for (int i = 0; i < n * n; i++) ref[i] = h[i];
    for (int k = 0; k < n; k++) for (int i = 0; i < n; i++) for (int j = 0; j < n; j++)
        ref[i * n + j] = ref[i * n + j] < ref[i * n + k] + ref[k * n + j] ? ref[i * n + j] : ref[i * n + k] + ref[k * n + j];
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    for (int k = 0; k < n; k++) fw_step<<<dim3(1, n), n>>>(d, n, k);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n * n; i++) bad += h[i] != ref[i];
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
CU
out=$("$APP" run "$WORK/fw.cu" 2>&1) || fail "fw.cu: $out"
has_lines fw.cu "$out" "^PASS" "^warning: cross-block race (RAW) .*fw\.cu:6 .*: every write to these cells in the launch stored the value already there" \
  "^fix: nothing to fix for these values: the write at .*fw\.cu:6 stores what the cell holds"
lacks_lines fw.cu "$out" "^error:" "split the work into two launches (or use atomics)"
cat >"$WORK/sticky.cu" <<'CU'
__global__ void publish(int* d, int* out) {
  if (blockIdx.x == 0) d[0] = 5;
  if (blockIdx.x == 1) d[0] = 5;
  if (blockIdx.x == 2) out[0] = d[0];
}
CU
out=$("$APP" run "$WORK/sticky.cu" --grid 3 --block 1 2>&1) || fail "sticky.cu: $out"
has_lines sticky.cu "$out" "^error: cross-block race (RAW) between write at .*sticky\.cu:3 and read at .*sticky\.cu:4"
pass "a race on cells every write of the launch rewrote with their own value is a warning that says so"

# __syncwarp(mask) orders the lanes its mask names, no others: lanes 0-15 reading what lanes 16-31
# wrote after a __syncwarp(0xffff) race (it said "hazards: none"); among themselves they do not.
cat >"$WORK/half_mask.cu" <<'CU'
__global__ void k(float *out) {
  __shared__ float buf[32];
  int lane = threadIdx.x;
  buf[lane] = lane;
  if (lane < 16) {
    __syncwarp(0x0000ffff);
#ifdef BUG_OTHER_HALF
    out[lane] = buf[lane + 16];
#else
    out[lane] = buf[15 - lane];
#endif
  }
}
CU
out=$("$APP" run "$WORK/half_mask.cu" --grid 1 --block 32 2>&1) || fail "half_mask.cu: $out"
has_lines half_mask.cu "$out" "^hazards: none"
out=$("$APP" run "$WORK/half_mask.cu" --grid 1 --block 32 --bug other-half 2>&1) || fail "half_mask.cu other-half: $out"
has_lines "half_mask.cu other-half" "$out" "^warning: race (RAW) between write at .*half_mask\.cu:4 and read at .*half_mask\.cu:8 (T16, T0)"
pass "__syncwarp(mask) orders only the lanes its mask names"

# A claim tested before its atomicCAS, by threads of two warps, in a loop over several cells (a BFS
# frontier): a warning that the test may see the value before the CAS, as within one warp or across
# blocks (it was an error with a barrier's fix).
cat >"$WORK/claim.cu" <<'CU'
#include <cstdio>
__global__ void claim(int *owner) {
  int t = threadIdx.x;
  for (int e = 0; e < 2; ++e) {
    int c = (t + e * 32) % 64;
    if (owner[c] == -1) atomicCAS(&owner[c], -1, t);
  }
}
int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0xff, sizeof h);
  claim<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("owner[0] = %d\n", h[0]);
  return 0;
}
CU
out=$("$APP" run "$WORK/claim.cu" 2>&1) || fail "claim.cu: $out"
has_lines claim.cu "$out" "^warning: race (RAW) between atomic at .*claim\.cu:6 and read at .*claim\.cu:6 (T0, T32): a plain read" \
  "^fix: the read at .*claim\.cu:6 may see the value from before the atomic at .*claim\.cu:6: as the first guess of a compare-and-swap loop, a claim's test"
lacks_lines claim.cu "$out" "^error:"
pass "a claim's test before its atomicCAS, across warps, is the warning it is within one"

# A kernel-only file under --schedule all: outputs are told apart by what the launch left in its
# arrays (its launch succeeds either way; it always said "1 distinct output").
cat >"$WORK/two_writers.cu" <<'CU'
__global__ void k(int *out) {
  __shared__ int x;
  if (threadIdx.x == 0) x = 0;
  if (threadIdx.x == 32) x = 1;
  __syncthreads();
  out[threadIdx.x] = x;
}
CU
out=$("$APP" run "$WORK/two_writers.cu" --grid 1 --block 64 --schedule all 2>&1) || fail "two_writers.cu: $out"
has_lines two_writers.cu "$out" "^schedules: 2 distinct outputs in 19 runs" "unlike the first: out after the launch: 64 of 64 elements differ"
pass "a kernel-only file's schedules are told apart by its arrays"

# Bins zeroed with no barrier before the atomics into them: the barrier goes after the zeroing (the
# fix said "between :6 and :5", and to make the zeroing an atomicExch, which would still wipe some).
cat >"$WORK/zero_then_add.cu" <<'CU'
__global__ void hist(const int *in, int *out) {
  __shared__ int count[4];
  int t = threadIdx.x;
  if (t < 4) count[t] = 0;
  atomicAdd(&count[in[t] % 4], 1);
  __syncthreads();
  if (t < 4) out[t] = count[t];
}
CU
out=$("$APP" run "$WORK/zero_then_add.cu" --grid 1 --block 64 2>&1) || fail "zero_then_add.cu: $out"
has_lines zero_then_add.cu "$out" "^fix: the plain write at .*zero_then_add\.cu:4 must be done before other threads' atomics at .*zero_then_add\.cu:5 start on its cell: put a barrier between .*zero_then_add\.cu:4 and .*zero_then_add\.cu:5"
pass "a plain zeroing before atomics into it is fixed by a barrier after it"

# A helper called from two places, the race between its calls: the fix names the call after the
# write (it said "after :3's write and before :3", inside the helper).
cat >"$WORK/left_twice.cu" <<'CU'
__device__ int left(const int *s, int t) {
  return (t > 0) ? s[t - 1] : 0;
}
__global__ void k(int *out) {
  __shared__ int a[64];
  __shared__ int b[64];
  int t = threadIdx.x;
  a[t] = t;
  __syncthreads();
  b[t] = left(a, t);
  out[t] = left(b, t);
}
CU
out=$("$APP" run "$WORK/left_twice.cu" --grid 1 --block 64 2>&1) || fail "left_twice.cu: $out"
has_lines left_twice.cu "$out" "^fix: a barrier between .*left_twice\.cu:10 and .*left_twice\.cu:11 would order these accesses (.*left_twice\.cu:11 calls left, where .*left_twice\.cu:2 is)"
pass "a race through a helper called twice: the fix names the call that read"

# What a course's code holds that the translator must answer at its line: inline PTX (it reached
# the x86 assembler), a device function pointer (refused as an array's element type), and an
# accessor method returning a reference into its pointer field (g++'s errors on the translation).
cat >"$WORK/lane_asm.cu" <<'CU'
__global__ void k(unsigned int *out) {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  out[threadIdx.x] = r;
}
CU
expect_refused "$WORK/lane_asm.cu" "lane_asm\.cu:3:3: error: inline assembly (asm) is not simulated: write what it does in CUDA C++ (PTX's %laneid is threadIdx.x % warpSize" lane_asm.cu --grid 1 --block 32
cat >"$WORK/fn_pointer.cu" <<'CU'
__device__ float square(float x) { return x * x; }
__device__ float apply(float x, float (*f)(float)) { return f(x); }
__global__ void k(float *out) { out[threadIdx.x] = apply(1.0f, square); }
CU
expect_refused "$WORK/fn_pointer.cu" "fn_pointer\.cu:2:.*error: 'f' is a pointer to a function.*pass a functor" fn_pointer.cu --grid 1 --block 32
cat >"$WORK/accessor.cu" <<'CU'
#include <cstdio>
#define W 16
struct Tile {
  float *data;
  __device__ float &at(int r, int c) { return data[r * W + c]; }
};
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float buf[W * W];
  Tile t{buf};
  int x = threadIdx.x, y = threadIdx.y;
  t.at(y, x) = in[y * W + x];
#ifndef BUG_NO_BARRIER
  __syncthreads();
#endif
  out[y * W + x] = t.at(x, y);
}
int main() {
  float h[W * W], o[W * W], *d_in, *d_out;
  for (int i = 0; i < W * W; i++) h[i] = i;
  cudaMalloc(&d_in, sizeof(h));
  cudaMalloc(&d_out, sizeof(h));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  transposeTile<<<1, dim3(W, W)>>>(d_in, d_out);
  cudaMemcpy(o, d_out, sizeof(o), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < W; r++) for (int c = 0; c < W; c++) bad += o[r * W + c] != h[c * W + r];
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
CU
out=$("$APP" run "$WORK/accessor.cu" 2>&1) || fail "accessor.cu: $out"
has_lines accessor.cu "$out" "^PASS" "^hazards: none"
out=$("$APP" run "$WORK/accessor.cu" --bug no-barrier 2>&1) || fail "accessor.cu no-barrier: $out"
has_lines "accessor.cu no-barrier" "$out" "^error: race (RAW) between write at .*accessor\.cu:5 and read at .*accessor\.cu:5" \
  "^fix: a barrier between .*accessor\.cu:11 and .*accessor\.cu:15 would order these accesses (at is called at"
pass "inline asm and device function pointers are refused at their lines; an accessor returning a reference into its field runs"

# 64 KiB of static __shared__: nvcc refuses it, so the translation does, at its line (it failed at
# run time with "pass a larger shared size to the launch", which sizes extern arrays only).
cat >"$WORK/big_static.cu" <<'CU'
__global__ void k(float *out) {
  __shared__ float big[16384];
  big[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = big[threadIdx.x];
}
CU
expect_refused "$WORK/big_static.cu" "big_static\.cu:2:.*error: __shared__ 'big' takes 65536 bytes, over the 49152 a kernel may declare statically" big_static.cu --grid 1 --block 32
pass "static shared memory over 48 KiB is refused at its line"

# The warp counts: a converged shuffle is one warp instruction (its lanes report as they resume,
# the completing lane first: it was two, both divergent), and so is a double's atomicAdd (one lane
# at a time: it was 32 divergent).
cat >"$WORK/one_each.cu" <<'CU'
__global__ void shfl(const int *in, int *out) {
  int v = in[threadIdx.x];
  v = __shfl_xor_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
__global__ void add64(double *acc, float *out) {
  atomicAdd(&acc[0], 1.0);
  out[threadIdx.x] = 1.0f;
}
CU
out=$("$APP" run "$WORK/one_each.cu" --kernel-name shfl --grid 1 --block 32 2>&1) || fail "one_each.cu shfl: $out"
has_lines "one_each.cu shfl" "$out" "^warps (shown blocks): 3 warp instructions, 0 divergent"
out=$("$APP" run "$WORK/one_each.cu" --kernel-name add64 --grid 1 --block 32 2>&1) || fail "one_each.cu add64: $out"
has_lines "one_each.cu add64" "$out" "^warps (shown blocks): 2 warp instructions, 0 divergent"
pass "a shuffle and a double's atomicAdd are one warp instruction each"

# Arrays cudaMalloc'ed in a host function template keep their names (they were "device array").
cat >"$WORK/host_template.cu" <<'CU'
__global__ void k(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x + 1]; }
template <typename T>
int runCase() {
  T *dIn, *dOut;
  cudaMalloc(&dIn, 32 * sizeof(T));
  cudaMalloc(&dOut, 32 * sizeof(T));
  k<<<1, 32>>>(dIn, dOut);
  return 0;
}
int main() { return runCase<float>(); }
CU
out=$("$APP" run "$WORK/host_template.cu" 2>&1) || fail "host_template.cu: $out"
has_lines host_template.cu "$out" "^error: out-of-bounds read of dIn\[32\] at .*host_template\.cu:1 (dIn has 32 elements)"
pass "arrays allocated in a host template keep their names"

# An odd-even sort whose barrier sits inside the compare-exchange's branch: the threads that skip it
# run into the next phase's swaps. No atomic mends a swap (it was called a lost update); the races'
# fixes point at the skipped barrier.
cat >"$WORK/odd_even.cu" <<'CU'
__global__ void k(int *keys) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = 63 - t;
  __syncthreads();
  for (int phase = 0; phase < 64; ++phase) {
    int i = 2 * t + (phase & 1);
    if (t < 32 && i + 1 < 64) {
      if (s[i] > s[i + 1]) { int x = s[i]; s[i] = s[i + 1]; s[i + 1] = x; }
      __syncthreads();
    }
  }
  keys[t] = s[t];
}
CU
out=$("$APP" run "$WORK/odd_even.cu" --grid 1 --block 64 2>&1) || fail "odd_even.cu: $out"
has_lines odd_even.cu "$out" "^fix: threads write one cell at .*odd_even\.cu:9 .*but first keep every thread at the barrier at .*odd_even\.cu:10"
lacks_lines odd_even.cu "$out" "lost update"
pass "races after a barrier skipped in a branch point at it, and a swap is no lost update"

# A launch of more threads than the kernel's __launch_bounds__ fails, as on a GPU (it ran): an H200
# answers "invalid argument".
cat >"$WORK/bounds.cu" <<'CU'
#include <cstdio>
__global__ void __launch_bounds__(128) fill(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 256 * sizeof(int));
  fill<<<2, 128>>>(d);
  printf("128: %s\n", cudaGetErrorString(cudaGetLastError()));
  fill<<<1, 256>>>(d);
  printf("256: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
CU
out=$("$APP" run "$WORK/bounds.cu" 2>&1) || fail "bounds.cu: $out"
has_lines bounds.cu "$out" "^128: no error" "^256: invalid argument" \
  "bounds\.cu:8: the launch of fill is refused (invalid argument): 256 threads a block, and its __launch_bounds__ allows 128"
pass "a launch over the kernel's __launch_bounds__ fails"
