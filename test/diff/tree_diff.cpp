// The differential test of hierarchy: random transitions, events and history
// on one tree with nested states and parallel regions (a region inside a
// region included), run by the library and by a reference model of the rules
// in docs/nested_states.md, compared after every call: the hooks' log, the
// active path, IsIn and TicksInState of every state.
//
// The tree (S0 starts, unless the seed says S1 or S6):
//
//   S0
//   S1: S2 (initial): S3 (initial), S4
//       S5
//   S6 (parallel)
//   ├── S7: S9 (initial), S10
//   └── S8: S11 (initial, parallel)
//           │   └── S13
//           S12
//
// and the same without regions: S6 holds S7 (initial) and S8, two composite
// siblings sharing one counter per character; S11 and S13 are leaves.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <span>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

constexpr int kStates = 14;
constexpr int kBits = 6;
constexpr std::array<tickfsm::Event, 3> kEvents{tickfsm::Event("E0"), tickfsm::Event("E1"), tickfsm::Event("E2")};

// --- The tree, as data both sides share --------------------------------------------
struct Shape {
    int parent = -1;            // within its lane
    int owner = -1;             // a region: its parallel state
    std::vector<int> children;  // the first is the initial one
    std::vector<int> regions;
};
std::array<Shape, kStates> MakeTree(bool regions) {
    std::array<Shape, kStates> t;
    auto sub = [&](int p, std::vector<int> c) {
        for (int x : c) t[static_cast<std::size_t>(x)].parent = p;
        t[static_cast<std::size_t>(p)].children = std::move(c);
    };
    auto reg = [&](int p, std::vector<int> r) {
        for (int x : r) t[static_cast<std::size_t>(x)].owner = p;
        t[static_cast<std::size_t>(p)].regions = std::move(r);
    };
    sub(1, {2, 5});
    sub(2, {3, 4});
    if (regions) reg(6, {7, 8});
    else sub(6, {7, 8}); // two composite siblings: one counter serves both
    sub(7, {9, 10});
    sub(8, {11, 12});
    if (regions) reg(11, {13});
    return t;
}
// The tree of the run: with its regions, or without them (S6 holding S7 and
// S8, S11 and S13 leaves), where leaves take the nested fast path.
const std::array<Shape, kStates> kTrees[2] = {MakeTree(false), MakeTree(true)};
const std::array<Shape, kStates>* tree = &kTrees[1];
const Shape& Node(int s) { return (*tree)[static_cast<std::size_t>(s)]; }

int LaneOf(int s) { // the region whose lane holds s; -1 for the machine's own
    while (Node(s).parent >= 0) s = Node(s).parent;
    return Node(s).owner >= 0 ? s : -1;
}
bool Encloses(int outer, int inner) { // lane `outer` is lane `inner` or holds it
    for (int r = inner;; r = LaneOf(Node(r).owner)) {
        if (r == outer) return true;
        if (r < 0) return false;
    }
}
bool Composite(int s) { return !Node(s).children.empty(); }

struct Edge {
    int to;
    int bit;
};
struct EventEdge {
    int event;
    int to;
};
struct Config {
    int initial = 0;
    std::array<tickfsm::History, kStates> history{};
    std::array<std::vector<Edge>, kStates> edges;
    std::array<std::vector<EventEdge>, kStates> events;
};

Config RandomConfig(std::mt19937& rng) {
    Config cfg;
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const int initials[] = {0, 1, 6};
    cfg.initial = initials[pick(3)];
    for (int s = 0; s < kStates; ++s) {
        if (Composite(s)) cfg.history[static_cast<std::size_t>(s)] = static_cast<tickfsm::History>(pick(3));
        std::vector<int> targets;
        for (int t = 0; t < kStates; ++t)
            if (Encloses(LaneOf(t), LaneOf(s))) targets.push_back(t);
        const int edges = pick(4);
        for (int i = 0; i < edges; ++i)
            cfg.edges[static_cast<std::size_t>(s)].push_back(
                {targets[static_cast<std::size_t>(pick(static_cast<int>(targets.size())))], pick(kBits)});
        for (int e = 0; e < static_cast<int>(kEvents.size()); ++e)
            if (pick(4) == 0)
                cfg.events[static_cast<std::size_t>(s)].push_back(
                    {e, targets[static_cast<std::size_t>(pick(static_cast<int>(targets.size())))]});
    }
    return cfg;
}

// --- The library's side -------------------------------------------------------------
struct Ctl {
    std::string log;
    unsigned bits = 0;
};
struct Pad {};
// One hook's entry in a log: "e3 " (enter), "p3 " (perform), "x3 " (exit).
// Appended piecewise: g++ 12 at -O3 warns (-Wrestrict, a false positive) on
// "e" + std::to_string(s) + " ".
void Note(std::string& log, char hook, int state) {
    log += hook;
    log += std::to_string(state);
    log += ' ';
}

template <int I>
struct N {
    void OnStateEnter(Ctl& c, const Pad&) { Note(c.log, 'e', I); }
    void Perform(Ctl& c, const Pad&) { Note(c.log, 'p', I); }
    void OnStateExit(Ctl& c, const Pad&) { Note(c.log, 'x', I); }
};

template <int I = 0, class F>
void WithState(int i, F&& f) {
    if constexpr (I < kStates) {
        if (i == I) return f.template operator()<I>();
        WithState<I + 1>(i, f);
    }
}

// The lanes of the fixed tree at compile time, for instantiating only the
// transitions the library accepts.
constexpr int kParent[kStates] = {-1, -1, 1, 2, 2, 1, -1, -1, -1, 7, 7, 8, 8, -1};
constexpr int kOwner[kStates] = {-1, -1, -1, -1, -1, -1, -1, 6, 6, -1, -1, -1, -1, 11};
constexpr int ConstLane(int s) {
    while (kParent[s] >= 0) s = kParent[s];
    return kOwner[s] >= 0 ? s : -1;
}
constexpr bool ConstEncloses(int outer, int inner) {
    for (int r = inner;; r = ConstLane(kOwner[r])) {
        if (r == outer) return true;
        if (r < 0) return false;
    }
}

template <bool kRegions>
class Machine : public tickfsm::StateManager<Ctl, Pad> {
public:
    Machine(Ctl& c, const Config& cfg) : StateManager(c) {
        WithState(cfg.initial, [&]<int I>() { this->template SetInitialState<N<I>>(); });
        SetSubstates<N<1>, N<2>, N<5>>();
        SetSubstates<N<2>, N<3>, N<4>>();
        if constexpr (kRegions) SetRegions<N<6>, N<7>, N<8>>();
        else SetSubstates<N<6>, N<7>, N<8>>();
        SetSubstates<N<7>, N<9>, N<10>>();
        SetSubstates<N<8>, N<11>, N<12>>();
        if constexpr (kRegions) SetRegions<N<11>, N<13>>();
        for (int s = 0; s < kStates; ++s) {
            if (Composite(s))
                WithState(s, [&]<int I>() { this->template SetHistory<N<I>>(cfg.history[static_cast<std::size_t>(s)]); });
            for (const Edge& e : cfg.edges[static_cast<std::size_t>(s)])
                WithState(s, [&]<int I>() {
                    WithState(e.to, [&]<int J>() {
                        if constexpr (!kRegions || ConstEncloses(ConstLane(J), ConstLane(I)))
                            this->template From<N<I>>().template To<N<J>>([bit = e.bit](const Ctl& ctl) { return (ctl.bits >> bit) & 1u; });
                    });
                });
            for (const EventEdge& e : cfg.events[static_cast<std::size_t>(s)])
                WithState(s, [&]<int I>() {
                    WithState(e.to, [&]<int J>() {
                        if constexpr (!kRegions || ConstEncloses(ConstLane(J), ConstLane(I)))
                            this->template From<N<I>>().On(kEvents[static_cast<std::size_t>(e.event)]).template To<N<J>>();
                    });
                });
        }
    }
};

// --- The reference model ------------------------------------------------------------
// The rules of docs/nested_states.md the model may be told to break, so that
// a test can show the comparison catches each of them (the flat test's mutants
// do the same for the flat rules).
enum class Broken {
    Nothing,
    InnermostTransitionsFirst, // a path's transitions tried from the leaf outward
    InnermostPerformsFirst,    // a path's Performs run from the leaf outward
    ParentTimeRestarts,        // every composite on the new path restarts its time
    HistoryForgotten,          // a composite with history enters its initial substate
};

class Model {
public:
    explicit Model(const Config& cfg, Broken broken = Broken::Nothing) : cfg_(cfg), broken_(broken) {}

    void Perform(unsigned bits) {
        bits_ = bits;
        if (!started_) {
            started_ = true;
            ChangeTo(-1, cfg_.initial);
        }
        Count(lane_[Slot(-1)].leaf);
        ++lane_[Slot(-1)].ticks;
        const int fired = Probe(-1);
        if (fired >= 0) ChangeTo(-1, fired);
        PerformPath(lane_[Slot(-1)].leaf);
        TickRegions(-1);
    }

    bool SendEvent(int event) {
        if (!started_) return false;
        return Deliver(-1, event).taken;
    }

    std::string log;

    std::string Path() const {
        std::string text;
        if (lane_[Slot(-1)].leaf >= 0) AppendPath(lane_[Slot(-1)].leaf, text);
        return text;
    }
    bool IsIn(int s) const {
        const int lane = LaneOf(s);
        if (lane >= 0 && !IsIn(Node(lane).owner)) return false;
        const int leaf = lane_[Slot(lane)].leaf;
        if (leaf < 0) return false;
        for (int a = leaf; a >= 0; a = Node(a).parent)
            if (a == s) return true;
        return false;
    }
    std::uint32_t Ticks(int s) const {
        if (!IsIn(s)) return 0;
        if (Composite(s)) return composite_ticks_[static_cast<std::size_t>(s)];
        return lane_[Slot(LaneOf(s))].ticks; // an active leaf is its lane's current state
    }

private:
    struct Lane {
        int leaf = -1;
        std::uint32_t ticks = 0;
    };
    static std::size_t Slot(int lane) { return static_cast<std::size_t>(lane + 1); }

    std::vector<int> PathOf(int leaf) const {
        std::vector<int> path;
        for (int s = leaf; s >= 0; s = Node(s).parent) path.insert(path.begin(), s);
        return path;
    }
    void AppendPath(int leaf, std::string& text) const {
        const std::vector<int> path = PathOf(leaf);
        for (std::size_t i = 0; i < path.size(); ++i) text += (i ? "/N<" : "N<") + std::to_string(path[i]) + ">";
        if (Node(leaf).regions.empty()) return;
        text += "/{";
        bool first = true;
        for (int r : Node(leaf).regions) {
            if (lane_[Slot(r)].leaf < 0) continue;
            if (!first) text += ", ";
            first = false;
            AppendPath(lane_[Slot(r)].leaf, text);
        }
        text += "}";
    }

    // Every active composite above `leaf` in its lane, and every region's lane below it, counts a tick.
    void Count(int leaf) {
        for (int s = Node(leaf).parent; s >= 0; s = Node(s).parent) ++composite_ticks_[static_cast<std::size_t>(s)];
        for (int r : Node(leaf).regions) {
            Lane& lane = lane_[Slot(r)];
            if (lane.leaf < 0) continue;
            ++lane.ticks;
            Count(lane.leaf);
        }
    }

    // The first transition whose condition holds along the lane's path, outermost first.
    int Probe(int lane) const {
        std::vector<int> path = PathOf(lane_[Slot(lane)].leaf);
        if (broken_ == Broken::InnermostTransitionsFirst) std::reverse(path.begin(), path.end());
        for (int s : path)
            for (const Edge& e : cfg_.edges[static_cast<std::size_t>(s)])
                if ((bits_ >> e.bit) & 1u) return e.to;
        return -1;
    }

    void PerformPath(int leaf) {
        std::vector<int> path = PathOf(leaf);
        if (broken_ == Broken::InnermostPerformsFirst) std::reverse(path.begin(), path.end());
        for (int s : path) Note(log, 'p', s);
    }

    // Returns a target its enclosing lane must change to, or -1.
    int TickRegions(int lane) {
        const int leaf = lane_[Slot(lane)].leaf;
        for (int r : Node(leaf).regions) {
            const int out = LaneTick(r);
            if (out >= 0) return ChangeTo(lane, out);
        }
        return -1;
    }
    int LaneTick(int lane) {
        if (lane_[Slot(lane)].leaf < 0) return -1;
        const int fired = Probe(lane);
        if (fired >= 0) {
            const int out = ChangeTo(lane, fired);
            if (out >= 0) return out;
        }
        PerformPath(lane_[Slot(lane)].leaf);
        return TickRegions(lane);
    }

    void ExitLane(int lane) { // a region's whole path, its own regions first
        Lane& l = lane_[Slot(lane)];
        if (l.leaf < 0) return;
        ExitUpTo(l.leaf, -1);
        l.leaf = -1;
    }
    void ExitUpTo(int leaf, int base) {
        for (int s = leaf; s != base; s = Node(s).parent) {
            if (Composite(s)) last_[static_cast<std::size_t>(s)] = leaf;
            for (auto r = Node(s).regions.rbegin(); r != Node(s).regions.rend(); ++r) ExitLane(*r);
            Note(log, 'x', s);
        }
    }

    // Changes lane `lane` to `to`; returns `to` when another lane holds it (to be made there), else -1.
    int ChangeTo(int lane, int to) {
        if (LaneOf(to) != lane) return to;
        Lane& l = lane_[Slot(lane)];
        int base = -1;
        if (l.leaf >= 0)
            for (int a = Node(to).parent; a >= 0 && base < 0; a = Node(a).parent)
                for (int s = l.leaf; s >= 0; s = Node(s).parent)
                    if (s == a) {
                        base = a;
                        break;
                    }
        if (l.leaf >= 0) ExitUpTo(l.leaf, base);
        std::vector<int> entering;
        for (int s = to; s != base; s = Node(s).parent) entering.insert(entering.begin(), s);
        for (int s = to; Composite(s);) {
            const int last = last_[static_cast<std::size_t>(s)];
            const tickfsm::History h = broken_ == Broken::HistoryForgotten
                                           ? tickfsm::History::None
                                           : cfg_.history[static_cast<std::size_t>(s)];
            bool remembered = false;
            for (int a = last; a >= 0 && !remembered; a = Node(a).parent) remembered = a == s && last != s;
            if (h == tickfsm::History::Deep && remembered) {
                std::vector<int> below;
                for (int a = last; a != s; a = Node(a).parent) below.insert(below.begin(), a);
                entering.insert(entering.end(), below.begin(), below.end());
                break;
            }
            int next = Node(s).children.front();
            if (h == tickfsm::History::Shallow && remembered)
                for (int a = last; a != s; a = Node(a).parent) next = a;
            entering.push_back(next);
            s = next;
        }
        const int leaf = entering.back();
        l.leaf = leaf;
        l.ticks = 0;
        if (broken_ == Broken::ParentTimeRestarts)
            for (int s = Node(leaf).parent; s >= 0; s = Node(s).parent) composite_ticks_[static_cast<std::size_t>(s)] = 0;
        for (int s : entering) {
            if (Composite(s)) composite_ticks_[static_cast<std::size_t>(s)] = 0;
            Note(log, 'e', s);
        }
        for (int r : Node(leaf).regions) lane_[Slot(r)] = Lane{};
        for (int r : Node(leaf).regions) {
            const int out = ChangeTo(r, r);
            if (out >= 0) return ChangeTo(lane, out);
        }
        return -1;
    }

    struct Delivered {
        bool taken = false;
        int out = -1;
    };
    Delivered Deliver(int lane, int event) {
        const int leaf = lane_[Slot(lane)].leaf;
        if (leaf < 0) return {};
        bool taken = false;
        for (int r : Node(leaf).regions) {
            const Delivered d = Deliver(r, event);
            if (d.out >= 0) return {true, ChangeTo(lane, d.out)};
            taken = taken || d.taken;
        }
        if (taken) return {true, -1};
        for (int s = leaf; s >= 0; s = Node(s).parent)
            for (const EventEdge& e : cfg_.events[static_cast<std::size_t>(s)])
                if (e.event == event) return {true, ChangeTo(lane, e.to)};
        return {};
    }

    const Config& cfg_;
    Broken broken_;
    unsigned bits_ = 0;
    bool started_ = false;
    std::array<Lane, kStates + 1> lane_{};
    std::array<std::uint32_t, kStates> composite_ticks_{};
    std::array<int, kStates> last_ = [] {
        std::array<int, kStates> a{};
        a.fill(-1);
        return a;
    }();
};

template <int I = 0, class Machine>
bool LibIsIn(const Machine& m, int s) {
    if constexpr (I < kStates) {
        if (s == I) return m.template IsIn<N<I>>();
        return LibIsIn<I + 1>(m, s);
    }
    return false;
}
template <int I = 0, class Machine>
std::uint32_t LibTicks(const Machine& m, int s) {
    if constexpr (I < kStates) {
        if (s == I) return m.template TicksInState<N<I>>();
        return LibTicks<I + 1>(m, s);
    }
    return 0;
}

} // namespace

// The seeds of a run: 1 to 1,000 (200 in the sanitizers' builds, which run the
// same rules slower), or TICKFSM_TREE_SEEDS="FIRST:COUNT", which
// `scripts/fuzz.sh --trees` sets to fresh ranges and a report's seed replays.
struct SeedRange {
    std::uint32_t first = 1;
    std::uint32_t count = 0;
    bool fixed = true; // the default range, whose totals the run checks
};
static SeedRange TreeSeeds() {
    SeedRange range;
#if defined(TICKFSM_DIFF_SANITIZED)
    range.count = 200;
#else
    range.count = 1000;
#endif
    if (const char* env = std::getenv("TICKFSM_TREE_SEEDS")) {
        char* colon = nullptr;
        range.first = static_cast<std::uint32_t>(std::strtoul(env, &colon, 10));
        range.count = *colon == ':' ? static_cast<std::uint32_t>(std::strtoul(colon + 1, nullptr, 10)) : 1;
        range.fixed = false;
    }
    return range;
}

// One seed's run: a random configuration and 200 random calls, the library
// and the model compared after each call. `divergence` describes the first
// difference ("" if none).
struct SeedRun {
    std::string divergence;
    int events_taken = 0;
    int regions_ticked = 0;
};
template <bool kRegions>
static SeedRun RunSeed(std::uint32_t seed, Broken broken = Broken::Nothing) {
    tree = &kTrees[kRegions ? 1 : 0];
    constexpr int kSteps = 200;
    SeedRun run;
    std::mt19937 rng(seed);
    const Config cfg = RandomConfig(rng);
    Ctl ctl;
    Machine<kRegions> lib(ctl, cfg);
    Model model(cfg, broken);
    for (int step = 0; step < kSteps; ++step) {
        std::string what;
        bool same = true;
        auto differ = [&](const std::string& field, const std::string& library, const std::string& reference) {
            what += ": " + field + " is \"" + library + "\", the model's \"" + reference + "\"";
            same = false;
        };
        if (rng() % 5 == 0) {
            const int event = static_cast<int>(rng() % kEvents.size());
            what = "SendEvent E" + std::to_string(event);
            const bool taken = lib.SendEvent(kEvents[static_cast<std::size_t>(event)]);
            const bool model_taken = model.SendEvent(event);
            run.events_taken += taken;
            if (taken != model_taken) differ("taken", std::to_string(taken), std::to_string(model_taken));
        } else {
            unsigned bits = 0;
            for (int b = 0; b < kBits; ++b) bits |= (rng() % 10 < 2 ? 1u : 0u) << b;
            what = "Perform bits " + std::to_string(bits);
            ctl.bits = bits;
            lib.Perform({});
            model.Perform(bits);
        }
        if (same && ctl.log != model.log) differ("the hooks' log", ctl.log, model.log);
        if (same && lib.ActivePath() != model.Path()) differ("the active path", lib.ActivePath(), model.Path());
        for (int s = 0; s < kStates && same; ++s) {
            if (LibIsIn(lib, s) != model.IsIn(s))
                differ("IsIn<N<" + std::to_string(s) + ">>()", std::to_string(LibIsIn(lib, s)),
                       std::to_string(model.IsIn(s)));
            else if (LibTicks(lib, s) != model.Ticks(s))
                differ("TicksInState<N<" + std::to_string(s) + ">>()", std::to_string(LibTicks(lib, s)),
                       std::to_string(model.Ticks(s)));
        }
        if (!same) {
            run.divergence = "seed " + std::to_string(seed) + ", step " + std::to_string(step) + ": " + what;
            return run;
        }
        run.regions_ticked += lib.template IsIn<N<13>>();
        ctl.log.clear();
        model.log.clear();
    }
    return run;
}

// The differential test on the tree with or without its regions, over a run's seeds.
template <bool kRegions>
static void RunTreeDiff() {
    const SeedRange seeds = TreeSeeds();
    REQUIRE(seeds.count > 0);
    int events_taken = 0;
    int regions_ticked = 0;
    for (std::uint32_t seed = seeds.first; seed - seeds.first < seeds.count; ++seed) {
        const SeedRun run = RunSeed<kRegions>(seed);
        INFO(run.divergence);
        REQUIRE(run.divergence.empty());
        events_taken += run.events_taken;
        regions_ticked += run.regions_ticked;
    }
    // The runs reached what they are meant to compare (over the default
    // seeds; a chosen range may be one seed).
    if (!seeds.fixed) return;
    CHECK(events_taken > 100);
    if (kRegions) CHECK(regions_ticked > 100);
    else CHECK(regions_ticked > 10); // S13 is a leaf at the top
}

TEST_CASE("Random nested and parallel machines follow the reference model of the hierarchy rules",
          "[diff][nested][regions]") {
    RunTreeDiff<true>();
}

TEST_CASE("Random nested machines without regions, on the nested fast path, follow the reference model",
          "[diff][nested]") {
    RunTreeDiff<false>();
}

TEST_CASE("The tree differential test fails against a model that breaks one hierarchy rule", "[diff][mutant]") {
    const std::pair<Broken, const char*> rules[] = {
        {Broken::InnermostTransitionsFirst, "transitions tried innermost first"},
        {Broken::InnermostPerformsFirst, "Performs run innermost first"},
        {Broken::ParentTimeRestarts, "a parent's time restarts when its children change"},
        {Broken::HistoryForgotten, "history forgotten"},
    };
    for (const auto& [broken, rule] : rules) {
        INFO("the model breaks the rule: " << rule);
        std::string caught;
        for (std::uint32_t seed = 1; seed <= 300 && caught.empty(); ++seed) {
            caught = RunSeed<false>(seed, broken).divergence;
            if (caught.empty()) caught = RunSeed<true>(seed, broken).divergence;
        }
        CHECK_FALSE(caught.empty());
    }
}

// --- A crowd of nested machines against as many StateManagers ---------------------------
// A fixed tree without regions (the one above, S6 and S11 leaves) and fixed
// transitions on the controller's bits, captureless so that a Crowd can share
// them: every character of the crowd must log the same hooks and hold the
// same state and ticks as its own StateManager, tick after tick, whether the
// crowd ticks by TickAll or by Perform(i), and through events sent to it.
namespace {

struct FixedEdge {
    int from;
    int to;
    int bit;
};
constexpr FixedEdge kFixedEdges[] = {{0, 1, 0},  {0, 9, 1},  {1, 0, 2},   {2, 5, 3},  {3, 4, 0},  {4, 3, 1},
                                     {5, 2, 4},  {7, 6, 2},  {8, 7, 5},   {9, 10, 3}, {10, 12, 4}, {11, 13, 5},
                                     {12, 8, 0}, {13, 0, 1}, {6, 11, 2},  {3, 0, 5},  {1, 7, 4},  {2, 8, 1},
                                     {4, 10, 2}, {6, 0, 3}};

class FixedMachine : public tickfsm::StateManager<Ctl, Pad> {
public:
    explicit FixedMachine(Ctl& c) : StateManager(c) {
        SetInitialState<N<0>>();
        SetSubstates<N<1>, N<2>, N<5>>();
        SetSubstates<N<2>, N<3>, N<4>>();
        SetSubstates<N<7>, N<9>, N<10>>();
        SetSubstates<N<8>, N<11>, N<12>>();
        SetHistory<N<1>>(tickfsm::History::Shallow);
        SetHistory<N<7>>(tickfsm::History::Deep);
        AddEdges(std::make_index_sequence<std::size(kFixedEdges)>{});
        From<N<3>>().On(kEvents[0]).To<N<9>>();
        From<N<1>>().On(kEvents[1]).To<N<13>>();
    }

private:
    template <std::size_t... I>
    void AddEdges(std::index_sequence<I...>) {
        (AddEdge<I>(), ...);
    }
    template <std::size_t I>
    void AddEdge() {
        constexpr FixedEdge e = kFixedEdges[I];
        From<N<e.from>>().template To<N<e.to>>([](const Ctl& c) { return ((c.bits >> e.bit) & 1u) != 0; });
    }
};

} // namespace

TEST_CASE("A crowd of nested machines ticks every character as its own StateManager does",
          "[diff][nested][crowd]") {
    constexpr std::size_t kCharacters = 6;
    constexpr int kTicks = 600;
    std::mt19937 rng(7);
    std::vector<Ctl> crowd_ctl(kCharacters), own_ctl(kCharacters);
    std::vector<std::unique_ptr<FixedMachine>> own;
    for (Ctl& c : own_ctl) own.push_back(std::make_unique<FixedMachine>(c));
    tickfsm::Crowd<FixedMachine> crowd(kCharacters);
    int changes = 0;
    for (int tick = 0; tick < kTicks; ++tick) {
        for (std::size_t i = 0; i < kCharacters; ++i) {
            unsigned bits = 0;
            for (int b = 0; b < kBits; ++b) bits |= (rng() % 10 < 2 ? 1u : 0u) << b;
            crowd_ctl[i].bits = own_ctl[i].bits = bits;
        }
        const int how = static_cast<int>(rng() % 6);
        if (how == 0) {
            const std::size_t i = rng() % kCharacters;
            const auto& event = kEvents[rng() % 2];
            CHECK(crowd.SendEvent(i, crowd_ctl[i], event, Pad{}) == own[i]->SendEvent(event));
        } else if (how == 1) {
            for (std::size_t i = 0; i < kCharacters; ++i) crowd.Perform(i, crowd_ctl[i], Pad{});
            for (auto& m : own) m->Perform({});
        } else {
            crowd.TickAll(std::span<Ctl>(crowd_ctl), [](std::size_t, Ctl&) { return Pad{}; });
            for (auto& m : own) m->Perform({});
        }
        for (std::size_t i = 0; i < kCharacters; ++i) {
            INFO("tick " << tick << ", character " << i);
            REQUIRE(crowd_ctl[i].log == own_ctl[i].log);
            REQUIRE(crowd.CurrentStateName(i) == own[i]->CurrentStateName());
            REQUIRE(crowd.TicksInState(i) == own[i]->TicksInState());
            REQUIRE(crowd.ActivePath(i) == own[i]->ActivePath());
            REQUIRE(crowd.TicksInState<N<1>>(i) == own[i]->TicksInState<N<1>>());
            REQUIRE(crowd.TicksInState<N<2>>(i) == own[i]->TicksInState<N<2>>());
            REQUIRE(crowd.TicksInState<N<7>>(i) == own[i]->TicksInState<N<7>>());
            REQUIRE(crowd.TimeInState<N<8>>(i) == own[i]->TimeInState<N<8>>());
            changes += own[i]->TicksInState() == 0;
            crowd_ctl[i].log.clear();
            own_ctl[i].log.clear();
        }
    }
    CHECK(changes > 300); // the runs changed state often enough to compare the changes too
}
