// Matrix transpose through a 32x33 shared-memory tile (padding avoids bank conflicts); 32x8 threads per tile.
// From: Mark Harris, "An Efficient Matrix Transpose in CUDA C/C++" (NVIDIA Developer Blog), transposeNoBankConflicts.
// BUG_NO_BARRIER: the __syncthreads between filling the tile and reading it transposed is left out; a thread reads a column other warps have not written yet.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

const int TILE_DIM = 32;
const int BLOCK_ROWS = 8;
const int WIDTH = 64; // the matrix is WIDTH x WIDTH

__global__ void transposeNoBankConflicts(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

#ifndef BUG_NO_BARRIER
    // step: every thread copies 4 rows of the input tile into tile[y + j][x]
    __syncthreads();
#endif

    x = blockIdx.y * TILE_DIM + threadIdx.x; // transpose block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const int n = WIDTH * WIDTH;
    std::vector<float> h_in(n);
    for (int i = 0; i < n; ++i) h_in[i] = (float)i;

    float *d_in = NULL;
    float *d_out = NULL;
    cudaMalloc((void **)&d_in, n * sizeof(float));
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, n * sizeof(float));

    dim3 dimGrid(WIDTH / TILE_DIM, WIDTH / TILE_DIM, 1);
    dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);
    transposeNoBankConflicts<<<dimGrid, dimBlock>>>(d_out, d_in);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<float> h_out(n);
    cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference: out[row][col] == in[col][row]
    int mismatches = 0;
    for (int row = 0; row < WIDTH; ++row)
        for (int col = 0; col < WIDTH; ++col)
            if (h_out[row * WIDTH + col] != h_in[col * WIDTH + row]) ++mismatches;

    printf("out[0][1] = %g, out[1][0] = %g, out[63][62] = %g\n", h_out[1], h_out[WIDTH],
           h_out[63 * WIDTH + 62]);
    printf("mismatches = %d %s\n", mismatches, mismatches == 0 ? "PASS" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return mismatches == 0 ? 0 : 1;
}
