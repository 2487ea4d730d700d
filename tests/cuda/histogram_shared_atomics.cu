// 256-bin histogram of bytes: per-block histogram with shared-memory atomicAdd, then merged with global atomicAdd.
// From: Sanders & Kandrot, "CUDA by Example", ch. 9.4 (histo_kernel, shared memory atomics).
// BUG_NON_ATOMIC: a plain temp[bin] += 1 replaces the shared atomicAdd; two threads with the same byte lose an update.
// BUG_NO_BARRIER: the __syncthreads after zeroing temp[] is left out; a thread may count into a bin before its owner zeroes it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define SIZE 4096
#define BINS 256
#define BLOCKS 8

__global__ void histo_kernel(const unsigned char *buffer, long size, unsigned int *histo)
{
    __shared__ unsigned int temp[BINS];
    temp[threadIdx.x] = 0; // one thread per bin: blockDim.x == BINS
#ifndef BUG_NO_BARRIER
    // step: every thread zeroes its bin temp[threadIdx.x]
    __syncthreads();
#endif

    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        int bin = buffer[i] % BINS;
#ifdef BUG_NON_ATOMIC
        temp[bin] += 1;
#else
        atomicAdd(&temp[bin], 1);
#endif
        i += offset;
    }
    // step: every thread counts its bytes into the block's histogram temp[]
    __syncthreads();
    atomicAdd(&(histo[threadIdx.x]), temp[threadIdx.x]);
}

int main()
{
    // deterministic "random" bytes from a small linear congruential generator
    std::vector<unsigned char> h_buffer(SIZE);
    unsigned int seed = 12345;
    for (int i = 0; i < SIZE; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_buffer[i] = (unsigned char)((seed >> 16) & 0xff);
    }

    unsigned char *d_buffer = NULL;
    unsigned int *d_histo = NULL;
    cudaMalloc((void **)&d_buffer, SIZE);
    cudaMalloc((void **)&d_histo, BINS * sizeof(unsigned int));
    cudaMemcpy(d_buffer, h_buffer.data(), SIZE, cudaMemcpyHostToDevice);
    cudaMemset(d_histo, 0, BINS * sizeof(unsigned int));

    histo_kernel<<<BLOCKS, BINS>>>(d_buffer, SIZE, d_histo);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    unsigned int histo[BINS];
    cudaMemcpy(histo, d_histo, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);

    // CPU reference
    unsigned int cpu[BINS];
    for (int b = 0; b < BINS; ++b) cpu[b] = 0;
    for (int i = 0; i < SIZE; ++i) cpu[h_buffer[i] % BINS]++;

    bool ok = true;
    long total = 0;
    for (int b = 0; b < BINS; ++b) {
        total += histo[b];
        if (histo[b] != cpu[b]) ok = false;
    }
    if (total != SIZE) ok = false;
    printf("histo[0] = %u, histo[128] = %u, histo[255] = %u\n", histo[0], histo[128], histo[255]);
    printf("total = %ld %s\n", total, ok ? "PASS" : "FAIL");

    cudaFree(d_buffer);
    cudaFree(d_histo);
    return ok ? 0 : 1;
}
