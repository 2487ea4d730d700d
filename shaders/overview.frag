#version 330 core
// Colours every pixel of the strip by the value of the array element under it: the array lives in
// an R32F texture, row-major, `width` texels per row; NaN marks '?' (uninitialized).
in vec2 uv;
out vec4 color;
uniform sampler2D values;
uniform int count;          // elements in the array
uniform int width;          // texels per texture row
uniform vec2 range;         // smallest and largest value
uniform vec2 highlight;     // element range to outline (focused block), x > y: none
uniform vec3 poison_color;

// A perceptually ordered ramp (dark blue -> teal -> yellow), after viridis.
vec3 ramp(float t) {
  t = clamp(t, 0.0, 1.0);
  vec3 c0 = vec3(0.267, 0.005, 0.329), c1 = vec3(0.128, 0.567, 0.551), c2 = vec3(0.993, 0.906, 0.144);
  return t < 0.5 ? mix(c0, c1, t * 2.0) : mix(c1, c2, t * 2.0 - 1.0);
}

void main() {
  int index = min(int(uv.x * float(count)), count - 1);
  float v = texelFetch(values, ivec2(index % width, index / width), 0).r;
  vec3 c = isnan(v) ? poison_color : ramp(range.y > range.x ? (v - range.x) / (range.y - range.x) : 0.5);
  if (float(index) >= highlight.x && float(index) <= highlight.y && (uv.y < 0.12 || uv.y > 0.88)) c = vec3(1.0);
  color = vec4(c, 1.0);
}
