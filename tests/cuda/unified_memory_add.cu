// Add two arrays in unified memory: cudaMallocManaged buffers the host fills and reads in place, a grid-stride loop, cudaDeviceSynchronize before the host looks.
// From: the NVIDIA Developer Blog, "An Even Easier Introduction to CUDA" (add<<<numBlocks, blockSize>>>).
// BUG_BLOCK_STRIDE: the loop starts at threadIdx.x and strides by blockDim.x, as in the one-block version, so every block adds x into all of y.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

// Kernel function to add the elements of two arrays
__global__ void add(int n, float *x, float *y)
{
#ifdef BUG_BLOCK_STRIDE
    int index = threadIdx.x;
    int stride = blockDim.x;
#else
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
#endif
    for (int i = index; i < n; i += stride)
        y[i] = x[i] + y[i];
}

int main(void)
{
    int N = 1 << 12;
    float *x, *y;

    // Allocate Unified Memory -- accessible from CPU or GPU
    cudaMallocManaged(&x, N * sizeof(float));
    cudaMallocManaged(&y, N * sizeof(float));

    // initialize x and y arrays on the host
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }

    // Run kernel on the elements on the GPU
    int blockSize = 256;
    int numBlocks = 4;
    add<<<numBlocks, blockSize>>>(N, x, y);

    // Wait for GPU to finish before accessing on host
    cudaDeviceSynchronize();

    // Check for errors (all values should be 3.0f)
    float maxError = 0.0f;
    for (int i = 0; i < N; i++)
        maxError = fmax(maxError, fabs(y[i] - 3.0f));
    printf("y[0] = %g, y[4095] = %g, Max error: %g %s\n", y[0], y[N - 1], maxError, maxError == 0.0f ? "PASS" : "FAIL");

    // Free memory
    cudaFree(x);
    cudaFree(y);
    return maxError == 0.0f ? 0 : 1;
}
