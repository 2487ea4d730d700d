// Key-value bitonic sort in shared memory, two elements per thread, through a Comparator that swaps by reference.
// From: the CUDA samples' sortingNetworks (bitonicSortShared with Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint dir)).
// BUG_NO_BARRIER: the __syncthreads before each compare-exchange of the merge steps is left out; a thread compares keys that another thread is still swapping.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

typedef unsigned int uint;
#define SHARED_SIZE_LIMIT 512
#define NUM_ARRAYS 4

template <typename T>
__device__ inline void swapValues(T &a, T &b)
{
    T t = a;
    a = b;
    b = t;
}

__device__ inline void Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint dir)
{
    if ((keyA > keyB) == dir) {
        swapValues(keyA, keyB);
        swapValues(valA, valB);
    }
}

__global__ void bitonicSortShared(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey, uint *d_SrcVal, uint arrayLength, uint dir)
{
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    // Offset to the beginning of this block's array and this thread's first element
    d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[0];
    s_val[threadIdx.x + 0] = d_SrcVal[0];
    s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
    s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

    for (uint size = 2; size < arrayLength; size <<= 1) {
        // Bitonic merge
        uint ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);

        for (uint stride = size / 2; stride > 0; stride >>= 1) {
#ifndef BUG_NO_BARRIER
            // step: the keys are loaded (first round), or each thread has ordered its pair s_key[pos], s_key[pos + stride]
            __syncthreads();
#endif
            uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }

    // ddd == dir for the last bitonic merge step
    for (uint stride = arrayLength / 2; stride > 0; stride >>= 1) {
        // step: each thread has ordered its pair of the round before, s_key[pos] and s_key[pos + stride]
        __syncthreads();
        uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
    }

    // step: the last merge's pairs are ordered: the block's keys are sorted
    __syncthreads();
    d_DstKey[0] = s_key[threadIdx.x + 0];
    d_DstVal[0] = s_val[threadIdx.x + 0];
    d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
    d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

int main()
{
    const uint N = SHARED_SIZE_LIMIT * NUM_ARRAYS;
    std::vector<uint> h_key(N), h_val(N);
    unsigned int seed = 7;
    for (uint i = 0; i < N; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h_key[i] = (seed >> 8) % 5000;
        h_val[i] = i;
    }

    uint *d_SrcKey, *d_SrcVal, *d_DstKey, *d_DstVal;
    cudaMalloc((void **)&d_SrcKey, N * sizeof(uint));
    cudaMalloc((void **)&d_SrcVal, N * sizeof(uint));
    cudaMalloc((void **)&d_DstKey, N * sizeof(uint));
    cudaMalloc((void **)&d_DstVal, N * sizeof(uint));
    cudaMemcpy(d_SrcKey, h_key.data(), N * sizeof(uint), cudaMemcpyHostToDevice);
    cudaMemcpy(d_SrcVal, h_val.data(), N * sizeof(uint), cudaMemcpyHostToDevice);

    // One array of SHARED_SIZE_LIMIT per block, ascending (dir = 1)
    bitonicSortShared<<<NUM_ARRAYS, SHARED_SIZE_LIMIT / 2>>>(d_DstKey, d_DstVal, d_SrcKey, d_SrcVal, SHARED_SIZE_LIMIT, 1);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<uint> out_key(N), out_val(N);
    cudaMemcpy(out_key.data(), d_DstKey, N * sizeof(uint), cudaMemcpyDeviceToHost);
    cudaMemcpy(out_val.data(), d_DstVal, N * sizeof(uint), cudaMemcpyDeviceToHost);

    // Each array sorted, and every value still beside its own key (a permutation of the block's indices)
    int errors = 0;
    std::vector<int> seen(N, 0);
    for (uint i = 0; i < N; ++i) {
        if (i % SHARED_SIZE_LIMIT != 0 && out_key[i - 1] > out_key[i]) ++errors;
        uint v = out_val[i];
        if (v >= N || v / SHARED_SIZE_LIMIT != i / SHARED_SIZE_LIMIT || h_key[v] != out_key[i] || seen[v]++) ++errors;
    }

    printf("errors = %d\n", errors);
    printf("key[0] = %u, key[511] = %u, key[2047] = %u, val[0] = %u %s\n", out_key[0], out_key[511], out_key[N - 1],
           out_val[0], errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_SrcKey);
    cudaFree(d_SrcVal);
    cudaFree(d_DstKey);
    cudaFree(d_DstVal);
    return errors == 0 ? 0 : 1;
}
