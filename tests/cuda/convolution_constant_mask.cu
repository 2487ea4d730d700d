// Tiled 1D convolution with the mask in __constant__ memory: each block stages its tile and a halo
// of MASK_WIDTH / 2 elements on each side in shared memory, then every thread applies the mask.
// From: Kirk & Hwu, "Programming Massively Parallel Processors" (3rd ed.), ch. 7, the tiled 1D
// convolution kernel with the mask M in constant memory (cudaMemcpyToSymbol).
// BUG_NO_BARRIER: the __syncthreads after staging is left out; a thread reads halo and neighbour cells not yet written.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define MASK_WIDTH 5
#define TILE_SIZE 64
#define N 1000

__constant__ float M[MASK_WIDTH];

__global__ void convolution_1D_tiled_kernel(const float *P_in, float *P_out, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MASK_WIDTH - 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = MASK_WIDTH / 2;

    // left halo: the last n elements of the previous tile
    int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n)
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : P_in[halo_index_left];
    // the tile itself
    N_ds[n + threadIdx.x] = (i < Width) ? P_in[i] : 0;
    // right halo: the first n elements of the next tile
    int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n)
        N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0 : P_in[halo_index_right];

#ifndef BUG_NO_BARRIER
    // step: every thread stages its element; the last and first n threads also stage the halos
    __syncthreads();
#endif

    float Pvalue = 0;
    for (int j = 0; j < MASK_WIDTH; j++)
        Pvalue += N_ds[threadIdx.x + j] * M[j];
    if (i < Width) P_out[i] = Pvalue;
}

int main()
{
    std::vector<float> h_in(N), h_out(N);
    for (int i = 0; i < N; ++i) h_in[i] = (float)((i * 37) % 11);
    const float h_mask[MASK_WIDTH] = {1, 2, 4, 2, 1};
    cudaMemcpyToSymbol(M, h_mask, MASK_WIDTH * sizeof(float));

    float *d_in = NULL, *d_out = NULL;
    cudaMalloc((void **)&d_in, N * sizeof(float));
    cudaMalloc((void **)&d_out, N * sizeof(float));
    cudaMemcpy(d_in, h_in.data(), N * sizeof(float), cudaMemcpyHostToDevice);

    convolution_1D_tiled_kernel<<<(N + TILE_SIZE - 1) / TILE_SIZE, TILE_SIZE>>>(d_in, d_out, N);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_out.data(), d_out, N * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference, the mask read back from constant memory
    float mask[MASK_WIDTH];
    cudaMemcpyFromSymbol(mask, M, sizeof(mask));
    int errors = 0;
    for (int i = 0; i < N; ++i) {
        float expect = 0;
        for (int j = 0; j < MASK_WIDTH; ++j) {
            int k = i - MASK_WIDTH / 2 + j;
            if (k >= 0 && k < N) expect += h_in[k] * mask[j];
        }
        if (h_out[i] != expect) ++errors;
    }
    printf("out[0] = %g, out[500] = %g, out[999] = %g %s\n", h_out[0], h_out[500], h_out[999], errors ? "FAIL" : "PASS");
    cudaFree(d_in);
    cudaFree(d_out);
    return errors ? 1 : 0;
}
