// 1D stencil of radius 3: each block stages its inputs plus a 3-element halo on each side in extern __shared__ memory.
// From: NVIDIA, "CUDA C/C++ Basics" (Supercomputing 2011 tutorial, C. Zeller), stencil_1d; here the shared size is given at launch.
// BUG_NO_BARRIER: the __syncthreads after staging is left out; a thread sums temp[] neighbours and halo cells not yet written.
// BUG_OFF_BY_ONE: the halo guard is threadIdx.x <= RADIUS; thread RADIUS writes temp[RADIUS] a second time and one element past temp[].
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define RADIUS 3
#define N 1024
#define BLOCK_SIZE 128

__global__ void stencil_1d(const int *in, int *out)
{
    extern __shared__ int temp[]; // blockDim.x + 2 * RADIUS ints
    int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int lindex = threadIdx.x + RADIUS;

    // read input elements into shared memory
    temp[lindex] = in[gindex];
#ifdef BUG_OFF_BY_ONE
    if (threadIdx.x <= RADIUS) {
#else
    if (threadIdx.x < RADIUS) {
#endif
        temp[lindex - RADIUS] = in[gindex - RADIUS];
        temp[lindex + blockDim.x] = in[gindex + blockDim.x];
    }

#ifndef BUG_NO_BARRIER
    // step: every thread stages in[gindex]; threads 0..2 also stage the left and right halo
    __syncthreads();
#endif

    // apply the stencil
    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];

    // store the result
    out[gindex] = result;
}

int main()
{
    // the input carries RADIUS extra cells on each side, so in[-3] .. in[N + 2] exist
    std::vector<int> h_in(N + 2 * RADIUS);
    for (int i = 0; i < N + 2 * RADIUS; ++i) h_in[i] = (i * 7) % 10;

    int *d_in = NULL;
    int *d_out = NULL;
    cudaMalloc((void **)&d_in, (N + 2 * RADIUS) * sizeof(int));
    cudaMalloc((void **)&d_out, N * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), (N + 2 * RADIUS) * sizeof(int), cudaMemcpyHostToDevice);

    size_t shmem = (BLOCK_SIZE + 2 * RADIUS) * sizeof(int);
    stencil_1d<<<N / BLOCK_SIZE, BLOCK_SIZE, shmem>>>(d_in + RADIUS, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<int> h_out(N);
    cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: out[i] = in[i - 3] + ... + in[i + 3]
    int errors = 0;
    long total = 0;
    for (int i = 0; i < N; ++i) {
        int expected = 0;
        for (int offset = -RADIUS; offset <= RADIUS; ++offset) expected += h_in[i + RADIUS + offset];
        if (h_out[i] != expected) {
            if (errors < 5) printf("out[%d] = %d, expected %d\n", i, h_out[i], expected);
            ++errors;
        }
        total += h_out[i];
    }
    printf("errors = %d\n", errors);
    printf("out[0] = %d, out[1023] = %d, sum = %ld %s\n", h_out[0], h_out[N - 1], total,
           errors == 0 ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return errors == 0 ? 0 : 1;
}
