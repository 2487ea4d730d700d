// Inclusive scan of each 256-element section with the Brent-Kung algorithm: 128 threads, 2 elements each.
// From: Hwu, Kirk & El Hajj, "Programming Massively Parallel Processors", ch. 11 (Brent_Kung_scan_kernel).
// BUG_NO_BARRIER: the __syncthreads of the reduction tree is left out; XY[index - stride] is read before it holds its partial sum.
// BUG_NO_FINAL_BARRIER: the __syncthreads before the output is left out; thread t copies XY[t] while another thread still adds into it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define SECTION_SIZE 256
#define THREADS (SECTION_SIZE / 2)
#define N 1000
#define BLOCKS ((N + SECTION_SIZE - 1) / SECTION_SIZE)

__global__ void Brent_Kung_scan_kernel(const float *X, float *Y, unsigned int InputSize)
{
    __shared__ float XY[SECTION_SIZE];
    unsigned int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < InputSize) ? X[i] : 0.0f;
    XY[threadIdx.x + blockDim.x] = (i + blockDim.x < InputSize) ? X[i + blockDim.x] : 0.0f;

    // reduction tree
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
#ifndef BUG_NO_BARRIER
        // step: the previous level of the reduction tree (or the load) is complete
        __syncthreads();
#endif
        unsigned int index = (threadIdx.x + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE) XY[index] += XY[index - stride];
    }

    // distribution (reverse) tree
    for (unsigned int stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        // step: the previous level of the tree is complete
        __syncthreads();
        unsigned int index = (threadIdx.x + 1) * stride * 2 - 1;
        if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];
    }
#ifndef BUG_NO_FINAL_BARRIER
    // step: the last level adds XY[index] into XY[index + 1]
    __syncthreads();
#endif
    if (i < InputSize) Y[i] = XY[threadIdx.x];
    if (i + blockDim.x < InputSize) Y[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
}

int main()
{
    std::vector<float> h_x(N);
    for (int i = 0; i < N; ++i) h_x[i] = (float)((i * 7) % 5);

    float *d_x = NULL;
    float *d_y = NULL;
    cudaMalloc((void **)&d_x, N * sizeof(float));
    cudaMalloc((void **)&d_y, N * sizeof(float));
    cudaMemcpy(d_x, h_x.data(), N * sizeof(float), cudaMemcpyHostToDevice);

    Brent_Kung_scan_kernel<<<BLOCKS, THREADS>>>(d_x, d_y, N);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<float> h_y(N);
    cudaMemcpy(h_y.data(), d_y, N * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference: inclusive scan restarting at every section (whole numbers, so exact)
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
    printf("Y[255] = %g, Y[767] = %g, Y[999] = %g %s\n", h_y[255], h_y[767], h_y[999],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_x);
    cudaFree(d_y);
    return errors == 0 ? 0 : 1;
}
