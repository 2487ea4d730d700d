// Slice sums of a 16x16x8 volume with a 3D grid of 3D blocks (dim3 in x, y and z): every voxel atomicAdds into its z slice.
// From: the CUDA C++ Programming Guide, "Thread Hierarchy" (3D thread and block indices), with a global atomicAdd.
// BUG_NON_ATOMIC: a plain sliceSum[z] += replaces the atomicAdd; the 512 threads adding into one slice lose updates.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define NX 16
#define NY 16
#define NZ 8

__global__ void slice_sums(const int *vol, int nx, int ny, int nz, int *sliceSum)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        int v = vol[(z * ny + y) * nx + x];
#ifdef BUG_NON_ATOMIC
        sliceSum[z] += v;
#else
        atomicAdd(&sliceSum[z], v);
#endif
    }
}

int main()
{
    const int n = NX * NY * NZ;
    std::vector<int> h_vol(n);
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x) h_vol[(z * NY + y) * NX + x] = (x + 2 * y + 3 * z) % 8;

    int *d_vol = NULL, *d_sliceSum = NULL;
    cudaMalloc((void **)&d_vol, n * sizeof(int));
    cudaMalloc((void **)&d_sliceSum, NZ * sizeof(int));
    cudaMemcpy(d_vol, h_vol.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_sliceSum, 0, NZ * sizeof(int));

    dim3 block(8, 8, 4);
    dim3 grid(NX / 8, NY / 8, NZ / 4);
    slice_sums<<<grid, block>>>(d_vol, NX, NY, NZ, d_sliceSum);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    int h_sliceSum[NZ];
    cudaMemcpy(h_sliceSum, d_sliceSum, NZ * sizeof(int), cudaMemcpyDeviceToHost);

    // CPU reference
    bool ok = true;
    int total = 0;
    printf("slice sums:");
    for (int z = 0; z < NZ; ++z) {
        int expected = 0;
        for (int k = 0; k < NX * NY; ++k) expected += h_vol[z * NX * NY + k];
        if (h_sliceSum[z] != expected) ok = false;
        total += h_sliceSum[z];
        printf(" %d", h_sliceSum[z]);
    }
    printf("\n");
    printf("sliceSum[0] = %d, sliceSum[7] = %d, total = %d %s\n", h_sliceSum[0], h_sliceSum[NZ - 1], total,
           ok ? "PASS" : "FAIL");

    cudaFree(d_vol);
    cudaFree(d_sliceSum);
    return ok ? 0 : 1;
}
