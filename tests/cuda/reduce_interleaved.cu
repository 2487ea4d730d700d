// Parallel sum reduction, interleaved addressing with a divergent `tid % (2*s)` test.
// From: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA), kernel 1.
// BUG_NO_BARRIER: the __syncthreads in the loop is left out; sdata[tid + s] is read before its owner has added into it.
// BUG_NO_LOAD_BARRIER: the __syncthreads after the load is left out; the first step reads neighbours not yet loaded.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define THREADS 256
#define BLOCKS (N / THREADS)

__global__ void reduce0(const int *g_idata, int *g_odata)
{
    extern __shared__ int sdata[];

    // each thread loads one element from global to shared memory
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
#ifndef BUG_NO_LOAD_BARRIER
    // step: every thread copies g_idata[i] into sdata[tid]
    __syncthreads();
#endif

    // do reduction in shared memory
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
#ifndef BUG_NO_BARRIER
        // step: every thread with tid % (2*s) == 0 adds sdata[tid + s] into sdata[tid]
        __syncthreads();
#endif
    }

    // write result for this block to global memory
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = i % 7;

    int *d_in = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, BLOCKS * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    reduce0<<<BLOCKS, THREADS, THREADS * sizeof(int)>>>(d_in, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_out(BLOCKS);
    cudaMemcpy(h_out.data(), d_out, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);

    // the same sums on the CPU, block by block
    bool ok = true;
    int gpu_sum = 0;
    int cpu_sum = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        int block_sum = 0;
        for (int t = 0; t < THREADS; ++t) block_sum += h_in[b * THREADS + t];
        if (h_out[b] != block_sum) {
            printf("block %d: gpu %d, cpu %d\n", b, h_out[b], block_sum);
            ok = false;
        }
        gpu_sum += h_out[b];
        cpu_sum += block_sum;
    }
    printf("block sums: %d %d ... %d\n", h_out[0], h_out[1], h_out[BLOCKS - 1]);
    printf("gpu sum = %d, cpu sum = %d\n", gpu_sum, cpu_sum);
    if (gpu_sum != cpu_sum) ok = false;
    printf("sum = %d %s\n", gpu_sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
