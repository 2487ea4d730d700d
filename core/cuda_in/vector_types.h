// CUDA's vector types (vector_types.h, vector_functions.h) as syncscope knows them: included by the
// runtime a translated .cu compiles against (cu_device.h) and appended to the declarations Clang parses
// it with (translate/cuda_parse_shim.h, by CMake), so both see the same structs. Each is a struct of
// 4- or 8-byte fields with no padding, laid out in device memory like a student's own (a float4
// element is 4 cells of the picture), or of bytes (a uchar4, a cell a byte).
#ifndef SYNCSCOPE_CUDA_VECTOR_TYPES
#define SYNCSCOPE_CUDA_VECTOR_TYPES

struct alignas(8) int2 {
  int x, y;
};
__host__ __device__ inline int2 make_int2(int x, int y) { return {x, y}; }
struct int3 {
  int x, y, z;
};
__host__ __device__ inline int3 make_int3(int x, int y, int z) { return {x, y, z}; }
struct alignas(16) int4 {
  int x, y, z, w;
};
__host__ __device__ inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
struct alignas(8) uint2 {
  unsigned int x, y;
};
__host__ __device__ inline uint2 make_uint2(unsigned int x, unsigned int y) { return {x, y}; }
struct alignas(16) uint4 {
  unsigned int x, y, z, w;
};
__host__ __device__ inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { return {x, y, z, w}; }
struct alignas(8) float2 {
  float x, y;
};
__host__ __device__ inline float2 make_float2(float x, float y) { return {x, y}; }
struct float3 {
  float x, y, z;
};
__host__ __device__ inline float3 make_float3(float x, float y, float z) { return {x, y, z}; }
struct alignas(16) float4 {
  float x, y, z, w;
};
__host__ __device__ inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
struct alignas(16) double2 {
  double x, y;
};
__host__ __device__ inline double2 make_double2(double x, double y) { return {x, y}; }
struct alignas(16) longlong2 {
  long long x, y;
};
__host__ __device__ inline longlong2 make_longlong2(long long x, long long y) { return {x, y}; }
struct alignas(16) ulonglong2 {
  unsigned long long x, y;
};
__host__ __device__ inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return {x, y}; }
// CUDA's byte vectors (an RGBA pixel is a uchar4): in device memory each one-byte field is a cell of
// its own (cu_device.h's byte_field_t), so a pixel's channels are 4 cells of the picture.
struct alignas(2) uchar2 {
  unsigned char x, y;
};
__host__ __device__ inline uchar2 make_uchar2(unsigned char x, unsigned char y) { return {x, y}; }
struct alignas(2) char2 {
  signed char x, y;
};
__host__ __device__ inline char2 make_char2(signed char x, signed char y) { return {x, y}; }
struct alignas(4) uchar4 {
  unsigned char x, y, z, w;
};
__host__ __device__ inline uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) {
  return {x, y, z, w};
}
struct uchar3 {
  unsigned char x, y, z;
};
__host__ __device__ inline uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { return {x, y, z}; }
struct alignas(4) char4 {
  signed char x, y, z, w;
};
__host__ __device__ inline char4 make_char4(signed char x, signed char y, signed char z, signed char w) { return {x, y, z, w}; }

#endif
