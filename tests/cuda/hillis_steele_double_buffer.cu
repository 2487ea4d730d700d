// Naive (Hillis-Steele) exclusive scan of each block's section, double-buffered in shared memory.
// From: Harris, Sengupta & Owens, GPU Gems 3, ch. 39, Example 39-1 (with the published `+=` typo corrected).
// BUG_NO_BARRIER: the __syncthreads at the end of each offset is left out; the next offset reads a buffer still being written.
// BUG_SINGLE_BUFFER: both indices stay on buffer 0, so thread t overwrites temp[t] while thread t + offset is reading it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define THREADS 128
#define BLOCKS 4
#define N (THREADS * BLOCKS)

__global__ void scan(int *g_odata, const int *g_idata, int n)
{
    extern __shared__ int temp[]; // allocated on invocation: two buffers of n ints
    int thid = threadIdx.x;
    int base = blockIdx.x * n;    // each block scans its own section of n elements
    int pout = 0, pin = 1;

    // load input into shared memory; exclusive scan, so shift right by one and set the first element to 0
    temp[pout * n + thid] = (thid > 0) ? g_idata[base + thid - 1] : 0;
    // step: every thread loads g_idata[thid - 1] into buffer 0
    __syncthreads();

    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout; // swap double buffer indices
        pin = 1 - pout;
#ifdef BUG_SINGLE_BUFFER
        pout = 0; // one buffer only: temp[t] is read and written in place
        pin = 0;
#endif
        if (thid >= offset)
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else
            temp[pout * n + thid] = temp[pin * n + thid];
#ifndef BUG_NO_BARRIER
        // step: every thread t writes in[t] + in[t - offset] (or in[t]) into the other buffer
        __syncthreads();
#endif
    }
    g_odata[base + thid] = temp[pout * n + thid]; // write output
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = (i * 3) % 10;

    int *d_in = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, N * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    scan<<<BLOCKS, THREADS, 2 * THREADS * sizeof(int)>>>(d_out, d_in, THREADS);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_out(N);
    cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: exclusive scan restarting at every section of THREADS elements
    int errors = 0;
    int running = 0;
    for (int i = 0; i < N; ++i) {
        if (i % THREADS == 0) running = 0;
        if (h_out[i] != running) {
            if (errors < 5) printf("out[%d] = %d, expected %d\n", i, h_out[i], running);
            ++errors;
        }
        running += h_in[i];
    }
    printf("errors = %d\n", errors);
    printf("out[1] = %d, out[127] = %d, out[511] = %d %s\n", h_out[1], h_out[127], h_out[511],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return errors == 0 ? 0 : 1;
}
