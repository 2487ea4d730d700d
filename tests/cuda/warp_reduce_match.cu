// Warp sums with __reduce_add_sync (checked against a __shfl_xor_sync butterfly), and a key histogram in which __match_any_sync groups the lanes with the same key.
// From: the CUDA C++ Programming Guide, "Warp Reduce Functions" (sm_80+) and "Warp Match Functions" (sm_70+).
// BUG_NON_ATOMIC: the group leader adds with a plain s_count[key] +=; leaders of two warps with the same key lose an update.
// BUG_NO_BARRIER: the __syncthreads after clearing s_count[] is left out; a leader may add into a counter before it is cleared.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define THREADS 128
#define BLOCKS (N / THREADS)
#define KEYS 8

__global__ void warp_sums_and_keys(const int *data, int *warpSums, int *keyCount, int *errors)
{
    __shared__ int s_count[KEYS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;

    if (threadIdx.x < KEYS) s_count[threadIdx.x] = 0;
#ifndef BUG_NO_BARRIER
    // step: threads 0..7 clear the block's key counters s_count[]
    __syncthreads();
#endif

    int x = data[i];

    // the warp's sum, two ways: one instruction, and a butterfly in which every lane ends with the sum
    int sum = __reduce_add_sync(0xffffffff, x);
    int butterfly = x;
    for (int mask = 16; mask > 0; mask /= 2)
        butterfly += __shfl_xor_sync(0xffffffff, butterfly, mask);
    if (butterfly != sum) atomicAdd(errors, 1);
    if (lane == 0) warpSums[i / warpSize] = sum;

    // lanes with the same key form a group; its lowest lane counts the whole group
    int key = x % KEYS;
    unsigned int peers = __match_any_sync(0xffffffff, key);
    bool leader = (peers & ((1u << lane) - 1)) == 0; // no peer below this lane
    if (leader) {
#ifdef BUG_NON_ATOMIC
        s_count[key] += __popc(peers);
#else
        atomicAdd(&s_count[key], __popc(peers));
#endif
    }
    // step: every group leader adds its group's size into s_count[key]
    __syncthreads();
    if (threadIdx.x < KEYS) atomicAdd(&keyCount[threadIdx.x], s_count[threadIdx.x]);
}

int main()
{
    const int warps = N / 32;
    std::vector<int> h_data(N);
    unsigned int seed = 31337;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_data[i] = (int)((seed >> 16) % 50);
    }

    int *d_data = NULL, *d_warpSums = NULL, *d_keyCount = NULL, *d_errors = NULL;
    cudaMalloc((void **)&d_data, N * sizeof(int));
    cudaMalloc((void **)&d_warpSums, warps * sizeof(int));
    cudaMalloc((void **)&d_keyCount, KEYS * sizeof(int));
    cudaMalloc((void **)&d_errors, sizeof(int));
    cudaMemcpy(d_data, h_data.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_keyCount, 0, KEYS * sizeof(int));
    cudaMemset(d_errors, 0, sizeof(int));

    warp_sums_and_keys<<<BLOCKS, THREADS>>>(d_data, d_warpSums, d_keyCount, d_errors);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<int> h_warpSums(warps);
    int h_keyCount[KEYS];
    int errors = 0;
    cudaMemcpy(h_warpSums.data(), d_warpSums, warps * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_keyCount, d_keyCount, KEYS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&errors, d_errors, sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference
    bool ok = (errors == 0);
    int total = 0;
    for (int w = 0; w < warps; ++w) {
        int s = 0;
        for (int l = 0; l < 32; ++l) s += h_data[w * 32 + l];
        if (h_warpSums[w] != s) ok = false;
        total += h_warpSums[w];
    }
    int expected[KEYS] = {0};
    for (int i = 0; i < N; ++i) expected[h_data[i] % KEYS]++;
    int counted = 0;
    for (int k = 0; k < KEYS; ++k) {
        if (h_keyCount[k] != expected[k]) ok = false;
        counted += h_keyCount[k];
    }
    printf("warpSums[0] = %d, keyCount[0] = %d, keyCount[7] = %d, butterfly errors = %d\n", h_warpSums[0],
           h_keyCount[0], h_keyCount[7], errors);
    printf("total = %d, counted = %d %s\n", total, counted, ok ? "PASS" : "FAIL");

    cudaFree(d_data);
    cudaFree(d_warpSums);
    cudaFree(d_keyCount);
    cudaFree(d_errors);
    return ok ? 0 : 1;
}
