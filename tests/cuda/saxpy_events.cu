// SAXPY as NVIDIA's blog writes it ("An Easy Introduction to CUDA C and C++"), with CUDA_CHECK, events,
// cudaGetDeviceProperties, __restrict__ and both operands staged in one extern __shared__ array.
// BUG_NO_BARRIER: the __syncthreads after staging is left out (here harmless: each thread reads its own slots).
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1); } } while (0)

__device__ float scale(float a, float x) { return a * x; }

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    extern __shared__ float tile[];
    float* mine = tile;
    float* other = &tile[blockDim.x];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    mine[threadIdx.x] = i < n ? x[i] : 0.0f;
    other[threadIdx.x] = i < n ? y[i] : 0.0f;
#ifndef BUG_NO_BARRIER
    // step: every thread staged its x and y
    __syncthreads();
#endif
    if (i < n) y[i] = scale(a, mine[threadIdx.x]) + other[threadIdx.x];
}

int main(void)
{
    int N = 1 << 12;
    float *x, *y, *d_x, *d_y;
    x = (float*)malloc(N * sizeof(float));
    y = (float*)malloc(N * sizeof(float));
    CUDA_CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, N * sizeof(float)));
    for (int i = 0; i < N; i++) { x[i] = 1.0f; y[i] = 2.0f; }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("device: %s\n", prop.name);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMemcpy(d_x, x, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaEventRecord(start);
    saxpy<<<(N + 255) / 256, 256, 2 * 256 * sizeof(float)>>>(N, 2.0f, d_x, d_y);
    cudaEventRecord(stop);
    CUDA_CHECK(cudaGetLastError());
    cudaMemcpy(y, d_y, N * sizeof(float), cudaMemcpyDeviceToHost);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    float maxError = 0.0f;
    for (int i = 0; i < N; i++) maxError = fmax(maxError, fabs(y[i] - 4.0f));
    printf("Max error: %f\n", maxError);
    cudaFree(d_x); cudaFree(d_y); free(x); free(y);
    return 0;
}
