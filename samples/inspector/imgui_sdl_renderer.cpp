#include "inspector/imgui_sdl_renderer.hpp"

#include <cstddef>
#include <cstdint>

#include <SDL.h>
#include <imgui.h>

namespace samples {

namespace {
SDL_Texture* font_texture = nullptr;
} // namespace

bool ImGuiSdlRendererInit(SDL_Renderer* renderer) {
    ImGuiIO& io = ImGui::GetIO();
    io.BackendRendererName = "tickfsm_samples_sdl_renderer";
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset; // 16-bit indices, large meshes drawn in parts
    unsigned char* pixels = nullptr;
    int width = 0;
    int height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    font_texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC, width, height);
    if (!font_texture) return false;
    SDL_UpdateTexture(font_texture, nullptr, pixels, 4 * width);
    SDL_SetTextureBlendMode(font_texture, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(font_texture, SDL_ScaleModeLinear);
    io.Fonts->SetTexID(static_cast<ImTextureID>(font_texture));
    return true;
}

void ImGuiSdlRendererDraw(SDL_Renderer* renderer, const ImDrawData* data) {
    const ImVec2 origin = data->DisplayPos;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        const ImDrawVert* vertices = list->VtxBuffer.Data;
        const ImDrawIdx* indices = list->IdxBuffer.Data;
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback) {
                if (cmd.UserCallback != ImDrawCallback_ResetRenderState) cmd.UserCallback(list, &cmd);
                continue;
            }
            const float x0 = cmd.ClipRect.x - origin.x;
            const float y0 = cmd.ClipRect.y - origin.y;
            const float x1 = cmd.ClipRect.z - origin.x;
            const float y1 = cmd.ClipRect.w - origin.y;
            if (x1 <= x0 || y1 <= y0) continue;
            const SDL_Rect clip{static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0),
                                static_cast<int>(y1 - y0)};
            SDL_RenderSetClipRect(renderer, &clip);
            const ImDrawVert* first = vertices + cmd.VtxOffset;
            const auto* bytes = reinterpret_cast<const std::byte*>(first);
            SDL_RenderGeometryRaw(renderer, static_cast<SDL_Texture*>(cmd.GetTexID()),
                                  reinterpret_cast<const float*>(bytes + offsetof(ImDrawVert, pos)), sizeof(ImDrawVert),
                                  reinterpret_cast<const SDL_Color*>(bytes + offsetof(ImDrawVert, col)), sizeof(ImDrawVert),
                                  reinterpret_cast<const float*>(bytes + offsetof(ImDrawVert, uv)), sizeof(ImDrawVert),
                                  list->VtxBuffer.Size - static_cast<int>(cmd.VtxOffset), indices + cmd.IdxOffset,
                                  static_cast<int>(cmd.ElemCount), sizeof(ImDrawIdx));
        }
    }
    SDL_RenderSetClipRect(renderer, nullptr);
}

void ImGuiSdlRendererShutdown() {
    if (font_texture) SDL_DestroyTexture(font_texture);
    font_texture = nullptr;
    ImGui::GetIO().Fonts->SetTexID(nullptr);
}

} // namespace samples
