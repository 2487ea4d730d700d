// Device printf between barriers: each thread prints what it stored and what its left neighbour holds; the block rotates s[] by one place.
// From: the CUDA C++ Programming Guide, "Formatted Output", as in course "hello threads" exercises (lines of different warps may interleave).
// BUG_NO_BARRIER: the first __syncthreads is left out; a thread reads s[t - 1] before its neighbour has stored it.
// BUG_NO_SECOND_BARRIER: the second __syncthreads is left out; s[t] is overwritten while thread t + 1 still reads it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 8
#define BLOCKS 2
#define N (THREADS * BLOCKS)

__global__ void rotate_and_print(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;

    s[t] = in[g] * 10;
    printf("block %d thread %d: stored s[%d] = %d\n", blockIdx.x, t, t, s[t]);
#ifndef BUG_NO_BARRIER
    // step: every thread stores 10 * in[g] into s[t] and prints it
    __syncthreads();
#endif

    int left = s[(t + blockDim.x - 1) % blockDim.x];
    printf("block %d thread %d: left neighbour holds %d\n", blockIdx.x, t, left);
#ifndef BUG_NO_SECOND_BARRIER
    // step: every thread reads its left neighbour's s[t - 1] and prints it
    __syncthreads();
#endif

    s[t] = left; // rotate by one place
    out[g] = s[t];
}

int main()
{
    int h_in[N];
    for (int i = 0; i < N; ++i) h_in[i] = i + 1;

    int *d_in = NULL, *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, N * sizeof(int));
    cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice);

    rotate_and_print<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize(); // also flushes the device printf buffer
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int h_out[N];
    cudaMemcpy(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: out[b*8 + t] = 10 * in[b*8 + (t - 1 mod 8)]
    bool ok = true;
    printf("out:");
    for (int b = 0; b < BLOCKS; ++b) {
        for (int t = 0; t < THREADS; ++t) {
            int expected = 10 * h_in[b * THREADS + (t + THREADS - 1) % THREADS];
            if (h_out[b * THREADS + t] != expected) ok = false;
            printf(" %d", h_out[b * THREADS + t]);
        }
    }
    printf("\n");
    printf("out[0] = %d, out[8] = %d, out[15] = %d %s\n", h_out[0], h_out[8], h_out[15], ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return ok ? 0 : 1;
}
