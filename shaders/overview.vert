#version 330 core
// A screen-space quad for the overview strip of one global array.
layout(location = 0) in vec2 corner;  // (0,0) .. (1,1)
uniform vec4 rect;                    // x0, y0, x1, y1 in normalized device coordinates
out vec2 uv;
void main() {
  uv = corner;
  gl_Position = vec4(mix(rect.xy, rect.zw, corner), 0.0, 1.0);
}
