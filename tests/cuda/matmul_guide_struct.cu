// Shared-memory matrix multiply with the Matrix struct passed by value: each thread block computes one 16x16 sub-matrix of C, each thread one element, through __device__ accessors.
// From: the CUDA C++ Programming Guide, "Shared Memory" (MatMulKernel, GetSubMatrix, GetElement, SetElement).
// BUG_NO_SECOND_BARRIER: the __syncthreads after the products is left out; faster threads load the next sub-matrices over As and Bs while slower ones still read them.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

// Matrices are stored in row-major order: M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
    int width;
    int height;
    int stride;
    float* elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col)
{
    return A.elements[row * A.stride + col];
}

__device__ void SetElement(Matrix A, int row, int col, float value)
{
    A.elements[row * A.stride + col] = value;
}

// The BLOCK_SIZExBLOCK_SIZE sub-matrix Asub of A that is located col sub-matrices to the right and
// row sub-matrices down from the upper-left corner of A
__device__ Matrix GetSubMatrix(Matrix A, int row, int col)
{
    Matrix Asub;
    Asub.width = BLOCK_SIZE;
    Asub.height = BLOCK_SIZE;
    Asub.stride = A.stride;
    Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
    return Asub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C)
{
    int blockRow = blockIdx.y;
    int blockCol = blockIdx.x;
    Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
    float Cvalue = 0;
    int row = threadIdx.y;
    int col = threadIdx.x;
    for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
        Matrix Asub = GetSubMatrix(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        // step: every thread loads one element of Asub into As and one of Bsub into Bs
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += As[row][e] * Bs[e][col];
#ifndef BUG_NO_SECOND_BARRIER
        // step: every thread multiplies row `row` of As by column `col` of Bs into Cvalue
        __syncthreads();
#endif
    }
    SetElement(Csub, row, col, Cvalue);
}

int main()
{
    const int N = 32;
    static float hA[N * N], hB[N * N], hC[N * N];
    for (int i = 0; i < N * N; ++i) {
        hA[i] = (float)(i % 5) - 2.0f;
        hB[i] = (float)(i % 3) - 1.0f;
    }
    Matrix d_A, d_B, d_C;
    d_A.width = d_A.height = d_A.stride = N;
    d_B = d_A;
    d_C = d_A;
    size_t size = N * N * sizeof(float);
    cudaMalloc(&d_A.elements, size);
    cudaMalloc(&d_B.elements, size);
    cudaMalloc(&d_C.elements, size);
    cudaMemcpy(d_A.elements, hA, size, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B.elements, hB, size, cudaMemcpyHostToDevice);

    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(N / dimBlock.x, N / dimBlock.y);
    MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("CUDA error: %s FAIL\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(hC, d_C.elements, size, cudaMemcpyDeviceToHost);

    int mismatches = 0;
    float sum = 0.0f;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            float s = 0.0f;
            for (int k = 0; k < N; ++k) s += hA[i * N + k] * hB[k * N + j];
            if (s != hC[i * N + j]) ++mismatches;
            sum += hC[i * N + j];
        }
    printf("C[0][0] = %g, C[31][31] = %g, sum of C = %g, mismatches = %d %s\n", hC[0], hC[N * N - 1], sum, mismatches,
           mismatches == 0 ? "PASS" : "FAIL");
    cudaFree(d_A.elements);
    cudaFree(d_B.elements);
    cudaFree(d_C.elements);
    return mismatches == 0 ? 0 : 1;
}
