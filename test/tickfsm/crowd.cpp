// Crowd<Manager>: many characters on one shared table, 8 bytes each plus state data.

// The tests build with NDEBUG; this file checks character indices (see docs/errors.md).
#define TICKFSM_CHECKED 1

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

#include "tick_log.hpp"

namespace {

struct Ant {
    std::uint32_t seed = 1;
    int carried = 0;
    float x = 0;
};
struct World {
    bool rain = false;
};

std::uint32_t Next(std::uint32_t& s) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

struct Wander {
    void Perform(Ant& a, const World&) { a.x += static_cast<float>(Next(a.seed) % 3) - 1.0f; }
};
struct Carry {
    void OnStateEnter(Ant& a, const World&) { ++a.carried; }
};
struct Shelter {};
struct Tally { // a state with data
    int visits = 0;
    void OnStateEnter(Ant&, const World&) { ++visits; }
};

/// Wander with an enter hook that does nothing: a machine whose initial state
/// it is starts on the general path, where AntStateManager starts quickly.
struct HookedWander : Wander {
    void OnStateEnter(Ant&, const World&) {}
};

/// The ants' machine, with `Roam` as the state they wander in.
template <class Roam>
class RoamingAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit RoamingAntStateManager(Ant& ant) : StateManager(ant) {
        SetInitialState<Roam>()
            .template To<Shelter>([](const Ant&, const World& w) { return w.rain; })
            .template To<Carry>([](const Ant& a) { return a.seed % 5 == 0; });
        From<Carry>()
            .template To<Roam>([](const Ant&, const World&, float t) { return t >= 0.05f; });
        From<Shelter>()
            .template To<Roam>([](const Ant&, const World& w) { return !w.rain; });
    }
};
using AntStateManager = RoamingAntStateManager<Wander>;
using HookedAntStateManager = RoamingAntStateManager<HookedWander>;

class CountingAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit CountingAntStateManager(Ant& ant) : StateManager(ant) {
        SetInitialState<Wander>().To<Tally>([](const Ant& a) { return a.seed % 4 == 0; });
        From<Tally>().To<Wander>();
    }
};

class CapturingAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit CapturingAntStateManager(Ant& ant, int limit = 3) : StateManager(ant) {
        SetInitialState<Wander>().To<Carry>([limit](const Ant& a) { return a.carried < limit; });
    }
};

struct Haul { // gated: a state the fast path cannot enter, so it ticks on the general path
    bool CanEnterState(const Ant& a, const tickfsm::StateRef&) const { return a.carried < 4; }
    void OnStateEnter(Ant& a, const World&) { ++a.carried; }
};

class HaulingAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit HaulingAntStateManager(Ant& ant) : StateManager(ant) {
        SetInitialState<Wander>().To<Haul>([](const Ant& a) { return a.seed % 3 == 0; });
        From<Haul>().To<Wander>([](const Ant&, const World&, float t) { return t >= 0.05f; });
    }
};

/// A character whose state calls back into its crowd from a hook.
struct Pest {
    std::function<void()> poke;
};
struct Pester {
    void Perform(Pest& p, const World&) {
        if (p.poke) p.poke();
    }
};
class PestStateManager : public tickfsm::StateManager<Pest, World> {
public:
    explicit PestStateManager(Pest& pest) : StateManager(pest) { SetInitialState<Pester>(); }
};

/// A character that notes when it ticks, for the order TickOrder::ByState keeps.
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
struct Rest {
    void Perform(Bug& b, const Clock&) { b.log->push_back({'T', b.id}); }
};
class BugStateManager : public tickfsm::StateManager<Bug, Clock> {
public:
    explicit BugStateManager(Bug& bug) : StateManager(bug) {
        SetInitialState<Crawl>().To<Fly>([](const Bug& b, const Clock& c) {
            return (b.id * 7 + static_cast<std::size_t>(c.tick)) % 5 == 0;
        });
        From<Fly>().To<Rest>([](const Bug& b, const Clock& c) { return (b.id + static_cast<std::size_t>(c.tick)) % 3 == 0; });
        From<Rest>().To<Crawl>([](const Bug&, const Clock&, float t) { return t >= 0.05f; });
    }
};

World WeatherAt(int tick) { return World{(tick / 40) % 3 == 1}; }

/// `count` ants seeded alike twice: `solo`, each driven by its own Manager, and
/// `herd`, driven by one crowd, so that a test can tick both and compare.
template <class Manager>
struct Twins {
    Twins(std::size_t count, std::uint32_t seed_step, std::uint32_t seed_base)
        : solo(count), herd(count), crowd(count, prototype) {
        for (std::size_t i = 0; i < count; ++i)
            solo[i].seed = herd[i].seed = static_cast<std::uint32_t>(i) * seed_step + seed_base;
        for (auto& ant : solo) machines.push_back(std::make_unique<Manager>(ant)); // solo never reallocates
    }
    /// Character i is where its own machine is, for as long.
    void RequireInStep(std::size_t i) const {
        REQUIRE(crowd.CurrentState(i) == machines[i]->CurrentState());
        REQUIRE(crowd.TicksInState(i) == machines[i]->TicksInState());
    }

    std::vector<Ant> solo, herd;
    std::vector<std::unique_ptr<Manager>> machines;
    Ant prototype;
    tickfsm::Crowd<Manager> crowd;
};

} // namespace

TEST_CASE("A crowd ticks each character exactly as its own StateManager would", "[crowd]") {
    constexpr std::size_t kCount = 50;
    Twins<AntStateManager> twins(kCount, 7919, 1);
    auto& [solo, herd, machines, prototype, crowd] = twins;

    int changes = 0;
    for (int tick = 0; tick < 300; ++tick) {
        const World w = WeatherAt(tick);
        for (std::size_t i = 0; i < kCount; ++i) {
            machines[i]->Perform(w);
            crowd.Perform(i, herd[i], w);
            twins.RequireInStep(i);
            changes += crowd.TicksInState(i) == 0;
        }
    }
    for (std::size_t i = 0; i < kCount; ++i) {
        CHECK(herd[i].x == solo[i].x);
        CHECK(herd[i].carried == solo[i].carried);
    }
    CHECK(changes > 500);
    CHECK(crowd.CurrentStateName(0) == machines[0]->CurrentStateName());
}

TEST_CASE("A crowd holds 8 bytes per character when its states have no data", "[crowd][memory]") {
    Ant prototype;
    tickfsm::Crowd<AntStateManager> crowd(1000, prototype);
    CHECK(crowd.BytesPerCharacter() == 8);
    CHECK(crowd.Size() == 1000);
}

TEST_CASE("Every character of a crowd has its own objects of states with data", "[crowd][data]") {
    std::vector<Ant> ants(3);
    ants[0].seed = 4;  // enters Tally on its first tick
    ants[1].seed = 3;  // never does on its first tick
    ants[2].seed = 8;
    Ant prototype;
    tickfsm::Crowd<CountingAntStateManager> crowd(3, prototype);
    CHECK(crowd.BytesPerCharacter() == 8 + sizeof(int));
    for (std::size_t i = 0; i < 3; ++i) crowd.Perform(i, ants[i], {});
    CHECK(crowd.State<Tally>(0).visits == 1);
    CHECK(crowd.State<Tally>(1).visits == 0);
    CHECK(crowd.State<Tally>(2).visits == 1);
    const std::size_t added = crowd.Add();
    CHECK(added == 3);
    CHECK(crowd.State<Tally>(0).visits == 1); // kept across the growth
    CHECK(crowd.State<Tally>(3).visits == 0);
    CHECK_FALSE(crowd.IsIn<Wander>(3));
}

TEST_CASE("TickAll gives each character its own state data as Perform does", "[crowd][data]") {
    // TickAll ticks a table whose states have data in a loop of its own, out
    // of line: each character must still reach its own state objects there.
    constexpr std::size_t kCount = 37;
    std::vector<Ant> by_tick_all(kCount), by_perform(kCount);
    for (std::size_t i = 0; i < kCount; ++i)
        by_tick_all[i].seed = by_perform[i].seed = static_cast<std::uint32_t>(i * 7 + 1);
    Ant prototype;
    tickfsm::Crowd<CountingAntStateManager> all(kCount, prototype), each(kCount, prototype);
    int most_visits = 0;
    for (int tick = 0; tick < 60; ++tick) {
        all.TickAll(by_tick_all, [](std::size_t, Ant&) { return World{}; });
        for (std::size_t i = 0; i < kCount; ++i) each.Perform(i, by_perform[i], World{});
        for (std::size_t i = 0; i < kCount; ++i) {
            REQUIRE(all.IsIn<Tally>(i) == each.IsIn<Tally>(i));
            REQUIRE(all.State<Tally>(i).visits == each.State<Tally>(i).visits);
            REQUIRE(by_tick_all[i].x == by_perform[i].x);
            most_visits = std::max(most_visits, all.State<Tally>(i).visits);
        }
    }
    CHECK(most_visits > 1);
    CHECK(all.State<Tally>(0).visits != all.State<Tally>(kCount - 1).visits);
}

namespace {

struct Burden {
    int load = 0;
    explicit Burden(int l) : load(l) {}
};
class LoadedAntStateManager : public tickfsm::StateManager<Ant, World> { // an action built with arguments
public:
    explicit LoadedAntStateManager(Ant& a) : StateManager(a) { SetInitialState<Wander>().Do<Burden>(3); }
};
enum class AntKey { Wander };
class KeyedAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit KeyedAntStateManager(Ant& a) : StateManager(a) {
        AddState<Wander>(AntKey::Wander);
        SetInitialState(AntKey::Wander);
    }
};

} // namespace

TEST_CASE("A crowd refuses a configuration private to one machine, and says why", "[crowd][error]") {
    Ant prototype;
    using Catch::Matchers::Contains;
    REQUIRE_THROWS_WITH(tickfsm::Crowd<CapturingAntStateManager>(10, prototype, 2),
                        Contains("Crowd<CapturingAntStateManager>") && Contains("captureless"));
    REQUIRE_THROWS_WITH(tickfsm::Crowd<LoadedAntStateManager>(10, prototype),
                        Contains("Crowd<LoadedAntStateManager>") && Contains("an action built with arguments"));
    REQUIRE_THROWS_WITH(tickfsm::Crowd<KeyedAntStateManager>(10, prototype),
                        Contains("Crowd<KeyedAntStateManager>") && Contains("keyed or delegate states"));
}

TEST_CASE("TickAll ticks every character and checks the spans' sizes", "[crowd]") {
    std::vector<Ant> ants(4);
    std::vector<World> weather(4, World{true});
    Ant prototype;
    tickfsm::Crowd<AntStateManager> crowd(4, prototype);
    crowd.TickAll(ants, weather);
    for (std::size_t i = 0; i < 4; ++i) CHECK(crowd.IsIn<Shelter>(i));
    std::vector<World> too_few(3);
    CHECK_THROWS_AS(crowd.TickAll(ants, too_few), tickfsm::ConfigError);
    crowd.Reset(2);
    CHECK_FALSE(crowd.IsIn<Shelter>(2));
}

TEST_CASE("TickAll ticks crowds on either side of kInlineTickMax as their own StateManagers", "[crowd]") {
    // Up to kInlineTickMax characters, TickAll's common case runs its loop in
    // the caller; beyond, in TickLoopAligned. Both must tick every character once.
    for (const std::size_t count : {std::size_t{1}, tickfsm::detail::kInlineTickMax, tickfsm::detail::kInlineTickMax + 1, std::size_t{50}}) {
        CAPTURE(count);
        Twins<AntStateManager> twins(count, 104729, 3);
        auto& [solo, herd, machines, prototype, crowd] = twins;
        std::size_t made = 0;
        for (int tick = 0; tick < 200; ++tick) {
            const World w = WeatherAt(tick);
            crowd.TickAll(herd, [w, &made](std::size_t, Ant&) {
                ++made;
                return w;
            });
            for (auto& m : machines) m->Perform(w);
            for (std::size_t i = 0; i < count; ++i) twins.RequireInStep(i);
        }
        CHECK(made == count * 200);
        for (std::size_t i = 0; i < count; ++i) {
            CHECK(herd[i].x == solo[i].x);
            CHECK(herd[i].carried == solo[i].carried);
        }
    }
}

TEST_CASE("TickAll calls the caller's own make_action when it keeps state in itself", "[crowd]") {
    // TickAll's loops run a copy of a small trivially copyable make_action
    // that is callable as const, so that an out-of-line loop keeps what it
    // captured in registers (detail::HeldCallable); one that changes itself
    // when called must be called as the caller's object, or its count is lost.
    struct Counting {
        std::size_t calls = 0;
        World operator()(std::size_t, Ant&) {
            ++calls;
            return World{};
        }
    };
    using Crowd = tickfsm::Crowd<AntStateManager>;
    using Held = tickfsm::detail::HeldCallable<Counting, std::size_t, Ant&>;
    STATIC_REQUIRE(std::is_same_v<Held, Counting&>);
    std::size_t made = 0;
    auto by_value = [w = World{}, &made](std::size_t, Ant&) {
        ++made;
        return w;
    };
    using HeldLambda = tickfsm::detail::HeldCallable<decltype(by_value), std::size_t, Ant&>;
    STATIC_REQUIRE(std::is_same_v<HeldLambda, const decltype(by_value)>);
    for (const std::size_t count : {std::size_t{3}, tickfsm::detail::kInlineTickMax + 3}) {
        CAPTURE(count);
        std::vector<Ant> ants(count);
        Ant prototype;
        Crowd crowd(count, prototype);
        Counting counting;
        for (int tick = 0; tick < 3; ++tick) crowd.TickAll(ants, counting);
        CHECK(counting.calls == 3 * count);
        made = 0;
        crowd.TickAll(ants, by_value);
        CHECK(made == count);
    }
}

TEST_CASE("TickAll on an empty crowd ticks nobody, then ticks the characters added to it", "[crowd]") {
    // TickAll's common case is decided by one compare of the span's size with
    // a count kept for it (fast_count); an empty crowd must not take it.
    Ant prototype;
    tickfsm::Crowd<AntStateManager> crowd(0, prototype);
    std::vector<Ant> ants;
    std::vector<World> weather;
    crowd.TickAll(ants, weather);
    int made = 0;
    const auto rain = [&made](std::size_t, Ant&) {
        ++made;
        return World{true};
    };
    crowd.TickAll(ants, rain);
    CHECK(made == 0);
    CHECK(crowd.Size() == 0);

    ants.resize(2);
    CHECK(crowd.Add() == 0);
    CHECK(crowd.Add() == 1);
    crowd.TickAll(ants, rain); // each starts, then goes into Shelter
    crowd.TickAll(ants, rain); // the common case: every character started
    CHECK(made == 4);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(crowd.IsIn<Shelter>(i));
        CHECK(crowd.TicksInState(i) == 1);
    }
}

TEST_CASE("TickAll starts characters added or reset after every character had started", "[crowd][regression]") {
    // Once all characters run on the fast path, TickAll stops checking each one;
    // a character added or reset later must still be started by its next tick.
    std::vector<Ant> herd(3), solo(3);
    solo.reserve(4); // the machines refer to solo's elements: it must not reallocate
    std::vector<std::unique_ptr<AntStateManager>> machines;
    for (std::size_t i = 0; i < 3; ++i) {
        herd[i].seed = solo[i].seed = static_cast<std::uint32_t>(i * 31 + 2);
        machines.push_back(std::make_unique<AntStateManager>(solo[i]));
    }
    Ant prototype;
    tickfsm::Crowd<AntStateManager> crowd(3, prototype);
    const auto tick_both = [&](int tick) {
        const World w = WeatherAt(tick);
        crowd.TickAll(herd, [w](std::size_t, Ant&) { return w; });
        for (auto& m : machines) m->Perform(w);
        for (std::size_t i = 0; i < herd.size(); ++i) {
            REQUIRE(crowd.CurrentState(i) == machines[i]->CurrentState());
            REQUIRE(crowd.TicksInState(i) == machines[i]->TicksInState());
        }
    };
    for (int tick = 0; tick < 5; ++tick) tick_both(tick);

    herd.push_back(Ant{77, 0, 0.0f});
    solo.push_back(Ant{77, 0, 0.0f});
    machines.push_back(std::make_unique<AntStateManager>(solo.back()));
    CHECK(crowd.Add() == 3);
    for (int tick = 5; tick < 50; ++tick) tick_both(tick);
    CHECK(crowd.IsStarted(3));

    crowd.Reset(1);
    machines[1]->Reset();
    CHECK_FALSE(crowd.IsStarted(1));
    for (int tick = 50; tick < 120; ++tick) tick_both(tick);
    CHECK(crowd.IsStarted(1));
}

TEST_CASE("A first tick that runs no hook starts a character as the general path does", "[crowd][start]") {
    // AntStateManager's first tick needs no hook, so it starts by writing the
    // character's state; HookedAntStateManager's runs an enter hook, so it
    // starts on the general path. Same machine otherwise: same ids, same ticks.
    constexpr std::size_t kCount = 40;
    std::vector<Ant> quick_herd(kCount), hooked_herd(kCount), quick_solo(kCount), hooked_solo(kCount);
    std::vector<std::unique_ptr<AntStateManager>> quick_machines;
    std::vector<std::unique_ptr<HookedAntStateManager>> hooked_machines;
    for (std::size_t i = 0; i < kCount; ++i) {
        const auto seed = static_cast<std::uint32_t>(i * 3 + 1); // every fifth carries on its first tick
        quick_herd[i].seed = hooked_herd[i].seed = quick_solo[i].seed = hooked_solo[i].seed = seed;
        quick_machines.push_back(std::make_unique<AntStateManager>(quick_solo[i]));
        hooked_machines.push_back(std::make_unique<HookedAntStateManager>(hooked_solo[i]));
    }
    Ant prototype;
    tickfsm::Crowd<AntStateManager> quick(kCount, prototype);
    tickfsm::Crowd<HookedAntStateManager> hooked(kCount, prototype);

    int started_moving = 0;
    for (int tick = 0; tick < 200; ++tick) {
        if (tick == 70 || tick == 130) { // restarts, by TickAll and by Perform
            for (std::size_t i = tick == 70 ? 0 : 1; i < kCount; i += 3) {
                quick.Reset(i);
                hooked.Reset(i);
                quick_machines[i]->Reset();
                hooked_machines[i]->Reset();
            }
        }
        const World w = WeatherAt(tick);
        if (tick % 2 == 0) {
            quick.TickAll(quick_herd, [w](std::size_t, Ant&) { return w; });
            hooked.TickAll(hooked_herd, [w](std::size_t, Ant&) { return w; });
        } else {
            for (std::size_t i = 0; i < kCount; ++i) {
                quick.Perform(i, quick_herd[i], w);
                hooked.Perform(i, hooked_herd[i], w);
            }
        }
        for (std::size_t i = 0; i < kCount; ++i) {
            quick_machines[i]->Perform(w);
            hooked_machines[i]->Perform(w);
            REQUIRE(quick.CurrentState(i) == hooked.CurrentState(i));
            REQUIRE(quick.TicksInState(i) == hooked.TicksInState(i));
            REQUIRE(quick_machines[i]->CurrentState() == hooked_machines[i]->CurrentState());
            REQUIRE(quick_machines[i]->TicksInState() == hooked_machines[i]->TicksInState());
            REQUIRE(quick.CurrentState(i) == quick_machines[i]->CurrentState());
            REQUIRE(quick.TicksInState(i) == quick_machines[i]->TicksInState());
            REQUIRE(quick_herd[i].x == hooked_herd[i].x);
            REQUIRE(quick_herd[i].carried == hooked_herd[i].carried);
            if (tick == 0) started_moving += quick.TicksInState(i) == 0;
        }
    }
    CHECK(started_moving > 0); // some characters left the initial state on their first tick
    CHECK(quick.IdOf<Wander>() == hooked.IdOf<HookedWander>());
}

TEST_CASE("A crowd refuses to be grown reset or ticked again while its TickAll runs", "[crowd][error]") {
    // Add would move the arrays TickAll is walking; Reset and a nested TickAll
    // would tick characters twice. Each is refused, and the crowd stays usable,
    // whether TickAll's loop runs inline (a few characters) or out of line
    // (more than kInlineTickMax).
    using Crowd = tickfsm::Crowd<AntStateManager>;
    for (const std::size_t count : {std::size_t{3}, tickfsm::detail::kInlineTickMax + 4}) {
        CAPTURE(count);
        std::vector<Ant> ants(count);
        Ant prototype;
        Crowd crowd(count, prototype);
        const World dry{};
        crowd.TickAll(ants, [&](std::size_t, Ant&) { return dry; }); // every character started: the fast path

        using Catch::Matchers::Contains;
        CHECK_THROWS_WITH(crowd.TickAll(ants, [&](std::size_t, Ant&) { crowd.Add(); return dry; }),
                          Contains("Crowd::Add called from inside"));
        CHECK_THROWS_WITH(crowd.TickAll(ants, [&](std::size_t i, Ant&) { crowd.Reset(i); return dry; }),
                          Contains("Crowd::Reset(0) called during TickAll"));
        CHECK_THROWS_WITH(crowd.TickAll(ants,
                                        [&](std::size_t, Ant&) {
                                            crowd.TickAll(ants, [&](std::size_t, Ant&) { return dry; });
                                            return dry;
                                        }),
                          Contains("Crowd::TickAll called during TickAll"));
        CHECK(crowd.Size() == count);

        crowd.TickAll(ants, [&](std::size_t, Ant&) { return dry; }); // TickAll is over after each refusal
        for (std::size_t i = 0; i < count; ++i) CHECK(crowd.TicksInState(i) >= 2);
        CHECK(crowd.Add() == count);
    }
}

TEST_CASE("TickAll keeps checking every character when a state of the table ticks on the general path",
          "[crowd][regression]") {
    // Haul's gate sends its ticks to the general path: TickAll may never take
    // the unchecked loop on this table, even once every character has started.
    constexpr std::size_t kCount = 20;
    Twins<HaulingAntStateManager> twins(kCount, 131, 5);
    auto& [solo, herd, machines, prototype, crowd] = twins;

    int hauls = 0;
    for (int tick = 0; tick < 200; ++tick) {
        const World w = WeatherAt(tick);
        crowd.TickAll(herd, [w](std::size_t, Ant&) { return w; });
        for (std::size_t i = 0; i < kCount; ++i) {
            machines[i]->Perform(w);
            twins.RequireInStep(i);
            REQUIRE(herd[i].carried == solo[i].carried);
            hauls += crowd.IsIn<Haul>(i) && crowd.TicksInState(i) == 0;
        }
    }
    CHECK(hauls > 20);
    for (std::size_t i = 0; i < kCount; ++i) CHECK(herd[i].carried <= 4); // the gate held
}

TEST_CASE("A crowd refuses calls back into a character that Perform is ticking, and lets others tick",
          "[crowd][error][regression]") {
    // Crowd::Perform marks the character it ticks in the crowd (plain stores),
    // not in its flags. TickAll and Add from such a hook used to go through:
    // TickAll ticked the character again inside its own tick, and Add could
    // move the runtime the tick was writing.
    std::vector<Pest> pests(3);
    Pest prototype;
    tickfsm::Crowd<PestStateManager> crowd(3, prototype);
    const World dry{};
    for (std::size_t i = 0; i < 3; ++i) crowd.Perform(i, pests[i], dry); // started: the next ticks are fast

    using Catch::Matchers::Contains;
    const auto refused = [&](std::function<void()> poke, const char* message) {
        pests[0].poke = std::move(poke);
        CHECK_THROWS_WITH(crowd.Perform(0, pests[0], dry), Contains(message));
    };
    refused([&] { crowd.Perform(0, pests[0], dry); },
            "Crowd::Perform(0) called from inside a hook or condition of that character");
    refused([&] { crowd.TickAll(pests, [&](std::size_t, Pest&) { return dry; }); },
            "Crowd::TickAll called from inside a hook or condition of character 0");
    refused([&] { crowd.Add(); }, "Crowd::Add called from inside");
    refused([&] { crowd.Reset(0); }, "Crowd::Reset(0) called from inside");
    refused([&] { crowd.SendEvent(0, pests[0], tickfsm::Event{"poke"}, dry); }, "Crowd::SendEvent(0, poke)");
    CHECK(crowd.Size() == 3);
    CHECK(crowd.TicksInState(0) == 6); // each refused call came from a tick that counted

    pests[0].poke = [&] { crowd.Perform(1, pests[1], dry); }; // another character: allowed
    crowd.Perform(0, pests[0], dry);
    CHECK(crowd.TicksInState(0) == 7);
    CHECK(crowd.TicksInState(1) == 2);

    pests[0].poke = nullptr; // the crowd is idle again after every refusal
    crowd.TickAll(pests, [&](std::size_t, Pest&) { return dry; });
    CHECK(crowd.TicksInState(0) == 8);
    CHECK(crowd.TicksInState(2) == 2);
    CHECK(crowd.Add() == 3);
}

TEST_CASE("TickAll by state ticks each character as its own StateManager would", "[crowd][by-state]") {
    constexpr std::size_t kCount = 600; // two full blocks and a part
    static_assert(kCount > 2 * tickfsm::detail::GroupBlockFor(sizeof(World)));
    Twins<AntStateManager> twins(kCount, 7919, 1);
    auto& [solo, herd, machines, prototype, crowd] = twins;
    int changes = 0;
    for (int tick = 0; tick < 200; ++tick) {
        const World w = WeatherAt(tick);
        crowd.TickAll(herd, [w](std::size_t, Ant&) { return w; }, tickfsm::TickOrder::ByState);
        for (std::size_t i = 0; i < kCount; ++i) {
            machines[i]->Perform(w);
            twins.RequireInStep(i);
            changes += crowd.TicksInState(i) == 0;
        }
    }
    for (std::size_t i = 0; i < kCount; ++i) {
        CHECK(herd[i].x == solo[i].x);
        CHECK(herd[i].carried == solo[i].carried);
    }
    CHECK(changes > 5000);
}

TEST_CASE("TickAll by state makes a block's actions in index order, then ticks it grouped by state",
          "[crowd][by-state]") {
    using Bugs = tickfsm::Crowd<BugStateManager>;
    constexpr std::size_t kCount = 600;
    constexpr std::size_t kBlock = tickfsm::detail::GroupBlockFor(sizeof(typename Bugs::Action));
    tick_log::Log log, twin_log;
    std::vector<Bug> bugs(kCount), twin_bugs(kCount);
    for (std::size_t i = 0; i < kCount; ++i) {
        bugs[i] = Bug{i, &log};
        twin_bugs[i] = Bug{i, &twin_log};
    }
    Bug prototype{0, &log};
    Bugs crowd(kCount, prototype), twin(kCount, prototype); // the twin ticks by TickAll, in index order
    int grouped_ticks = 0;
    for (int tick = 0; tick < 40; ++tick) {
        std::vector<tickfsm::StateId> before(kCount);
        for (std::size_t i = 0; i < kCount; ++i) before[i] = crowd.CurrentState(i);
        log.clear();
        crowd.TickAll(bugs, [&](std::size_t i, Bug&) {
            log.push_back({'M', i});
            return Clock{tick};
        }, tickfsm::TickOrder::ByState);
        twin.TickAll(twin_bugs, [&](std::size_t, Bug&) { return Clock{tick}; });
        for (std::size_t i = 0; i < kCount; ++i) REQUIRE(crowd.CurrentState(i) == twin.CurrentState(i));

        if (tick == 0) // nobody has started: TickAll's order, each action made just before its tick
            tick_log::RequireIndexOrder(log, kCount);
        else
            grouped_ticks += tick_log::RequireGroupedBlocks(log, before, kBlock);
    }
    CHECK(grouped_ticks > 30);
}

TEST_CASE("TickAll by state ticks a crowd too small to group in index order", "[crowd][by-state]") {
    using Bugs = tickfsm::Crowd<BugStateManager>;
    constexpr std::size_t kCount = tickfsm::detail::kGroupMin - 1;
    tick_log::Log log;
    std::vector<Bug> bugs(kCount);
    for (std::size_t i = 0; i < kCount; ++i) bugs[i] = Bug{i, &log};
    Bug prototype{0, &log};
    Bugs crowd(kCount, prototype);
    for (int tick = 0; tick < 10; ++tick) {
        log.clear();
        crowd.TickAll(bugs, [&](std::size_t i, Bug&) {
            log.push_back({'M', i});
            return Clock{tick};
        }, tickfsm::TickOrder::ByState);
        tick_log::RequireIndexOrder(log, kCount);
    }
}

TEST_CASE("TickAll by state gives each character its own state data", "[crowd][by-state][data]") {
    constexpr std::size_t kCount = 300;
    std::vector<Ant> grouped(kCount), each(kCount);
    for (std::size_t i = 0; i < kCount; ++i) grouped[i].seed = each[i].seed = static_cast<std::uint32_t>(i * 7 + 1);
    Ant prototype;
    tickfsm::Crowd<CountingAntStateManager> by_state(kCount, prototype), by_perform(kCount, prototype);
    for (int tick = 0; tick < 60; ++tick) {
        by_state.TickAll(grouped, [](std::size_t, Ant&) { return World{}; }, tickfsm::TickOrder::ByState);
        for (std::size_t i = 0; i < kCount; ++i) by_perform.Perform(i, each[i], World{});
        for (std::size_t i = 0; i < kCount; ++i) {
            REQUIRE(by_state.IsIn<Tally>(i) == by_perform.IsIn<Tally>(i));
            REQUIRE(by_state.State<Tally>(i).visits == by_perform.State<Tally>(i).visits);
            REQUIRE(grouped[i].x == each[i].x);
        }
    }
}

TEST_CASE("A crowd refuses to be grown or reset while its TickAll by state runs", "[crowd][by-state][error]") {
    constexpr std::size_t kCount = 100;
    std::vector<Ant> ants(kCount);
    Ant prototype;
    tickfsm::Crowd<AntStateManager> crowd(kCount, prototype);
    const World dry{};
    crowd.TickAll(ants, [&](std::size_t, Ant&) { return dry; }); // every character started: TickAll by state groups
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(crowd.TickAll(ants, [&](std::size_t, Ant&) { crowd.Add(); return dry; }, tickfsm::TickOrder::ByState),
                      Contains("Crowd::Add called from inside"));
    CHECK_THROWS_WITH(crowd.TickAll(ants, [&](std::size_t i, Ant&) { crowd.Reset(i); return dry; }, tickfsm::TickOrder::ByState),
                      Contains("Crowd::Reset(0) called during TickAll"));
    CHECK(crowd.Size() == kCount);
    crowd.TickAll(ants, [&](std::size_t, Ant&) { return dry; }, tickfsm::TickOrder::ByState); // the crowd ticks on after each refusal
    CHECK(crowd.Add() == kCount);
}

namespace {

/// Its one transition holds only at 0 seconds in state: it would fire if the ticks wrapped to 0.
template <bool kKeepPrevious>
class SittingAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit SittingAntStateManager(Ant& ant) : StateManager(ant) {
        if (kKeepPrevious) KeepPreviousState(); // every state on the general path
        SetInitialState<Shelter>().To<Carry>([](const Ant&, const World&, float t) { return t == 0.0f; });
        From<Carry>();
    }
};

} // namespace

TEMPLATE_TEST_CASE("A crowd character's TicksInState saturates at 2^32-1 and its TimeInState is a double",
                   "[crowd][time][regression]", SittingAntStateManager<false>, SittingAntStateManager<true>) {
    std::vector<Ant> ants(2);
    Ant prototype;
    tickfsm::Crowd<TestType> crowd(ants.size(), prototype);
    const auto make = [](std::size_t, Ant&) { return World{}; };
    crowd.TickAll(ants, make);
    for (std::size_t i = 0; i < ants.size(); ++i) tickfsm::detail::TicksAccess::Of(crowd, i) = UINT32_MAX - 1;
    crowd.TickAll(ants, make); // 2^32-1
    crowd.TickAll(ants, make); // stays there: a wrap to 0 would fire `t == 0`
    crowd.Perform(1, ants[1], World{});
    const double dt = static_cast<double>(crowd.FixedDeltaTime());
    for (std::size_t i = 0; i < ants.size(); ++i) {
        CHECK(crowd.TicksInState(i) == UINT32_MAX);
        CHECK(crowd.template IsIn<Shelter>(i));
        CHECK(crowd.TimeInState(i) == static_cast<double>(UINT32_MAX) * dt);
    }
    tickfsm::detail::TicksAccess::Of(crowd, 0) = (1u << 24) + 1; // where a float product stops advancing
    CHECK(crowd.TimeInState(0) == static_cast<double>((1u << 24) + 1) * dt);
}

/// Every per-index call of a crowd of 3 refuses character 3 with the message
/// `out_of_range(call)` matches, S and D being a state and one with data.
template <class S, class D, class Crowd, class Matcher>
void RequireIndexRefused(Crowd& crowd, Ant& stranger, Matcher out_of_range) {
    REQUIRE_THROWS_WITH(crowd.template IsIn<S>(3), out_of_range("IsIn(3)"));
    REQUIRE_THROWS_WITH(crowd.template State<D>(3), out_of_range("State(3)"));
    REQUIRE_THROWS_WITH(crowd.IsStarted(3), out_of_range("IsStarted(3)"));
    REQUIRE_THROWS_WITH(crowd.TicksInState(3), out_of_range("TicksInState(3)"));
    REQUIRE_THROWS_WITH(crowd.TimeInState(3), out_of_range("TimeInState(3)"));
    REQUIRE_THROWS_WITH(crowd.template TicksInState<S>(3), out_of_range("TicksInState(3)"));
    REQUIRE_THROWS_WITH(crowd.template TimeInState<S>(3), out_of_range("TimeInState(3)"));
    REQUIRE_THROWS_WITH(crowd.CurrentState(3), out_of_range("CurrentState(3)"));
    REQUIRE_THROWS_WITH(crowd.CurrentStateName(3), out_of_range("CurrentStateName(3)"));
    REQUIRE_THROWS_WITH(crowd.Reset(3), out_of_range("Reset(3)"));
    REQUIRE_THROWS_WITH(crowd.Perform(3, stranger, World{}), out_of_range("Perform(3)"));
}

TEST_CASE("A crowd refuses a character index out of range in checked builds", "[crowd][error][checked]") {
    using Catch::Matchers::Contains;
    std::vector<Ant> ants(3);
    Ant prototype, stranger;
    tickfsm::Crowd<CountingAntStateManager> crowd(ants.size(), prototype);
    crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
    const auto out_of_range = [](const char* call) { // the whole refusal: "...::IsIn(3): no character 3: ..."
        return Contains(std::string("tickfsm: StateManager<Ant, World>: Crowd<CountingAntStateManager>::") + call +
                        ": no character 3: the crowd has 3 characters");
    };
    RequireIndexRefused<Wander, Tally>(crowd, stranger, out_of_range);
    REQUIRE_THROWS_WITH(crowd.SendEvent(3, stranger, "Go", World{}), out_of_range("SendEvent(3)"));
    crowd.Perform(2, ants[2], World{}); // the crowd is usable after each refusal
    CHECK(crowd.TicksInState(2) >= 1);
    CHECK(crowd.IsStarted(2));
    tickfsm::Crowd<CountingAntStateManager> lone(1, prototype);
    REQUIRE_THROWS_WITH(lone.Reset(1), Contains("Reset(1): no character 1: the crowd has 1 character") &&
                                           !Contains("1 characters"));
}

namespace {

/// Peeks out of its shelter for a tick, then goes back where it came from.
struct Peek {
    void Perform(Ant&, const World&, tickfsm::Machine<Ant, World>& m) {
        if (m.TicksInState() >= 1) m.RevertToPreviousState();
    }
};

class PeekingAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit PeekingAntStateManager(Ant& ant) : StateManager(ant) {
        KeepPreviousState();
        SetInitialState<Shelter>().To<Peek>([](const Ant&, const World& w) { return !w.rain; });
        From<Peek>();
    }
};

} // namespace

TEST_CASE("A crowd honours its manager's KeepPreviousState", "[crowd][previous]") {
    std::vector<Ant> ants(3);
    Ant prototype;
    tickfsm::Crowd<PeekingAntStateManager> crowd(ants.size(), prototype);
    const World rain{true}, dry{false};
    crowd.Perform(0, ants[0], rain);
    crowd.Perform(1, ants[1], rain);
    crowd.Perform(0, ants[0], dry); // Shelter -> Peek
    REQUIRE(crowd.IsIn<Peek>(0));
    REQUIRE_NOTHROW(crowd.Perform(0, ants[0], rain)); // Peek reverts through its handle: back to Shelter
    CHECK(crowd.IsIn<Shelter>(0));
    crowd.Perform(1, ants[1], dry); // Shelter -> Peek
    CHECK(crowd.IsIn<Peek>(1));
}

TEST_CASE("A crowd keeps each character's previous state and reverts it", "[crowd][previous]") {
    using Catch::Matchers::Contains;
    std::vector<Ant> ants(3);
    Ant prototype;
    tickfsm::Crowd<PeekingAntStateManager> crowd(ants.size(), prototype);
    const World rain{true}, dry{false};
    crowd.Perform(0, ants[0], rain);
    crowd.Perform(1, ants[1], rain);
    CHECK_FALSE(crowd.PreviousState(0).Valid()); // only the initial state entered
    CHECK_FALSE(crowd.RevertToPreviousState(0, ants[0]));
    crowd.Perform(0, ants[0], dry);  // Shelter -> Peek
    crowd.Perform(0, ants[0], rain); // Peek -> Shelter (revert)
    crowd.Perform(1, ants[1], dry);  // Shelter -> Peek
    CHECK(crowd.PreviousState(0).Is<Peek>());
    CHECK(crowd.PreviousState(1).Is<Shelter>());
    CHECK_FALSE(crowd.PreviousState(2).Valid());
    CHECK(crowd.RevertToPreviousState(1, ants[1])); // from outside the tick
    CHECK(crowd.IsIn<Shelter>(1));
    CHECK(crowd.PreviousState(1).Is<Peek>());
    CHECK(crowd.IsIn<Shelter>(0));
    crowd.Reset(0);
    CHECK_FALSE(crowd.PreviousState(0).Valid());

    tickfsm::Crowd<AntStateManager> forgetful(1, prototype); // no KeepPreviousState: nothing kept, 8 bytes
    CHECK(forgetful.BytesPerCharacter() == 8);
    REQUIRE_THROWS_WITH(forgetful.PreviousState(0), Contains("StateManager<Ant, World>") &&
                                                        Contains("Crowd<RoamingAntStateManager") &&
                                                        Contains("PreviousState(0) needs KeepPreviousState()"));
    REQUIRE_THROWS_WITH(forgetful.RevertToPreviousState(0, ants[0]), Contains("needs KeepPreviousState()"));
}

namespace {

struct Grazing {
    int bites = 0;
    void Perform(Ant&, const World&) { ++bites; }
};
struct Sheltering {};
inline constexpr auto kGrazerTable = tickfsm::Transitions<Ant, World>()
                                         .SetInitialState<Grazing>()
                                         .To<Sheltering>([](const Ant&, const World& w) { return w.rain; })
                                         .From<Sheltering>()
                                         .To<Grazing>([](const Ant&, const World& w) { return !w.rain; });

} // namespace

TEST_CASE("A compile-time crowd refuses a character index out of range in checked builds",
          "[crowd][static][error][checked]") {
    using Catch::Matchers::Contains;
    std::vector<Ant> ants(3);
    Ant stranger;
    tickfsm::StaticCrowd<kGrazerTable> crowd(ants.size());
    crowd.TickAll(ants, [](std::size_t, Ant&) { return World{}; });
    const auto out_of_range = [](const char* call) {
        return Contains(std::string(call) + ": no character 3: the crowd has 3 characters");
    };
    RequireIndexRefused<Grazing, Grazing>(crowd, stranger, out_of_range);
    crowd.Perform(2, ants[2], World{}); // the crowd is usable after each refusal
    CHECK(crowd.State<Grazing>(2).bites == 2);
}

TEST_CASE("A crowd is built from its count alone when the controller can be default-constructed", "[crowd]") {
    std::vector<Ant> ants(4);
    tickfsm::Crowd<AntStateManager> crowd(ants.size());
    Ant prototype;
    tickfsm::Crowd<AntStateManager> same(ants.size(), prototype);
    CHECK(crowd.BytesPerCharacter() == same.BytesPerCharacter());
    std::vector<Ant> others = ants;
    for (int tick = 0; tick < 5; ++tick) {
        const World world{tick >= 2};
        crowd.TickAll(ants, [world](std::size_t, Ant&) { return world; });
        same.TickAll(others, [world](std::size_t, Ant&) { return world; });
    }
    for (std::size_t i = 0; i < ants.size(); ++i) {
        CHECK(crowd.CurrentState(i) == same.CurrentState(i));
        CHECK(crowd.TicksInState(i) == same.TicksInState(i));
    }
}

namespace {
struct Hunger {};
class HungryAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit HungryAntStateManager(Ant& a) : StateManager(a) {
        SetInitialState<Wander>();
        From<Hunger>();
        SetGlobalState<Hunger>();
    }
};
} // namespace

TEST_CASE("A crowd of a manager that sets a global state is refused, naming the global state", "[crowd][config_error]") {
    CHECK_THROWS_WITH(tickfsm::Crowd<HungryAntStateManager>(2),
                      Catch::Contains("its constructor sets a global state (SetGlobalState)"));
}

namespace {

struct Soldier;
struct Order {
    int target = 0;
};
struct Squad {
    tickfsm::Crowd<class SoldierStateManager>* crowd = nullptr;
    std::vector<Soldier>* soldiers = nullptr;
    bool named = false; // the leader's order as a named event, else typed
};
struct Soldier {
    int id = 0;
    Squad* squad = nullptr;
    int target = -1;
};
/// The squad leader orders every other soldier, through the crowd.
struct Lead {
    void Perform(Soldier& s, const World&);
};
struct Follow {};
struct Attack {
    void OnEvent(Soldier& s, const Order& o) { s.target = o.target; }
};
class SoldierStateManager : public tickfsm::StateManager<Soldier, World> {
public:
    explicit SoldierStateManager(Soldier& s) : StateManager(s) {
        SetInitialState<Follow>().To<Lead>([](const Soldier& me) { return me.id == 0; }).On<Order>().To<Attack>();
        From<Follow>().On("Charge").To<Attack>();
        From<Attack>().On<Order>().Handle();
    }
};
void Lead::Perform(Soldier& s, const World&) {
    for (std::size_t i = 1; i < s.squad->soldiers->size(); ++i) {
        if (s.squad->named) s.squad->crowd->SendEvent(i, (*s.squad->soldiers)[i], "Charge", World{});
        else s.squad->crowd->SendEvent(i, (*s.squad->soldiers)[i], Order{.target = 7}, World{});
    }
}

} // namespace

TEST_CASE("A hook that sends to another character during TickAll is told to use a Perform loop or send after TickAll",
          "[crowd][error]") {
    using Catch::Matchers::Contains;
    std::vector<Soldier> soldiers(3);
    tickfsm::Crowd<SoldierStateManager> crowd(3);
    Squad squad{&crowd, &soldiers};
    for (std::size_t i = 0; i < soldiers.size(); ++i) {
        soldiers[i].id = static_cast<int>(i);
        soldiers[i].squad = &squad;
    }
    const auto tick_all = [&] { crowd.TickAll(soldiers, [](std::size_t, Soldier&) { return World{}; }); };
    const auto message_of = [](auto call) -> std::string {
        try {
            call();
        } catch (const tickfsm::ConfigError& e) {
            return e.what();
        }
        return "no error";
    };
    const auto refused_during_tick_all = [](const std::string& message, const std::string& call) {
        CHECK_THAT(message, Contains(call + " called during TickAll (from a hook, a condition or make_action)"));
        CHECK_THAT(message, Contains("tick the crowd with a Perform(i) loop instead of TickAll"));
        CHECK_THAT(message, Contains("make the call after TickAll"));
        CHECK_THAT(message, !Contains("send typed events from outside the tick"));
    };
    refused_during_tick_all(message_of(tick_all), "Crowd::SendEvent(1, Order)");
    squad.named = true;
    refused_during_tick_all(message_of(tick_all), "Crowd::SendEvent(1, Charge)");
    refused_during_tick_all(message_of([&] {
                                crowd.TickAll(soldiers, [&](std::size_t i, Soldier&) {
                                    crowd.Reset(i);
                                    return World{};
                                });
                            }),
                            "Crowd::Reset(0)");
    const std::string perform = message_of([&] {
        crowd.TickAll(soldiers, [&](std::size_t i, Soldier&) {
            if (i == 0) crowd.Perform(1, soldiers[1], World{});
            return World{};
        });
    });
    CHECK_THAT(perform, Contains("Crowd::Perform(1) called during TickAll"));
    CHECK_THAT(perform, Contains("call Perform(i) for each between ticks instead of TickAll"));
    const std::string again = message_of([&] {
        crowd.TickAll(soldiers, [&](std::size_t, Soldier&) {
            crowd.TickAll(soldiers, [](std::size_t, Soldier&) { return World{}; });
            return World{};
        });
    });
    CHECK_THAT(again, Contains("call it from the game loop, between ticks"));

    squad.named = false; // what works: a Perform(i) loop (the first starts the soldiers, which take orders after)
    for (int tick = 0; tick < 3; ++tick)
        for (std::size_t i = 0; i < soldiers.size(); ++i) crowd.Perform(i, soldiers[i], World{});
    CHECK(crowd.IsIn<Lead>(0));
    CHECK(crowd.IsIn<Attack>(1));
    CHECK(crowd.IsIn<Attack>(2));
    CHECK(soldiers[1].target == 7);
    CHECK(soldiers[2].target == 7);
}

namespace {

struct Gather {
    int eaten = 0;
    void Perform(Ant&, const World&) { ++eaten; }
};
class GatheringAntStateManager : public tickfsm::StateManager<Ant, World> {
public:
    explicit GatheringAntStateManager(Ant& ant) : StateManager(ant) { SetInitialState<Gather>(); }
};

} // namespace

TEST_CASE("Reset keeps the state objects' data and restoring a fresh snapshot clears it", "[crowd][reset][snapshot]") {
    Ant ant;
    GatheringAntStateManager machine(ant);
    const auto fresh_machine = machine.Save();
    std::vector<Ant> ants(2);
    tickfsm::Crowd<GatheringAntStateManager> crowd(ants.size());
    const auto fresh = crowd.Save(1); // character 1, not started yet
    for (int tick = 0; tick < 3; ++tick) {
        machine.Perform(World{});
        crowd.Perform(0, ants[0], World{});
    }
    machine.Reset();
    crowd.Reset(0);
    machine.Perform(World{});
    crowd.Perform(0, ants[0], World{});
    CHECK(machine.State<Gather>().eaten == 4); // as documented: Reset runs no hook and keeps the data
    CHECK(crowd.State<Gather>(0).eaten == 4);

    machine.Restore(fresh_machine);
    crowd.Restore(0, fresh);
    CHECK_FALSE(machine.IsStarted());
    CHECK_FALSE(crowd.IsStarted(0));
    machine.Perform(World{});
    crowd.Perform(0, ants[0], World{});
    CHECK(machine.State<Gather>().eaten == 1);
    CHECK(crowd.State<Gather>(0).eaten == 1);
}
