// One-launch sum: each block writes its partial sum, fences, and takes a ticket with atomicInc; the block that draws the last ticket adds all partials.
// From: the CUDA C++ Programming Guide, "Memory Fence Functions" (__threadfence example); CUDA Samples "threadFenceReduction".
// BUG_NO_THREADFENCE: the __threadfence before atomicInc is left out; the last block may read a partial sum that is not yet visible to it.
// BUG_NO_BARRIER: the __syncthreads after thread 0 sets isLastBlockDone is left out; the other threads read the flag before it is set.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 4000
#define THREADS 128
#define BLOCKS ((N + THREADS - 1) / THREADS)

__global__ void sum(const int *array, unsigned int n, volatile int *result, unsigned int *count)
{
    __shared__ bool isLastBlockDone;
    __shared__ int cache[THREADS];
    int t = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + t;

    // this block's partial sum, by a tree in shared memory
    cache[t] = (i < n) ? array[i] : 0;
    // step: every thread loads array[i] (or 0) into cache[t]
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) cache[t] += cache[t + s];
        // step: every thread t < s adds cache[t + s] into cache[t]
        __syncthreads();
    }

    if (t == 0) {
        result[blockIdx.x] = cache[0];
#ifndef BUG_NO_THREADFENCE
        __threadfence(); // the partial sum is visible to every block before the ticket is taken
#endif
        unsigned int value = atomicInc(count, gridDim.x); // ticket 0 .. gridDim.x - 1
        isLastBlockDone = (value == (gridDim.x - 1));
    }
#ifndef BUG_NO_BARRIER
    // step: thread 0 stores the partial sum, fences, and records whether this block finished last
    __syncthreads();
#endif

    if (isLastBlockDone) {
        // the last block sums result[0 .. gridDim.x - 1]
        int part = 0;
        for (unsigned int b = t; b < gridDim.x; b += blockDim.x) part += result[b];
        cache[t] = part;
        // step: every thread of the last block loads its share of the partial sums
        __syncthreads();
        for (int s = blockDim.x / 2; s > 0; s /= 2) {
            if (t < s) cache[t] += cache[t + s];
            // step: every thread t < s adds cache[t + s] into cache[t]
            __syncthreads();
        }
        if (t == 0) {
            result[0] = cache[0];
            *count = 0; // ready for the next launch
        }
    }
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = i % 11;

    int *d_in = NULL, *d_result = NULL;
    unsigned int *d_count = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_result, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_count, sizeof(unsigned int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_count, 0, sizeof(unsigned int));

    sum<<<BLOCKS, THREADS>>>(d_in, N, d_result, d_count);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    int gpu_sum = 0;
    unsigned int count = 1;
    cudaMemcpy(&gpu_sum, d_result, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&count, d_count, sizeof(unsigned int), cudaMemcpyDeviceToHost);

    int cpu_sum = 0;
    for (int i = 0; i < N; ++i) cpu_sum += h_in[i];
    bool ok = (gpu_sum == cpu_sum) && count == 0;
    printf("blocks = %d, gpu sum = %d, cpu sum = %d, counter reset = %s\n", BLOCKS, gpu_sum, cpu_sum, count == 0 ? "yes" : "no");
    printf("sum = %d %s\n", gpu_sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_result);
    cudaFree(d_count);
    return ok ? 0 : 1;
}
