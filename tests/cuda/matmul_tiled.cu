// Tiled matrix multiply P = M * N with two 16x16 __shared__ tiles, one output element per thread.
// From: Hwu, Kirk & El Hajj, "Programming Massively Parallel Processors", ch. 5 (tiled MatrixMulKernel).
// BUG_NO_BARRIER: the __syncthreads after loading the tiles is left out; the dot product reads tile entries not yet loaded.
// BUG_MISSING_FINAL_BARRIER: the __syncthreads after the dot product is left out; the next phase overwrites tiles still being read.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define TILE_WIDTH 16
#define WIDTH 32

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    // loop over the M and N tiles required to compute the P element
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        // collaborative loading of M and N tiles into shared memory
        Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
#ifndef BUG_NO_BARRIER
        // step: every thread loads one element of the M tile and one of the N tile
        __syncthreads();
#endif
        for (int k = 0; k < TILE_WIDTH; ++k) {
            Pvalue += Mds[ty][k] * Nds[k][tx];
        }
#ifndef BUG_MISSING_FINAL_BARRIER
        // step: every thread multiplies row ty of Mds by column tx of Nds
        __syncthreads();
#endif
    }
    P[Row * Width + Col] = Pvalue;
}

int main()
{
    const int n = WIDTH * WIDTH;
    std::vector<float> h_M(n), h_N(n), h_P(n);
    for (int i = 0; i < n; ++i) {
        h_M[i] = (float)(i % 5);       // 0..4
        h_N[i] = (float)(i % 3 - 1);   // -1, 0, 1
    }

    float *d_M = NULL, *d_N = NULL, *d_P = NULL;
    cudaMalloc((void **)&d_M, n * sizeof(float));
    cudaMalloc((void **)&d_N, n * sizeof(float));
    cudaMalloc((void **)&d_P, n * sizeof(float));
    cudaMemcpy(d_M, h_M.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_N, h_N.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 dimGrid(WIDTH / TILE_WIDTH, WIDTH / TILE_WIDTH);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, WIDTH);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_P.data(), d_P, n * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference (small whole numbers, so every float sum is exact)
    int mismatches = 0;
    float checksum = 0.0f;
    for (int row = 0; row < WIDTH; ++row) {
        for (int col = 0; col < WIDTH; ++col) {
            float sum = 0.0f;
            for (int k = 0; k < WIDTH; ++k) sum += h_M[row * WIDTH + k] * h_N[k * WIDTH + col];
            if (h_P[row * WIDTH + col] != sum) ++mismatches;
            checksum += h_P[row * WIDTH + col];
        }
    }
    printf("mismatches = %d\n", mismatches);
    printf("P[0][0] = %g, P[31][31] = %g, sum of P = %g %s\n", h_P[0], h_P[n - 1], checksum,
           mismatches == 0 ? "PASS" : "FAIL");

    cudaFree(d_M);
    cudaFree(d_N);
    cudaFree(d_P);
    return mismatches == 0 ? 0 : 1;
}
