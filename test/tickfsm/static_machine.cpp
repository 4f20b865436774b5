// StaticStateManager and StaticCrowd: compile-time machines that tick by the
// same rules as StateManager.

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <stdexcept>
#include <vector>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

namespace {

struct Hero {
    std::uint32_t seed = 7;
    float x = 0;
    int stamina = 10;
    int jumps = 0;
    int landings = 0;
    std::string log; // hooks in the order they ran
};
struct Pad {
    float stick = 0;
    bool jump = false;
};

struct Idle {
    void Perform(Hero& h, const Pad&) {
        h.log += "I";
        if (h.stamina < 10) ++h.stamina;
    }
};
struct Walk {
    void OnStateEnter(Hero& h, const Pad&) { h.log += "<W"; }
    void Perform(Hero& h, const Pad& p) {
        h.log += "W";
        h.x += p.stick;
    }
    void OnStateExit(Hero& h, const Pad&) { h.log += "W>"; }
};
struct Jump {
    int airborne_ticks = 0; // a state with data
    void OnStateEnter(Hero& h, const Pad&) {
        h.log += "<J";
        ++h.jumps;
        h.stamina -= 3;
        airborne_ticks = 0;
    }
    void Perform(Hero& h, const Pad&) {
        h.log += "J";
        ++airborne_ticks;
    }
};
struct Land {
    void OnStateEnter(Hero& h, const Pad&) {
        h.log += "<L";
        ++h.landings;
    }
};

bool Moving(const Hero&, const Pad& p) { return p.stick > 0.5f || p.stick < -0.5f; }

// The machine, once as a constant (compile-time) ...
inline constexpr auto kHeroTransitions =
    tickfsm::Transitions<Hero, Pad>()
        .SetInitialState<Idle>()
        .To<Jump>([](const Hero& h, const Pad& p) { return p.jump && h.stamina >= 3; })
        .To<Walk>([](const Hero& h, const Pad& p) { return Moving(h, p); })
        .From<Walk>()
        .To<Jump>([](const Hero& h, const Pad& p) { return p.jump && h.stamina >= 3; })
        .To<Idle>([](const Hero& h, const Pad& p) { return !Moving(h, p); })
        .From<Jump>()
        .To<Land>([](const Hero&, const Pad&, float t) { return t >= 0.25f; })
        .From<Land>()
        .To<Idle>([](const Hero&, const Pad&, float t) { return t >= 0.05f; });

// ... and once as a StateManager configured in its constructor.
class HeroStateManager : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroStateManager(Hero& h) : StateManager(h) {
        SetInitialState<Idle>()
            .To<Jump>([](const Hero& hero, const Pad& p) { return p.jump && hero.stamina >= 3; })
            .To<Walk>([](const Hero& hero, const Pad& p) { return Moving(hero, p); });
        From<Walk>()
            .To<Jump>([](const Hero& hero, const Pad& p) { return p.jump && hero.stamina >= 3; })
            .To<Idle>([](const Hero& hero, const Pad& p) { return !Moving(hero, p); });
        From<Jump>().To<Land>([](const Hero&, const Pad&, float t) { return t >= 0.25f; });
        From<Land>().To<Idle>([](const Hero&, const Pad&, float t) { return t >= 0.05f; });
    }
};

// ... and once more as a StateManager configured from the constant, in one line.
class HeroFromTable : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroFromTable(Hero& h) : StateManager(h) { Configure(kHeroTransitions); }
};

using HeroMachine = tickfsm::StaticStateManager<kHeroTransitions>;
using HeroCrowd = tickfsm::StaticCrowd<kHeroTransitions>;

Pad NextPad(std::uint32_t& s) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return Pad{static_cast<float>(s & 0xFF) / 127.5f - 1.0f, ((s >> 8) & 0x7) == 0};
}

void RequireSame(const Hero& a, const Hero& b) {
    REQUIRE(a.log == b.log);
    REQUIRE(a.x == b.x);
    REQUIRE(a.stamina == b.stamina);
    REQUIRE(a.jumps == b.jumps);
    REQUIRE(a.landings == b.landings);
}

// Ticks two machines of Hero on the same `ticks` random pads from `seed` and
// requires the same state, ticks and time on every tick.
template <class First, class Second>
void RequireSameTicks(First& first, Second& second, std::uint32_t seed, int ticks) {
    for (int tick = 0; tick < ticks; ++tick) {
        const Pad pad = NextPad(seed);
        first.Perform(pad);
        second.Perform(pad);
        REQUIRE(second.CurrentStateName() == first.CurrentStateName());
        REQUIRE(second.TicksInState() == first.TicksInState());
        REQUIRE(second.TimeInState() == first.TimeInState());
    }
}

// Ticks a `Dynamic` machine (a StateManager of Hero) and a StaticStateManager
// of kHeroTransitions on the same 5,000 random pads, and requires the same
// state, ticks and time on every tick, and the same hooks run.
template <class Dynamic>
void RequireTicksLikeStatic(std::uint32_t seed) {
    Hero dynamic_hero, static_hero;
    Dynamic dynamic_machine(dynamic_hero);
    HeroMachine static_machine(static_hero);
    RequireSameTicks(dynamic_machine, static_machine, seed, 5000);
    RequireSame(static_hero, dynamic_hero);
    CHECK(static_hero.jumps > 10);
    CHECK(static_hero.landings > 10);
}

} // namespace

TEST_CASE("A compile-time machine ticks exactly like the StateManager configured with the same words",
          "[static]") {
    RequireTicksLikeStatic<HeroStateManager>(12345);
}

TEST_CASE("A StateManager configured from the constant ticks exactly like the compile-time machine",
          "[static][configure]") {
    RequireTicksLikeStatic<HeroFromTable>(777);
    // The same states, with the same ids: the constant's order of first appearance.
    Hero h;
    HeroFromTable machine(h);
    const auto names = HeroMachine::StateNames();
    REQUIRE(machine.StateCount() == names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        CHECK(machine.StateName(tickfsm::StateId{static_cast<std::uint16_t>(i)}) == names[i]);
}

TEST_CASE("Every StateManager configured from one constant shares one table", "[static][configure]") {
    Hero a, b;
    HeroFromTable first(a), second(b);
    first.Perform({});
    second.Perform({});
    CHECK(first.SharesTable());
    CHECK(second.SharesTable());
    CHECK(first.IdOf<Land>() == second.IdOf<Land>());
}

TEST_CASE("After Configure, a StateManager takes what only it has: events, and an observer that prints the trace",
          "[static][configure]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.Configure(kHeroTransitions);
    m.From<Walk>().On("Stop").To<Idle>();
    std::string trace;
    tickfsm::TracePrinter printer(trace, {.causes = true});
    m.SetObserver(&printer, "hero");
    m.Perform(Pad{0.9f, false}); // enters Idle, then Walk's condition holds
    REQUIRE(m.IsIn<Walk>());
    CHECK(m.SendEvent("Stop"));
    CHECK(m.IsIn<Idle>());
    CHECK_THAT(trace, Catch::Contains(" -> Idle") && Catch::Contains("Idle -> Walk (condition 1)") &&
                          Catch::Contains("Walk -> Idle (event Stop)"));
}

// A constant with a transition that always holds in the middle of a chain
// (the one after it can never fire), and the same words written out.
inline constexpr auto kShadowedTransitions = tickfsm::Transitions<Hero, Pad>()
                                                 .SetInitialState<Idle>()
                                                 .To<Walk>([](const Hero&, const Pad& p) { return Moving(Hero{}, p); })
                                                 .To<Jump>()
                                                 .To<Land>([](const Hero&, const Pad& p) { return p.jump; })
                                                 .From<Jump>()
                                                 .To<Idle>([](const Hero&, const Pad&, float t) { return t >= 0.1f; })
                                                 .From<Walk>();

void WriteShadowedWords(tickfsm::StateManager<Hero, Pad>& m) {
    m.SetInitialState<Idle>()
        .To<Walk>([](const Hero&, const Pad& p) { return Moving(Hero{}, p); })
        .To<Jump>()
        .To<Land>([](const Hero&, const Pad& p) { return p.jump; });
    m.From<Jump>().To<Idle>([](const Hero&, const Pad&, float t) { return t >= 0.1f; });
    m.From<Walk>();
}

std::vector<std::string> FindingMessages(const tickfsm::Description& d) {
    std::vector<std::string> messages;
    for (const tickfsm::Finding& f : tickfsm::Validate(d)) messages.push_back(f.message);
    return messages;
}

TEST_CASE("Configure adds what its words written out add: the same states, ids, transitions and findings",
          "[static][configure]") {
    Hero a, b;
    HeroStateManager words(a);
    HeroFromTable constant(b);
    CHECK(tickfsm::WriteDot(constant.Describe()) == tickfsm::WriteDot(words.Describe()));
    CHECK(constant.IdOf<Land>() == words.IdOf<Land>());

    tickfsm::StateManager<Hero, Pad> written(a), configured(b);
    WriteShadowedWords(written);
    configured.Configure(kShadowedTransitions);
    const tickfsm::Description from_words = written.Describe();
    const tickfsm::Description from_constant = configured.Describe();
    CHECK(tickfsm::WriteDot(from_constant) == tickfsm::WriteDot(from_words));
    CHECK_THAT(tickfsm::WriteDot(from_constant), Catch::Contains("always"));
    const std::vector<std::string> findings = FindingMessages(from_constant);
    CHECK(findings == FindingMessages(from_words));
    CHECK_FALSE(findings.empty()); // Idle's transition to Land can never fire
}

TEST_CASE("Configure on a machine with a private table adds the same transitions there", "[static][configure]") {
    Hero a, b;
    int calls = 0;
    // A capturing condition gives each machine a private table before Configure.
    tickfsm::StateManager<Hero, Pad> written(a), configured(b);
    written.From<Land>().To<Walk>([&calls](const Hero&, const Pad&) { return ++calls < 0; });
    configured.From<Land>().To<Walk>([&calls](const Hero&, const Pad&) { return ++calls < 0; });
    WriteShadowedWords(written);
    configured.Configure(kShadowedTransitions);
    CHECK_FALSE(configured.SharesTable());
    CHECK(tickfsm::WriteDot(configured.Describe()) == tickfsm::WriteDot(written.Describe()));
    REQUIRE_THROWS_WITH(configured.Configure(kShadowedTransitions),
                        Catch::Contains("the initial state is already Idle"));
    CHECK(tickfsm::WriteDot(configured.Describe()) == tickfsm::WriteDot(written.Describe())); // unchanged
    RequireSameTicks(written, configured, 11, 500);
    RequireSame(a, b);
}

TEST_CASE("Configure on a machine that has an initial state already, or has ticked, is a ConfigError",
          "[static][configure][error]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> twice(h);
    twice.Configure(kHeroTransitions);
    REQUIRE_THROWS_WITH(twice.Configure(kHeroTransitions), Catch::Contains("the initial state is already Idle"));
    tickfsm::StateManager<Hero, Pad> ticked(h);
    ticked.SetInitialState<Walk>();
    ticked.Perform({});
    REQUIRE_THROWS_WITH(ticked.Configure(kHeroTransitions), Catch::Contains("frozen"));
}

/// `count` heroes seeded alike twice: `crowd_heroes` for a HeroCrowd, and
/// `single_heroes`, each driven by its own HeroMachine.
struct HeroTwins {
    explicit HeroTwins(std::size_t count) : crowd_heroes(count), single_heroes(count), crowd(count) {
        for (std::size_t i = 0; i < count; ++i) {
            crowd_heroes[i].seed = single_heroes[i].seed = static_cast<std::uint32_t>(i * 2654435761u + 1u);
            machines.emplace_back(single_heroes[i]); // single_heroes never reallocates
        }
    }
    std::vector<Hero> crowd_heroes, single_heroes;
    std::vector<HeroMachine> machines;
    HeroCrowd crowd;
};

TEST_CASE("A StaticCrowd's TickAll and Perform tick each character as its own machine would", "[static][crowd]") {
    constexpr std::size_t kCount = 17;
    HeroTwins twins(kCount);
    auto& [crowd_heroes, single_heroes, machines, crowd] = twins;
    std::vector<Pad> pads(kCount);
    for (int tick = 0; tick < 600; ++tick) {
        for (std::size_t i = 0; i < kCount; ++i) {
            pads[i] = NextPad(single_heroes[i].seed);
            machines[i].Perform(pads[i]);
        }
        if (tick % 3 == 0) {
            crowd.TickAll(crowd_heroes, [](std::size_t, Hero& h) { return NextPad(h.seed); });
        } else if (tick % 3 == 1) {
            for (std::size_t i = 0; i < kCount; ++i) (void)NextPad(crowd_heroes[i].seed);
            crowd.TickAll(crowd_heroes, pads);
        } else {
            for (std::size_t i = 0; i < kCount; ++i) crowd.Perform(i, crowd_heroes[i], NextPad(crowd_heroes[i].seed));
        }
        for (std::size_t i = 0; i < kCount; ++i) {
            REQUIRE(crowd.CurrentState(i) == machines[i].CurrentState());
            REQUIRE(crowd.TicksInState(i) == machines[i].TicksInState());
        }
    }
    for (std::size_t i = 0; i < kCount; ++i) {
        RequireSame(crowd_heroes[i], single_heroes[i]);
        CHECK(crowd.State<Jump>(i).airborne_ticks == machines[i].State<Jump>().airborne_ticks);
    }
}

TEST_CASE("A StaticCrowd's TickAll by state ticks each character as its own machine would", "[static][crowd][by-state]") {
    constexpr std::size_t kCount = 300; // a full block and a part
    static_assert(kCount > tickfsm::detail::GroupBlockFor(sizeof(Pad)) && kCount >= tickfsm::detail::kGroupMin);
    HeroTwins twins(kCount);
    auto& [crowd_heroes, single_heroes, machines, crowd] = twins;
    std::vector<std::size_t> made;
    for (int tick = 0; tick < 300; ++tick) {
        if (tick == 100) // characters not started yet tick among started ones, in a group of their own
            for (std::size_t i = 0; i < kCount; i += 7) {
                crowd.Reset(i);
                machines[i].Reset();
            }
        for (std::size_t i = 0; i < kCount; ++i) machines[i].Perform(NextPad(single_heroes[i].seed));
        made.clear();
        crowd.TickAll(crowd_heroes, [&](std::size_t i, Hero& h) {
            made.push_back(i);
            return NextPad(h.seed);
        }, tickfsm::TickOrder::ByState);
        REQUIRE(made.size() == kCount);
        for (std::size_t i = 0; i < kCount; ++i) {
            REQUIRE(made[i] == i);
            REQUIRE(crowd.CurrentState(i) == machines[i].CurrentState());
            REQUIRE(crowd.TicksInState(i) == machines[i].TicksInState());
        }
    }
    for (std::size_t i = 0; i < kCount; ++i) {
        RequireSame(crowd_heroes[i], single_heroes[i]);
        CHECK(crowd.State<Jump>(i).airborne_ticks == machines[i].State<Jump>().airborne_ticks);
    }
    std::vector<Hero> too_few(kCount - 1);
    CHECK_THROWS_AS(crowd.TickAll(too_few, [](std::size_t, Hero&) { return Pad{}; }, tickfsm::TickOrder::ByState), tickfsm::ConfigError);
}

TEST_CASE("The first Perform enters the initial state, counts the tick, then tries the conditions", "[static]") {
    Hero hero;
    HeroMachine m(hero);
    CHECK_FALSE(m.IsStarted());
    m.Perform(Pad{0, true}); // Idle entered, then Idle -> Jump on the same tick
    CHECK(m.IsStarted());
    CHECK(m.IsIn<Jump>());
    CHECK(m.TicksInState() == 0);
    CHECK(hero.log == "<JJ"); // Jump's enter, then Jump performs this tick; Idle never performed
    m.Perform(Pad{});
    CHECK(m.TicksInState() == 1);
    CHECK(m.TimeInState() == Approx(1.0f / 60.0f));
}

TEST_CASE("The first condition in order that holds fires, and the time it sees includes this tick", "[static]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform(Pad{1.0f, true}); // both Jump and Walk hold: Jump is first
    CHECK(m.IsIn<Jump>());
    hero.log.clear();
    // Jump -> Land once t >= 0.25 s, i.e. on the 15th tick counted in Jump.
    for (int tick = 1; tick < 15; ++tick) m.Perform(Pad{});
    CHECK(m.IsIn<Jump>());
    CHECK(m.TicksInState() == 14);
    m.Perform(Pad{});
    CHECK(m.IsIn<Land>());
    CHECK(m.TicksInState() == 0);
    CHECK(hero.log == std::string(14, 'J') + "<L");
}

TEST_CASE("A state's exit runs before the next state's enter, which runs before it performs", "[static]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform(Pad{1.0f, false}); // Idle -> Walk
    m.Perform(Pad{1.0f, false}); // stays
    m.Perform(Pad{0.0f, false}); // Walk -> Idle
    CHECK(hero.log == "<WWWW>I");
    CHECK(hero.x == 2.0f);
}

namespace {
struct Counter {
    int inits = 0;
    int n = 0;
    void OnStateInit(Hero&) { ++inits; }
    void Perform(Hero&, const Pad&) { ++n; }
};
struct Other {};
inline constexpr auto kCounterTransitions =
    tickfsm::Transitions<Hero, Pad>()
        .SetInitialState<Counter>()
        .To<Other>([](const Hero& h) { return h.x > 0; })
        .From<Other>()
        .To<Counter>(); // no condition: always
} // namespace

TEST_CASE("OnStateInit runs once per machine, and Reset re-enters the initial state without it", "[static]") {
    Hero hero;
    tickfsm::StaticStateManager<kCounterTransitions> m(hero);
    m.Perform(Pad{});
    m.Perform(Pad{});
    CHECK(m.State<Counter>().inits == 1);
    CHECK(m.State<Counter>().n == 2);
    hero.x = 1;
    m.Perform(Pad{});
    CHECK(m.IsIn<Other>());
    m.Reset();
    CHECK_FALSE(m.IsStarted());
    hero.x = 0;
    m.Perform(Pad{});
    CHECK(m.IsIn<Counter>());
    CHECK(m.TicksInState() == 1);
    CHECK(m.State<Counter>().inits == 1);
}

TEST_CASE("A copy of a compile-time machine is a snapshot: restoring it replays the same ticks", "[static]") {
    Hero hero;
    HeroMachine m(hero);
    std::uint32_t seed = 99;
    for (int tick = 0; tick < 200; ++tick) m.Perform(NextPad(seed));
    const HeroMachine saved = m;
    const Hero saved_hero = hero;
    const std::uint32_t saved_seed = seed;
    for (int tick = 0; tick < 300; ++tick) m.Perform(NextPad(seed));
    const Hero first_run = hero;
    const std::string first_state(m.CurrentStateName());

    m = saved;
    hero = saved_hero;
    seed = saved_seed;
    for (int tick = 0; tick < 300; ++tick) m.Perform(NextPad(seed));
    RequireSame(hero, first_run);
    CHECK(m.CurrentStateName() == first_state);
}

TEST_CASE("Compile-time machines answer the same queries as StateManager", "[static]") {
    Hero hero;
    HeroMachine m(hero, 0.1f);
    STATIC_REQUIRE(HeroMachine::StateCount() == 4);
    STATIC_REQUIRE(HeroMachine::IdOf<Idle>().value == 0); // the initial state first
    STATIC_REQUIRE(HeroMachine::IdOf<Land>().value == 3);
    CHECK(HeroMachine::StateName(HeroMachine::IdOf<Walk>()) == "Walk");
    CHECK(HeroMachine::StateNames()[2] == "Walk");
    CHECK(m.CurrentStateName().empty());
    CHECK_FALSE(m.CurrentState().Valid());
    m.Perform(Pad{});
    m.Perform(Pad{});
    CHECK(m.CurrentStateName() == "Idle");
    CHECK(m.TimeInState() == Approx(0.2f));
    CHECK(m.FixedDeltaTime() == 0.1f);
}

TEST_CASE("A flat compile-time machine's and crowd's ActivePath is the current state's name", "[static][crowd]") {
    Hero hero;
    HeroMachine m(hero);
    CHECK(m.ActivePath() == "");
    m.Perform(Pad{});
    CHECK(m.ActivePath() == "Idle");
    m.Perform(Pad{1.0f, false});
    CHECK(m.ActivePath() == "Walk");
    std::vector<Hero> heroes(2);
    HeroCrowd crowd(heroes.size());
    CHECK(crowd.ActivePath(0) == "");
    crowd.TickAll(heroes, [](std::size_t i, Hero&) { return Pad{i == 0 ? 1.0f : 0.0f, false}; });
    CHECK(crowd.ActivePath(0) == "Walk");
    CHECK(crowd.ActivePath(1) == "Idle");
}

TEST_CASE("State<S>() of a const compile-time machine or crowd reads the state's object", "[static][crowd]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform(Pad{0.0f, true}); // Idle -> Jump
    const HeroMachine& seen = m;
    CHECK(seen.State<Jump>().airborne_ticks == 1);
    STATIC_REQUIRE(std::is_same_v<decltype(seen.State<Jump>()), const Jump&>);
    std::vector<Hero> heroes(1);
    HeroCrowd crowd(heroes.size());
    crowd.TickAll(heroes, [](std::size_t, Hero&) { return Pad{0.0f, true}; });
    const HeroCrowd& seen_crowd = crowd;
    CHECK(seen_crowd.State<Jump>(0).airborne_ticks == 1);
    STATIC_REQUIRE(std::is_same_v<decltype(seen_crowd.State<Jump>(0)), const Jump&>);
}

namespace {
class NamedHeroMachine : public tickfsm::StaticStateManager<kHeroTransitions> {
public:
    using StaticStateManager::StaticStateManager;
};
class NamedHeroCrowd : public tickfsm::StaticCrowd<kHeroTransitions> {
public:
    using StaticCrowd::StaticCrowd;
};
} // namespace

TEST_CASE("A kind of character can be named by deriving from StaticStateManager or StaticCrowd", "[static]") {
    Hero hero;
    NamedHeroMachine m(hero, 0.5f);
    m.Perform(Pad{1.0f, false});
    CHECK(m.IsIn<Walk>());
    CHECK(m.FixedDeltaTime() == 0.5f);
    std::vector<Hero> heroes(2);
    NamedHeroCrowd crowd(heroes.size());
    crowd.TickAll(heroes, [](std::size_t i, Hero&) { return Pad{i == 0 ? 1.0f : 0.0f, false}; });
    CHECK(crowd.IsIn<Walk>(0));
    CHECK(crowd.IsIn<Idle>(1));
}

TEST_CASE("A StaticCrowd holds 8 bytes per character, plus the data of states that have data", "[static][crowd]") {
    STATIC_REQUIRE(tickfsm::StaticCrowd<kHeroTransitions>::BytesPerCharacter() == 8 + sizeof(Jump));
    STATIC_REQUIRE(HeroCrowd::StateCount() == HeroMachine::StateCount());
    STATIC_REQUIRE(HeroCrowd::IdOf<Land>() == HeroMachine::IdOf<Land>());
    CHECK(HeroCrowd::StateNames()[1] == "Jump");
    struct Still {};
    static constexpr auto kStill = tickfsm::Transitions<Hero, Pad>().SetInitialState<Still>();
    STATIC_REQUIRE(tickfsm::StaticCrowd<kStill>::BytesPerCharacter() == 8);
    tickfsm::StaticCrowd<kStill> crowd(3);
    std::vector<Hero> heroes(3);
    crowd.TickAll(heroes, [](std::size_t, Hero&) { return Pad{}; });
    CHECK(crowd.IsIn<Still>(2));
    CHECK(crowd.Add() == 3);
    CHECK(crowd.Size() == 4);
    CHECK_FALSE(crowd.IsStarted(3));
}

TEST_CASE("A StaticCrowd's TickAll ticks nobody when empty, then the characters added to it", "[static][crowd]") {
    // TickAll's common case is one compare of the span's size with a count
    // kept for it; an empty crowd must not take it.
    struct Still {};
    static constexpr auto kStill = tickfsm::Transitions<Hero, Pad>().SetInitialState<Still>();
    tickfsm::StaticCrowd<kStill> crowd(0);
    std::vector<Hero> heroes;
    int made = 0;
    const auto pad = [&made](std::size_t, Hero&) {
        ++made;
        return Pad{};
    };
    crowd.TickAll(heroes, pad);
    CHECK(made == 0);
    heroes.resize(2);
    CHECK(crowd.Add() == 0);
    CHECK(crowd.Add() == 1);
    crowd.TickAll(heroes, pad);
    crowd.TickAll(heroes, pad);
    CHECK(made == 4);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(crowd.IsIn<Still>(i));
        CHECK(crowd.TicksInState(i) == 2);
    }
}

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
namespace {
struct Meddler;
struct Meddle {
    void Perform(Meddler& m, const Pad&);
};
inline constexpr auto kMeddlerTransitions = tickfsm::Transitions<Meddler, Pad>().SetInitialState<Meddle>();
// A controller that can reach its own machine or crowd, as a careless hook might.
struct Meddler {
    tickfsm::StaticStateManager<kMeddlerTransitions>* machine = nullptr;
    tickfsm::StaticCrowd<kMeddlerTransitions>* crowd = nullptr;
    std::vector<Meddler>* all = nullptr;
    int what = 0;
};
void Meddle::Perform(Meddler& m, const Pad&) {
    if (m.machine && m.what == 0) m.machine->Perform(Pad{});
    if (m.machine && m.what == 1) m.machine->Reset();
    if (m.crowd && m.what == 2) m.crowd->Perform(0, m, Pad{});
    if (m.crowd && m.what == 3) m.crowd->TickAll(*m.all, [](std::size_t, Meddler&) { return Pad{}; });
    if (m.crowd && m.what == 4) m.crowd->Add();
    if (m.crowd && m.what == 5) m.crowd->Reset(0);
}
} // namespace

TEST_CASE("Calling back into a running compile-time machine or crowd is a ConfigError", "[static][error]") {
    Meddler meddler;
    tickfsm::StaticStateManager<kMeddlerTransitions> m(meddler);
    meddler.machine = &m;
    CHECK_THROWS_WITH(m.Perform(Pad{}), Catch::Contains("StaticStateManager<Meddler, Pad>: Perform() called from "
                                                        "inside a hook or condition of this machine"));
    meddler.what = 1;
    CHECK_THROWS_WITH(m.Perform(Pad{}), Catch::Contains("Reset() called from inside a hook"));
    meddler.machine = nullptr;
    m.Perform(Pad{}); // the guard was lifted when the hook threw
    CHECK(m.TicksInState() == 3);

    std::vector<Meddler> all(2);
    tickfsm::StaticCrowd<kMeddlerTransitions> crowd(2);
    for (Meddler& one : all) {
        one.crowd = &crowd;
        one.all = &all;
    }
    all[1].what = 2;
    CHECK_THROWS_WITH(crowd.Perform(1, all[1], Pad{}),
                      Catch::Contains("Perform(0) called from inside a hook or condition of character 1"));
    for (int what : {2, 3, 4, 5}) {
        all[0].what = what;
        CHECK_THROWS_WITH(crowd.TickAll(all, [](std::size_t, Meddler&) { return Pad{}; }),
                          Catch::Contains("called from inside a hook, condition or make_action of this crowd's "
                                          "TickAll"));
    }
    CHECK(crowd.Size() == 2);
    std::vector<Meddler> three(3);
    CHECK_THROWS_WITH(crowd.TickAll(three, [](std::size_t, Meddler&) { return Pad{}; }),
                      Catch::Contains("TickAll with 3 controllers for a crowd of 2 characters"));
    std::vector<Pad> pads(1);
    CHECK_THROWS_WITH(crowd.TickAll(all, pads), Catch::Contains("TickAll with 1 action for a crowd of 2 characters"));
    all[0].crowd = all[1].crowd = nullptr;
    crowd.TickAll(all, [](std::size_t, Meddler&) { return Pad{}; }); // the crowd runs on
    CHECK(crowd.IsIn<Meddle>(0));
}
#endif

namespace {
// Its one transition holds only at 0 seconds in state: it would fire if the ticks wrapped to 0.
inline constexpr auto kSittingTransitions = tickfsm::Transitions<Hero, Pad>()
                                                .SetInitialState<Idle>()
                                                .To<Walk>([](const Hero&, const Pad&, float t) { return t == 0.0f; })
                                                .From<Walk>();
} // namespace

TEST_CASE("Compile-time machines saturate TicksInState at 2^32-1 and give TimeInState as a double",
          "[static][time][regression]") {
    const double dt = static_cast<double>(1.0f / 60);
    Hero hero;
    tickfsm::StaticStateManager<kSittingTransitions> m(hero);
    m.Perform(Pad{});
    tickfsm::detail::TicksAccess::Of(m) = UINT32_MAX - 1;
    m.Perform(Pad{});
    m.Perform(Pad{});
    CHECK(m.TicksInState() == UINT32_MAX);
    CHECK(m.IsIn<Idle>());
    CHECK(m.TimeInState() == static_cast<double>(UINT32_MAX) * dt);

    std::vector<Hero> heroes(2);
    tickfsm::StaticCrowd<kSittingTransitions> crowd(heroes.size());
    const auto make = [](std::size_t, Hero&) { return Pad{}; };
    crowd.TickAll(heroes, make);
    for (std::size_t i = 0; i < heroes.size(); ++i) tickfsm::detail::TicksAccess::Of(crowd, i) = UINT32_MAX - 1;
    crowd.TickAll(heroes, make);
    crowd.TickAll(heroes, make);
    crowd.Perform(1, heroes[1], Pad{});
    for (std::size_t i = 0; i < heroes.size(); ++i) {
        CHECK(crowd.TicksInState(i) == UINT32_MAX);
        CHECK(crowd.IsIn<Idle>(i));
        CHECK(crowd.TimeInState(i) == static_cast<double>(UINT32_MAX) * dt);
    }
    tickfsm::detail::TicksAccess::Of(crowd, 0) = (1u << 24) + 1;
    CHECK(crowd.TimeInState(0) == static_cast<double>((1u << 24) + 1) * dt);
}

namespace {

struct Inits {
    int count = 0;
    bool ready = false;
};
struct InitFirst {
    void OnStateInit(Inits& c) { c.count += 1; }
};
struct InitFragile {
    void OnStateInit(Inits& c) {
        if (!c.ready) throw std::runtime_error("not ready");
        c.count += 10;
    }
};
struct InitLast {
    void OnStateInit(Inits& c) { c.count += 100; }
};
inline constexpr auto kInitTable = tickfsm::Transitions<Inits, Pad>()
                                       .SetInitialState<InitFirst>()
                                       .To<InitFragile>()
                                       .From<InitFragile>()
                                       .To<InitLast>()
                                       .From<InitLast>();

} // namespace

TEST_CASE("A compile-time machine runs each OnStateInit once, resuming after one that threw", "[static][init]") {
    Inits c;
    tickfsm::StaticStateManager<kInitTable> m(c);
    REQUIRE_THROWS_WITH(m.Perform({}), "not ready");
    CHECK(c.count == 1);
    CHECK_FALSE(m.IsStarted());
    c.ready = true;
    m.Perform({});
    CHECK(c.count == 111); // InitFirst's did not run again
    CHECK(m.IsIn<InitFragile>());
}

namespace {
struct ShadowPilot {
    int fuel = 0;
};
struct ShadowParked {};
inline constexpr auto kShadowTransitions = tickfsm::Transitions<ShadowPilot, int>().SetInitialState<ShadowParked>();
// A subclass that names its constructor's parameters as users do: the base
// class's own members must not take these names, or the subclass fails to
// compile with -Wshadow -Werror (as this file is built).
class ShadowStatic : public tickfsm::StaticStateManager<kShadowTransitions> {
public:
    ShadowStatic(ShadowPilot& controller, float dt) : StaticStateManager(controller, dt) {}
    static int Read(const ShadowPilot& controller, int runtime, int states, int busy) {
        return controller.fuel + runtime + states + busy;
    }
};
} // namespace

TEST_CASE("A subclass of a compile-time machine may call its parameters controller and dt",
          "[static][warnings]") {
    ShadowPilot pilot;
    ShadowStatic machine(pilot, 0.5f);
    machine.Perform(0);
    CHECK(machine.IsIn<ShadowParked>());
    CHECK(machine.FixedDeltaTime() == 0.5f);
    CHECK(ShadowStatic::Read(pilot, 1, 2, 3) == 6);
}

namespace {

// A ring of 130 states, each leaving for the next one on the tick after it
// is entered: more states than one switch of the tick holds (64), so the
// tick reaches states 64 and up through a second and a third.
constexpr int kRingSize = 130;
struct Lap {
    std::vector<int> entered; // every state entered, in order
    std::vector<int> performed; // every state that performed, in order
};
template <int I>
struct RingStop {
    void OnStateEnter(Lap& l, const Pad&) { l.entered.push_back(I); }
    void Perform(Lap& l, const Pad&) { l.performed.push_back(I); }
};
constexpr auto kSecondTick = [](const Lap&, const Pad&, float t) { return t > 1.5f; };
template <int I, class Table>
constexpr auto RingFrom(Table table) {
    if constexpr (I + 1 == kRingSize) {
        return table.template From<RingStop<I>>().template To<RingStop<0>>(kSecondTick);
    } else {
        return RingFrom<I + 1>(table.template From<RingStop<I>>().template To<RingStop<I + 1>>(kSecondTick));
    }
}
inline constexpr auto kRing = RingFrom<1>(
    tickfsm::Transitions<Lap, Pad>().SetInitialState<RingStop<0>>().To<RingStop<1>>(kSecondTick));

// States 0, 1, ... entered in turn, round the ring and into it again, each
// performing until it leaves.
void RequireLaps(const Lap& lap) {
    REQUIRE(lap.entered.size() > kRingSize + 10);
    for (std::size_t k = 0; k < lap.entered.size(); ++k) REQUIRE(lap.entered[k] == static_cast<int>(k % kRingSize));
    std::vector<int> runs; // the states that performed, each run of ticks once
    for (const int state : lap.performed)
        if (runs.empty() || runs.back() != state) runs.push_back(state);
    REQUIRE(runs == lap.entered);
}

} // namespace

TEST_CASE("A compile-time machine of more than 64 states ticks every one of them", "[static][crowd]") {
    static_assert(tickfsm::StaticStateManager<kRing>::StateCount() == kRingSize);
    const int ticks = 3 * kRingSize; // once round, then into the first switch again
    Lap lap;
    tickfsm::StaticStateManager<kRing> machine(lap, 1.0f);
    for (int tick = 0; tick < ticks; ++tick) machine.Perform(Pad{});
    RequireLaps(lap);
    CHECK(machine.CurrentState().value == lap.entered.back()); // a state's id is its place in the ring

    std::vector<Lap> laps(3);
    tickfsm::StaticCrowd<kRing> crowd(laps.size(), 1.0f);
    for (int tick = 0; tick < ticks; ++tick) crowd.TickAll(laps, [](std::size_t, Lap&) { return Pad{}; });
    for (std::size_t i = 0; i < laps.size(); ++i) {
        RequireLaps(laps[i]);
        CHECK(crowd.CurrentState(i).value == laps[i].entered.back());
    }
}

TEST_CASE("A compile-time machine or crowd refuses a fixed_dt that is not finite and positive",
          "[static][config_error]") {
    Hero h;
    for (const float dt : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        CAPTURE(dt);
        CHECK_THROWS_WITH(tickfsm::StaticStateManager<kHeroTransitions>(h, dt),
                          Catch::Contains("StaticStateManager<") && Catch::Contains("fixed_dt must be finite and positive"));
        CHECK_THROWS_WITH(tickfsm::StaticCrowd<kHeroTransitions>(3, dt),
                          Catch::Contains("StaticCrowd<") && Catch::Contains("fixed_dt must be finite and positive"));
    }
}
