// tickfsm::imgui: the transition history, the pause and step, and the panels
// drawn headless (ImGui with no window: a display size and a font atlas),
// their text read back through ImGui's log.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <cstddef>
#include <new>
#include <random>
#include <sstream>
#include <string>

#include <imgui.h>
#include <imgui_internal.h> // ImGui::OpenPopupEx: opens the force list without a click

#include <tickfsm/imgui_inspector.hpp>
#include <tickfsm/tickfsm.hpp>

// Counts allocations while `counting` is set: the history must make none per transition.
namespace {
bool counting = false;
std::size_t allocations = 0;
} // namespace
[[gnu::noinline]] void* operator new(std::size_t size) {
    if (counting) ++allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    if (counting) ++allocations;
    return std::malloc(size == 0 ? 1 : size);
}
// noinline: g++ 12 misreads an inlined free() after our new as a mismatched pair.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

struct Hero {
    bool enemy = false;
    bool guard = false;
};
struct Pad {
    bool heavy = false;
};
struct Idle {};
struct Combat {};
struct Attack {};
struct Block {};
struct Light {};
struct Heavy {};

// Idle; Combat = {Attack = {Light, Heavy}, Block}
class HeroMachine : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroMachine(Hero& h) : StateManager(h) {
        SetSubstates<Combat, Attack, Block>();
        SetSubstates<Attack, Light, Heavy>();
        SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
        From<Combat>().To<Idle>([](const Hero& c) { return !c.enemy; });
        From<Attack>().To<Block>([](const Hero& c) { return c.guard; });
        From<Block>().To<Attack>([](const Hero& c) { return !c.guard; });
        From<Light>().To<Heavy>([](const Hero&, const Pad& p) { return p.heavy; });
    }
};

// An ImGui context with no window: enough to lay out and log a frame.
struct Headless {
    Headless() {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(900, 900);
        unsigned char* pixels = nullptr;
        int width = 0;
        int height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    }
    ~Headless() { ImGui::DestroyContext(); }
};

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// One frame with `draw` in it; returns the text the first panel drew.
template <class Draw>
std::string Frame(tickfsm::InspectorState& state, Draw draw) {
    // One file per process: CTest runs this executable's test cases in parallel.
    static const std::string path =
        (std::filesystem::temp_directory_path() /
         ("tickfsm_inspector_test_panel_" + std::to_string(std::random_device{}()) + ".txt"))
            .string();
    std::remove(path.c_str());
    state.LogNextPanelTo(path);
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(600, 800));
    draw();
    ImGui::Render();
    std::string text = ReadFile(path);
    std::remove(path.c_str());
    return text;
}

} // namespace

TEST_CASE("A transition history keeps the newest transitions and drops the oldest", "[inspector][history]") {
    Hero hero;
    HeroMachine m(hero);
    tickfsm::TransitionHistory history(3);
    m.SetObserver(&history, "hero");
    for (std::uint64_t tick = 1; tick <= 6; ++tick) {
        history.SetTick(tick);
        hero.enemy = tick % 2 == 0;
        m.Perform({});
    }
    // Ticks 1..6: initial Idle, then Combat, Idle, Combat, Idle, Combat.
    CHECK(history.Total() == 6);
    REQUIRE(history.Size() == 3);
    CHECK(history.Recent(0).tick == 6);
    CHECK(history.Recent(0).to == "Light"); // the change lands on the leaf
    CHECK(history.Recent(0).from == "Idle");
    CHECK(history.Recent(0).cause == tickfsm::Cause::Condition);
    CHECK(history.Recent(1).tick == 5);
    CHECK(history.Recent(1).to == "Idle");
    CHECK(history.Recent(2).tick == 4);
    CHECK(history.Recent(2).machine == "hero");
    history.Clear();
    CHECK(history.Size() == 0);
}

TEST_CASE("A transition history allocates nothing per transition of names it has heard", "[inspector][history]") {
    Hero hero;
    HeroMachine m(hero);
    tickfsm::TransitionHistory history(4);
    m.SetObserver(&history, "hero");
    m.Perform({}); // the first tick closes the configuration, which allocates
    hero.enemy = true;
    m.Perform({});
    allocations = 0;
    counting = true;
    for (int tick = 0; tick < 100; ++tick) {
        hero.enemy = tick % 2 == 0;
        m.Perform({});
    }
    counting = false;
    CHECK(history.Total() == 101); // the first of the 100 ticks changes nothing
    CHECK(allocations == 0);
}

namespace {
enum class CreatureState : int { Idle = 300, Attack = 301, Flee = 302, Hide = 303 };
struct Creature {};
struct Buttons {};
using CreatureMachine = tickfsm::StateManager<Creature, Buttons>;

// Keyed states: their names are made at run time and kept in the machine's private table.
std::unique_ptr<CreatureMachine> Spawn(Creature& c, CreatureState from, CreatureState to) {
    auto m = std::make_unique<CreatureMachine>(c);
    m->AddState<Idle>(from);
    m->AddState<Heavy>(to);
    m->SetInitialState(from).To(to, [](const Creature&) { return true; });
    m->From(to);
    return m;
}
} // namespace

TEST_CASE("A transition history keeps the names of a machine that is gone", "[inspector][history]") {
    Headless imgui;
    Creature c;
    tickfsm::TransitionHistory history(8);
    tickfsm::InspectorState state(&history);
    auto m = Spawn(c, CreatureState::Idle, CreatureState::Attack);
    m->SetObserver(&history, "creature");
    m->Perform({});
    m->Perform({});
    REQUIRE(m->ActivePath() == "CreatureState(301)");
    state.Forget(*m);
    m.reset(); // the creature dies, its table with it
    auto again = Spawn(c, CreatureState::Flee, CreatureState::Hide); // and another takes its memory
    again->SetObserver(&history, "creature");
    REQUIRE(history.Size() == 2);
    CHECK(history.Recent(0).machine == "creature");
    CHECK(history.Recent(0).from == "CreatureState(300)");
    CHECK(history.Recent(0).to == "CreatureState(301)");
    const std::string text = Frame(state, [&] { tickfsm::DrawInspector("creature", *again, Buttons{}, state); });
    INFO(text);
    CHECK(text.find("CreatureState(300) -> CreatureState(301)") != std::string::npos);
}

TEST_CASE("While paused the game ticks once per Step", "[inspector][pause]") {
    tickfsm::InspectorState state;
    CHECK(state.ShouldTick());
    state.SetPaused(true);
    CHECK_FALSE(state.ShouldTick());
    state.Step();
    state.Step();
    CHECK(state.ShouldTick());
    CHECK(state.ShouldTick());
    CHECK_FALSE(state.ShouldTick());
    state.SetPaused(false);
    CHECK(state.ShouldTick());
}

TEST_CASE("A machine's panel marks its active path and the transition a dry run fires", "[inspector][panel]") {
    Headless imgui;
    Hero hero;
    HeroMachine m(hero);
    tickfsm::TransitionHistory history;
    m.SetObserver(&history, "hero");
    tickfsm::InspectorState state(&history);
    history.SetTick(1);
    m.Perform({});
    hero.enemy = true;
    history.SetTick(2);
    m.Perform({});
    REQUIRE(m.ActivePath() == "Combat/Attack/Light");

    const std::string text = Frame(state, [&] { tickfsm::DrawInspector("hero", m, Pad{.heavy = true}, state); });
    INFO(text);
    CHECK(text.find("* Combat |") != std::string::npos);
    CHECK(text.find("* Attack |") != std::string::npos);
    CHECK(text.find("* Light (current) |") != std::string::npos);
    CHECK(text.find("* Idle") == std::string::npos);
    CHECK(text.find("* Heavy") == std::string::npos);
    CHECK(text.find("-> Heavy") != std::string::npos); // the dry run's target
    // Tried outermost first: Combat's condition 0 is false, Light's condition 0 fires.
    const std::size_t combat = text.find("condition 0 of Combat");
    const std::size_t light = text.find("condition 0 of Light");
    REQUIRE(combat != std::string::npos);
    REQUIRE(light != std::string::npos);
    CHECK(combat < light);
    CHECK(text.find("false or gated", combat) < light);
    CHECK(text.find("fires", light) != std::string::npos);
    CHECK(text.find("Idle -> Light") != std::string::npos); // the history, with its cause
    CHECK(text.find("condition 0") != std::string::npos);

    const std::string stays = Frame(state, [&] { tickfsm::DrawInspector("hero", m, Pad{}, state); });
    CHECK(stays.find("stays") != std::string::npos);
    CHECK(stays.find("fires") == std::string::npos);
}

TEST_CASE("A crowd's panel counts its characters by state", "[inspector][crowd]") {
    struct Ant {
        bool wet = false;
    };
    struct World {
        bool rain = false;
    };
    struct Forage {};
    struct Shelter {};
    class AntMachine : public tickfsm::StateManager<Ant, World> {
    public:
        explicit AntMachine(Ant& ant) : StateManager(ant) {
            SetInitialState<Forage>().To<Shelter>([](const Ant& a, const World& w) { return w.rain && !a.wet; });
            From<Shelter>();
        }
    };
    Headless imgui;
    std::vector<Ant> ants(7);
    for (std::size_t i = 0; i < ants.size(); i += 3) ants[i].wet = true; // 0, 3, 6 forage in the rain
    Ant prototype;
    tickfsm::Crowd<AntMachine> crowd(ants.size(), prototype);
    for (std::size_t i = 0; i + 1 < ants.size(); ++i) crowd.Perform(i, ants[i], World{.rain = true}); // 6 not started
    tickfsm::InspectorState state;
    state.SelectCharacter("ants", 4);
    std::size_t picked = 0;
    const std::string text = Frame(state, [&] { picked = tickfsm::DrawCrowdInspector("ants", crowd, state); });
    INFO(text);
    CHECK(picked == 4);
    CHECK(text.find("7 characters") != std::string::npos);
    CHECK(text.find("Forage") != std::string::npos);
    CHECK(text.find("Shelter") != std::string::npos);
    CHECK(text.find("(not started)") != std::string::npos);
    CHECK(text.find("character 4: Shelter") != std::string::npos);
}

TEST_CASE("Each crowd panel keeps its own picked character", "[inspector][crowd]") {
    struct Npc {};
    struct World {};
    struct Walk {};
    struct Rest {};
    struct NpcMachine : tickfsm::StateManager<Npc, World> {
        explicit NpcMachine(Npc& n) : StateManager(n) {
            SetInitialState<Walk>().To<Rest>([] { return false; });
            From<Rest>();
        }
    };
    Headless imgui;
    std::vector<Npc> villagers(12), soldiers(3);
    tickfsm::Crowd<NpcMachine> village(villagers.size()), army(soldiers.size());
    village.TickAll(villagers, [](std::size_t, Npc&) { return World{}; });
    army.TickAll(soldiers, [](std::size_t, Npc&) { return World{}; });
    tickfsm::InspectorState state; // one for both panels
    state.SelectCharacter("villagers", 1);
    std::size_t picked_villager = 0, picked_soldier = 0;
    const std::string first = Frame(state, [&] { picked_villager = tickfsm::DrawCrowdInspector("villagers", village, state); });
    const std::string second = Frame(state, [&] { picked_soldier = tickfsm::DrawCrowdInspector("soldiers", army, state); });
    INFO(second);
    CHECK(picked_villager == 1);
    CHECK(first.find("character 1: Walk") != std::string::npos);
    CHECK(picked_soldier == static_cast<std::size_t>(-1));
    CHECK(second.find("character 1: Walk") == std::string::npos);
    CHECK(state.SelectedCharacter("villagers") == 1);
    CHECK(state.SelectedCharacter("soldiers") == static_cast<std::size_t>(-1));
}

namespace {
// Opens the Force state list of the panel titled `name` (call it in the frame
// before the panel is drawn): what a click on the combo does.
void OpenForceList(const char* name) {
    ImGui::Begin(name);
    const ImGuiID combo = ImGui::GetCurrentWindow()->GetID("##force");
    ImGui::OpenPopupEx(ImHashStr("##ComboPopup", 0, combo));
    ImGui::End();
}

struct Body {
    bool run = false;
};
struct Alive {};
struct Dead {};
struct Legs {};
struct Stand {};
struct Run {};
struct Arms {};
struct Lower {};
struct Aim {};
struct Watcher {};
} // namespace

TEST_CASE("A panel offers to force only the states ForceSetState enters", "[inspector][panel]") {
    Headless imgui;
    Body b;
    tickfsm::StateManager<Body, Pad> m(b);
    m.SetInitialState<Alive>().To<Dead>([] { return false; });
    m.SetRegions<Alive, Legs, Arms>();
    m.SetSubstates<Legs, Stand, Run>();
    m.SetSubstates<Arms, Lower, Aim>();
    m.From<Dead>();
    m.From<Watcher>();
    m.SetGlobalState<Watcher>();
    m.Perform({});
    tickfsm::InspectorState state;
    const std::string text = Frame(state, [&] {
        OpenForceList("soldier");
        tickfsm::DrawInspector("soldier", m, Pad{}, state);
    });
    const std::size_t list = text.find("{ pick a state }");
    REQUIRE(list != std::string::npos);
    const std::string offered = text.substr(list);
    INFO(offered);
    CHECK(offered.find("Alive") != std::string::npos);
    CHECK(offered.find("Dead") != std::string::npos);
    for (const char* region_or_global : {"Legs", "Stand", "Run", "Arms", "Lower", "Aim", "Watcher"})
        CHECK(offered.find(region_or_global) == std::string::npos);
}

TEST_CASE("A panel offers to force no state while a push keeps states buried", "[inspector][panel]") {
    Headless imgui;
    Hero hero;
    HeroMachine m(hero);
    m.SetPushCapacity<1>();
    m.Perform({});
    m.Push<Block>(); // Idle is buried: forcing it would be refused
    tickfsm::InspectorState state;
    const std::string text = Frame(state, [&] { tickfsm::DrawInspector("hero", m, Pad{}, state); });
    INFO(text);
    CHECK(text.find("force: off while states are buried under a push") != std::string::npos);
    CHECK(text.find("Force state") == std::string::npos);
    CHECK(text.find("buried under pushes: Idle (a pop returns to Idle)") != std::string::npos);
}

namespace {
// The line of `text` that holds `what`, or "".
std::string LineOf(const std::string& text, std::string_view what) {
    const std::size_t at = text.find(what);
    if (at == std::string::npos) return {};
    const std::size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    return text.substr(begin, text.find('\n', at) - begin);
}
} // namespace

TEST_CASE("A panel says a region's transitions are not judged by the dry run", "[inspector][panel]") {
    Headless imgui;
    Body b;
    tickfsm::StateManager<Body, Pad> m(b);
    m.SetInitialState<Alive>().To<Dead>([] { return false; });
    m.SetRegions<Alive, Legs, Arms>();
    m.SetSubstates<Legs, Stand, Run>();
    m.SetSubstates<Arms, Lower, Aim>();
    m.From<Stand>().To<Run>([](const Body& c) { return c.run; });
    m.From<Dead>();
    tickfsm::InspectorState state;
    m.Perform({});
    b.run = true; // the next tick takes Stand -> Run, in region Legs
    const std::string text = Frame(state, [&] { tickfsm::DrawInspector("soldier", m, Pad{}, state); });
    INFO(text);
    const std::string stand = LineOf(text, "condition 0 of Stand");
    CHECK(stand.find("region: not dry-run") != std::string::npos);
    CHECK(stand.find("false or gated") == std::string::npos);
    CHECK(LineOf(text, "condition 0 of Alive").find("false or gated") != std::string::npos);
    CHECK(text.find("the regions' transitions are not in the dry run") != std::string::npos);
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Lower}");
}

TEST_CASE("The panel of a machine not started lists the transitions its first tick tries", "[inspector][panel]") {
    Headless imgui;
    Hero hero;
    hero.enemy = true;
    HeroMachine m(hero);
    tickfsm::InspectorState state;
    const std::string text = Frame(state, [&] { tickfsm::DrawInspector("hero", m, Pad{}, state); });
    INFO(text);
    CHECK(text.find("enters Idle, then -> Combat") != std::string::npos);
    CHECK(LineOf(text, "condition 0 of Idle").find("fires") != std::string::npos);
    CHECK(text.find("not by a transition listed") == std::string::npos);
    hero.enemy = false;
    const std::string stays = Frame(state, [&] { tickfsm::DrawInspector("hero", m, Pad{}, state); });
    CHECK(stays.find("enters Idle and stays") != std::string::npos);
    CHECK(LineOf(stays, "condition 0 of Idle").find("false or gated") != std::string::npos);
    m.Perform({});
    CHECK(m.ActivePath() == "Idle");
}

TEST_CASE("After Forget a panel shows the machine now at a forgotten machine's address", "[inspector][panel]") {
    using M = tickfsm::StateManager<Hero, Pad>;
    Headless imgui;
    Hero hero;
    tickfsm::InspectorState state;
    alignas(M) std::byte storage[sizeof(M)]; // two machines, one after the other, at one address
    M* m = new (storage) M(hero);
    m->SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
    m->From<Combat>();
    m->Perform({});
    const std::string first = Frame(state, [&] { tickfsm::DrawInspector("m", *m, Pad{}, state); });
    CHECK(first.find("* Idle (current)") != std::string::npos);

    state.Forget(*m);
    m->~M();
    m = new (storage) M(hero); // other states, as many
    m->SetInitialState<Light>().To<Heavy>([](const Hero&, const Pad& p) { return p.heavy; });
    m->From<Heavy>();
    m->Perform({});
    const std::string second = Frame(state, [&] { tickfsm::DrawInspector("m", *m, Pad{}, state); });
    INFO(second);
    CHECK(second.find("* Light (current)") != std::string::npos);
    CHECK(second.find("Idle") == std::string::npos);
    m->~M();
}

TEST_CASE("The panel's Pause button pauses the game loop and Step lets one tick through", "[inspector][panel]") {
    Headless imgui;
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    tickfsm::InspectorState state;
    ImGuiIO& io = ImGui::GetIO();
    // The panel at the top left: its first button, Pause, then Step, on the
    // first line under the title bar (default style and font).
    auto frame = [&](ImVec2 mouse, bool down) {
        io.MousePos = mouse;
        io.MouseDown[0] = down;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(600, 800));
        tickfsm::DrawInspector("hero", m, Pad{}, state);
        ImGui::Render();
    };
    auto click = [&](ImVec2 at) {
        frame(at, false);
        frame(at, true);
        frame(at, false); // a button fires on release
    };
    const ImVec2 pause(20, 36);
    frame(ImVec2(-100, -100), false); // lays the panel out
    CHECK_FALSE(state.Paused());
    click(pause);
    CHECK(state.Paused());
    CHECK_FALSE(state.ShouldTick());
    click(ImVec2(75, 36)); // Step, right of "Resume"
    CHECK(state.ShouldTick());
    CHECK_FALSE(state.ShouldTick());
    click(pause); // now "Resume"
    CHECK_FALSE(state.Paused());
}
