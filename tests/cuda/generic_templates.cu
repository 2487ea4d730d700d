// Generic kernels, as a course's homework writes them: a kernel template over the element type taking
// `const T *` inputs, launched from a host template for float and int; __device__ helpers that take
// `const T *` and `volatile T *`; an optional output pointer passed as NULL.
// BUG_NO_BARRIER: the block's reversal reads the tile before its other half is written.
#include <cstdio>
#include <vector>

template <typename T>
__device__ T loadAt(const T *p, int i) { return p[i]; }

template <typename T>
__device__ void warpSum(volatile T *s, int t)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        // step: the warp's partial sums
        __syncwarp();
        T v = t < offset ? s[t + offset] : (T)0;
        // step: every lane has read its partner
        __syncwarp();
        if (t < offset) s[t] += v;
    }
}

template <typename T>
__global__ void reverseAndSum(const T *in, T *out, T *blockSums)
{
    __shared__ T tile[128];
    int t = threadIdx.x, base = blockIdx.x * 128;
    tile[t] = loadAt(in, base + t);
    tile[t + 64] = loadAt(in, base + t + 64);
#ifndef BUG_NO_BARRIER
    // step: the tile holds the block's 128 elements
    __syncthreads();
#endif
    out[base + t] = loadAt(tile, 127 - t);
    out[base + t + 64] = tile[63 - t];
    // step: every thread has read the tile
    __syncthreads();
    tile[t] += tile[t + 64];
    // step: 64 pair sums
    __syncthreads();
    if (t < 32) {
        tile[t] += tile[t + 32];
        warpSum(tile, t);
    }
    if (t == 0 && blockSums != NULL) blockSums[blockIdx.x] = tile[0];
}

template <typename T>
bool check(int blocks, T *sumOut)
{
    const int n = blocks * 128;
    std::vector<T> h(n), back(n), sums(blocks);
    for (int i = 0; i < n; ++i) h[i] = (T)(i % 13);
    T *dIn, *dOut, *dSums;
    cudaMalloc(&dIn, n * sizeof(T));
    cudaMalloc(&dOut, n * sizeof(T));
    cudaMalloc(&dSums, blocks * sizeof(T));
    cudaMemcpy(dIn, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    reverseAndSum<<<blocks, 64>>>(dIn, dOut, (T *)NULL);
    reverseAndSum<<<blocks, 64>>>(dIn, dOut, dSums);
    cudaMemcpy(back.data(), dOut, n * sizeof(T), cudaMemcpyDeviceToHost);
    cudaMemcpy(sums.data(), dSums, blocks * sizeof(T), cudaMemcpyDeviceToHost);
    bool ok = true;
    T total = 0;
    for (int b = 0; b < blocks; ++b) {
        T s = 0;
        for (int k = 0; k < 128; ++k) {
            s += h[b * 128 + k];
            if (back[b * 128 + k] != h[b * 128 + 127 - k]) ok = false;
        }
        if (sums[b] != s) ok = false;
        total += sums[b];
    }
    *sumOut = total;
    cudaFree(dIn); cudaFree(dOut); cudaFree(dSums);
    return ok;
}

int main()
{
    float fsum; int isum;
    bool ok = check<float>(4, &fsum) & check<int>(3, &isum);
    printf("float total = %.1f, int total = %d %s\n", fsum, isum, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
