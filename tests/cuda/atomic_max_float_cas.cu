// The largest of many floats with the Programming Guide's compare-and-swap loop (there is no atomicMax for float): once into a __shared__ cell per block, then each block's into one global cell.
// From: the CUDA C++ Programming Guide, "Atomic Functions" (the atomicCAS loop it gives for atomicAdd on doubles, here with fmaxf).
// BUG_PLAIN_MAX: each thread compares and stores with plain code (if (v > *cell) *cell = v) instead of the loop; two threads can both pass the test, and the smaller may land last.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define N 4096
#define THREADS 256

__device__ float atomicMaxFloat(float *address, float val)
{
    int *address_as_int = (int *)address;
    int old = *address_as_int, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ void plainMax(float *address, float val)
{
    if (val > *address) *address = val;
}

__global__ void largest(const float *values, float *result)
{
    __shared__ float blockMax;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) blockMax = -1e30f;
    // step: thread 0 starts the block's maximum
    __syncthreads();
#ifdef BUG_PLAIN_MAX
    plainMax(&blockMax, values[i]);
#else
    atomicMaxFloat(&blockMax, values[i]);
#endif
    // step: every thread folds its value into the block's maximum
    __syncthreads();
    if (threadIdx.x == 0) atomicMaxFloat(result, blockMax);
}

int main()
{
    std::vector<float> h_values(N);
    unsigned int seed = 99;
    float expected = -1e30f;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h_values[i] = (float)((seed >> 8) % 100000) / 8.0f - 6000.0f;
        if (h_values[i] > expected) expected = h_values[i];
    }
    float *d_values, *d_result;
    float start = -1e30f;
    cudaMalloc((void **)&d_values, N * sizeof(float));
    cudaMalloc((void **)&d_result, sizeof(float));
    cudaMemcpy(d_values, h_values.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_result, &start, sizeof(float), cudaMemcpyHostToDevice);
    largest<<<N / THREADS, THREADS>>>(d_values, d_result);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    float result = 0;
    cudaMemcpy(&result, d_result, sizeof(float), cudaMemcpyDeviceToHost);
    printf("largest = %.3f, expected = %.3f %s\n", result, expected, result == expected ? "PASS" : "FAIL");
    cudaFree(d_values);
    cudaFree(d_result);
    return result == expected ? 0 : 1;
}
