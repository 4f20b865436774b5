#pragma once
// Draws Dear ImGui's frames with SDL_Renderer (SDL_RenderGeometryRaw). Debian's
// libimgui-dev 1.86 ships the SDL platform backend (imgui_impl_sdl) but not the
// SDL_Renderer one, and SDL_Renderer's software driver draws under Xvfb with
// no OpenGL at all, so the sample carries this one.

struct SDL_Renderer;
struct ImDrawData;

namespace samples {

/// Uploads ImGui's font atlas as a texture of `renderer`. Call once, after ImGui::CreateContext().
bool ImGuiSdlRendererInit(SDL_Renderer* renderer);
/// Draws one frame's draw data (ImGui::GetDrawData()) with `renderer`.
void ImGuiSdlRendererDraw(SDL_Renderer* renderer, const ImDrawData* data);
/// Frees the font texture.
void ImGuiSdlRendererShutdown();

} // namespace samples
