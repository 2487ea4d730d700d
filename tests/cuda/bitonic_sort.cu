// Bitonic sort of 256 ints in one block, one thread per element, in shared memory.
// From: the early CUDA SDK "bitonic" sample (bitonicSort kernel, NUM = 256), as used in many GPU courses.
// BUG_NO_BARRIER: the __syncthreads after each compare-exchange step is left out; a thread compares values its partner is still swapping.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define NUM 256

__global__ void bitonicSort(int *values)
{
    __shared__ int shared[NUM];
    const unsigned int tid = threadIdx.x;

    // copy input to shared mem
    shared[tid] = values[tid];
    // step: every thread copies values[tid] into shared[tid]
    __syncthreads();

    // parallel bitonic sort
    for (unsigned int k = 2; k <= NUM; k *= 2) {
        // bitonic merge
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            unsigned int ixj = tid ^ j;
            if (ixj > tid) {
                if ((tid & k) == 0) {
                    if (shared[tid] > shared[ixj]) {
                        int tmp = shared[tid];
                        shared[tid] = shared[ixj];
                        shared[ixj] = tmp;
                    }
                } else {
                    if (shared[tid] < shared[ixj]) {
                        int tmp = shared[tid];
                        shared[tid] = shared[ixj];
                        shared[ixj] = tmp;
                    }
                }
            }
#ifndef BUG_NO_BARRIER
            // step: every thread tid < tid ^ j compares shared[tid] with shared[tid ^ j] and swaps them into order
            __syncthreads();
#endif
        }
    }

    // write result
    values[tid] = shared[tid];
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a;
    int y = *(const int *)b;
    return (x > y) - (x < y);
}

int main()
{
    std::vector<int> h_values(NUM);
    unsigned int seed = 2024;
    for (int i = 0; i < NUM; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h_values[i] = (int)((seed >> 8) % 1000);
    }

    int *d_values = NULL;
    cudaMalloc((void **)&d_values, NUM * sizeof(int));
    cudaMemcpy(d_values, h_values.data(), NUM * sizeof(int), cudaMemcpyHostToDevice);

    bitonicSort<<<1, NUM>>>(d_values);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_sorted(NUM);
    cudaMemcpy(h_sorted.data(), d_values, NUM * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: qsort the same input
    std::vector<int> expected = h_values;
    qsort(expected.data(), NUM, sizeof(int), compare_ints);
    int errors = 0;
    for (int i = 0; i < NUM; ++i)
        if (h_sorted[i] != expected[i]) ++errors;

    printf("errors = %d\n", errors);
    printf("values[0] = %d, values[128] = %d, values[255] = %d %s\n", h_sorted[0], h_sorted[128],
           h_sorted[NUM - 1], errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_values);
    return errors == 0 ? 0 : 1;
}
