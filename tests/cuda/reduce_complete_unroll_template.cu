// Sum reduction with the block size as a template parameter: grid-stride loads of two elements, an unrolled tree, a shuffle for the last warp.
// From: Mark Harris, "Optimizing Parallel Reduction in CUDA" (NVIDIA), kernels 6-7 (template<unsigned int blockSize>), last warp as in CUDA Samples "reduction".
// BUG_NO_BARRIER: the __syncthreads after the grid-stride loads is left out; the tree reads sdata[tid + 64] before it is stored.
// BUG_NO_STEP_BARRIER: the __syncthreads after the tid < 64 step is left out; warp 0 reads sdata[tid + 32] while warp 1 still writes it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 4096
#define BLOCKS 8

template <unsigned int blockSize>
__global__ void reduce6(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int sdata[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;

    int mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (i + blockSize < n) mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = mySum;
#ifndef BUG_NO_BARRIER
    // step: every thread stores the sum of its grid-stride elements in sdata[tid]
    __syncthreads();
#endif

    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128];
        // step: every thread tid < 128 adds sdata[tid + 128]
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64];
#ifndef BUG_NO_STEP_BARRIER
        // step: every thread tid < 64 adds sdata[tid + 64]
        __syncthreads();
#endif
    }

    if (tid < 32) {
        // the last warp: read the upper half once, then reduce in registers with shuffles
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

int main()
{
    const int threads = 128; // chosen at run time, dispatched to a compiled block size
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = (i * 5) % 12;

    int *d_in = NULL, *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, BLOCKS * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    switch (threads) {
    case 256: reduce6<256><<<BLOCKS, 256>>>(d_in, d_out, N); break;
    case 128: reduce6<128><<<BLOCKS, 128>>>(d_in, d_out, N); break;
    case 64:  reduce6<64><<<BLOCKS, 64>>>(d_in, d_out, N); break;
    }
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    int h_out[BLOCKS];
    cudaMemcpy(h_out, d_out, BLOCKS * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: block b covers [b*256, b*256 + 256) + k * BLOCKS * 256
    bool ok = true;
    int gpu_sum = 0, cpu_sum = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        int part = 0;
        for (int start = b * 2 * threads; start < N; start += BLOCKS * 2 * threads)
            for (int k = 0; k < 2 * threads; ++k) part += h_in[start + k];
        if (h_out[b] != part) ok = false;
        gpu_sum += h_out[b];
        cpu_sum += part;
    }
    printf("block sums: %d %d ... %d\n", h_out[0], h_out[1], h_out[BLOCKS - 1]);
    printf("gpu sum = %d, cpu sum = %d\n", gpu_sum, cpu_sum);
    if (gpu_sum != cpu_sum) ok = false;
    printf("sum = %d %s\n", gpu_sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
