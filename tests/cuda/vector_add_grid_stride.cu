// Vector add c = a + b with a grid-stride loop: a fixed grid of 8 blocks of 128 threads covers 3000 elements.
// From: Mark Harris, "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops" (NVIDIA Developer Blog).
// BUG_OFF_BY_ONE: the loop guard is i <= n; one thread reads a[n], b[n] and writes c[n], one element past each array.
// BUG_SMALL_STRIDE: the stride is blockDim.x instead of blockDim.x * gridDim.x; blocks overlap and several threads write the same c[i].
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 3000
#define THREADS 128
#define BLOCKS 8

__global__ void add(int n, const float *a, const float *b, float *c)
{
#ifdef BUG_SMALL_STRIDE
    int stride = blockDim.x;
#else
    int stride = blockDim.x * gridDim.x;
#endif
#ifdef BUG_OFF_BY_ONE
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += stride)
#else
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
#endif
        c[i] = a[i] + b[i];
}

int main()
{
    std::vector<float> h_a(N), h_b(N), h_c(N);
    for (int i = 0; i < N; ++i) {
        h_a[i] = (float)(i % 100);
        h_b[i] = (float)(2 * (i % 50));
    }

    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    cudaMalloc((void **)&d_a, N * sizeof(float));
    cudaMalloc((void **)&d_b, N * sizeof(float));
    cudaMalloc((void **)&d_c, N * sizeof(float));
    cudaMemcpy(d_a, h_a.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_c, 0, N * sizeof(float));

    add<<<BLOCKS, THREADS>>>(N, d_a, d_b, d_c);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_c.data(), d_c, N * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference
    int errors = 0;
    double sum = 0.0;
    for (int i = 0; i < N; ++i) {
        if (h_c[i] != h_a[i] + h_b[i]) ++errors;
        sum += h_c[i];
    }
    printf("errors = %d\n", errors);
    printf("c[0] = %g, c[99] = %g, c[2999] = %g, sum = %.0f %s\n", h_c[0], h_c[99], h_c[N - 1], sum,
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return errors == 0 ? 0 : 1;
}
