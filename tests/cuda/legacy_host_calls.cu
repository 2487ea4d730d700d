// Host calls from the Programming Guide's corners: pinning a static array with cudaHostRegister,
// setting and reading device limits, a pitched 2D copy on a stream and a copy between "peers" on
// device 0.
#include <cstdio>

#define W 24
#define H 5

__global__ void fill(float *rows, size_t pitch)
{
    float *row = (float *)((char *)rows + blockIdx.x * pitch);
    row[threadIdx.x] = blockIdx.x * 100.0f + threadIdx.x;
}

static float staged[H][W];

int main()
{
    size_t stack = 0;
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
    cudaDeviceSetLimit(cudaLimitStackSize, 2048);
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    cudaHostRegister(staged, sizeof staged, cudaHostRegisterDefault);

    float *rows, *copy;
    size_t pitch;
    cudaMallocPitch(&rows, &pitch, W * sizeof(float), H);
    cudaMalloc(&copy, pitch * H);
    fill<<<H, W>>>(rows, pitch);
    cudaDeviceSynchronize();
    cudaMemcpyPeer(copy, 0, rows, 0, pitch * H);

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cudaMemcpy2DAsync(staged, W * sizeof(float), copy, pitch, W * sizeof(float), H, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    cudaHostUnregister(staged);

    int wrong = 0;
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c) wrong += staged[r][c] != r * 100.0f + c;
    const bool limits = stack >= 2048;
    printf("staged[4][23] = %g, wrong = %d, stack limit read %s %s\n", staged[4][23], wrong, limits ? "yes" : "no",
           !wrong && limits && cudaGetLastError() == cudaSuccess ? "PASS" : "FAIL");
    return wrong || !limits;
}
