// Sample 8: the live inspector. The guard of samples/guard/ (three machines
// that talk, nested states with history, a push for a stun) and a crowd of
// villagers run in an SDL2 window, the game's view on the left and tickfsm's
// inspector panels beside it: each machine's state tree with its active path,
// the transitions the next tick will try with what a dry run says of them,
// the last transitions, Pause, Step and Force state; the crowd by state.
//
//   tickfsm_sample_inspector                               a window, until it is closed
//   tickfsm_sample_inspector --frames N --screenshot FILE  N frames, then FILE (PNG) and FILE.txt, and exit
//
// The world is scripted (samples/guard/guard.hpp's, again every kLoop ticks),
// one tick every kFramesPerTick frames, so a screenshot after N frames always
// shows the same ticks. FILE.txt says where each panel is and what the
// reaction panel wrote (ImGui's text log), for test/inspector/check_screenshot.py.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <SDL.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <tickfsm/imgui_inspector.hpp>
#include <tickfsm/tickfsm.hpp>

#include "guard/guard.hpp"
#include "inspector/imgui_sdl_renderer.hpp"
#include "inspector/png_writer.hpp"

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;
constexpr int kFramesPerTick = 4;
constexpr int kLoop = 48; // the guard's script, again and again

// --- the villagers: a crowd --------------------------------------------------------
struct Villager {
    float x = 0;       // along the same street as the guard, 0..10
    float home = 0;
    float patience = 0.5f;
};
struct Street {
    bool enemy = false;
    float enemy_x = 0;
};
bool EnemyNear(const Villager& v, const Street& s) { return s.enemy && std::fabs(v.x - s.enemy_x) < 2.5f; }

struct Idle {};
struct Stroll {
    void Perform(Villager& v, const Street&) { v.x += v.x < v.home + 1.0f ? 0.05f : -0.05f; }
};
struct Flee {
    void Perform(Villager& v, const Street& s) { v.x += v.x < s.enemy_x ? -0.12f : 0.12f; }
};
struct Hide {};
class VillagerMachine : public tickfsm::StateManager<Villager, Street> {
public:
    explicit VillagerMachine(Villager& villager) : StateManager(villager) {
        SetInitialState<Idle>()
            .To<Flee>(EnemyNear)
            .To<Stroll>([](const Villager& v, const Street&, float t) { return t > v.patience; });
        From<Stroll>()
            .To<Flee>(EnemyNear)
            .To<Idle>([](const Villager&, const Street&, float t) { return t > 0.6f; });
        From<Flee>().To<Hide>([](const Villager& v, const Street& s) { return !EnemyNear(v, s); });
        From<Hide>().To<Idle>([](const Villager&, const Street& s, float t) { return !s.enemy && t > 0.3f; });
    }
};

struct Options {
    int frames = 0; // 0: until the window is closed
    std::string screenshot;
};

bool ParseOptions(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--frames" && i + 1 < argc) options.frames = std::atoi(argv[++i]);
        else if (arg == "--screenshot" && i + 1 < argc) options.screenshot = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--frames N] [--screenshot FILE.png]\n", argv[0]);
            return false;
        }
    }
    if (!options.screenshot.empty() && options.frames <= 0) {
        std::fprintf(stderr, "inspector: --screenshot needs --frames N (N > 0)\n");
        return false;
    }
    return true;
}

struct Panel {
    const char* title;
    float x, y, width, height;
};
// Where the windows go: the game and the crowd on the left, the reaction
// machine (the one with nested states) in the middle, the two others right.
constexpr Panel kGame{"game", 0, 0, 430, 330};
constexpr Panel kCrowd{"villagers", 0, 330, 430, 390};
constexpr Panel kReaction{"reaction", 430, 0, 440, 720};
constexpr Panel kSensing{"sensing", 870, 0, 410, 360};
constexpr Panel kMovement{"movement", 870, 360, 410, 360};

void Place(const Panel& panel, bool always) {
    ImGui::SetNextWindowPos(ImVec2(panel.x, panel.y), always ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(panel.width, panel.height), always ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
}

ImU32 VillagerColor(std::string_view state) {
    if (state == "Flee") return IM_COL32(230, 80, 60, 255);
    if (state == "Hide") return IM_COL32(150, 150, 160, 255);
    if (state == "Stroll") return IM_COL32(90, 170, 240, 255);
    return IM_COL32(240, 220, 120, 255);
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    if (!ParseOptions(argc, argv, options)) return 2;
    const bool capture = !options.screenshot.empty();
    if (capture) std::remove((options.screenshot + ".txt").c_str()); // ImGui's log appends

    if (capture) SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software"); // the same pixels with or without a GPU
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        std::fprintf(stderr, "inspector: SDL_Init: %s (no display? run it under xvfb-run)\n", SDL_GetError());
        return 1;
    }
    SDL_Window* window = SDL_CreateWindow("tickfsm inspector", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, kWidth,
                                          kHeight, SDL_WINDOW_SHOWN);
    SDL_Renderer* renderer =
        window ? SDL_CreateRenderer(window, -1, capture ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_PRESENTVSYNC) : nullptr;
    if (!renderer) {
        std::fprintf(stderr, "inspector: cannot open a window: %s\n", SDL_GetError());
        SDL_Quit();
        return 1;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // the layout is the sample's, not last run's
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForSDLRenderer(window);
    if (!samples::ImGuiSdlRendererInit(renderer)) {
        std::fprintf(stderr, "inspector: cannot make ImGui's font texture: %s\n", SDL_GetError());
        return 1;
    }

    // The game: the guard's three machines, and twelve villagers.
    guard::Guard g;
    guard::Sensing sensing(g);
    guard::Reaction reaction(g);
    guard::Movement movement(g);
    guard::Team team;
    g.team = &team;
    team.Add(sensing, "sensing");
    g.reaction = team.Add(reaction, "reaction");
    team.Add(movement, "movement");

    std::vector<Villager> villagers(12);
    for (std::size_t i = 0; i < villagers.size(); ++i) {
        villagers[i].home = villagers[i].x = 0.4f + 0.8f * static_cast<float>(i);
        villagers[i].patience = 0.2f + 0.1f * static_cast<float>(i % 5);
    }
    Villager prototype;
    tickfsm::Crowd<VillagerMachine> crowd(villagers.size(), prototype);

    // The inspector: one history for all three machines, named as the panels are.
    tickfsm::TransitionHistory history(256);
    sensing.SetObserver(&history, kSensing.title);
    reaction.SetObserver(&history, kReaction.title);
    movement.SetObserver(&history, kMovement.title);
    tickfsm::InspectorState inspector(&history);
    inspector.SelectCharacter(kCrowd.title, 4); // a villager picked from the start: the crowd panel's details, a ring in the view

    std::deque<std::string> lines; // what the guard said last
    std::uint64_t tick = 0;
    auto world_at = [](std::uint64_t t) { return guard::WorldAt(static_cast<int>((t - 1) % kLoop) + 1); };
    auto one_tick = [&] {
        ++tick;
        history.SetTick(tick);
        g.tick = static_cast<int>(tick);
        const guard::World world = world_at(tick);
        team.Perform(world);
        const Street street{world.enemy, world.enemy_x};
        for (std::size_t i = 0; i < villagers.size(); ++i) crowd.Perform(i, villagers[i], street);
        std::size_t start = 0; // the guard's console, a line at a time, the last few kept
        for (std::size_t end; (end = g.console.find('\n', start)) != std::string::npos; start = end + 1) {
            lines.emplace_back(g.console, start, end - start);
            if (lines.size() > 8) lines.pop_front();
        }
        g.console.clear();
    };

    int status = 0;
    bool running = true;
    for (int frame = 1; running; ++frame) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            ImGui_ImplSDL2_ProcessEvent(&event);
            if (event.type == SDL_QUIT) running = false;
        }
        // Paused, a press of Step ticks at once; running, one tick every kFramesPerTick frames.
        if (inspector.Paused() ? inspector.ShouldTick() : frame % kFramesPerTick == 0 && inspector.ShouldTick())
            one_tick();

        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        const bool last = options.frames > 0 && frame >= options.frames;

        Place(kGame, capture);
        ImGui::Begin(kGame.title);
        {
            ImGui::Text("tick %llu   guard at %.1f   %s", static_cast<unsigned long long>(tick), static_cast<double>(g.x),
                        reaction.ActivePath().c_str());
            ImDrawList* draw = ImGui::GetWindowDrawList();
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const float street_width = ImGui::GetContentRegionAvail().x - 20;
            auto to_x = [&](float x) { return at.x + 10 + street_width * x / 10.0f; };
            draw->AddRectFilled(ImVec2(at.x, at.y), ImVec2(at.x + street_width + 20, at.y + 120), IM_COL32(40, 44, 52, 255));
            const guard::World world = world_at(tick == 0 ? 1 : tick);
            if (world.enemy)
                draw->AddTriangleFilled(ImVec2(to_x(world.enemy_x), at.y + 20), ImVec2(to_x(world.enemy_x) - 9, at.y + 40),
                                        ImVec2(to_x(world.enemy_x) + 9, at.y + 40), IM_COL32(220, 40, 40, 255));
            if (world.flash) draw->AddCircle(ImVec2(to_x(g.x), at.y + 30), 24, IM_COL32(255, 255, 255, 255), 24, 3);
            draw->AddRectFilled(ImVec2(to_x(g.x) - 7, at.y + 22), ImVec2(to_x(g.x) + 7, at.y + 42),
                                reaction.IsIn<guard::Stunned>() ? IM_COL32(160, 160, 255, 255) : IM_COL32(80, 200, 120, 255));
            for (std::size_t i = 0; i < villagers.size(); ++i) {
                const ImVec2 c(to_x(villagers[i].x), at.y + 70 + static_cast<float>(i % 3) * 14);
                draw->AddCircleFilled(c, 5, VillagerColor(crowd.CurrentStateName(i)));
                if (inspector.SelectedCharacter(kCrowd.title) == i) draw->AddCircle(c, 9, IM_COL32(255, 255, 255, 255), 16, 2);
            }
            ImGui::Dummy(ImVec2(street_width + 20, 126));
            for (const std::string& line : lines) ImGui::TextUnformatted(line.c_str());
        }
        ImGui::End();

        // The next tick's input, for the dry runs: the script says it.
        const guard::World next = world_at(tick + 1);
        Place(kReaction, capture);
        if (last) inspector.LogNextPanelTo(options.screenshot + ".txt");
        tickfsm::DrawInspector(kReaction.title, reaction, next, inspector, "the next tick's world");
        Place(kSensing, capture);
        tickfsm::DrawInspector(kSensing.title, sensing, next, inspector, "the next tick's world");
        Place(kMovement, capture);
        tickfsm::DrawInspector(kMovement.title, movement, next, inspector, "the next tick's world");
        Place(kCrowd, capture);
        tickfsm::DrawCrowdInspector(kCrowd.title, crowd, inspector);

        ImGui::Render();
        SDL_SetRenderDrawColor(renderer, 24, 24, 28, 255);
        SDL_RenderClear(renderer);
        samples::ImGuiSdlRendererDraw(renderer, ImGui::GetDrawData());

        if (last && capture) {
            std::vector<std::uint8_t> pixels(static_cast<std::size_t>(kWidth) * kHeight * 4);
            if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_ABGR8888, pixels.data(), kWidth * 4) != 0 ||
                !samples::WritePng(options.screenshot, kWidth, kHeight, pixels)) {
                std::fprintf(stderr, "inspector: cannot write %s: %s\n", options.screenshot.c_str(), SDL_GetError());
                status = 1;
            }
            // Where the panels are and what the test should find in them (the
            // panel's own text follows, appended by ImGui's log at its End()).
            if (std::FILE* f = std::fopen((options.screenshot + ".layout").c_str(), "w")) {
                std::fprintf(f, "size %d %d\n", kWidth, kHeight);
                for (const Panel* p : {&kGame, &kCrowd, &kReaction, &kSensing, &kMovement})
                    std::fprintf(f, "window %s %d %d %d %d\n", p->title, static_cast<int>(p->x),
                                 static_cast<int>(p->y), static_cast<int>(p->width), static_cast<int>(p->height));
                std::fprintf(f, "active %s %s\n", kReaction.title, reaction.ActivePath().c_str());
                std::fprintf(f, "tick %llu\n", static_cast<unsigned long long>(tick));
                std::fclose(f);
            } else {
                status = 1;
            }
        }
        SDL_RenderPresent(renderer);
        if (last) running = false;
    }

    samples::ImGuiSdlRendererShutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return status;
}
