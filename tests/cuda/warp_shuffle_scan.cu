// Inclusive scan of each 256-element block with __shfl_up_sync: scan inside each warp, scan the 8 warp totals in warp 0, add them back.
// From: the CUDA Samples "shfl_scan" (shfl_scan_test kernel); Lin & Grover, "Using CUDA Warp-Level Primitives".
// BUG_NO_BARRIER: the __syncthreads after the last lanes write sums[warp_id] is left out; warp 0 scans the totals before they are written.
// BUG_NO_SECOND_BARRIER: the __syncthreads after warp 0 scans sums[] is left out; other warps read sums[warp_id - 1] too early.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define THREADS 256
#define BLOCKS (N / THREADS)

__global__ void shfl_scan_test(int *data, int width, int *partial_sums)
{
    extern __shared__ int sums[];
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    int lane_id = id % warpSize;
    int warp_id = threadIdx.x / warpSize; // the warp index within the block
    int warps = blockDim.x / warpSize;    // warps in the block (8 here)
    int value = data[id];

    // inclusive scan of the warp: add the value from i lanes below, for i = 1, 2, 4, ...
    for (int i = 1; i <= width; i *= 2) {
        unsigned int mask = 0xffffffff;
        int n = __shfl_up_sync(mask, value, i, width);
        if (lane_id >= i) value += n;
    }

    // the last lane of each warp holds the warp's total
    if (lane_id == warpSize - 1) sums[warp_id] = value;
#ifndef BUG_NO_BARRIER
    // step: the last lane of every warp writes its warp total to sums[warp_id]
    __syncthreads();
#endif

    // warp 0 scans the warp totals
    if (warp_id == 0 && lane_id < warps) {
        int warp_sum = sums[lane_id];
        unsigned int mask = (1u << warps) - 1;
        for (int i = 1; i <= warps; i *= 2) {
            int n = __shfl_up_sync(mask, warp_sum, i, warps);
            if (lane_id >= i) warp_sum += n;
        }
        sums[lane_id] = warp_sum;
    }
#ifndef BUG_NO_SECOND_BARRIER
    // step: warp 0 replaces sums[] by its inclusive scan
    __syncthreads();
#endif

    // add the totals of the warps before this one
    int blockSum = 0;
    if (warp_id > 0) blockSum = sums[warp_id - 1];
    value += blockSum;
    data[id] = value;

    if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = value;
}

int main()
{
    std::vector<int> h_data(N);
    for (int i = 0; i < N; ++i) h_data[i] = i % 9;

    int *d_data = NULL, *d_partial = NULL;
    cudaMalloc((void **)&d_data, N * sizeof(int));
    cudaMalloc((void **)&d_partial, BLOCKS * sizeof(int));
    cudaMemcpy(d_data, h_data.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    int warpsPerBlock = THREADS / 32;
    shfl_scan_test<<<BLOCKS, THREADS, warpsPerBlock * sizeof(int)>>>(d_data, 32, d_partial);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<int> h_out(N);
    int h_partial[BLOCKS];
    cudaMemcpy(h_out.data(), d_data, N * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_partial, d_partial, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: inclusive scan restarting at every block
    int errors = 0;
    int running = 0;
    for (int i = 0; i < N; ++i) {
        if (i % THREADS == 0) running = 0;
        running += h_data[i];
        if (h_out[i] != running) {
            if (errors < 5) printf("data[%d] = %d, expected %d\n", i, h_out[i], running);
            ++errors;
        }
        if (i % THREADS == THREADS - 1 && h_partial[i / THREADS] != running) ++errors;
    }
    printf("errors = %d\n", errors);
    printf("data[31] = %d, data[255] = %d, partial_sums[7] = %d %s\n", h_out[31], h_out[255], h_partial[BLOCKS - 1],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_data);
    cudaFree(d_partial);
    return errors == 0 ? 0 : 1;
}
