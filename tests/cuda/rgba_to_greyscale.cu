// Colour images as Udacity's CS344 (Problem Sets 1 and 2) writes them: pixels are uchar4 (RGBA),
// a greyscale kernel weights the channels, a second kernel separates the channels into three
// unsigned char planes, and a third recombines them, mirroring each 16x16 tile top to bottom
// through a __shared__ uchar4 tile.
// BUG_NO_BOUNDS_CHECK: the greyscale kernel forgets that the grid overhangs the 40x30 image (16x16
// blocks cover 48x32): threads past the last column write the next row's pixels, and threads past
// the last row write past the end of the grey image.
// BUG_NO_BARRIER: each thread reads its mirror partner's pixel (another warp's) from the tile
// before the partner may have stored it.
#include <cstdio>
#include <cstdlib>

__global__ void rgba_to_greyscale(const uchar4 *const rgbaImage, unsigned char *const greyImage,
                                  int numRows, int numCols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
#ifndef BUG_NO_BOUNDS_CHECK
    if (r >= numRows || c >= numCols)
        return;
#endif
    uchar4 rgba = rgbaImage[r * numCols + c];
    float channelSum = .299f * rgba.x + .587f * rgba.y + .114f * rgba.z;
    greyImage[r * numCols + c] = channelSum;
}

__global__ void separateChannels(const uchar4 *const inputImageRGBA, int numRows, int numCols,
                                 unsigned char *const redChannel, unsigned char *const greenChannel,
                                 unsigned char *const blueChannel)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= numRows || c >= numCols)
        return;
    int i = r * numCols + c;
    redChannel[i] = inputImageRGBA[i].x;
    greenChannel[i] = inputImageRGBA[i].y;
    blueChannel[i] = inputImageRGBA[i].z;
}

// Each block mirrors its 16x16 tile top to bottom (the image is 48x32: six whole tiles).
__global__ void recombineMirrored(const unsigned char *const redChannel, const unsigned char *const greenChannel,
                                  const unsigned char *const blueChannel, uchar4 *const outputImageRGBA,
                                  int numRows, int numCols)
{
    __shared__ uchar4 tile[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * blockDim.x + tx;
    int r = blockIdx.y * blockDim.y + ty;
    int i = r * numCols + c;
    tile[ty][tx] = make_uchar4(redChannel[i], greenChannel[i], blueChannel[i], 255);
#ifndef BUG_NO_BARRIER
    // step: the block's tile holds its 256 pixels
    __syncthreads();
#endif
    outputImageRGBA[i] = tile[15 - ty][tx];
}

int main()
{
    const int rows = 30, cols = 40, pixels = rows * cols;
    uchar4 *h_rgba = (uchar4 *)malloc(pixels * sizeof(uchar4));
    for (int i = 0; i < pixels; ++i)
        h_rgba[i] = make_uchar4((i * 7) % 256, (i * 13) % 256, (i * 29) % 256, 255);

    uchar4 *d_rgba;
    unsigned char *d_grey;
    cudaMalloc(&d_rgba, sizeof(uchar4) * pixels);
    cudaMalloc(&d_grey, sizeof(unsigned char) * pixels);
    cudaMemcpy(d_rgba, h_rgba, sizeof(uchar4) * pixels, cudaMemcpyHostToDevice);
    const dim3 blockSize(16, 16, 1);
    const dim3 gridSize((cols + 15) / 16, (rows + 15) / 16, 1);
    rgba_to_greyscale<<<gridSize, blockSize>>>(d_rgba, d_grey, rows, cols);
    cudaDeviceSynchronize();
    unsigned char *h_grey = (unsigned char *)malloc(pixels);
    cudaMemcpy(h_grey, d_grey, pixels, cudaMemcpyDeviceToHost);
    int greyWrong = 0, greySum = 0;
    for (int i = 0; i < pixels; ++i) {
        unsigned char want = .299f * h_rgba[i].x + .587f * h_rgba[i].y + .114f * h_rgba[i].z;
        if (h_grey[i] != want) ++greyWrong;
        greySum += h_grey[i];
    }

    // The channels of a 48x32 image: three by two whole tiles.
    const int wRows = 32, wCols = 48, wPixels = wRows * wCols;
    uchar4 *h_wide = (uchar4 *)malloc(wPixels * sizeof(uchar4));
    for (int i = 0; i < wPixels; ++i)
        h_wide[i] = make_uchar4(i % 256, (i / 3) % 256, 255 - i % 256, 255);
    uchar4 *d_wide, *d_out;
    unsigned char *d_red, *d_green, *d_blue;
    cudaMalloc(&d_wide, sizeof(uchar4) * wPixels);
    cudaMalloc(&d_out, sizeof(uchar4) * wPixels);
    cudaMalloc(&d_red, wPixels);
    cudaMalloc(&d_green, wPixels);
    cudaMalloc(&d_blue, wPixels);
    cudaMemcpy(d_wide, h_wide, sizeof(uchar4) * wPixels, cudaMemcpyHostToDevice);
    const dim3 wideGrid(wCols / 16, wRows / 16);
    separateChannels<<<wideGrid, blockSize>>>(d_wide, wRows, wCols, d_red, d_green, d_blue);
    recombineMirrored<<<wideGrid, blockSize>>>(d_red, d_green, d_blue, d_out, wRows, wCols);
    uchar4 *h_out = (uchar4 *)malloc(wPixels * sizeof(uchar4));
    cudaMemcpy(h_out, d_out, sizeof(uchar4) * wPixels, cudaMemcpyDeviceToHost);
    int mirrorWrong = 0;
    for (int r = 0; r < wRows; ++r)
        for (int c = 0; c < wCols; ++c) {
            uchar4 want = h_wide[(r / 16 * 16 + 15 - r % 16) * wCols + c];
            uchar4 got = h_out[r * wCols + c];
            if (got.x != want.x || got.y != want.y || got.z != want.z || got.w != 255) ++mirrorWrong;
        }

    bool ok = greyWrong == 0 && mirrorWrong == 0;
    printf("grey[0..2] = %d %d %d, grey sum = %d, out[17] = (%d, %d, %d, %d), wrong: %d grey, %d mirrored %s\n",
           h_grey[0], h_grey[1], h_grey[2], greySum, h_out[17].x, h_out[17].y, h_out[17].z, h_out[17].w,
           greyWrong, mirrorWrong, ok ? "PASS" : "FAIL");
    cudaFree(d_rgba); cudaFree(d_grey); cudaFree(d_wide); cudaFree(d_out);
    cudaFree(d_red); cudaFree(d_green); cudaFree(d_blue);
    free(h_rgba); free(h_grey); free(h_wide); free(h_out);
    return ok ? 0 : 1;
}
