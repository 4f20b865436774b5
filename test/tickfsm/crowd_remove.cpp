// Crowd::Remove and StaticCrowd::Remove: a despawn by swap-and-pop. The
// removed character's objects are destroyed once; the last character moves
// into its slot and ticks on exactly as an untouched twin of it does; the
// crowd's counts keep TickAll on the right path.

// The tests build with NDEBUG; this file checks character indices (see docs/errors.md).
#define TICKFSM_CHECKED 1

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

#include "tick_log.hpp"

namespace {

/// An object that counts its lives: each one made gets an id, a move takes
/// the id along (the moved-from object holds 0), and each destruction of an
/// object that still holds its id is noted. Its id also lives on the heap, so
/// that ASan sees a second destruction or a leak.
template <class Tag>
struct Life {
    static inline int next_id = 0;
    static inline int alive = 0;
    static inline std::vector<int> destroyed;

    int id = ++next_id;
    std::unique_ptr<int> load = std::make_unique<int>(id);

    Life() { ++alive; }
    Life(const Life&) : Life() {}
    Life(Life&& other) noexcept : id(std::exchange(other.id, 0)), load(std::move(other.load)) { ++alive; }
    Life& operator=(const Life&) = delete;
    Life& operator=(Life&&) = delete;
    ~Life() {
        --alive;
        if (id != 0) destroyed.push_back(id);
    }
    /// Every id destroyed so far, sorted; none twice.
    static std::vector<int> Destroyed() {
        std::vector<int> ids = destroyed;
        std::sort(ids.begin(), ids.end());
        REQUIRE(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
        return ids;
    }
};

// --- a flat kind with data, a NextState request and the previous state ---------

struct Ant {
    std::uint32_t id = 0;
    int food = 0;
};
struct World {
    bool rain = false;
    bool alarm = false;
};
using AntMachine = tickfsm::Machine<Ant, World>;

struct Shelter {
    int naps = 0;
    void Perform(Ant&, const World&) { ++naps; }
};
struct Forage {
    int bites = 0;
    void Perform(Ant& a, const World& w, AntMachine& m) {
        ++bites;
        ++a.food;
        if (w.alarm) m.NextState<Shelter>(); // a request that waits for the next tick
    }
};

class ForagerStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit ForagerStateManager(Ant& ant) : StateManager(ant) {
        KeepPreviousState();
        SetInitialState<Forage>().To<Shelter>([](const Ant&, const World& w) { return w.rain; });
        From<Shelter>().To<Forage>([](const Ant&, const World& w, float t) { return !w.rain && t >= 0.05f; });
    }
};

// --- a flat kind whose states' objects count their lives ------------------------

struct AntLives {};
using AntLife = Life<AntLives>;
struct Dig {
    AntLife life;
    int holes = 0;
    void Perform(Ant&, const World&) { ++holes; }
};
struct Rest {
    AntLife life;
};
class DiggerStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit DiggerStateManager(Ant& ant) : StateManager(ant) {
        SetInitialState<Dig>().To<Rest>([](const Ant&, const World& w) { return w.rain; });
        From<Rest>().To<Dig>([](const Ant&, const World& w) { return !w.rain; });
    }
};

// --- a fast kind without data: TickAll's unchecked loop and its grouping ----------

struct Bug {
    std::size_t id = 0;
    tick_log::Log* log = nullptr;
};
struct Clock {
    int tick = 0;
};
struct Crawl {
    void Perform(Bug& b, const Clock&) { b.log->push_back({'T', b.id}); }
};
struct Fly {
    void Perform(Bug& b, const Clock&) { b.log->push_back({'T', b.id}); }
};
class BugStateManager : public tickfsm::StateManager<Bug, Clock> {
public:
    explicit BugStateManager(Bug& bug) : StateManager(bug) {
        SetInitialState<Crawl>().To<Fly>([](const Bug& b, const Clock& c) {
            return (b.id * 7 + static_cast<std::size_t>(c.tick)) % 5 == 0;
        });
        From<Fly>().To<Crawl>([](const Bug& b, const Clock& c) { return (b.id + static_cast<std::size_t>(c.tick)) % 3 == 0; });
    }
};

// --- a nested kind: substates, history, regions, pushes and a NextState request ----

struct Trooper {
    std::uint32_t id = 0; // who it is, whatever its index: its orders follow it
    int shots = 0;
    int steps = 0;
};
struct Orders {
    bool enemy = false;
    bool run = false;
    bool aim = false;
    bool stun = false;
    bool recover = false;
    bool alarm = false;
};
using TrooperMachine = tickfsm::Machine<Trooper, Orders>;

struct Patrol {};
struct Look {};
struct Walk {
    std::uint32_t paces = 0;
    void Perform(Trooper& t, const Orders& o, TrooperMachine& m) {
        ++paces;
        ++t.steps;
        if (o.alarm) m.NextState<Look>();
    }
};
struct Fight {};
struct Legs {};
struct Arms {};
struct Stand {};
struct Run {
    void Perform(Trooper& t, const Orders&) { ++t.steps; }
};
struct Lower {};
struct Aim {
    std::uint32_t shots = 0;
    void Perform(Trooper& t, const Orders&) {
        ++shots;
        ++t.shots;
    }
};
struct Stunned {};
struct Dazed {};

class TrooperStateManager : public tickfsm::StateManager<Trooper, Orders> {
public:
    explicit TrooperStateManager(Trooper& trooper) : StateManager(trooper) {
        KeepPreviousState();
        SetPushCapacity<2>();
        SetSubstates<Patrol, Walk, Look>();
        SetHistory<Patrol>(tickfsm::History::Shallow);
        SetRegions<Fight, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        SetInitialState<Patrol>()
            .To<Fight>([](const Trooper&, const Orders& o) { return o.enemy; })
            .Push<Stunned>([](const Trooper&, const Orders& o) { return o.stun; });
        From<Walk>().To<Look>([](const Trooper&, const Orders&, float t) { return t >= 0.1f; });
        From<Look>().To<Walk>([](const Trooper&, const Orders&, float t) { return t >= 0.05f; });
        From<Fight>().To<Patrol>([](const Trooper&, const Orders& o) { return !o.enemy; });
        From<Stand>().To<Run>([](const Trooper&, const Orders& o) { return o.run; });
        From<Run>().To<Stand>([](const Trooper&, const Orders& o) { return !o.run; });
        From<Lower>().To<Aim>([](const Trooper&, const Orders& o) { return o.aim; });
        From<Aim>().To<Lower>([](const Trooper&, const Orders& o) { return !o.aim; });
        From<Stunned>()
            .Pop([](const Trooper&, const Orders& o) { return o.recover; })
            .Push<Dazed>([](const Trooper&, const Orders& o) { return o.stun; });
        From<Dazed>().Pop([](const Trooper&, const Orders& o) { return o.recover; });
    }
};

std::uint32_t Mix(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/// Trooper `t`'s orders on `tick`: the same for it wherever it sits in a crowd.
Orders OrdersFor(const Trooper& t, int tick) {
    const std::uint32_t held = Mix(t.id * 7919U + static_cast<std::uint32_t>(tick / 6)); // for six ticks
    const std::uint32_t now = Mix(held ^ static_cast<std::uint32_t>(tick));
    return Orders{(held & 3U) == 0, (held & 4U) != 0, (held & 8U) != 0, now % 11 == 0, now % 5 == 0, now % 7 == 0};
}

/// Removes element i of `v` as Crowd::Remove removes character i.
template <class T>
void SwapAndPop(std::vector<T>& v, std::size_t i) {
    if (i + 1 != v.size()) v[i] = std::move(v.back());
    v.pop_back();
}

} // namespace

TEST_CASE("Remove moves the last character into the removed slot", "[crowd][remove]") {
    std::vector<Ant> ants(4), twin_ants(4);
    tickfsm::Crowd<ForagerStateManager> crowd(4), twin(4);
    const auto perform = [&](std::size_t i, const World& w) {
        crowd.Perform(i, ants[i], w);
        twin.Perform(i, twin_ants[i], w);
    };
    for (std::size_t i = 0; i < 3; ++i) perform(i, World{});
    perform(2, World{true}); // 2: in Shelter
    // 3, which will move: into Shelter and back, then a tick whose Forage asks for Shelter on the next one.
    perform(3, World{});
    perform(3, World{true});
    for (int t = 0; t < 4; ++t) perform(3, World{});
    perform(3, World{false, true});
    REQUIRE(crowd.IsIn<Forage>(3));
    const std::uint32_t ticks = crowd.TicksInState(3);
    const int bites = crowd.State<Forage>(3).bites;
    const int naps = crowd.State<Shelter>(3).naps;
    REQUIRE(bites > 0);
    REQUIRE(naps > 0);

    crowd.Remove(1);
    SwapAndPop(ants, 1);
    REQUIRE(crowd.Size() == 3);
    CHECK(crowd.IsStarted(1));
    CHECK(crowd.IsIn<Forage>(1));
    CHECK(crowd.TicksInState(1) == ticks);
    CHECK(crowd.PreviousState(1).Is<Shelter>());
    CHECK(crowd.State<Forage>(1).bites == bites);
    CHECK(crowd.State<Shelter>(1).naps == naps);
    CHECK(crowd.Save(1) == twin.Save(3));
    CHECK(crowd.Save(0) == twin.Save(0)); // the others stay as they were
    CHECK(crowd.Save(2) == twin.Save(2));

    crowd.Perform(1, ants[1], World{}); // the request it carried: Shelter
    twin.Perform(3, twin_ants[3], World{});
    CHECK(crowd.IsIn<Shelter>(1));
    CHECK(crowd.PreviousState(1).Is<Forage>());
    CHECK(crowd.Save(1) == twin.Save(3));
    CHECK(ants[1].food == twin_ants[3].food);
}

TEST_CASE("Remove destroys the removed character's state objects once and moves the last one's",
          "[crowd][remove][data]") {
    {
        std::vector<Ant> ants(4);
        tickfsm::Crowd<DiggerStateManager> crowd(ants.size());
        crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
        crowd.State<Dig>(3).holes = 42;
        AntLife::destroyed.clear(); // the prototype manager's objects are gone by now
        const int alive = AntLife::alive;
        REQUIRE(alive == 8); // a Dig and a Rest per character
        const auto ids = [&](std::size_t i) {
            std::vector<int> both{crowd.State<Dig>(i).life.id, crowd.State<Rest>(i).life.id};
            std::sort(both.begin(), both.end());
            return both;
        };
        const std::vector<int> first = ids(1), last = ids(3), third = ids(2);

        crowd.Remove(1);
        CHECK(AntLife::Destroyed() == first);
        CHECK(AntLife::alive == alive - 2);
        CHECK(ids(1) == last);
        CHECK(*crowd.State<Dig>(1).life.load == crowd.State<Dig>(1).life.id);
        CHECK(crowd.State<Dig>(1).holes == 42);

        crowd.Remove(2); // the last: dropped, nothing moves
        std::vector<int> gone = first;
        gone.insert(gone.end(), third.begin(), third.end());
        std::sort(gone.begin(), gone.end());
        CHECK(AntLife::Destroyed() == gone);
        CHECK(AntLife::alive == alive - 4);
        CHECK(ids(1) == last);

        crowd.Remove(0);
        crowd.Remove(0);
        CHECK(crowd.Size() == 0);
        CHECK(AntLife::alive == 0);
        CHECK(AntLife::Destroyed().size() == 8);
        CHECK(crowd.Add() == 0); // fresh objects
        CHECK(AntLife::alive == 2);
        CHECK(crowd.State<Dig>(0).holes == 0);
    }
    CHECK(AntLife::alive == 0);
    AntLife::Destroyed(); // none twice
}

TEST_CASE("Removing the last character just drops it", "[crowd][remove]") {
    std::vector<Ant> ants(3);
    tickfsm::Crowd<ForagerStateManager> crowd(3), twin(3);
    for (int t = 0; t < 5; ++t)
        for (std::size_t i = 0; i < 3; ++i) {
            const World w{t > static_cast<int>(i), false};
            crowd.Perform(i, ants[i], w);
            twin.Perform(i, ants[i], w);
        }
    crowd.Remove(2);
    REQUIRE(crowd.Size() == 2);
    CHECK(crowd.Save(0) == twin.Save(0));
    CHECK(crowd.Save(1) == twin.Save(1));
}

TEST_CASE("Removing a crowd's only character leaves an empty crowd that ticks and grows again",
          "[crowd][remove]") {
    std::vector<Ant> ants(1);
    tickfsm::Crowd<ForagerStateManager> crowd(1);
    crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
    crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
    REQUIRE(crowd.State<Forage>(0).bites == 2);
    crowd.Remove(0);
    ants.clear();
    CHECK(crowd.Size() == 0);
    std::vector<World> none;
    crowd.TickAll(ants, none);
    int made = 0;
    crowd.TickAll(ants, [&](std::size_t, Ant&) {
        ++made;
        return World{};
    });
    crowd.TickAll(ants, [&](std::size_t, Ant&) { ++made; return World{}; }, tickfsm::TickOrder::ByState);
    CHECK(made == 0);

    CHECK(crowd.Add() == 0);
    ants.resize(1);
    crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
    CHECK(crowd.IsStarted(0));
    CHECK(crowd.IsIn<Forage>(0));
    CHECK(crowd.State<Forage>(0).bites == 1); // a new character's objects

    // The same on a kind without data whose TickAll takes the unchecked loop.
    tick_log::Log log;
    std::vector<Bug> bugs(1, Bug{0, &log});
    tickfsm::Crowd<BugStateManager> bare(1, bugs[0]);
    bare.TickAll(bugs, [](std::size_t, Bug&) { return Clock{1}; });
    bare.Remove(0);
    bugs.clear();
    log.clear();
    bare.TickAll(bugs, [](std::size_t, Bug&) { return Clock{2}; });
    CHECK(log.empty());
    CHECK(bare.Add() == 0);
    bugs.push_back(Bug{0, &log});
    bare.TickAll(bugs, [](std::size_t, Bug&) { return Clock{1}; });
    CHECK(bare.IsStarted(0));
    CHECK(log.size() == 1);
}

TEST_CASE("Removing the only character not started yet lets TickAll by state group the crowd again",
          "[crowd][remove][by-state]") {
    // A character not started makes TickAll check every character, and TickAll
    // by state tick in index order; once it is removed, the crowd groups again.
    constexpr std::size_t kCount = 40;
    static_assert(kCount > tickfsm::detail::kGroupMin);
    constexpr std::size_t kBlock = tickfsm::detail::GroupBlockFor(sizeof(Clock));
    tick_log::Log log;
    std::vector<Bug> bugs(kCount);
    for (std::size_t i = 0; i < kCount; ++i) bugs[i] = Bug{i, &log};
    tickfsm::Crowd<BugStateManager> crowd(kCount, bugs[0]);
    const auto tick_by_state = [&](int tick) {
        std::vector<tickfsm::StateId> before(crowd.Size());
        for (std::size_t i = 0; i < crowd.Size(); ++i) before[i] = crowd.CurrentState(i);
        log.clear();
        crowd.TickAll(bugs, [&](std::size_t i, Bug&) {
            log.push_back({'M', i});
            return Clock{tick};
        }, tickfsm::TickOrder::ByState);
        return before;
    };
    for (int tick = 0; tick < 3; ++tick) tick_by_state(tick);
    const std::vector<tickfsm::StateId> grouped = tick_by_state(3);
    REQUIRE(tick_log::RequireGroupedBlocks(log, grouped, kBlock)); // the states differ: the order shows it

    SECTION("in the middle") {
        crowd.Reset(7);
        crowd.Remove(7);
        SwapAndPop(bugs, 7);
    }
    SECTION("added last") {
        CHECK(crowd.Add() == kCount);
        crowd.Remove(kCount);
    }
    SECTION("moved into a removed slot, then removed") {
        CHECK(crowd.Add() == kCount);
        bugs.push_back(Bug{kCount, &log});
        crowd.Remove(3); // a started one: character kCount, not started, moves to 3
        SwapAndPop(bugs, 3);
        CHECK_FALSE(crowd.IsStarted(3));
        crowd.Remove(3);
        SwapAndPop(bugs, 3);
    }
    for (std::size_t i = 0; i < bugs.size(); ++i) bugs[i].id = i; // the log names characters by index
    REQUIRE(crowd.Size() == bugs.size());
    for (std::size_t i = 0; i < crowd.Size(); ++i) REQUIRE(crowd.IsStarted(i));
    bool regrouped = false;
    for (int tick = 5; tick < 10; ++tick) {
        const std::vector<tickfsm::StateId> before = tick_by_state(tick);
        regrouped = tick_log::RequireGroupedBlocks(log, before, kBlock) || regrouped;
    }
    CHECK(regrouped);
}

TEST_CASE("Removing a started character keeps TickAll starting the characters not started yet",
          "[crowd][remove][start]") {
    // Were the removal of a started character counted as one fewer to start,
    // TickAll would take its unchecked loop with a character not started.
    constexpr std::size_t kCount = 24; // more than TickAll's inline loop
    std::vector<Ant> ants(kCount), twin_ants(kCount);
    for (std::size_t i = 0; i < kCount; ++i) ants[i].id = twin_ants[i].id = static_cast<std::uint32_t>(i);
    tick_log::Log log;
    std::vector<Bug> bugs(kCount), twin_bugs(kCount);
    for (std::size_t i = 0; i < kCount; ++i) bugs[i] = twin_bugs[i] = Bug{i, &log};
    tickfsm::Crowd<ForagerStateManager> crowd(kCount), twin(kCount);
    tickfsm::Crowd<BugStateManager> bare(kCount, bugs[0]), bare_twin(kCount, bugs[0]);
    std::vector<std::size_t> twin_of(kCount);
    std::iota(twin_of.begin(), twin_of.end(), std::size_t{0});
    const auto weather = [](const Ant& a, int tick) { return World{(a.id + static_cast<std::uint32_t>(tick)) % 9 < 3, false}; };
    int tick = 0;
    const auto tick_all = [&] {
        crowd.TickAll(ants, [&](std::size_t, Ant& a) { return weather(a, tick); });
        twin.TickAll(twin_ants, [&](std::size_t, Ant& a) { return weather(a, tick); });
        bare.TickAll(bugs, [&](std::size_t, Bug&) { return Clock{tick}; });
        bare_twin.TickAll(twin_bugs, [&](std::size_t, Bug&) { return Clock{tick}; });
        ++tick;
        for (std::size_t i = 0; i < crowd.Size(); ++i) {
            REQUIRE(crowd.Save(i) == twin.Save(twin_of[i]));
            REQUIRE(bare.CurrentState(i) == bare_twin.CurrentState(twin_of[i]));
            REQUIRE(bare.TicksInState(i) == bare_twin.TicksInState(twin_of[i]));
            REQUIRE(bare.IsStarted(i));
        }
    };
    const auto reset = [&](std::size_t i) {
        crowd.Reset(i);
        twin.Reset(twin_of[i]);
        bare.Reset(i);
        bare_twin.Reset(twin_of[i]);
    };
    const auto remove = [&](std::size_t i) {
        crowd.Remove(i);
        bare.Remove(i);
        SwapAndPop(ants, i);
        SwapAndPop(bugs, i);
        SwapAndPop(twin_of, i);
    };
    for (int t = 0; t < 5; ++t) tick_all();

    reset(5);
    remove(2); // started; 5 is still to start
    CHECK_FALSE(crowd.IsStarted(5));
    tick_all();
    CHECK(crowd.IsStarted(5));

    reset(crowd.Size() - 1);
    reset(4);
    remove(0); // started; the last, not started, moves to 0
    CHECK_FALSE(crowd.IsStarted(0));
    CHECK_FALSE(bare.IsStarted(0));
    tick_all();
    CHECK(crowd.IsStarted(0));
    CHECK(crowd.IsStarted(4));
    for (int t = 0; t < 30; ++t) tick_all();
}

TEST_CASE("Remove moves a nested character whole: the moved one ticks on as its untouched twin",
          "[crowd][remove][nested]") {
    // The twin crowd never removes anyone: each character of `crowd` is
    // compared, tick by tick, with the one of `twin` it was (twin_of). Before
    // each removal the character about to move is steered into a state that
    // fills what a character keeps: regions' states and times, history,
    // buried states, a NextState request, no start at all.
    constexpr std::size_t kCount = 9;
    std::vector<Trooper> squad(kCount), twin_squad(kCount);
    for (std::size_t i = 0; i < kCount; ++i) squad[i].id = twin_squad[i].id = static_cast<std::uint32_t>(i + 1);
    tickfsm::Crowd<TrooperStateManager> crowd(kCount), twin(kCount);
    std::vector<std::size_t> twin_of(kCount);
    std::iota(twin_of.begin(), twin_of.end(), std::size_t{0});

    int tick = 0;
    std::uint32_t steered = 0; // the trooper given `orders` instead of its own
    Orders orders;
    const auto orders_of = [&](const Trooper& t) { return t.id == steered ? orders : OrdersFor(t, tick); };
    const auto require_twins = [&] {
        REQUIRE(crowd.Size() == twin_of.size());
        for (std::size_t i = 0; i < crowd.Size(); ++i) {
            const std::size_t j = twin_of[i];
            CAPTURE(tick, i, j);
            REQUIRE(crowd.Save(i) == twin.Save(j));
            REQUIRE(crowd.ActivePath(i).view() == twin.ActivePath(j).view());
            REQUIRE(crowd.TicksInState(i) == twin.TicksInState(j));
            REQUIRE(crowd.TicksInState<Patrol>(i) == twin.TicksInState<Patrol>(j));
            REQUIRE(crowd.TicksInState<Fight>(i) == twin.TicksInState<Fight>(j));
            REQUIRE(crowd.TicksInState<Arms>(i) == twin.TicksInState<Arms>(j));
            REQUIRE(crowd.PreviousState(i).Id() == twin.PreviousState(j).Id());
            REQUIRE(crowd.IsStarted(i) == twin.IsStarted(j));
            REQUIRE(crowd.State<Walk>(i).paces == twin.State<Walk>(j).paces);
            REQUIRE(crowd.State<Aim>(i).shots == twin.State<Aim>(j).shots);
            REQUIRE(squad[i].id == twin_squad[j].id);
            REQUIRE(squad[i].shots == twin_squad[j].shots);
            REQUIRE(squad[i].steps == twin_squad[j].steps);
        }
    };
    const auto tick_both = [&] {
        crowd.TickAll(squad, [&](std::size_t, Trooper& t) { return orders_of(t); });
        twin.TickAll(twin_squad, [&](std::size_t, Trooper& t) { return orders_of(t); });
        ++tick;
        require_twins();
    };
    const auto steer_at = [&](std::size_t i, const Orders& o, int ticks) {
        steered = squad[i].id;
        orders = o;
        for (int t = 0; t < ticks; ++t) tick_both();
        steered = 0;
    };
    const auto steer = [&](const Orders& o, int ticks = 1) { steer_at(squad.size() - 1, o, ticks); };
    const auto remove = [&](std::size_t i) {
        crowd.Remove(i);
        SwapAndPop(squad, i);
        SwapAndPop(twin_of, i);
        require_twins();
    };
    const auto last = [&] { return crowd.Size() - 1; };
    Orders enemy_run_aim;
    enemy_run_aim.enemy = enemy_run_aim.run = enemy_run_aim.aim = true;
    Orders stun, recover, alarm;
    stun.stun = true;
    recover.recover = true;
    alarm.alarm = true;

    for (int t = 0; t < 40; ++t) tick_both();

    // In Fight, both regions past their first state, after Patrol/Look (history).
    steer(recover, 3);
    steer(Orders{}, 12);
    steer(enemy_run_aim, 5);
    REQUIRE(crowd.ActivePath(last()).view() == "Fight/{Legs/Run, Arms/Aim}");
    REQUIRE(crowd.TicksInState<Aim>(last()) > 0);
    REQUIRE(crowd.State<Aim>(last()).shots > 0);
    remove(4);
    for (int t = 0; t < 60; ++t) tick_both();

    // Dazed on Stunned on Patrol: two buried states.
    steer(recover, 3);
    steer(Orders{}, 2);
    steer(stun, 2);
    steer(Orders{}, 2);
    REQUIRE(crowd.ActivePath(last()).view() == "Dazed");
    remove(2);
    steer_at(2, recover, 2); // the moved one pops twice, back to Patrol
    REQUIRE(crowd.IsIn<Patrol>(2));
    for (int t = 0; t < 60; ++t) tick_both();

    // In Walk, with a NextState request waiting for the next tick.
    steer(recover, 3);
    steer(Orders{}, 1);
    for (int t = 0; t < 30 && !(crowd.IsIn<Walk>(last()) && crowd.TicksInState(last()) == 0); ++t) steer(Orders{});
    REQUIRE(crowd.IsIn<Walk>(last()));
    steer(alarm);
    REQUIRE(crowd.IsIn<Walk>(last()));
    remove(0);
    tick_both();
    CHECK(crowd.IsIn<Look>(0)); // the request moved with it
    for (int t = 0; t < 60; ++t) tick_both();

    // Not started: added, then moved.
    squad.push_back(Trooper{100, 0, 0});
    twin_squad.push_back(Trooper{100, 0, 0});
    REQUIRE(crowd.Add() == squad.size() - 1);
    twin.Add();
    twin_of.push_back(twin.Size() - 1);
    remove(1);
    CHECK_FALSE(crowd.IsStarted(1));
    for (int t = 0; t < 60; ++t) tick_both();
    CHECK(crowd.IsStarted(1));

    // The last one, dropped; then by state, index by index, down to nobody.
    remove(last());
    for (int t = 0; t < 20; ++t) tick_both();
    while (crowd.Size() > 0) {
        remove(crowd.Size() / 2);
        for (std::size_t i = 0; i < crowd.Size(); ++i) {
            crowd.Perform(i, squad[i], orders_of(squad[i]));
            twin.Perform(twin_of[i], twin_squad[twin_of[i]], orders_of(squad[i]));
        }
        ++tick;
        require_twins();
    }
    crowd.TickAll(squad, [&](std::size_t, Trooper& t) { return orders_of(t); });
}

namespace {

/// A nested kind without regions or pushes: its composites keep their time as
/// a count up to the current leaf's entry (Table::composite_bases).
struct Camp {};
class ScoutStateManager : public tickfsm::StateManager<Trooper, Orders> {
public:
    explicit ScoutStateManager(Trooper& trooper) : StateManager(trooper) {
        SetSubstates<Patrol, Walk, Look>();
        SetHistory<Patrol>(tickfsm::History::Shallow);
        SetInitialState<Patrol>().To<Camp>([](const Trooper&, const Orders& o) { return o.enemy; });
        From<Walk>().To<Look>([](const Trooper&, const Orders& o, float t) { return o.run || t >= 0.1f; });
        From<Look>().To<Walk>([](const Trooper&, const Orders&, float t) { return t >= 0.05f; });
        From<Camp>().To<Patrol>([](const Trooper&, const Orders& o) { return !o.enemy; });
    }
};

} // namespace

TEST_CASE("Remove keeps a composite's time on a nested kind without regions or pushes", "[crowd][remove][nested]") {
    constexpr std::size_t kCount = 12;
    std::vector<Trooper> scouts(kCount), twin_scouts(kCount);
    for (std::size_t i = 0; i < kCount; ++i) scouts[i].id = twin_scouts[i].id = static_cast<std::uint32_t>(i + 1);
    tickfsm::Crowd<ScoutStateManager> crowd(kCount), twin(kCount);
    std::vector<std::size_t> twin_of(kCount);
    std::iota(twin_of.begin(), twin_of.end(), std::size_t{0});
    int composite_moves = 0;
    for (int tick = 0; tick < 400; ++tick) {
        if (tick % 50 == 49 && crowd.Size() > 1) {
            const std::size_t moved = crowd.Size() - 1;
            composite_moves += crowd.IsIn<Patrol>(moved) && crowd.TicksInState<Patrol>(moved) > crowd.TicksInState(moved);
            const std::size_t gone = crowd.Size() / 3;
            crowd.Remove(gone);
            SwapAndPop(scouts, gone);
            SwapAndPop(twin_of, gone);
        }
        crowd.TickAll(scouts, [tick](std::size_t, Trooper& t) { return OrdersFor(t, tick); });
        twin.TickAll(twin_scouts, [tick](std::size_t, Trooper& t) { return OrdersFor(t, tick); });
        for (std::size_t i = 0; i < crowd.Size(); ++i) {
            const std::size_t j = twin_of[i];
            CAPTURE(tick, i, j);
            REQUIRE(crowd.Save(i) == twin.Save(j));
            REQUIRE(crowd.ActivePath(i).view() == twin.ActivePath(j).view());
            REQUIRE(crowd.TicksInState(i) == twin.TicksInState(j));
            REQUIRE(crowd.TicksInState<Patrol>(i) == twin.TicksInState<Patrol>(j));
        }
    }
    CHECK(crowd.Size() == kCount - 8);
    CHECK(composite_moves > 0); // some moved character's Patrol had run longer than its leaf
}

TEST_CASE("A snapshot saved after Remove holds the new count, and one of the old size is refused",
          "[crowd][remove][snapshot]") {
    using Catch::Matchers::Contains;
    std::vector<Ant> ants(4);
    tickfsm::Crowd<ForagerStateManager> crowd(4);
    for (int t = 0; t < 6; ++t) crowd.TickAll(ants, [t](std::size_t i, Ant&) { return World{t > static_cast<int>(i), false}; });
    const tickfsm::Snapshot before = crowd.Save();
    crowd.Remove(1);
    const tickfsm::Snapshot after = crowd.Save();
    CHECK(after.Characters() == 3);
    CHECK_THROWS_WITH(crowd.Restore(before), Contains("the snapshot holds 4 characters and this crowd 3"));
    CHECK(crowd.Save() == after); // the refusal changed nothing
    tickfsm::Crowd<ForagerStateManager> smaller(3);
    smaller.Restore(after);
    for (std::size_t i = 0; i < 3; ++i) CHECK(smaller.Save(i) == crowd.Save(i));
    crowd.Restore(after);
    CHECK(crowd.Save() == after);
}

namespace {

/// A character whose hooks and conditions call back into its crowd.
struct Pest {
    std::function<void()> poke;  // from Pester's Perform
    std::function<void()> check; // from a condition
    std::function<void()> enter; // from Pester's OnStateEnter
};
struct Pester {
    void OnStateEnter(Pest& p, const World&) {
        if (p.enter) p.enter();
    }
    void Perform(Pest& p, const World&) {
        if (p.poke) p.poke();
    }
};
class PestStateManager : public tickfsm::StateManager<Pest, World> {
public:
    explicit PestStateManager(Pest& pest) : StateManager(pest) {
        SetInitialState<Pester>().To<Pester>([](const Pest& p) {
            if (p.check) p.check();
            return false;
        });
        From<Pester>().On("poke").To<Pester>();
    }
};

} // namespace

TEST_CASE("Remove is refused during TickAll, from a hook, a condition or make_action", "[crowd][remove][error]") {
    using Catch::Matchers::Contains;
    for (const std::size_t count : {std::size_t{3}, tickfsm::detail::kGroupMin + 8}) {
        for (const tickfsm::TickOrder order : {tickfsm::TickOrder::ByIndex, tickfsm::TickOrder::ByState}) {
            CAPTURE(count, order == tickfsm::TickOrder::ByState);
            std::vector<Pest> pests(count);
            tickfsm::Crowd<PestStateManager> crowd(count);
            const World dry{};
            const auto tick_all = [&] { crowd.TickAll(pests, [&](std::size_t, Pest&) { return dry; }, order); };
            tick_all(); // every character started
            const auto refused = [&](std::function<void()> tick, const std::string& call) {
                CHECK_THROWS_WITH(tick(), Contains("Crowd::" + call + " called during TickAll (from a hook, a "
                                                   "condition or make_action)") &&
                                              Contains("call Remove after TickAll returns"));
                CHECK(crowd.Size() == count);
            };
            refused([&] { crowd.TickAll(pests, [&](std::size_t i, Pest&) { crowd.Remove(i); return dry; }, order); },
                    "Remove(0)");
            pests[1].poke = [&] { crowd.Remove(2); };
            refused(tick_all, "Remove(2)");
            pests[1].poke = nullptr;
            pests[0].check = [&] { crowd.Remove(0); };
            refused(tick_all, "Remove(0)");
            pests[0].check = nullptr;

            const std::uint32_t ticks = crowd.TicksInState(count - 1);
            tick_all(); // the crowd ticks on after each refusal
            CHECK(crowd.TicksInState(count - 1) == ticks + 1);
            crowd.Remove(0);
            CHECK(crowd.Size() == count - 1);
        }
    }
}

TEST_CASE("Remove is refused from inside a hook or condition of a character being ticked",
          "[crowd][remove][error]") {
    using Catch::Matchers::Contains;
    std::vector<Pest> pests(3);
    tickfsm::Crowd<PestStateManager> crowd(3);
    const World dry{};
    for (std::size_t i = 0; i < 3; ++i) crowd.Perform(i, pests[i], dry);
    const auto refused = [&](std::function<void()> call, const std::string& text) {
        CHECK_THROWS_WITH(call(), Contains(text) && Contains("call Remove after that Perform, SendEvent or RevertToPreviousState returns"));
        CHECK(crowd.Size() == 3);
    };
    pests[0].poke = [&] { crowd.Remove(0); };
    refused([&] { crowd.Perform(0, pests[0], dry); },
            "Crowd::Remove(0) called from inside a hook or condition of that character; Remove moves the last "
            "character into slot 0");
    pests[0].poke = [&] { crowd.Remove(1); }; // another character: the last would move under the ticking one, or it
    refused([&] { crowd.Perform(0, pests[0], dry); }, "Crowd::Remove(1) called from inside a hook or condition of character 0");
    pests[2].poke = nullptr;
    pests[2].check = [&] { crowd.Remove(0); }; // the last, from a condition: it would move while it ticks
    refused([&] { crowd.Perform(2, pests[2], dry); }, "Crowd::Remove(0) called from inside a hook or condition of character 2");
    pests[2].check = nullptr;
    pests[1].enter = [&] { crowd.Remove(1); };
    refused([&] { crowd.SendEvent(1, pests[1], tickfsm::Event{"poke"}, dry); },
            "Crowd::Remove(1) called from inside a hook or condition of that character");
    pests[1].enter = nullptr;
    pests[0].poke = nullptr;

    crowd.Perform(0, pests[0], dry); // usable after each refusal
    crowd.Remove(0);
    CHECK(crowd.Size() == 2);
}

TEST_CASE("Remove of a character index out of range is refused in checked builds", "[crowd][remove][error][checked]") {
    using Catch::Matchers::Contains;
    std::vector<Ant> ants(3);
    tickfsm::Crowd<ForagerStateManager> crowd(3);
    crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
    const auto out_of_range = [](std::size_t i, std::size_t size) {
        return Contains("tickfsm: StateManager<Ant, World>: Crowd<ForagerStateManager>::Remove(" + std::to_string(i) +
                        "): no character " + std::to_string(i) + ": the crowd has " + std::to_string(size) +
                        " characters");
    };
    CHECK_THROWS_WITH(crowd.Remove(3), out_of_range(3, 3));
    crowd.Remove(1);
    CHECK_THROWS_WITH(crowd.Remove(2), out_of_range(2, 2));
    crowd.Remove(1);
    crowd.Remove(0);
    CHECK_THROWS_WITH(crowd.Remove(0), out_of_range(0, 0));
    CHECK(crowd.Size() == 0);
}

// --- StaticCrowd ------------------------------------------------------------------

namespace {

struct Bee {
    std::uint32_t id = 0;
    int flaps = 0;
    std::function<void()> poke; // called from Buzz's Perform
};
struct Air {
    bool calm = false;
    bool night = false;
};
struct BeeLives {};
using BeeLife = Life<BeeLives>;
struct Hive {};
struct Buzz {
    BeeLife life;
    std::uint32_t wings = 0;
    void Perform(Bee& b, const Air&) {
        ++wings;
        ++b.flaps;
        if (b.poke) b.poke();
    }
};
struct Hover {};
struct Sleep {
    BeeLife life;
    std::uint32_t dreams = 0;
    void Perform(Bee&, const Air&) { ++dreams; }
};

inline constexpr auto kBeeTable = tickfsm::Transitions<Bee, Air>()
                                      .SetSubstates<Hive, Buzz, Hover>()
                                      .SetInitialState<Buzz>()
                                      .To<Hover>([](const Bee&, const Air& a) { return a.calm; })
                                      .From<Hover>()
                                      .To<Buzz>([](const Bee&, const Air&, float t) { return t >= 0.05f; })
                                      .From<Hive>()
                                      .To<Sleep>([](const Bee&, const Air& a) { return a.night; })
                                      .From<Sleep>()
                                      .To<Hive>([](const Bee&, const Air& a) { return !a.night; });

Air AirFor(const Bee& b, int tick) {
    const std::uint32_t held = Mix(b.id * 131U + static_cast<std::uint32_t>(tick / 5));
    return Air{Mix(held ^ static_cast<std::uint32_t>(tick)) % 3 == 0, held % 4 == 0};
}

} // namespace

TEST_CASE("A compile-time crowd's Remove moves the last character into the removed slot",
          "[crowd][static][remove]") {
    using Bees = tickfsm::StaticCrowd<kBeeTable>;
    {
        constexpr std::size_t kCount = 6;
        std::vector<Bee> bees(kCount), twin_bees(kCount);
        for (std::size_t i = 0; i < kCount; ++i) bees[i].id = twin_bees[i].id = static_cast<std::uint32_t>(i + 1);
        Bees crowd(kCount), twin(kCount);
        std::vector<std::size_t> twin_of(kCount);
        std::iota(twin_of.begin(), twin_of.end(), std::size_t{0});
        int tick = 0;
        const auto tick_both = [&] {
            crowd.TickAll(bees, [&](std::size_t, Bee& b) { return AirFor(b, tick); });
            twin.TickAll(twin_bees, [&](std::size_t, Bee& b) { return AirFor(b, tick); });
            ++tick;
            REQUIRE(crowd.Size() == twin_of.size());
            for (std::size_t i = 0; i < crowd.Size(); ++i) {
                const std::size_t j = twin_of[i];
                CAPTURE(tick, i, j);
                REQUIRE(crowd.CurrentState(i) == twin.CurrentState(j));
                REQUIRE(crowd.ActivePath(i).view() == twin.ActivePath(j).view());
                REQUIRE(crowd.TicksInState(i) == twin.TicksInState(j));
                REQUIRE(crowd.TicksInState<Hive>(i) == twin.TicksInState<Hive>(j));
                REQUIRE(crowd.IsStarted(i) == twin.IsStarted(j));
                REQUIRE(crowd.State<Buzz>(i).wings == twin.State<Buzz>(j).wings);
                REQUIRE(crowd.State<Sleep>(i).dreams == twin.State<Sleep>(j).dreams);
                REQUIRE(bees[i].flaps == twin_bees[j].flaps);
            }
        };
        const auto remove = [&](std::size_t i) {
            crowd.Remove(i);
            SwapAndPop(bees, i);
            SwapAndPop(twin_of, i);
        };
        const auto ids = [&](std::size_t i) {
            std::vector<int> both{crowd.State<Buzz>(i).life.id, crowd.State<Sleep>(i).life.id};
            std::sort(both.begin(), both.end());
            return both;
        };
        for (int t = 0; t < 30; ++t) tick_both();
        for (int t = 0; t < 40 && crowd.TicksInState<Hive>(kCount - 1) == 0; ++t) tick_both();
        REQUIRE(crowd.TicksInState<Hive>(kCount - 1) > 0); // the composite's count moves too

        BeeLife::destroyed.clear();
        const int alive = BeeLife::alive;
        const std::vector<int> gone = ids(2), moved = ids(kCount - 1);
        remove(2);
        CHECK(BeeLife::Destroyed() == gone);
        CHECK(BeeLife::alive == alive - 2);
        CHECK(ids(2) == moved);
        CHECK(*crowd.State<Buzz>(2).life.load == crowd.State<Buzz>(2).life.id);
        for (int t = 0; t < 80; ++t) tick_both();

        bees.push_back(Bee{50, 0, nullptr});
        twin_bees.push_back(Bee{50, 0, nullptr});
        REQUIRE(crowd.Add() == bees.size() - 1);
        twin.Add();
        twin_of.push_back(twin.Size() - 1);
        remove(0); // the one not started moves to 0
        CHECK_FALSE(crowd.IsStarted(0));
        for (int t = 0; t < 40; ++t) tick_both();
        CHECK(crowd.IsStarted(0));

        remove(crowd.Size() - 1);
        while (crowd.Size() > 0) {
            remove(0);
            tick_both();
        }
        CHECK(BeeLife::alive == alive - 2 * static_cast<int>(kCount) + 2); // the twin's added character has two
        crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; });
        crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; }, tickfsm::TickOrder::ByState);
        CHECK(crowd.Add() == 0);
        bees.push_back(Bee{60, 0, nullptr});
        crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; });
        CHECK(crowd.IsStarted(0));
        CHECK(crowd.State<Buzz>(0).wings == 1); // a new character's objects
    }
    CHECK(BeeLife::alive == 0);
    BeeLife::Destroyed(); // none twice
}

TEST_CASE("A compile-time crowd whose states hold data builds one set of state objects per character",
          "[crowd][static]") {
    const int before = BeeLife::alive;
    {
        tickfsm::StaticCrowd<kBeeTable> crowd(3);
        CHECK(BeeLife::alive - before == 3 * 2); // two states with data each, and no spare set
    }
    CHECK(BeeLife::alive == before);
}

TEST_CASE("A compile-time crowd's TickAll ticks every character left after Remove", "[crowd][static][remove]") {
    // StaticCrowd's TickAll gate is its size (fast_count): it must follow a removal.
    using Bees = tickfsm::StaticCrowd<kBeeTable>;
    constexpr std::size_t kCount = tickfsm::detail::kGroupMin + 4;
    std::vector<Bee> bees(kCount);
    Bees crowd(kCount);
    crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; });
    CHECK(crowd.Add() == kCount);
    crowd.Remove(kCount);
    crowd.Remove(5);
    bees.pop_back();
    crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; });
    for (std::size_t i = 0; i < crowd.Size(); ++i) CHECK(crowd.State<Buzz>(i).wings == 2);
    crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; }, tickfsm::TickOrder::ByState);
    for (std::size_t i = 0; i < crowd.Size(); ++i) CHECK(crowd.State<Buzz>(i).wings == 3);
}

TEST_CASE("A compile-time crowd refuses Remove while it ticks, and an index out of range",
          "[crowd][static][remove][error]") {
    using Catch::Matchers::Contains;
    using Bees = tickfsm::StaticCrowd<kBeeTable>;
    std::vector<Bee> bees(3);
    Bees crowd(3);
    crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; });
    CHECK_THROWS_WITH(crowd.TickAll(bees, [&](std::size_t i, Bee&) { crowd.Remove(i); return Air{}; }),
                      Contains("tickfsm: StaticCrowd<Bee, Air>: Remove(0) called from inside a hook, condition or "
                               "make_action of this crowd's TickAll; call it between ticks"));
    bees[1].poke = [&] { crowd.Remove(1); };
    CHECK_THROWS_WITH(crowd.TickAll(bees, [](std::size_t, Bee&) { return Air{}; }),
                      Contains("Remove(1) called from inside a hook, condition or make_action of this crowd's TickAll"));
    CHECK_THROWS_WITH(crowd.Perform(1, bees[1], Air{}),
                      Contains("tickfsm: StaticCrowd<Bee, Air>: Remove(1) called from inside a hook or condition of "
                               "character 1; call it between ticks"));
    bees[1].poke = [&] { crowd.Remove(2); };
    CHECK_THROWS_WITH(crowd.Perform(1, bees[1], Air{}),
                      Contains("Remove(2) called from inside a hook or condition of character 1"));
    bees[1].poke = nullptr;
    CHECK(crowd.Size() == 3);
    CHECK_THROWS_WITH(crowd.Remove(3),
                      Contains("tickfsm: StaticCrowd<Bee, Air>: Remove(3): no character 3: the crowd has 3 characters"));
    crowd.Perform(1, bees[1], Air{}); // usable after each refusal
    crowd.Remove(2);
    CHECK(crowd.Size() == 2);
}
