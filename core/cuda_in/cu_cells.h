// How a translated .cu's elements lie in the simulator's 32-bit cells (cu_device.h's pointers and
// references, cu_host.h's copies): how many cells an element takes, what one cell holds, and how the
// picture and the reports show them. Included by cu_device.h after CUDA's vector types.
#pragma once

#include <cstdint>
#include <type_traits>

#include "contract/dtype.h"
#include "sim/memory.h"

namespace syncscope::cu {

// How an element of a C type is held: every element in a 32-bit cell (bytes and booleans too: an
// element-wise program cannot tell), floats as floats, the rest as whole numbers.
template <class E>
using cell_t = std::conditional_t<std::is_same_v<std::remove_cv_t<E>, float>, float, int32_t>;

// ---- 8-byte elements and structs: several cells per element ----
// A double, long long or unsigned long long element is two cells, its low word first (the GPU's
// little-endian bytes); a struct element is sizeof / 4 cells, a field at its byte offset / 4 (the
// translator lets through only structs of 4- and 8-byte fields without padding). A pointer's offset
// and a reference's index count cells, so `&g[i].field` is a pointer into the struct's cells.
template <class E>
inline constexpr bool is_record_v = std::is_class_v<std::remove_cv_t<E>>;
// CUDA's byte vectors are the exception: a cell for each one-byte field (holding it as a char array's
// cell does), so `(unsigned char *)rgba` is the same cells, a channel at a time.
template <class E>
struct byte_fields {
  using type = void;
};
template <> struct byte_fields<uchar2> { using type = unsigned char; };
template <> struct byte_fields<uchar3> { using type = unsigned char; };
template <> struct byte_fields<uchar4> { using type = unsigned char; };
template <> struct byte_fields<char2> { using type = signed char; };
template <> struct byte_fields<char4> { using type = signed char; };
template <class E>
using byte_field_t = typename byte_fields<std::remove_cv_t<E>>::type;
template <class E>
inline constexpr bool is_byte_vector_v = !std::is_void_v<byte_field_t<E>>;
template <class E>
inline constexpr int cells_of = is_byte_vector_v<E>                     ? static_cast<int>(sizeof(E))
                                : (is_record_v<E> || sizeof(E) == 8) ? static_cast<int>(sizeof(E) / 4)
                                                                      : 1;
// How many of the program's bytes one cell holds: an element's size where it takes one cell (a char's
// 1, an int's 4), 4 where it takes several (a double, a float4), 1 in a byte vector.
template <class E>
inline constexpr size_t bytes_per_cell = is_byte_vector_v<E> ? 1 : cells_of<E> > 1 ? 4 : sizeof(E);
// The type the picture shows an array's cells as: floats for float and CUDA's float2/3/4 (every
// cell a float), whole numbers for the rest (ints, a double's two halves, a struct's mixed fields).
template <class E>
inline constexpr DType cells_dtype_v = sim::dtype_of<cell_t<E>>();
template <> inline constexpr DType cells_dtype_v<float2> = DType::Float32;
template <> inline constexpr DType cells_dtype_v<float3> = DType::Float32;
template <> inline constexpr DType cells_dtype_v<float4> = DType::Float32;
template <class E>
inline constexpr DType cells_dtype = cells_dtype_v<std::remove_cv_t<E>>;
// How an element lies in its cells, for the reports and the picture (sim/element_layout.h): a
// double's or a 64-bit integer's two cells are the one number they hold, a struct's are its fields.
// The translator writes it for each struct of the student's (translate/rewrite_declarations.cpp);
// null: one cell an element, or a struct it did not describe (shown cell by cell).
template <class E>
inline constexpr const char* cells_layout_v =
    std::is_same_v<E, double>                      ? "double;:d"
    : std::is_integral_v<E> && sizeof(E) == 8      ? (std::is_signed_v<E> ? "long long;:l" : "unsigned long long;:q")
                                                   : nullptr;
template <> inline constexpr const char* cells_layout_v<int2> = "int2;x:i,y:i";
template <> inline constexpr const char* cells_layout_v<int3> = "int3;x:i,y:i,z:i";
template <> inline constexpr const char* cells_layout_v<int4> = "int4;x:i,y:i,z:i,w:i";
template <> inline constexpr const char* cells_layout_v<uint2> = "uint2;x:u,y:u";
template <> inline constexpr const char* cells_layout_v<uint4> = "uint4;x:u,y:u,z:u,w:u";
template <> inline constexpr const char* cells_layout_v<float2> = "float2;x:f,y:f";
template <> inline constexpr const char* cells_layout_v<float3> = "float3;x:f,y:f,z:f";
template <> inline constexpr const char* cells_layout_v<float4> = "float4;x:f,y:f,z:f,w:f";
template <> inline constexpr const char* cells_layout_v<double2> = "double2;x:d,y:d";
template <> inline constexpr const char* cells_layout_v<longlong2> = "longlong2;x:l,y:l";
template <> inline constexpr const char* cells_layout_v<ulonglong2> = "ulonglong2;x:q,y:q";
template <> inline constexpr const char* cells_layout_v<uchar2> = "uchar2;x:b,y:b";
template <> inline constexpr const char* cells_layout_v<uchar3> = "uchar3;x:b,y:b,z:b";
template <> inline constexpr const char* cells_layout_v<uchar4> = "uchar4;x:b,y:b,z:b,w:b";
template <> inline constexpr const char* cells_layout_v<char2> = "char2;x:c,y:c";
template <> inline constexpr const char* cells_layout_v<char4> = "char4;x:c,y:c,z:c,w:c";
template <class E>
inline constexpr const char* cells_layout = cells_layout_v<std::remove_cv_t<E>>;

}  // namespace syncscope::cu
