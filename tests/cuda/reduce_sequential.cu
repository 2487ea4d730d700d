// Parallel sum reduction with sequential addressing (no divergence in the first warps, no bank conflicts).
// From: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA), kernel 3.
// BUG_NO_BARRIER: the __syncthreads in the loop is left out; thread tid reads sdata[tid + s] while its owner still writes it.
// BUG_NO_LOAD_BARRIER: the __syncthreads after the load is left out; the first step reads sdata[tid + s] before it is loaded.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 512
#define THREADS 128
#define BLOCKS (N / THREADS)

__global__ void reduce2(const int *g_idata, int *g_odata)
{
    __shared__ int sdata[THREADS];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
#ifndef BUG_NO_LOAD_BARRIER
    // step: every thread copies g_idata[i] into sdata[tid]
    __syncthreads();
#endif

    // sequential addressing: the active threads are always the first s
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
#ifndef BUG_NO_BARRIER
        // step: every thread tid < s adds sdata[tid + s] into sdata[tid]
        __syncthreads();
#endif
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = i;

    int *d_in = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, BLOCKS * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    reduce2<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int h_out[BLOCKS];
    cudaMemcpy(h_out, d_out, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);

    bool ok = true;
    int gpu_sum = 0;
    int cpu_sum = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        int block_sum = 0;
        for (int t = 0; t < THREADS; ++t) block_sum += h_in[b * THREADS + t];
        if (h_out[b] != block_sum) ok = false;
        gpu_sum += h_out[b];
        cpu_sum += block_sum;
    }
    printf("block sums: %d %d %d %d\n", h_out[0], h_out[1], h_out[2], h_out[3]);
    printf("gpu sum = %d, cpu sum = %d\n", gpu_sum, cpu_sum);
    if (gpu_sum != cpu_sum) ok = false;
    printf("sum = %d %s\n", gpu_sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
