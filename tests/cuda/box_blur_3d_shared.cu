// A 3D box blur of a volume, one 8x8x4 tile of voxels per block staged in a 3D __shared__ array: each voxel becomes the sum of itself and its six neighbours inside the tile (the tile's faces use the neighbours they have).
// From: the 3D stencils of "Programming Massively Parallel Processors" (Hwu, Kirk, El Hajj), ch. 8, with the tile in shared memory.
// BUG_NO_BARRIER: the __syncthreads between loading the tile and reading the neighbours is left out; a thread may read a neighbour's voxel before that thread has loaded it.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define TX 8
#define TY 8
#define TZ 4
#define NX 16
#define NY 16
#define NZ 8

__global__ void box_blur(const int *in, int *out)
{
    __shared__ int tile[TZ][TY][TX];
    int x = blockIdx.x * TX + threadIdx.x;
    int y = blockIdx.y * TY + threadIdx.y;
    int z = blockIdx.z * TZ + threadIdx.z;
    int at = (z * NY + y) * NX + x;
    tile[threadIdx.z][threadIdx.y][threadIdx.x] = in[at];
#ifndef BUG_NO_BARRIER
    // step: every thread loads its voxel into the tile
    __syncthreads();
#endif
    int sum = tile[threadIdx.z][threadIdx.y][threadIdx.x];
    if (threadIdx.x > 0) sum += tile[threadIdx.z][threadIdx.y][threadIdx.x - 1];
    if (threadIdx.x < TX - 1) sum += tile[threadIdx.z][threadIdx.y][threadIdx.x + 1];
    if (threadIdx.y > 0) sum += tile[threadIdx.z][threadIdx.y - 1][threadIdx.x];
    if (threadIdx.y < TY - 1) sum += tile[threadIdx.z][threadIdx.y + 1][threadIdx.x];
    if (threadIdx.z > 0) sum += tile[threadIdx.z - 1][threadIdx.y][threadIdx.x];
    if (threadIdx.z < TZ - 1) sum += tile[threadIdx.z + 1][threadIdx.y][threadIdx.x];
    out[at] = sum;
}

int main()
{
    const int n = NX * NY * NZ;
    std::vector<int> h_in(n), h_out(n);
    unsigned int seed = 7;
    for (int i = 0; i < n; ++i) {
        seed = seed * 1103515245u + 12345u;
        h_in[i] = (int)((seed >> 16) % 100);
    }
    int *d_in, *d_out;
    cudaMalloc((void **)&d_in, n * sizeof(int));
    cudaMalloc((void **)&d_out, n * sizeof(int));
    cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice);

    dim3 block(TX, TY, TZ);
    dim3 grid(NX / TX, NY / TY, NZ / TZ);
    box_blur<<<grid, block>>>(d_in, d_out);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference: the same sums, tile by tile
    int mismatches = 0;
    long long total = 0;
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x) {
                int tx = x % TX, ty = y % TY, tz = z % TZ;
                int at = (z * NY + y) * NX + x;
                int sum = h_in[at];
                if (tx > 0) sum += h_in[at - 1];
                if (tx < TX - 1) sum += h_in[at + 1];
                if (ty > 0) sum += h_in[at - NX];
                if (ty < TY - 1) sum += h_in[at + NX];
                if (tz > 0) sum += h_in[at - NX * NY];
                if (tz < TZ - 1) sum += h_in[at + NX * NY];
                if (h_out[at] != sum) ++mismatches;
                total += h_out[at];
            }
    printf("out[0] = %d, out[%d] = %d, total = %lld, mismatches = %d %s\n", h_out[0], n - 1, h_out[n - 1], total,
           mismatches, mismatches == 0 ? "PASS" : "FAIL");
    cudaFree(d_in);
    cudaFree(d_out);
    return mismatches == 0 ? 0 : 1;
}
