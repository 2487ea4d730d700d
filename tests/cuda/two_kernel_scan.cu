// Inclusive scan of 4096 ints in three launches: scan each block and save its total, scan the block totals, add them back.
// From: Hwu, Kirk & El Hajj, "Programming Massively Parallel Processors", ch. 11.5 (hierarchical scan); GPU Gems 3 ch. 39.2.4.
// BUG_NO_BARRIER: the __syncthreads of the block scan is left out; the next offset reads a buffer other threads still write.
// BUG_NO_OFFSET_BARRIER: the __syncthreads after thread 0 fetches blockOffset is left out; threads add it before it is set.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 16
#define N (THREADS * BLOCKS)

// launches 1 and 2: Kogge-Stone inclusive scan of one block's section, double-buffered
__global__ void scan_blocks(const int *in, int *out, int *blockSums)
{
    __shared__ int buf[2][THREADS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int pout = 0;

    buf[pout][t] = in[i];
    // step: every thread loads in[i] into buf[0][t]
    __syncthreads();

    for (int offset = 1; offset < (int)blockDim.x; offset *= 2) {
        int pin = pout;
        pout = 1 - pout;
        if (t >= offset)
            buf[pout][t] = buf[pin][t] + buf[pin][t - offset];
        else
            buf[pout][t] = buf[pin][t];
#ifndef BUG_NO_BARRIER
        // step: every thread t writes buf[pin][t] + buf[pin][t - offset] into the other buffer
        __syncthreads();
#endif
    }
    out[i] = buf[pout][t];
    if (t == (int)blockDim.x - 1) blockSums[blockIdx.x] = buf[pout][t];
}

// launch 3: block b > 0 adds the inclusive total of blocks 0..b-1
__global__ void add_offsets(int *out, const int *scannedSums)
{
    __shared__ int blockOffset;
    if (threadIdx.x == 0) blockOffset = (blockIdx.x > 0) ? scannedSums[blockIdx.x - 1] : 0;
#ifndef BUG_NO_OFFSET_BARRIER
    // step: thread 0 fetches the total of the blocks before this one into blockOffset
    __syncthreads();
#endif
    out[blockIdx.x * blockDim.x + threadIdx.x] += blockOffset;
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = i % 7;

    int *d_in = NULL, *d_out = NULL, *d_sums = NULL, *d_scannedSums = NULL, *d_total = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, N * sizeof(int));
    cudaMalloc((void **)&d_sums, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_scannedSums, BLOCKS * sizeof(int));
    cudaMalloc((void **)&d_total, sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    scan_blocks<<<BLOCKS, THREADS>>>(d_in, d_out, d_sums);         // 1: scan each block
    scan_blocks<<<1, BLOCKS>>>(d_sums, d_scannedSums, d_total);    // 2: scan the 16 block totals
    add_offsets<<<BLOCKS, THREADS>>>(d_out, d_scannedSums);        // 3: add the totals of earlier blocks
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_out(N);
    int total = 0;
    cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: inclusive scan of the whole array
    int errors = 0;
    int running = 0;
    for (int i = 0; i < N; ++i) {
        running += h_in[i];
        if (h_out[i] != running) {
            if (errors < 5) printf("out[%d] = %d, expected %d\n", i, h_out[i], running);
            ++errors;
        }
    }
    if (total != running) ++errors;
    printf("errors = %d, total of block sums = %d\n", errors, total);
    printf("out[255] = %d, out[256] = %d, out[4095] = %d %s\n", h_out[255], h_out[256], h_out[N - 1],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    cudaFree(d_scannedSums);
    cudaFree(d_total);
    return errors == 0 ? 0 : 1;
}
