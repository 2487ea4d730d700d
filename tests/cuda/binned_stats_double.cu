// Binned statistics in double precision: per-block __shared__ bins (an array of structs) updated with double and unsigned long long atomicAdd, atomicMin/atomicMax on int fields, merged into global bins; a __shfl_down_sync warp sum of doubles; a second kernel copies whole structs.
// From: the histogram pattern of CUDA by Example ch. 9 with the Programming Guide's double atomicAdd (sm_60+) and 64-bit warp shuffles.
// BUG_NON_ATOMIC: a bin's sum is a plain s_bins[bin].sum += x; threads of one bin lose each other's updates.
// BUG_NO_BARRIER: the __syncthreads after threads 0..BINS-1 clear s_bins[] is left out; a thread may add into a bin before it is cleared.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define THREADS 256
#define BLOCKS (N / THREADS)
#define BINS 8

struct BinStats {
    double sum;
    double sumSquares;
    unsigned long long count;
    int minValue;
    int maxValue;
};

struct BinSummary {
    double mean;
    long long count;
    int range;
    int bin;
};

__global__ void bin_stats(const int *values, BinStats *bins, double *total)
{
    __shared__ BinStats s_bins[BINS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t < BINS) {
        BinStats empty = {0.0, 0.0, 0ULL, 0x7fffffff, -0x7fffffff - 1};
        s_bins[t] = empty;
    }
#ifndef BUG_NO_BARRIER
    // step: threads 0..BINS-1 clear the block's bins
    __syncthreads();
#endif
    int v = values[i];
    int bin = v % BINS; // a bin from a loaded value
    double x = v * 0.25;
#ifdef BUG_NON_ATOMIC
    s_bins[bin].sum += x;
#else
    atomicAdd(&s_bins[bin].sum, x);
#endif
    atomicAdd(&s_bins[bin].sumSquares, x * x);
    atomicAdd(&s_bins[bin].count, 1ULL);
    atomicMin(&s_bins[bin].minValue, v);
    atomicMax(&s_bins[bin].maxValue, v);

    // a warp sum of doubles: each shuffle moves 64 bits
    double warpSum = x;
    for (int offset = 16; offset > 0; offset /= 2)
        warpSum += __shfl_down_sync(0xffffffff, warpSum, offset);
    if (t % 32 == 0) atomicAdd(total, warpSum);
    // step: every thread adds its value into its bin
    __syncthreads();

    if (t < BINS) {
        atomicAdd(&bins[t].sum, s_bins[t].sum);
        atomicAdd(&bins[t].sumSquares, s_bins[t].sumSquares);
        atomicAdd(&bins[t].count, s_bins[t].count);
        atomicMin(&bins[t].minValue, s_bins[t].minValue);
        atomicMax(&bins[t].maxValue, s_bins[t].maxValue);
    }
}

__global__ void summarize(const BinStats *bins, BinSummary *out)
{
    int b = threadIdx.x;
    if (b < BINS) {
        BinStats s = bins[b]; // the whole struct
        BinSummary r;
        r.mean = s.sum / (double)s.count;
        r.count = (long long)s.count;
        r.range = s.maxValue - s.minValue;
        r.bin = b;
        out[b] = r;
    }
}

int main()
{
    std::vector<int> h_values(N);
    unsigned int seed = 2024;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_values[i] = (int)((seed >> 16) % 1000); // 0..999
    }
    std::vector<BinStats> h_init(BINS);
    for (int b = 0; b < BINS; ++b) {
        BinStats e = {0.0, 0.0, 0ULL, 0x7fffffff, -0x7fffffff - 1};
        h_init[b] = e;
    }

    int *d_values = NULL;
    BinStats *d_bins = NULL;
    BinSummary *d_summary = NULL;
    double *d_total = NULL;
    cudaMalloc((void **)&d_values, N * sizeof(int));
    cudaMalloc((void **)&d_bins, BINS * sizeof(BinStats));
    cudaMalloc((void **)&d_summary, BINS * sizeof(BinSummary));
    cudaMalloc((void **)&d_total, sizeof(double));
    cudaMemcpy(d_values, h_values.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_bins, h_init.data(), BINS * sizeof(BinStats), cudaMemcpyHostToDevice);
    cudaMemset(d_total, 0, sizeof(double));

    bin_stats<<<BLOCKS, THREADS>>>(d_values, d_bins, d_total);
    summarize<<<1, 32>>>(d_bins, d_summary);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    std::vector<BinStats> h_bins(BINS);
    std::vector<BinSummary> h_summary(BINS);
    double total = 0.0;
    cudaMemcpy(h_bins.data(), d_bins, BINS * sizeof(BinStats), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_summary.data(), d_summary, BINS * sizeof(BinSummary), cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost);

    // CPU reference: every value is a multiple of 0.25 and every sum stays far below 2^50, so the
    // double sums are exact in any order
    std::vector<BinStats> e = h_init;
    double cpuTotal = 0.0;
    for (int i = 0; i < N; ++i) {
        int v = h_values[i];
        double x = v * 0.25;
        BinStats &s = e[v % BINS];
        s.sum += x;
        s.sumSquares += x * x;
        s.count += 1;
        if (v < s.minValue) s.minValue = v;
        if (v > s.maxValue) s.maxValue = v;
        cpuTotal += x;
    }
    bool ok = total == cpuTotal;
    unsigned long long counted = 0;
    for (int b = 0; b < BINS; ++b) {
        const BinStats &g = h_bins[b];
        const BinSummary &r = h_summary[b];
        if (g.sum != e[b].sum || g.sumSquares != e[b].sumSquares || g.count != e[b].count ||
            g.minValue != e[b].minValue || g.maxValue != e[b].maxValue) ok = false;
        if (r.mean != e[b].sum / (double)e[b].count || r.count != (long long)e[b].count ||
            r.range != e[b].maxValue - e[b].minValue || r.bin != b) ok = false;
        counted += g.count;
    }
    printf("bin 3: sum = %.2f, sum of squares = %.4f, count = %llu, min = %d, max = %d\n", h_bins[3].sum,
           h_bins[3].sumSquares, h_bins[3].count, h_bins[3].minValue, h_bins[3].maxValue);
    printf("total = %.2f, counted = %llu, bin 5 mean = %.6f %s\n", total, counted, h_summary[5].mean, ok ? "PASS" : "FAIL");

    cudaFree(d_values);
    cudaFree(d_bins);
    cudaFree(d_summary);
    cudaFree(d_total);
    return ok ? 0 : 1;
}
