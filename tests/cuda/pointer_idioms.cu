// Pointers into device memory kept in the places real kernels keep them: a helper object holding a
// __shared__ array (CUB's TempStorage idiom) set by assignment, by aggregate initialization and by a
// constructor; a local array of pointers picking a plane; a helper returning a reference to an element.
#include <cstdio>

#define T 64

struct Stage {
    float *cells;
    __device__ void put(float v) { cells[threadIdx.x] = v; }
    __device__ float mirrored() const { return cells[blockDim.x - 1 - threadIdx.x]; }
};

struct Window {
    float *base;
    int width;
    __device__ Window(float *b, int w) : base(b), width(w) {}
    __device__ float sum_left(int i) const { return base[i] + (i > 0 ? base[i - 1] : 0.0f) + width * 0.0f; }
};

__device__ float &element(float *p, int i) { return p[i]; }

__global__ void idioms(const float *in, float *even, float *odd, float *out)
{
    __shared__ float first[T];
    __shared__ float second[T];
    int t = threadIdx.x;
    Stage assigned;
    assigned.cells = first;
    Stage listed = {second};
    assigned.put(in[t]);
    listed.put(2.0f * in[t]);
    __syncthreads();
    Window window(first, T);
    float *planes[2] = {even, odd};
    planes[t % 2][t / 2] = assigned.mirrored() + listed.mirrored();
    element(out, t) = window.sum_left(t);
}

int main()
{
    float h_in[T], h_even[T / 2], h_odd[T / 2], h_out[T];
    for (int i = 0; i < T; ++i) h_in[i] = (float)(i * 3 % 17);
    float *d_in, *d_even, *d_odd, *d_out;
    cudaMalloc(&d_in, sizeof h_in); cudaMalloc(&d_even, sizeof h_even); cudaMalloc(&d_odd, sizeof h_odd);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    idioms<<<1, T>>>(d_in, d_even, d_odd, d_out);
    cudaMemcpy(h_even, d_even, sizeof h_even, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_odd, d_odd, sizeof h_odd, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < T; ++t) {
        float mirrored = 3.0f * h_in[T - 1 - t];
        wrong += (t % 2 ? h_odd[t / 2] : h_even[t / 2]) != mirrored;
        wrong += h_out[t] != h_in[t] + (t > 0 ? h_in[t - 1] : 0.0f);
    }
    printf("even[0] = %g, odd[31] = %g, out[63] = %g, wrong = %d %s\n", h_even[0], h_odd[31], h_out[63], wrong,
           wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
