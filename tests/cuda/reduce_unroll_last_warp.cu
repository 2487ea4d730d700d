// Sum reduction: first add during load, tree in shared memory down to 64, then the last warp unrolled.
// From: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA), kernel 5, with the __syncwarp fix for Volta+.
// BUG_NO_SYNCWARP: the last warp runs warp-synchronously on volatile alone (the 2007 code); lanes read sdata[tid + offset] while other lanes write it.
// BUG_NO_BARRIER: the __syncthreads of the tree loop is left out; warp 0 reads sdata[32..63] before warp 1 has written them.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define THREADS 128
#define N 4096
#define BLOCKS (N / (2 * THREADS))

__device__ void warpReduce(volatile int *sdata, unsigned int tid)
{
    int v = sdata[tid];
#pragma unroll
    for (int offset = 32; offset > 0; offset /= 2) {
        v += sdata[tid + offset];
#ifndef BUG_NO_SYNCWARP
        // step: every lane reads sdata[tid + offset] before any lane writes
        __syncwarp();
#endif
        sdata[tid] = v;
#ifndef BUG_NO_SYNCWARP
        // step: every lane writes its partial sum to sdata[tid]
        __syncwarp();
#endif
    }
}

__global__ void reduce4(const int *g_idata, int *g_odata)
{
    __shared__ int sdata[THREADS];

    // perform the first level of reduction while reading from global memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    // step: every thread adds two inputs and stores them in sdata[tid]
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
#ifndef BUG_NO_BARRIER
        // step: every thread tid < s adds sdata[tid + s] into sdata[tid]
        __syncthreads();
#endif
    }

    if (tid < 32) warpReduce(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = i % 13;

    int *d_in = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, BLOCKS * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    reduce4<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_out(BLOCKS);
    cudaMemcpy(h_out.data(), d_out, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);

    bool ok = true;
    int gpu_sum = 0;
    int cpu_sum = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        int block_sum = 0;
        for (int k = 0; k < 2 * THREADS; ++k) block_sum += h_in[b * 2 * THREADS + k];
        if (h_out[b] != block_sum) {
            printf("block %d: gpu %d, cpu %d\n", b, h_out[b], block_sum);
            ok = false;
        }
        gpu_sum += h_out[b];
        cpu_sum += block_sum;
    }
    printf("block 0 sum = %d, block %d sum = %d\n", h_out[0], BLOCKS - 1, h_out[BLOCKS - 1]);
    printf("gpu sum = %d, cpu sum = %d\n", gpu_sum, cpu_sum);
    if (gpu_sum != cpu_sum) ok = false;
    printf("sum = %d %s\n", gpu_sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
