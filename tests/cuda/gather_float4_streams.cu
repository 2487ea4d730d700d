// Gather through an index array with float4 loads, in two halves on two streams: pinned host buffers, cudaMemcpyAsync, a launch per stream, cudaStreamSynchronize.
// From: the NVIDIA Developer Blog, "How to Overlap Data Transfers in CUDA C/C++" (streams, pinned memory) and "CUDA Pro Tip: Increase Performance with Vectorized Memory Access" (float4).
// BUG_OFF_BY_ONE: the guard is i <= n; the last thread of each half reads idx and writes out one element past its half.
#include <cstdio>
#include <cuda_runtime.h>

#define N 2048
#define STREAMS 2

__device__ __forceinline__ float sum4(float4 v) { return v.x + v.y + v.z + v.w; }

__device__ int clampIndex(int i, int n) { return min(max(i, 0), n - 1); }

// out[i] = the sum of the 4 floats of rows[idx[i]]: the index is a value read from memory.
__global__ void gatherRows(const int *__restrict__ idx, const float4 *__restrict__ rows, float *out, int n, int rowCount)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef BUG_OFF_BY_ONE
    if (i <= n) {
#else
    if (i < n) {
#endif
        float4 r = rows[clampIndex(idx[i], rowCount)];
        out[i] = sum4(r) + rows[idx[i]].w * 0.0f;
    }
}

int main()
{
    const int rowCount = 64;
    int *h_idx;
    float4 *h_rows;
    float *h_out;
    cudaMallocHost(&h_idx, N * sizeof(int));
    cudaMallocHost(&h_rows, rowCount * sizeof(float4));
    cudaMallocHost(&h_out, N * sizeof(float));
    for (int i = 0; i < N; ++i) h_idx[i] = (i * 7) % rowCount;
    for (int r = 0; r < rowCount; ++r) h_rows[r] = make_float4(r, 2 * r, 1.0f, -1.0f);

    int *d_idx;
    float4 *d_rows;
    float *d_out;
    cudaMalloc(&d_idx, N * sizeof(int));
    cudaMalloc(&d_rows, rowCount * sizeof(float4));
    cudaMalloc(&d_out, N * sizeof(float));
    cudaMemcpy(d_rows, h_rows, rowCount * sizeof(float4), cudaMemcpyHostToDevice);

    cudaStream_t stream[STREAMS];
    for (int s = 0; s < STREAMS; ++s) cudaStreamCreate(&stream[s]);
    const int half = N / STREAMS;
    const int threads = 192;
    const int blocks = (half + threads - 1) / threads;
    for (int s = 0; s < STREAMS; ++s) {
        int offset = s * half;
        cudaMemcpyAsync(&d_idx[offset], &h_idx[offset], half * sizeof(int), cudaMemcpyHostToDevice, stream[s]);
        gatherRows<<<blocks, threads, 0, stream[s]>>>(d_idx + offset, d_rows, d_out + offset, half, rowCount);
        cudaMemcpyAsync(&h_out[offset], &d_out[offset], half * sizeof(float), cudaMemcpyDeviceToHost, stream[s]);
    }
    for (int s = 0; s < STREAMS; ++s) cudaStreamSynchronize(stream[s]);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int mismatches = 0;
    float total = 0.0f;
    for (int i = 0; i < N; ++i) {
        int r = h_idx[i];
        if (h_out[i] != 3.0f * r) ++mismatches;
        total += h_out[i];
    }
    printf("out[1] = %g, out[2047] = %g, total = %g, mismatches = %d %s\n", h_out[1], h_out[N - 1], total, mismatches,
           mismatches == 0 ? "PASS" : "FAIL");
    for (int s = 0; s < STREAMS; ++s) cudaStreamDestroy(stream[s]);
    cudaFree(d_idx);
    cudaFree(d_rows);
    cudaFree(d_out);
    cudaFreeHost(h_idx);
    cudaFreeHost(h_rows);
    cudaFreeHost(h_out);
    return mismatches == 0 ? 0 : 1;
}
