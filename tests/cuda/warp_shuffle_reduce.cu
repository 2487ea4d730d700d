// Sum reduction with warp shuffles: __shfl_down_sync inside each warp, one shared slot per warp, two launches.
// From: Justin Luitjens, "Faster Parallel Reductions on Kepler" (NVIDIA Developer Blog), updated to the *_sync shuffles.
// BUG_NO_BARRIER: the __syncthreads between writing shared[wid] and reading shared[lane] is left out; warp 0 reads other warps' slots too early.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 4096
#define THREADS 256
#define BLOCKS 8

__inline__ __device__ int warpReduceSum(int val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__inline__ __device__ int blockReduceSum(int val)
{
    static __shared__ int shared[32]; // shared mem for 32 partial sums
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;

    val = warpReduceSum(val); // each warp performs partial reduction

    if (lane == 0) shared[wid] = val; // write reduced value to shared memory

#ifndef BUG_NO_BARRIER
    // step: lane 0 of every warp writes its warp's sum to shared[wid]
    __syncthreads();
#endif

    // read from shared memory only if that warp existed
    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;

    if (wid == 0) val = warpReduceSum(val); // final reduce within first warp

    return val;
}

__global__ void deviceReduceKernel(const int *in, int *out, int n)
{
    int sum = 0;
    // reduce multiple elements per thread (grid-stride loop)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += in[i];
    }
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = (i % 17) - 5;

    int *d_in = NULL;
    int *d_partial = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_partial, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_out, sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    // first pass: one partial sum per block; second pass: one block of two warps sums the partials
    deviceReduceKernel<<<BLOCKS, THREADS>>>(d_in, d_partial, N);
    deviceReduceKernel<<<1, 64>>>(d_partial, d_out, BLOCKS);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int h_partial[BLOCKS];
    int gpu_sum = 0;
    cudaMemcpy(h_partial, d_partial, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&gpu_sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: block b's threads cover i = b*THREADS + t + k*BLOCKS*THREADS
    bool ok = true;
    int cpu_sum = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        int part = 0;
        for (int i = b * THREADS; i < N; i += BLOCKS * THREADS)
            for (int t = 0; t < THREADS; ++t) part += h_in[i + t];
        if (h_partial[b] != part) ok = false;
        cpu_sum += part;
    }
    printf("partial sums: %d %d ... %d\n", h_partial[0], h_partial[1], h_partial[BLOCKS - 1]);
    printf("gpu sum = %d, cpu sum = %d\n", gpu_sum, cpu_sum);
    if (gpu_sum != cpu_sum) ok = false;
    printf("sum = %d %s\n", gpu_sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_partial);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
