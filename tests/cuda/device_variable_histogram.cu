// A histogram kept in __device__ variables: the bins and an overflow counter live in global memory
// declared at file scope, reset with cudaMemcpyToSymbol and read back with cudaMemcpyFromSymbol.
// From: the CUDA C++ Programming Guide, "Variable Memory Space Specifiers" (__device__) and its
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol examples.
// BUG_NON_ATOMIC: a bin is counted with a plain ++; threads of every block read-modify-write it at once.
#include <cstdio>
#include <cuda_runtime.h>

#define NUM_BINS 16
#define N 3000

__device__ unsigned int bins[NUM_BINS];
__device__ unsigned int overflow = 0;
__device__ int binWidth = 10;

__global__ void histogram(const int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int bin = data[i] / binWidth;
    if (bin < NUM_BINS) {
#ifdef BUG_NON_ATOMIC
        bins[bin]++;
#else
        atomicAdd(&bins[bin], 1u);
#endif
    } else {
        atomicAdd(&overflow, 1u);
    }
}

int main()
{
    int h_data[N];
    for (int i = 0; i < N; ++i) h_data[i] = (i * 37) % 173;

    int *d_data;
    cudaMalloc(&d_data, N * sizeof(int));
    cudaMemcpy(d_data, h_data, N * sizeof(int), cudaMemcpyHostToDevice);
    unsigned int zeros[NUM_BINS] = {0};
    cudaMemcpyToSymbol(bins, zeros, sizeof(zeros));

    histogram<<<(N + 255) / 256, 256>>>(d_data, N);
    cudaDeviceSynchronize();

    unsigned int h_bins[NUM_BINS], h_overflow = 0;
    cudaMemcpyFromSymbol(h_bins, bins, sizeof(h_bins));
    cudaMemcpyFromSymbol(&h_overflow, overflow, sizeof(h_overflow));

    unsigned int expect[NUM_BINS] = {0}, expect_overflow = 0;
    for (int i = 0; i < N; ++i) {
        int bin = h_data[i] / 10;
        if (bin < NUM_BINS) expect[bin]++;
        else expect_overflow++;
    }
    bool ok = h_overflow == expect_overflow;
    unsigned int total = h_overflow;
    for (int b = 0; b < NUM_BINS; ++b) {
        ok = ok && h_bins[b] == expect[b];
        total += h_bins[b];
    }
    printf("bins[0] = %u, bins[15] = %u, overflow = %u, total = %u %s\n", h_bins[0], h_bins[15], h_overflow, total,
           ok ? "PASS" : "FAIL");
    cudaFree(d_data);
    return ok ? 0 : 1;
}
