// Work-efficient exclusive scan (Blelloch): up-sweep (reduce) then down-sweep, one block, 2 elements per thread.
// From: Harris, Sengupta & Owens, GPU Gems 3, ch. 39 "Parallel Prefix Sum (Scan) with CUDA", Example 39-2.
// BUG_NO_UPSWEEP_BARRIER: the __syncthreads of the up-sweep is left out; a level adds temp[ai] before the level below has written it.
// BUG_NO_DOWNSWEEP_BARRIER: the __syncthreads of the down-sweep is left out; a level swaps values the previous level is still writing.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N 512
#define THREADS (N / 2)

__global__ void prescan(int *g_odata, const int *g_idata, int n)
{
    extern __shared__ int temp[]; // allocated on invocation
    int thid = threadIdx.x;
    int offset = 1;

    temp[2 * thid] = g_idata[2 * thid]; // load input into shared memory
    temp[2 * thid + 1] = g_idata[2 * thid + 1];

    for (int d = n >> 1; d > 0; d >>= 1) { // build sum in place up the tree
#ifndef BUG_NO_UPSWEEP_BARRIER
        // step: the level below is complete (the loaded input, at the first level)
        __syncthreads();
#endif
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }

    if (thid == 0) { temp[n - 1] = 0; } // clear the last element

    for (int d = 1; d < n; d *= 2) { // traverse down tree & build scan
        offset >>= 1;
#ifndef BUG_NO_DOWNSWEEP_BARRIER
        // step: the level above is complete (the cleared root, at the first level)
        __syncthreads();
#endif
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    // step: the last down-sweep level swaps and adds temp[2*thid] and temp[2*thid+1]
    __syncthreads();

    g_odata[2 * thid] = temp[2 * thid]; // write results to device memory
    g_odata[2 * thid + 1] = temp[2 * thid + 1];
}

int main()
{
    std::vector<int> h_in(N);
    for (int i = 0; i < N; ++i) h_in[i] = i % 9;

    int *d_in = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(int));
    cudaMalloc((void **)&d_out, N * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    prescan<<<1, THREADS, N * sizeof(int)>>>(d_out, d_in, N);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_out(N);
    cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: exclusive scan
    int errors = 0;
    int running = 0;
    for (int i = 0; i < N; ++i) {
        if (h_out[i] != running) {
            if (errors < 5) printf("out[%d] = %d, expected %d\n", i, h_out[i], running);
            ++errors;
        }
        running += h_in[i];
    }
    printf("errors = %d, total = %d\n", errors, running);
    printf("out[1] = %d, out[256] = %d, out[511] = %d %s\n", h_out[1], h_out[256], h_out[511],
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return errors == 0 ? 0 : 1;
}
