#include "app/gl/overview_strip.h"

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <utility>

#include "core/sources.h"

namespace syncscope::gl {

const std::vector<SourceFile>& shader_sources();  // generated (cmake/EmbedTextFiles.cmake)

namespace {

std::string source(const std::string& path) {
  for (const SourceFile& f : shader_sources())
    if (f.path == path) return f.text;
  return "";
}

unsigned compile(GLenum kind, const std::string& text, std::string* error) {
  const unsigned s = glCreateShader(kind);
  const char* p = text.c_str();
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    *error = std::string("overview shader: ") + log;
  }
  return s;
}

constexpr int kTextureWidth = 4096;

}  // namespace

OverviewStrips::OverviewStrips() {
  const std::string vs = source("shaders/overview.vert"), fs = source("shaders/overview.frag");
  if (vs.empty() || fs.empty()) {
    error_ = "overview shaders are not embedded";
    return;
  }
  const unsigned v = compile(GL_VERTEX_SHADER, vs, &error_);
  const unsigned f = compile(GL_FRAGMENT_SHADER, fs, &error_);
  program_ = glCreateProgram();
  glAttachShader(program_, v);
  glAttachShader(program_, f);
  glLinkProgram(program_);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint linked = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &linked);
  if (!linked && error_.empty()) error_ = "overview shader program did not link";
  const float corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);
}

OverviewStrips::~OverviewStrips() {
  for (auto& [slot, t] : textures_) glDeleteTextures(1, &t.id);
  if (vbo_) glDeleteBuffers(1, &vbo_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
}

void OverviewStrips::set_texel(const Texture& t, int index, float value) {
  glTexSubImage2D(GL_TEXTURE_2D, 0, index % t.width, index / t.width, 1, 1, GL_RED, GL_FLOAT, &value);
}

void OverviewStrips::draw(ImDrawList* list, float x0, float y0, float x1, float y1, int slot, uint64_t base_version,
                          const std::vector<float>& base, uint64_t patches_version,
                          const std::vector<std::pair<int, float>>& patches, float lo, float hi, int first, int last) {
  if (!ok() || base.empty()) return;
  Texture& t = textures_[slot];
  if (t.base_version != base_version || t.count != static_cast<int>(base.size())) {
    if (!t.id) glGenTextures(1, &t.id);
    t.width = std::min<int>(kTextureWidth, static_cast<int>(base.size()));
    const int rows = (static_cast<int>(base.size()) + t.width - 1) / t.width;
    std::vector<float> padded(static_cast<size_t>(t.width) * rows, 0.0f);
    std::copy(base.begin(), base.end(), padded.begin());
    glBindTexture(GL_TEXTURE_2D, t.id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, t.width, rows, 0, GL_RED, GL_FLOAT, padded.data());
    t.count = static_cast<int>(base.size());
    t.base_version = base_version;
    t.patched.clear();
    t.patches_version = ~uint64_t{0};
  }
  if (t.patches_version != patches_version) {
    // Back to the base where the last step's patches were, then this step's patches.
    glBindTexture(GL_TEXTURE_2D, t.id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    for (int i : t.patched) set_texel(t, i, base[i]);
    t.patched.clear();
    for (const auto& [i, v] : patches) {
      if (i < 0 || i >= t.count) continue;
      set_texel(t, i, v);
      t.patched.push_back(i);
    }
    t.patches_version = patches_version;
  }
  if (items_.size() > 256) items_.erase(items_.begin(), items_.begin() + 128);  // drawn frames ago
  items_.push_back(std::make_unique<Item>(Item{this, x0, y0, x1, y1, lo, hi, slot, first, last}));
  list->AddCallback(&OverviewStrips::render, items_.back().get());
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void OverviewStrips::render(const ImDrawList*, const ImDrawCmd* cmd) {
  const Item& it = *static_cast<const Item*>(cmd->UserCallbackData);
  const OverviewStrips& self = *it.owner;
  const auto found = self.textures_.find(it.slot);
  if (found == self.textures_.end()) return;
  const Texture& t = found->second;
  const ImDrawData* dd = ImGui::GetDrawData();
  auto nx = [&](float x) { return (x - dd->DisplayPos.x) / dd->DisplaySize.x * 2.0f - 1.0f; };
  auto ny = [&](float y) { return 1.0f - (y - dd->DisplayPos.y) / dd->DisplaySize.y * 2.0f; };
  glUseProgram(self.program_);
  glUniform4f(glGetUniformLocation(self.program_, "rect"), nx(it.x0), ny(it.y1), nx(it.x1), ny(it.y0));
  glUniform1i(glGetUniformLocation(self.program_, "values"), 0);
  glUniform1i(glGetUniformLocation(self.program_, "count"), t.count);
  glUniform1i(glGetUniformLocation(self.program_, "width"), t.width);
  glUniform2f(glGetUniformLocation(self.program_, "range"), it.lo, it.hi);
  glUniform2f(glGetUniformLocation(self.program_, "highlight"), static_cast<float>(it.first), static_cast<float>(it.last));
  glUniform3f(glGetUniformLocation(self.program_, "poison_color"), 0.55f, 0.2f, 0.55f);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, t.id);
  glDisable(GL_BLEND);
  glBindVertexArray(self.vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
}

}  // namespace syncscope::gl
