// A 2D image in pitched memory: every row starts at a multiple of the device's pitch, and a kernel
// reaches row r through a char pointer, as the CUDA Programming Guide's cudaMallocPitch example does.
// From: CUDA C++ Programming Guide, "Device Memory" (cudaMallocPitch, cudaMemcpy2D).
// BUG_PITCH_IN_ELEMENTS: the row is found as img + r * pitch, counting the pitch (bytes) in floats,
// so every row after the first lands four times too far, past the end of the image from row height / 4.
#include <cstdio>
#include <cuda_runtime.h>

const int WIDTH = 100;  // floats per row
const int HEIGHT = 24;

__global__ void brighten(float* img, size_t pitch, int width, int height, float gain)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c >= width || r >= height) return;
#ifdef BUG_PITCH_IN_ELEMENTS
    float* row = img + r * pitch;
#else
    float* row = (float*)((char*)img + r * pitch);
#endif
    row[c] = row[c] * gain + r;
}

int main()
{
    static float h[HEIGHT][WIDTH];
    for (int r = 0; r < HEIGHT; ++r)
        for (int c = 0; c < WIDTH; ++c) h[r][c] = (float)(c % 10);

    float* d_img;
    size_t pitch;
    cudaMallocPitch((void**)&d_img, &pitch, WIDTH * sizeof(float), HEIGHT);
    cudaMemcpy2D(d_img, pitch, h, WIDTH * sizeof(float), WIDTH * sizeof(float), HEIGHT, cudaMemcpyHostToDevice);

    dim3 grid((WIDTH + 63) / 64, HEIGHT);
    brighten<<<grid, 64>>>(d_img, pitch, WIDTH, HEIGHT, 2.0f);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy2D(h, WIDTH * sizeof(float), d_img, pitch, WIDTH * sizeof(float), HEIGHT, cudaMemcpyDeviceToHost);

    int bad = 0;
    double sum = 0;
    for (int r = 0; r < HEIGHT; ++r)
        for (int c = 0; c < WIDTH; ++c) {
            sum += h[r][c];
            if (h[r][c] != 2.0f * (c % 10) + r) ++bad;
        }
    printf("pitch = %zu bytes for %d, h[0][9] = %g, h[23][99] = %g, sum = %g %s\n", pitch,
           (int)(WIDTH * sizeof(float)), h[0][9], h[23][99], sum, bad ? "FAIL" : "PASS");
    cudaFree(d_img);
    return bad != 0;
}
