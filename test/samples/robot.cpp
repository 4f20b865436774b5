// The robot sample (seed 004): its A* path finder alone, then its walk, its
// greeting and revert, and its global battery.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "robot/robot.hpp"

using namespace robot;

namespace Catch {
template <>
struct StringMaker<Tile> {
    static std::string convert(Tile t) { return fmt::format("{}", t); }
};
} // namespace Catch

namespace {

// Every tile one step from the one before, none of them blocked, `to` last.
bool IsWalkable(const TileMap& map, const std::vector<Tile>& path, Tile from, Tile to) {
    if (path.empty() || !(path.back() == to)) return false;
    Tile at = from;
    for (const Tile t : path) {
        if (map.IsBlocked(t) || Manhattan(at, t) != 1) return false;
        at = t;
    }
    return true;
}

constexpr std::string_view kOpenRows[] = {"...", "...", "..."};
constexpr TileMap kOpen{kOpenRows};

} // namespace

TEST_CASE("The path finder takes a shortest path round the blocked tiles", "[sample][robot][astar]") {
    const std::vector<Tile> around = kMap.FindPath({0, 0}, {5, 0});
    CHECK(around.size() == 11); // the wall at x = 4 ends at y = 2: down to y = 3 and back up
    CHECK(IsWalkable(kMap, around, {0, 0}, {5, 0}));

    const std::vector<Tile> straight = kMap.FindPath({0, 2}, {3, 2});
    CHECK(straight.size() == 3); // nothing in the way: the Manhattan distance
    CHECK(IsWalkable(kMap, straight, {0, 2}, {3, 2}));

    const std::vector<Tile> longest = kMap.FindPath({7, 3}, {2, 5});
    CHECK(longest.size() == 13);
    CHECK(IsWalkable(kMap, longest, {7, 3}, {2, 5}));
}

TEST_CASE("The path finder finds no path to a blocked or walled-in tile", "[sample][robot][astar]") {
    CHECK(kMap.IsBlocked({4, 2}));
    CHECK(kMap.FindPath({0, 0}, {4, 2}).empty());
    CHECK_FALSE(kMap.IsBlocked({7, 5})); // open, but (6,5) and (7,4) are walls
    CHECK(kMap.FindPath({0, 0}, {7, 5}).empty());
    CHECK(kMap.FindPath({0, 0}, {8, 0}).empty()); // off the map
    CHECK(kMap.FindPath({2, 2}, {2, 2}).empty()); // already there: nothing to walk
}

TEST_CASE("The path finder breaks ties the same way every time", "[sample][robot][astar]") {
    // On an open map many paths are shortest: the one closer to the goal wins,
    // then the one found first (up, right, down, left).
    const std::vector<Tile> expected{{1, 0}, {2, 0}, {2, 1}, {2, 2}};
    CHECK(kOpen.FindPath({0, 0}, {2, 2}) == expected);
    CHECK(kOpen.FindPath({0, 0}, {2, 2}) == kOpen.FindPath({0, 0}, {2, 2}));
}

TEST_CASE("SomeoneSaysHello holds only on a hello", "[sample][robot]") {
    const Robot r;
    CHECK(SomeoneSaysHello(r, {.hello = true}));
    CHECK_FALSE(SomeoneSaysHello(r, {}));
    CHECK_FALSE(SomeoneSaysHello(r, {.tap = Tile{1, 0}}));
}

TEST_CASE("Walk entered with a path follows it one tile a tick and then stands", "[sample][robot]") {
    Robot r;
    RobotStateManager machine(r);
    machine.Perform({});
    machine.ForceSetState<Walk>(std::vector<Tile>{{1, 0}, {2, 0}, {3, 0}});
    REQUIRE(machine.IsIn<Walk>());
    CHECK(machine.State<Walk>().TilesLeft() == 3);
    machine.Perform({});
    CHECK(r.position == Tile{1, 0});
    machine.Perform({});
    CHECK(r.position == Tile{2, 0});
    CHECK(machine.IsIn<Walk>());
    machine.Perform({});
    CHECK(r.position == Tile{3, 0});
    CHECK(machine.IsIn<Stand>()); // the last step asks for Stand through the Machine handle
    CHECK(machine.PreviousState().Is<Walk>());
}

TEST_CASE("WalkTo ignores blocked and walled-in tiles and stands before a new walk", "[sample][robot]") {
    Robot r;
    RobotStateManager machine(r);
    machine.Perform({});
    CHECK_FALSE(machine.WalkTo({4, 2}));
    CHECK_FALSE(machine.WalkTo({7, 5}));
    CHECK_FALSE(machine.WalkTo({0, 0})); // already there
    CHECK(machine.IsIn<Stand>());
    CHECK(r.console.find("WalkTo (4,2): blocked, ignored") != std::string::npos);
    CHECK(r.console.find("WalkTo (7,5): no path, ignored") != std::string::npos);

    REQUIRE(machine.WalkTo({5, 0}));
    CHECK(machine.State<Walk>().path == kMap.FindPath({0, 0}, {5, 0}));
    machine.Perform({});
    machine.Perform({});
    REQUIRE(r.position == Tile{2, 0});
    REQUIRE(machine.WalkTo({0, 2}));
    CHECK(machine.PreviousState().Is<Stand>()); // Walk -> Stand -> Walk, as the seed's walkTo
    CHECK(machine.State<Walk>().path == kMap.FindPath({2, 0}, {0, 2})); // a fresh Walk from where it stood
    for (int i = 0; i < 4; ++i) machine.Perform({});
    CHECK(r.position == Tile{0, 2});
    CHECK(machine.IsIn<Stand>());
}

TEST_CASE("A greeting interrupts the walk and the revert resumes it where it stopped", "[sample][robot]") {
    Robot r;
    RobotStateManager machine(r);
    machine.Perform({});
    REQUIRE(machine.WalkTo({5, 0}));
    machine.Perform({});
    machine.Perform({});
    REQUIRE(r.position == Tile{2, 0});

    machine.Perform({.hello = true});
    REQUIRE(machine.IsIn<Greet>());
    CHECK(r.position == Tile{2, 0}); // it stopped to talk
    CHECK_FALSE(machine.State<Greet>().Over());
    machine.Perform({});
    machine.Perform({});
    CHECK(machine.State<Greet>().Over());
    CHECK(r.position == Tile{2, 0});

    CHECK(machine.PreviousState().Is<Walk>());
    REQUIRE(machine.RevertToPreviousState());
    CHECK(machine.IsIn<Walk>());
    CHECK(machine.State<Walk>().TilesLeft() == 9); // the same Walk, two tiles into its path
    CHECK(r.console.find("Walk: resuming at (2,0), 9 tiles to (5,0)") != std::string::npos);
    machine.Perform({});
    CHECK(r.position == Tile{3, 0});
    for (int i = 0; i < 8; ++i) machine.Perform({});
    CHECK(r.position == Tile{5, 0});
    CHECK(machine.IsIn<Stand>());
}

TEST_CASE("A greeting while standing reverts to standing", "[sample][robot]") {
    Robot r;
    RobotStateManager machine(r);
    machine.Perform({});
    machine.Perform({.hello = true});
    REQUIRE(machine.IsIn<Greet>());
    for (int i = 0; i < 2; ++i) machine.Perform({});
    REQUIRE(machine.State<Greet>().Over());
    CHECK(machine.RevertToPreviousState());
    CHECK(machine.IsIn<Stand>());
}

TEST_CASE("The global battery drains once per tick whatever the state", "[sample][robot]") {
    Robot r;
    RobotStateManager machine(r);
    machine.Perform({});
    CHECK(r.battery == kStartBattery); // no global state yet
    machine.SetGlobalState<Battery>();
    CHECK(r.battery == kStartBattery); // entering it drains nothing
    machine.Perform({});               // standing
    CHECK(r.battery == kStartBattery - 1);
    REQUIRE(machine.WalkTo({3, 0}));
    machine.Perform({}); // walking
    machine.Perform({}); // walking
    CHECK(r.battery == kStartBattery - 3);
    machine.Perform({.hello = true}); // Walk -> Greet in this tick: still one drain
    CHECK(r.battery == kStartBattery - 4);
    machine.Perform({});
    machine.Perform({});
    machine.RevertToPreviousState(); // between ticks: no drain
    CHECK(r.battery == kStartBattery - 6);
    machine.Perform({}); // the last step: Walk -> Stand inside the tick
    CHECK(machine.IsIn<Stand>());
    CHECK(r.battery == kStartBattery - 7);
}

TEST_CASE("The battery says when it is low", "[sample][robot]") {
    Robot r;
    r.battery = kLowBattery + 1;
    RobotStateManager machine(r);
    machine.SetGlobalState<Battery>();
    machine.Perform({});
    CHECK(r.battery == kLowBattery);
    CHECK(r.console.find("Battery: low, 25% left") != std::string::npos);
}

TEST_CASE("The robot's scripted run ends on the last tapped tile", "[sample][robot]") {
    const std::string out = Run();
    CHECK(LastTap() == Tile{2, 5});
    CHECK(out.find("done: at (2,5), battery 15%, state Stand") != std::string::npos);
    CHECK(out.find("Greet -> Walk (direct)") != std::string::npos);
}

TEST_CASE("The nested robot, Working = {Stand, Walk} with deep history, runs as the flat one with its revert",
          "[sample][robot][nested]") {
    const std::string flat = Run<RobotStateManager>();
    const std::string nested = Run<NestedRobotStateManager>();
    // The trace lists the states first (Working is one more); from the first transition on, the runs agree.
    // The nested trace also says a change is Working's condition: " of Working" is the one other difference.
    const auto run = [](std::string out) {
        for (std::size_t at; (at = out.find(" of Working)")) != std::string::npos;) out.erase(at, 11);
        return out.substr(out.find(" -> Stand (initial)"));
    };
    CHECK(nested.find("...state 'Working' (initial state)") != std::string::npos);
    CHECK(run(nested) == run(flat));
    CHECK(nested.find("Greet -> Walk (direct)") != std::string::npos); // back to walking, by history
}
