// Reverse a 64-element array in one block through shared memory, once with a static and once with an extern __shared__ array.
// From: Mark Harris, "Using Shared Memory in CUDA C/C++" (NVIDIA Developer Blog), staticReverse and dynamicReverse.
// BUG_NO_BARRIER: the __syncthreads between the shared store and the reversed read is left out; thread t reads s[n - t - 1] before it is stored.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 64

__global__ void staticReverse(int *d, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
#ifndef BUG_NO_BARRIER
    // step: every thread stores d[t] in s[t]
    __syncthreads();
#endif
    d[t] = s[tr];
}

__global__ void dynamicReverse(int *d, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
#ifndef BUG_NO_BARRIER
    // step: every thread stores d[t] in s[t]
    __syncthreads();
#endif
    d[t] = s[tr];
}

int main()
{
    const int n = N;
    int a[N], r[N], d[N];
    for (int i = 0; i < n; i++) {
        a[i] = i;
        r[i] = n - i - 1;
        d[i] = 0;
    }

    int *d_a = NULL, *d_d = NULL;
    cudaMalloc((void **)&d_a, n * sizeof(int));
    cudaMalloc((void **)&d_d, n * sizeof(int));
    cudaMemcpy(d_a, a, n * sizeof(int), cudaMemcpyHostToDevice);

    // run version with static shared memory
    cudaMemcpy(d_d, d_a, n * sizeof(int), cudaMemcpyDeviceToDevice);
    staticReverse<<<1, n>>>(d_d, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(d, d_d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int errors = 0;
    for (int i = 0; i < n; i++)
        if (d[i] != r[i]) ++errors;
    int static_first = d[0];

    // run dynamic shared memory version
    cudaMemcpy(d_d, d_a, n * sizeof(int), cudaMemcpyDeviceToDevice);
    dynamicReverse<<<1, n, n * sizeof(int)>>>(d_d, n);
    err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(d, d_d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (d[i] != r[i]) ++errors;

    printf("errors = %d\n", errors);
    printf("static d[0] = %d, dynamic d[0] = %d, d[63] = %d %s\n", static_first, d[0], d[63],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_a);
    cudaFree(d_d);
    return errors == 0 ? 0 : 1;
}
