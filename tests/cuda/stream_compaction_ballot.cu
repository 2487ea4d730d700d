// Stream compaction (keep the multiples of 3): each warp votes with __ballot_sync, ranks lanes with __popc,
// and one lane reserves the warp's output slots with a single atomicAdd ("warp-aggregated atomics").
// From: Andry Adinets, "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics" (NVIDIA Developer Blog).
// BUG_NON_ATOMIC: lane 0 reserves slots with a plain read and write of *count; two warps get the same slots and overwrite each other.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 2048
#define THREADS 128
#define BLOCKS (N / THREADS)

__global__ void compact(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int x = (i < n) ? in[i] : 0;
    bool keep = (i < n) && (x % 3 == 0);

    // one bit per lane that keeps its element
    unsigned int mask = __ballot_sync(0xffffffff, keep);
    int warpCount = __popc(mask);
    int rank = __popc(mask & ((1u << lane) - 1)); // kept lanes below this one

    int base = 0;
    if (lane == 0 && warpCount > 0) {
#ifdef BUG_NON_ATOMIC
        base = *count;
        *count = base + warpCount;
#else
        base = atomicAdd(count, warpCount);
#endif
    }
    base = __shfl_sync(0xffffffff, base, 0); // lane 0 tells the warp where its slots start

    if (keep) out[base + rank] = x;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a;
    int y = *(const int *)b;
    return (x > y) - (x < y);
}

int main()
{
    std::vector<int> h_in(N);
    unsigned int seed = 7;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_in[i] = (int)((seed >> 16) % 100);
    }

    int *d_in = NULL, *d_out = NULL, *d_count = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, N * sizeof(int));
    cudaMalloc((void **)&d_count, sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0xff, N * sizeof(int)); // -1 everywhere, so a slot nobody wrote shows
    cudaMemset(d_count, 0, sizeof(int));

    compact<<<BLOCKS, THREADS>>>(d_in, d_out, d_count, N);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int count = 0;
    cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
    std::vector<int> h_out(N);
    cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference. Warps finish in any order, so compare the kept values as sorted lists.
    std::vector<int> expected;
    for (int i = 0; i < N; ++i)
        if (h_in[i] % 3 == 0) expected.push_back(h_in[i]);
    int kept = (int)expected.size();

    bool ok = (count == kept);
    long sum = 0;
    if (ok) {
        qsort(h_out.data(), count, sizeof(int), compare_ints);
        qsort(expected.data(), kept, sizeof(int), compare_ints);
        for (int k = 0; k < kept; ++k) {
            if (h_out[k] != expected[k]) ok = false;
            sum += h_out[k];
        }
    }
    printf("gpu count = %d, cpu count = %d\n", count, kept);
    printf("kept = %d, sum = %ld %s\n", count, sum, ok ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_count);
    return ok ? 0 : 1;
}
