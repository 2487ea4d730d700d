// Divergence inside a warp: even lanes update their value in a branch that odd lanes skip, then every lane adds its partner lane's value (lane ^ 1) through shared memory.
// From: Lin & Grover, "Using CUDA Warp-Level Primitives" (NVIDIA, 2018): since Volta the lanes of a warp need __syncwarp() to see each other's shared-memory writes after a branch.
// BUG_NO_SYNCWARP: the __syncwarp() after the branch is left out. Where the warp reconverges at the end of the branch (SIMT lockstep, most runs on a GPU) the sums still come out right; where the lanes run apart (the forward and reverse schedules) a lane reads its partner's cell before the partner wrote it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define THREADS 64
#define BLOCKS 2
#define N (THREADS * BLOCKS)

__global__ void pair_sums(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    if (t % 2 == 0) {
        s[t] = s[t] * 2;
        s[t] = s[t] + 1;
    }
#ifndef BUG_NO_SYNCWARP
    // step: every even lane has doubled its value and added 1; odd lanes kept theirs
    __syncwarp();
#endif
    out[i] = s[t] + s[t ^ 1];
}

int main()
{
    std::vector<int> h_in(N), h_out(N);
    for (int i = 0; i < N; ++i) h_in[i] = i % 7 + 1;

    int *d_in = NULL, *d_out = NULL;
    cudaMalloc(&d_in, N * sizeof(int));
    cudaMalloc(&d_out, N * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice);

    pair_sums<<<BLOCKS, THREADS>>>(d_in, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: both lanes of a pair get 2 * in[even] + 1 + in[odd]
    int mismatches = 0;
    for (int i = 0; i < N; ++i) {
        int even = i & ~1;
        int expected = 2 * h_in[even] + 1 + h_in[even + 1];
        if (h_out[i] != expected) {
            if (mismatches < 5) printf("out[%d] = %d, expected %d\n", i, h_out[i], expected);
            ++mismatches;
        }
    }
    printf("out[0] = %d, out[1] = %d, out[127] = %d, mismatches = %d %s\n", h_out[0], h_out[1], h_out[127], mismatches,
           mismatches == 0 ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return mismatches == 0 ? 0 : 1;
}
