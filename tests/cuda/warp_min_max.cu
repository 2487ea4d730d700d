// Warp minimum and maximum with __reduce_min_sync and __reduce_max_sync: of ints, compared signed (-40 is less than 7), and of unsigned ints, compared unsigned (0x80000000 is more than 7); and of the lower half of each warp alone, by its mask.
// From: the CUDA C++ Programming Guide, "Warp Reduce Functions" (sm_80+).
// BUG_MIN_AS_UNSIGNED: the ints' minimum is taken over the values cast to unsigned, where every negative value is larger than every positive one; main() finds the wrong minima.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define N 1024
#define THREADS 256
#define WARPS (N / 32)

__global__ void warp_extremes(const int *values, const unsigned int *bits, int *mins, int *maxs,
                              unsigned int *umins, unsigned int *umaxs, int *halfMaxs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int w = i / warpSize;
    int v = values[i];
    unsigned int u = bits[i];
#ifdef BUG_MIN_AS_UNSIGNED
    int least = (int)__reduce_min_sync(0xffffffff, (unsigned int)v);
#else
    int least = __reduce_min_sync(0xffffffff, v);
#endif
    int greatest = __reduce_max_sync(0xffffffff, v);
    unsigned int uleast = __reduce_min_sync(0xffffffff, u);
    unsigned int ugreatest = __reduce_max_sync(0xffffffff, u);
    if (lane < 16) {
        // only the lanes the mask names take part: the lower half's own maximum
        int half = __reduce_max_sync(0x0000ffff, v);
        if (lane == 0) halfMaxs[w] = half;
    }
    if (lane == 0) {
        mins[w] = least;
        maxs[w] = greatest;
        umins[w] = uleast;
        umaxs[w] = ugreatest;
    }
}

int main()
{
    std::vector<int> h_values(N);
    std::vector<unsigned int> h_bits(N);
    unsigned int seed = 2024;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1664525u + 1013904223u;
        h_values[i] = (int)((seed >> 8) % 1000) - 500;
        h_bits[i] = seed;
    }

    int *d_values, *d_mins, *d_maxs, *d_halfMaxs;
    unsigned int *d_bits, *d_umins, *d_umaxs;
    cudaMalloc((void **)&d_values, N * sizeof(int));
    cudaMalloc((void **)&d_bits, N * sizeof(unsigned int));
    cudaMalloc((void **)&d_mins, WARPS * sizeof(int));
    cudaMalloc((void **)&d_maxs, WARPS * sizeof(int));
    cudaMalloc((void **)&d_umins, WARPS * sizeof(unsigned int));
    cudaMalloc((void **)&d_umaxs, WARPS * sizeof(unsigned int));
    cudaMalloc((void **)&d_halfMaxs, WARPS * sizeof(int));
    cudaMemcpy(d_values, h_values.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_bits, h_bits.data(), N * sizeof(unsigned int), cudaMemcpyHostToDevice);

    warp_extremes<<<N / THREADS, THREADS>>>(d_values, d_bits, d_mins, d_maxs, d_umins, d_umaxs, d_halfMaxs);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<int> mins(WARPS), maxs(WARPS), halfMaxs(WARPS);
    std::vector<unsigned int> umins(WARPS), umaxs(WARPS);
    cudaMemcpy(mins.data(), d_mins, WARPS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(maxs.data(), d_maxs, WARPS * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(umins.data(), d_umins, WARPS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    cudaMemcpy(umaxs.data(), d_umaxs, WARPS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    cudaMemcpy(halfMaxs.data(), d_halfMaxs, WARPS * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference
    int mismatches = 0;
    for (int w = 0; w < WARPS; ++w) {
        int lo = h_values[w * 32], hi = lo, halfHi = lo;
        unsigned int ulo = h_bits[w * 32], uhi = ulo;
        for (int l = 0; l < 32; ++l) {
            int v = h_values[w * 32 + l];
            unsigned int u = h_bits[w * 32 + l];
            if (v < lo) lo = v;
            if (v > hi) hi = v;
            if (l < 16 && v > halfHi) halfHi = v;
            if (u < ulo) ulo = u;
            if (u > uhi) uhi = u;
        }
        if (mins[w] != lo || maxs[w] != hi || umins[w] != ulo || umaxs[w] != uhi || halfMaxs[w] != halfHi) ++mismatches;
    }
    printf("min[0] = %d, max[0] = %d, umax[0] = %u, half max[5] = %d, mismatches = %d %s\n", mins[0], maxs[0], umaxs[0],
           halfMaxs[5], mismatches, mismatches == 0 ? "PASS" : "FAIL");

    cudaFree(d_values);
    cudaFree(d_bits);
    cudaFree(d_mins);
    cudaFree(d_maxs);
    cudaFree(d_umins);
    cudaFree(d_umaxs);
    cudaFree(d_halfMaxs);
    return mismatches == 0 ? 0 : 1;
}
