#pragma once
// Seed 004's robot on tickfsm: a robot on a tile map that stands, walks an A*
// path to the tile you tap, stops to greet whoever says hello and then goes
// back to what it was doing, while a global state drains its battery.
//
//              WalkTo(tile): ForceSetState<Walk>(path)
//   Stand --------------------------------------------> Walk
//     ^  <----------------------------------------------' |
//     |      path done: m.ForceSetState<Stand>()          |
//     |                                                   |
//     | hello                                       hello |
//     v                                                   v
//   Greet ---- greeting over: RevertToPreviousState() ----> (Stand or Walk,
//                                                            whichever it left)
//
//   Battery: the global state, performs every tick beside the current one.
//
// NestedRobotStateManager is the same robot with nested states:
//   Working (deep history) = {Stand (initial), Walk}   --hello-->   Greet
//   Greet --greeting over: ForceSetState<Working>()--> back where it was

#include <cstddef>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tickfsm/tickfsm.hpp>

#include "common/sample.hpp"
#include "common/trace_option.hpp"

namespace robot {

/// A tile of the map: x to the right, y down.
struct Tile {
    int x = 0;
    int y = 0;
    friend constexpr bool operator==(Tile, Tile) = default;
};

/// The A* heuristic: steps between two tiles when nothing is in the way.
constexpr int Manhattan(Tile a, Tile b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

/// A rectangular map of rows of '.' (open) and '#' (blocked).
class TileMap {
public:
    constexpr explicit TileMap(std::span<const std::string_view> rows) : rows_(rows) {}

    constexpr int Width() const { return rows_.empty() ? 0 : static_cast<int>(rows_[0].size()); }
    constexpr int Height() const { return static_cast<int>(rows_.size()); }

    /// Tiles off the map count as blocked.
    constexpr bool IsBlocked(Tile t) const {
        if (t.x < 0 || t.y < 0 || t.x >= Width() || t.y >= Height()) return true;
        return rows_[static_cast<std::size_t>(t.y)][static_cast<std::size_t>(t.x)] == '#';
    }

    /// A* from `from` to `to` over the 4 neighbours, with the Manhattan
    /// heuristic. Returns the tiles to step on, in order, `to` last and `from`
    /// left out; empty when there is nothing to walk: `to` is `from`, blocked,
    /// or cannot be reached. Deterministic: among open tiles with the same
    /// f = g + h, the one closer to the goal (lower h) wins, then the one found
    /// first; neighbours are found up, right, down, left.
    std::vector<Tile> FindPath(Tile from, Tile to) const {
        if (from == to || IsBlocked(from) || IsBlocked(to)) return {};
        constexpr int kUnseen = -1;
        const std::size_t tiles = static_cast<std::size_t>(Width() * Height());
        std::vector<int> cost(tiles, kUnseen);   // g: steps from `from`, for tiles seen so far
        std::vector<Tile> came_from(tiles);      // the tile each one was reached from
        std::vector<bool> done(tiles, false);    // the closed set
        std::vector<Tile> open{from};
        cost[Index(from)] = 0;
        const auto f = [&](Tile t) { return cost[Index(t)] + Manhattan(t, to); };
        while (!open.empty()) {
            auto best = open.begin();
            for (auto it = open.begin(); it != open.end(); ++it) {
                const int fit = f(*it), fbest = f(*best);
                if (fit < fbest || (fit == fbest && Manhattan(*it, to) < Manhattan(*best, to))) best = it;
            }
            const Tile current = *best;
            open.erase(best);
            if (current == to) return PathBack(came_from, from, to);
            done[Index(current)] = true;
            constexpr Tile kSteps[] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}}; // up, right, down, left
            for (const Tile step : kSteps) {
                const Tile next{current.x + step.x, current.y + step.y};
                if (IsBlocked(next) || done[Index(next)]) continue;
                const int through = cost[Index(current)] + 1;
                const int known = cost[Index(next)];
                if (known != kUnseen && known <= through) continue;
                if (known == kUnseen) open.push_back(next);
                cost[Index(next)] = through;
                came_from[Index(next)] = current;
            }
        }
        return {}; // walled in
    }

private:
    std::size_t Index(Tile t) const { return static_cast<std::size_t>(t.y * Width() + t.x); }

    std::vector<Tile> PathBack(const std::vector<Tile>& came_from, Tile from, Tile to) const {
        std::vector<Tile> path;
        for (Tile t = to; !(t == from); t = came_from[Index(t)]) path.push_back(t);
        return {path.rbegin(), path.rend()};
    }

    std::span<const std::string_view> rows_;
};

/// The sample's map, 8 x 6. (7,5) is open but walled in.
inline constexpr std::string_view kRows[] = {
    // x: 01234567
    "....#...", // y 0
    ".##.#.#.", // y 1
    "....#.#.", // y 2
    ".#....#.", // y 3
    ".#.##..#", // y 4
    "...#..#.", // y 5
};
inline constexpr TileMap kMap{kRows};

inline constexpr int kStartBattery = 75;
inline constexpr int kLowBattery = 25;

/// The controller: the seed's Actor without the sprite.
struct Robot : samples::TickConsole {
    Tile position{};
    int battery = kStartBattery;
};

/// What happens this tick: a tap on a tile, someone saying hello.
struct Input {
    std::optional<Tile> tap = std::nullopt;
    bool hello = false;
};

using Machine = tickfsm::Machine<Robot, Input>;

/// The condition that interrupts standing and walking.
inline bool SomeoneSaysHello(const Robot&, const Input& in) { return in.hello; }

} // namespace robot

template <>
struct fmt::formatter<robot::Tile> {
    constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
    template <class Context>
    auto format(robot::Tile t, Context& ctx) const {
        return fmt::format_to(ctx.out(), "({},{})", t.x, t.y);
    }
};

namespace robot {

struct Stand {
    void OnStateEnter(Robot& r, const Input&) { r.Print("Stand: at {}", r.position); }
};

/// Walks its path, one tile a tick; the seed's WalkState, entered with the path
/// (ForceSetState<Walk>(path) builds a fresh Walk from it). Left for a
/// greeting and reverted to, it is the same object: it resumes where it stopped.
struct Walk {
    std::vector<Tile> path;
    std::size_t next = 0; // index in path of the next tile to step on

    Walk() = default;
    explicit Walk(std::vector<Tile> tiles) : path(std::move(tiles)) {}

    std::size_t TilesLeft() const { return path.size() - next; }

    void OnStateEnter(Robot& r, const Input&) {
        if (TilesLeft() == 0) return;
        if (next == 0) r.Print("Walk: {} tiles from {} to {}", path.size(), r.position, path.back());
        else r.Print("Walk: resuming at {}, {} tiles to {}", r.position, TilesLeft(), path.back());
    }
    void Perform(Robot& r, const Input&, Machine& m) {
        if (next < path.size()) {
            r.position = path[next++];
            r.Print("Walk: {}, {} to go", r.position, TilesLeft());
        }
        if (next == path.size()) m.ForceSetState<Stand>(); // the seed's [ent stand]
    }

    // A snapshot keeps the path tile by tile (a vector is not kept as bytes).
    void Save(tickfsm::SnapshotWriter& w) const {
        w.Write(static_cast<std::uint32_t>(path.size()));
        for (const Tile& tile : path) w.Write(tile);
        w.Write(static_cast<std::uint32_t>(next));
    }
    void Load(tickfsm::SnapshotReader& r) {
        path.resize(r.Read<std::uint32_t>());
        for (Tile& tile : path) tile = r.Read<Tile>();
        next = r.Read<std::uint32_t>();
    }
};

/// The interruption: three lines of small talk, then the game loop reverts the
/// robot to what it was doing (RevertToPreviousState is the manager's, called
/// between ticks).
struct Greet {
    static constexpr std::string_view kLines[] = {"Hello there!", "Nice tiles today.", "Well, back to work."};
    std::size_t said = 0;

    bool Over() const { return said == std::size(kLines); }

    void OnStateEnter(Robot& r, const Input&) {
        said = 0;
        r.Print("Greet: stops at {} to talk", r.position);
    }
    void Perform(Robot& r, const Input&) {
        if (!Over()) r.Print("Greet: \"{}\"", kLines[said++]);
    }
};

/// The global state: drains the battery every tick, whatever the robot does.
struct Battery {
    void OnStateEnter(Robot& r, const Input&) { r.Print("Battery: {}%", r.battery); }
    void Perform(Robot& r, const Input&) {
        if (r.battery > 0) --r.battery;
        if (r.battery <= kLowBattery && r.battery % 5 == 0) r.Print("Battery: low, {}% left", r.battery);
    }
};

/// The seed's walkTo: ignore a blocked tile; stand first if walking; find
/// the A* path and walk it. Returns whether the robot sets off.
inline bool WalkTo(tickfsm::StateManager<Robot, Input>& m, Tile target) {
    Robot& r = m.GetController();
    if (kMap.IsBlocked(target)) {
        r.Print("WalkTo {}: blocked, ignored", target);
        return false;
    }
    if (m.IsIn<Walk>()) m.ForceSetState<Stand>();
    std::vector<Tile> path = kMap.FindPath(r.position, target);
    if (path.empty()) {
        r.Print("WalkTo {}: {}", target, r.position == target ? "already there" : "no path, ignored");
        return false;
    }
    m.ForceSetState<Walk>(std::move(path));
    return true;
}

class RobotStateManager : public tickfsm::StateManager<Robot, Input> {
public:
    explicit RobotStateManager(Robot& r) : StateManager(r) {
        KeepPreviousState(); // for the revert after a greeting
        SetInitialState<Stand>().To<Greet>(SomeoneSaysHello, "someone says hello");
        From<Walk>().To<Greet>(SomeoneSaysHello, "someone says hello");
        From<Greet>();
        From<Battery>();
    }

    /// The seed's walkTo (see robot::WalkTo).
    bool WalkTo(Tile target) { return robot::WalkTo(*this, target); }
};

/// Working: what the robot does when it is not greeting.
struct Working {};

/// The same robot with nested states: Working = {Stand, Walk} beside Greet.
/// One transition from Working replaces Stand's and Walk's, and Working's
/// deep history takes the robot back to what it was doing after a greeting,
/// where RobotStateManager keeps its previous state and reverts to it.
class NestedRobotStateManager : public tickfsm::StateManager<Robot, Input> {
public:
    explicit NestedRobotStateManager(Robot& r) : StateManager(r) {
        SetSubstates<Working, Stand, Walk>();
        SetHistory<Working>(tickfsm::History::Deep);
        SetInitialState<Working>().To<Greet>(SomeoneSaysHello);
        From<Greet>();
        From<Battery>();
    }
    bool WalkTo(Tile target) { return robot::WalkTo(*this, target); }
};

/// The script: what happens at which tick of the run.
struct Cue {
    int tick = 0;
    Input input;
};
inline constexpr Cue kScript[] = {
    {3, {.tap = Tile{5, 0}}},  // a long way round the wall
    {7, {.hello = true}},      // interrupts the walk
    {16, {.tap = Tile{4, 2}}}, // blocked: ignored
    {22, {.tap = Tile{7, 5}}}, // open but walled in: ignored
    {24, {.tap = Tile{0, 5}}},
    {28, {.tap = Tile{7, 3}}}, // changes its mind halfway there
    {40, {.hello = true}},     // interrupts standing
    {46, {.tap = Tile{2, 5}}},
};
inline constexpr int kTicks = 60;

constexpr Input ScriptedInput(int tick) {
    for (const Cue& cue : kScript)
        if (cue.tick == tick) return cue.input;
    return {};
}

/// Where the run must end: the last tile tapped.
constexpr Tile LastTap() {
    Tile last{};
    for (const Cue& cue : kScript)
        if (cue.input.tap) last = *cue.input.tap;
    return last;
}

/// The scripted run, with RobotStateManager or NestedRobotStateManager.
/// Returns all it printed. `watch`: see common/trace_option.hpp.
template <class Manager = RobotStateManager>
std::string Run(samples::Watch* watch = nullptr) {
    Robot r;
    Manager machine(r);
    tickfsm::TracePrinter trace(r.console, {.causes = true});
    samples::Observe(watch, machine, "Robot", &trace);
    machine.template SetGlobalState<Battery>();
    for (int tick = 1; tick <= kTicks; ++tick) {
        r.tick = tick;
        samples::Tick(watch, tick);
        const Input in = ScriptedInput(tick);
        if (in.tap) machine.WalkTo(*in.tap); // the seed's tap handler
        machine.Perform(in);
        // A state cannot revert itself (its Machine handle has no revert), so
        // the loop does it between ticks once the greeting is over.
        if (machine.template IsIn<Greet>() && machine.template State<Greet>().Over()) {
            if constexpr (std::is_same_v<Manager, NestedRobotStateManager>)
                machine.template ForceSetState<Working>(); // its history: back to what it was doing
            else
                machine.RevertToPreviousState();
        }
    }
    r.Print("done: at {}, battery {}%, state {}", r.position, r.battery, machine.CurrentStateName());
    return r.console;
}

} // namespace robot
