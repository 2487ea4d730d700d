// Inclusive scan of each 256-element section with the Kogge-Stone algorithm (read, barrier, write each stride).
// From: Hwu, Kirk & El Hajj, "Programming Massively Parallel Processors", ch. 11 (Kogge_Stone_scan_kernel).
// BUG_NO_BARRIER: the __syncthreads between the read and the write of a stride is left out; XY[t - stride] is overwritten while being read.
// BUG_NO_TOP_BARRIER: the __syncthreads at the top of the loop is left out; a stride reads values the previous stride is still writing.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define SECTION_SIZE 256
#define N 1000
#define BLOCKS ((N + SECTION_SIZE - 1) / SECTION_SIZE)

__global__ void Kogge_Stone_scan_kernel(const float *X, float *Y, unsigned int InputSize)
{
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < InputSize) {
        XY[threadIdx.x] = X[i];
    } else {
        XY[threadIdx.x] = 0.0f;
    }
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
#ifndef BUG_NO_TOP_BARRIER
        // step: XY holds the loaded section (or the sums of the previous stride)
        __syncthreads();
#endif
        float temp = 0.0f;
        if (threadIdx.x >= stride) temp = XY[threadIdx.x] + XY[threadIdx.x - stride];
#ifndef BUG_NO_BARRIER
        // step: every thread t >= stride reads XY[t] and its partner XY[t - stride]
        __syncthreads();
#endif
        if (threadIdx.x >= stride) XY[threadIdx.x] = temp;
    }
    if (i < InputSize) Y[i] = XY[threadIdx.x];
}

int main()
{
    std::vector<float> h_x(N);
    for (int i = 0; i < N; ++i) h_x[i] = (float)(i % 5);

    float *d_x = NULL;
    float *d_y = NULL;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_y, N * sizeof(float));
    cudaMemcpy(d_x, h_x.data(), N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_y, 0, N * sizeof(float));

    Kogge_Stone_scan_kernel<<<BLOCKS, SECTION_SIZE>>>(d_x, d_y, N);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<float> h_y(N);
    cudaMemcpy(h_y.data(), d_y, N * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference: inclusive scan that restarts at every section (whole numbers, so exact)
    int errors = 0;
    float running = 0.0f;
    for (int i = 0; i < N; ++i) {
        if (i % SECTION_SIZE == 0) running = 0.0f;
        running += h_x[i];
        if (h_y[i] != running) {
            if (errors < 5) printf("Y[%d] = %g, expected %g\n", i, h_y[i], running);
            ++errors;
        }
    }
    printf("errors = %d\n", errors);
    printf("Y[255] = %g, Y[511] = %g, Y[999] = %g %s\n", h_y[255], h_y[511], h_y[999],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_x);
    cudaFree(d_y);
    return errors == 0 ? 0 : 1;
}
