// Row sums of a 32x64 matrix with a 2D grid of 2D blocks: shared atomicAdd per block row, then global atomicAdd per row.
// From: the CUDA C++ Programming Guide's 2D indexing (dim3 blocks and grids) with atomics, as taught in GPU courses.
// BUG_NO_BARRIER: the __syncthreads after clearing partial[] is left out; a thread may add into a row before it is cleared.
// BUG_NON_ATOMIC: a plain rowSum[row] += replaces the global atomicAdd; the 4 blocks along a row lose each other's updates.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define WIDTH 64
#define HEIGHT 32
#define BLOCK_X 16
#define BLOCK_Y 8

__global__ void row_sums(const int *a, int width, int height, int *rowSum)
{
    __shared__ int partial[BLOCK_Y]; // one partial sum per row of the block

    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (threadIdx.x == 0) partial[threadIdx.y] = 0;
#ifndef BUG_NO_BARRIER
    // step: thread x == 0 of every block row clears partial[y]
    __syncthreads();
#endif

    if (row < height && col < width) atomicAdd(&partial[threadIdx.y], a[row * width + col]);
    // step: every thread adds its element into partial[y] with a shared atomicAdd
    __syncthreads();

    if (threadIdx.x == 0 && row < height) {
#ifdef BUG_NON_ATOMIC
        rowSum[row] += partial[threadIdx.y];
#else
        atomicAdd(&rowSum[row], partial[threadIdx.y]);
#endif
    }
}

int main()
{
    const int n = WIDTH * HEIGHT;
    std::vector<int> h_a(n);
    for (int r = 0; r < HEIGHT; ++r)
        for (int c = 0; c < WIDTH; ++c) h_a[r * WIDTH + c] = (r * c + r + c) % 10;

    int *d_a = NULL, *d_rowSum = NULL;
    cudaMalloc((void **)&d_a, n * sizeof(int));
    cudaMalloc((void **)&d_rowSum, HEIGHT * sizeof(int));
    cudaMemcpy(d_a, h_a.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_rowSum, 0, HEIGHT * sizeof(int));

    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((WIDTH + BLOCK_X - 1) / BLOCK_X, (HEIGHT + BLOCK_Y - 1) / BLOCK_Y);
    row_sums<<<grid, block>>>(d_a, WIDTH, HEIGHT, d_rowSum);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }

    int h_rowSum[HEIGHT];
    cudaMemcpy(h_rowSum, d_rowSum, HEIGHT * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference
    bool ok = true;
    int total = 0;
    for (int r = 0; r < HEIGHT; ++r) {
        int expected = 0;
        for (int c = 0; c < WIDTH; ++c) expected += h_a[r * WIDTH + c];
        if (h_rowSum[r] != expected) {
            printf("row %d: gpu %d, cpu %d\n", r, h_rowSum[r], expected);
            ok = false;
        }
        total += h_rowSum[r];
    }
    printf("rowSum[0] = %d, rowSum[1] = %d, rowSum[31] = %d\n", h_rowSum[0], h_rowSum[1], h_rowSum[31]);
    printf("total = %d %s\n", total, ok ? "PASS" : "FAIL");

    cudaFree(d_a);
    cudaFree(d_rowSum);
    return ok ? 0 : 1;
}
