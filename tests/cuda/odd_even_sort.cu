// Odd-even transposition sort of 256 ints in one block: 128 threads, each compares one pair per phase, 256 phases.
// From: odd-even transposition sort (Habermann, 1972, "Parallel neighbor-sort"), as taught in GPU courses next to bitonic sort.
// BUG_NO_BARRIER: the __syncthreads after each phase is left out; an odd phase compares a pair the even phase is still swapping.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define NUM 256
#define THREADS (NUM / 2)

__global__ void odd_even_sort(int *values)
{
    __shared__ int s[NUM];
    int t = threadIdx.x;
    s[t] = values[t];
    s[t + blockDim.x] = values[t + blockDim.x];
    // step: every thread loads two values into s[t] and s[t + 128]
    __syncthreads();

    for (int phase = 0; phase < NUM; ++phase) {
        int i = 2 * t + (phase % 2); // even phase: pairs (0,1), (2,3), ...; odd phase: (1,2), (3,4), ...
        if (i + 1 < NUM && s[i] > s[i + 1]) {
            int tmp = s[i];
            s[i] = s[i + 1];
            s[i + 1] = tmp;
        }
#ifndef BUG_NO_BARRIER
        // step: every thread compares s[i] with s[i + 1] and swaps them into order
        __syncthreads();
#endif
    }

    values[t] = s[t];
    values[t + blockDim.x] = s[t + blockDim.x];
}

int main()
{
    std::vector<int> h_values(NUM);
    unsigned int seed = 4242;
    for (int i = 0; i < NUM; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h_values[i] = (int)((seed >> 8) % 500) - 250; // -250..249
    }

    int *d_values = NULL;
    cudaMalloc((void **)&d_values, NUM * sizeof(int));
    cudaMemcpy(d_values, h_values.data(), NUM * sizeof(int), cudaMemcpyHostToDevice);

    odd_even_sort<<<1, THREADS>>>(d_values);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<int> h_sorted(NUM);
    cudaMemcpy(h_sorted.data(), d_values, NUM * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: insertion sort of the same input
    std::vector<int> expected = h_values;
    for (int i = 1; i < NUM; ++i) {
        int v = expected[i];
        int j = i - 1;
        while (j >= 0 && expected[j] > v) {
            expected[j + 1] = expected[j];
            --j;
        }
        expected[j + 1] = v;
    }
    int errors = 0;
    for (int i = 0; i < NUM; ++i)
        if (h_sorted[i] != expected[i]) ++errors;

    printf("errors = %d\n", errors);
    printf("values[0] = %d, values[128] = %d, values[255] = %d %s\n", h_sorted[0], h_sorted[128], h_sorted[NUM - 1],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_values);
    return errors == 0 ? 0 : 1;
}
