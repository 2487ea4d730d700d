// Warp and block votes: __any_sync, __all_sync, __ballot_sync per warp, __activemask in a branch, __syncthreads_count/_and/_or per block.
// From: the CUDA C++ Programming Guide, "Warp Vote Functions" and "Synchronization Functions"; Lin & Grover, "Using CUDA Warp-Level Primitives".
// BUG_NO_BARRIER: the __syncthreads after lane 0 of each warp writes s_full[warp] is left out; thread 0 sums the slots before they are written.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 1000
#define THREADS 128
#define BLOCKS 8
#define WARPS (THREADS / 32)

struct WarpVotes  { int anyBig; int allValid; unsigned int evenMask; };
struct BlockVotes { int fullWarps; int multiplesOf3; int allNonNegative; int anyZero; };

__global__ void vote_kernel(const int *data, int n, WarpVotes *warpOut, BlockVotes *blockOut, int *maskErrors)
{
    __shared__ int s_full[WARPS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    bool valid = i < n;
    int x = valid ? data[i] : -1; // -1: this thread has no element

    // warp votes: every lane of the warp takes part
    int anyBig = __any_sync(0xffffffff, x >= 99);
    int allValid = __all_sync(0xffffffff, valid);
    unsigned int evenMask = __ballot_sync(0xffffffff, valid && x % 2 == 0);
    if (lane == 0) {
        WarpVotes w;
        w.anyBig = anyBig; w.allValid = allValid; w.evenMask = evenMask;
        warpOut[i / warpSize] = w;
        s_full[warp] = allValid;
    }
#ifndef BUG_NO_BARRIER
    // step: lane 0 of every warp writes its votes, and s_full[warp]
    __syncthreads();
#endif
    if (threadIdx.x == 0) {
        int full = 0;
        for (int w = 0; w < WARPS; ++w) full += s_full[w];
        blockOut[blockIdx.x].fullWarps = full;
    }

    // block votes: each one is also a barrier
    // step: every thread votes whether its value is a multiple of 3
    int count = __syncthreads_count(valid && x % 3 == 0);
    // step: every thread votes whether its value is non-negative
    int allNonNegative = __syncthreads_and(x >= 0);
    // step: every thread votes whether its value is 0
    int anyZero = __syncthreads_or(x == 0);
    if (threadIdx.x == 0) {
        blockOut[blockIdx.x].multiplesOf3 = count;
        blockOut[blockIdx.x].allNonNegative = allNonNegative;
        blockOut[blockIdx.x].anyZero = anyZero;
    }

    // inside a branch only the lanes that took it can be active
    if (valid) {
        unsigned int active = __activemask();
        int firstI = i - lane; // the warp's first element
        unsigned int validLanes = (n - firstI >= 32) ? 0xffffffffu : ((1u << (n - firstI)) - 1);
        if (((active >> lane) & 1u) == 0 || (active & ~validLanes) != 0) atomicAdd(maskErrors, 1);
    }
}

int main()
{
    const int threads = BLOCKS * THREADS;
    const int warps = threads / 32;
    std::vector<int> h_data(N);
    for (int i = 0; i < N; ++i) h_data[i] = (i * 37) % 101; // 0..100

    int *d_data = NULL, *d_maskErrors = NULL;
    WarpVotes *d_warp = NULL;
    BlockVotes *d_block = NULL;
    cudaMalloc((void **)&d_data, N * sizeof(int));
    cudaMalloc((void **)&d_warp, warps * sizeof(WarpVotes));
    cudaMalloc((void **)&d_block, BLOCKS * sizeof(BlockVotes));
    cudaMalloc((void **)&d_maskErrors, sizeof(int));
    cudaMemcpy(d_data, h_data.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_maskErrors, 0, sizeof(int));

    vote_kernel<<<BLOCKS, THREADS>>>(d_data, N, d_warp, d_block, d_maskErrors);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<WarpVotes> hw(warps);
    std::vector<BlockVotes> hb(BLOCKS);
    int maskErrors = 0;
    cudaMemcpy(hw.data(), d_warp, warps * sizeof(WarpVotes), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb.data(), d_block, BLOCKS * sizeof(BlockVotes), cudaMemcpyDeviceToHost);
    cudaMemcpy(&maskErrors, d_maskErrors, sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference, warp by warp and block by block
    bool ok = (maskErrors == 0);
    int anyBigWarps = 0, evenCount = 0, multiples = 0;
    for (int w = 0; w < warps; ++w) {
        WarpVotes e = {0, 1, 0u};
        for (int l = 0; l < 32; ++l) {
            int i = w * 32 + l;
            int x = (i < N) ? h_data[i] : -1;
            if (x >= 99) e.anyBig = 1;
            if (i >= N) e.allValid = 0;
            if (i < N && x % 2 == 0) e.evenMask |= 1u << l;
        }
        if (hw[w].anyBig != e.anyBig || hw[w].allValid != e.allValid || hw[w].evenMask != e.evenMask) ok = false;
        anyBigWarps += hw[w].anyBig;
        for (int l = 0; l < 32; ++l) evenCount += (hw[w].evenMask >> l) & 1u;
    }
    for (int b = 0; b < BLOCKS; ++b) {
        BlockVotes e = {0, 0, 1, 0};
        for (int w = 0; w < WARPS; ++w) e.fullWarps += ((b * THREADS + w * 32 + 31) < N) ? 1 : 0;
        for (int t = 0; t < THREADS; ++t) {
            int i = b * THREADS + t;
            int x = (i < N) ? h_data[i] : -1;
            if (i < N && x % 3 == 0) e.multiplesOf3++;
            if (x < 0) e.allNonNegative = 0;
            if (x == 0) e.anyZero = 1;
        }
        if (hb[b].fullWarps != e.fullWarps || hb[b].multiplesOf3 != e.multiplesOf3 ||
            (hb[b].allNonNegative != 0) != (e.allNonNegative != 0) || (hb[b].anyZero != 0) != (e.anyZero != 0)) ok = false;
        multiples += hb[b].multiplesOf3;
    }
    printf("block 7: full warps = %d, all non-negative = %d, any zero = %d\n", hb[7].fullWarps,
           hb[7].allNonNegative != 0, hb[7].anyZero != 0);
    printf("warps with a value >= 99 = %d, even values = %d, multiples of 3 = %d, mask errors = %d %s\n",
           anyBigWarps, evenCount, multiples, maskErrors, ok ? "PASS" : "FAIL");

    cudaFree(d_data);
    cudaFree(d_warp);
    cudaFree(d_block);
    cudaFree(d_maskErrors);
    return ok ? 0 : 1;
}
