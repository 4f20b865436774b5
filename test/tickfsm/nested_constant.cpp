// Nested states written in a compile-time constant (Transitions'
// SetSubstates) and taken by StateManager::Configure: each leaf then ticks
// with its path's conditions, hooks and Performs compiled in. These tests run
// such machines beside the same tree written with the builder's words (whose
// rules test/diff/tree_diff.cpp checks against a reference model) and require
// the same hooks, states and times on every tick.
//
// The tree (A1 starts):
//
//   Root: A (initial): A1 (initial)
//                      A2: A21 (initial), A22
//         B                                      (holds data)
//         C: C1 (initial), C2
//   D

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <utility>
#include <string>
#include <vector>

// The umbrella first, the opt-in header second: Configure(kTable) works with
// the headers in either order (test/tickfsm/static_machine.cpp has the other).
#include <tickfsm/tickfsm.hpp>
#include <tickfsm/static_machine.hpp>

namespace {

struct Bot {
    std::vector<int> log; // every hook, as state * 10 + (1 enter, 2 exit, 3 perform)
    int energy = 0;
};
struct In {
    std::uint8_t bits = 0;
    bool Bit(int i) const { return (bits >> i) & 1; }
};

template <int kId>
struct Logged {
    void OnStateEnter(Bot& b, const In&) { b.log.push_back(kId * 10 + 1); }
    void OnStateExit(Bot& b, const In&) { b.log.push_back(kId * 10 + 2); }
    void Perform(Bot& b, const In&) { b.log.push_back(kId * 10 + 3); }
};
struct Root : Logged<1> {};
struct A : Logged<2> {};
struct A1 : Logged<3> {};
struct A2 {
    void OnStateExit(Bot& b, const In&) { b.log.push_back(42); } // exit only
};
struct A21 : Logged<5> {};
struct A22 {
    void Perform(Bot& b, const In&) { ++b.energy; } // Perform only
};
struct B {
    int visits = 0; // data: its object lives in each character's block
    void OnStateEnter(Bot& b, const In&) { b.log.push_back(71 + 100 * ++visits); }
    void Perform(Bot& b, const In&) { b.log.push_back(73 + 100 * visits); }
};
struct C : Logged<8> {};
struct C1 : Logged<9> {};
struct C2 {};
struct D {}; // no hooks

constexpr float kDt = 0.01f;

// Every kind of change: to a sibling, a cousin, a composite (on by initial
// substates), an ancestor (left and entered again), a state's own substate
// (the parent stays), itself, the root composite, and out of and into the tree.
inline constexpr auto kTable =
    tickfsm::Transitions<Bot, In>()
        .SetSubstates<Root, A, B, C>()
        .SetSubstates<A, A1, A2>()
        .SetSubstates<A2, A21, A22>()
        .SetSubstates<C, C1, C2>()
        .SetInitialState<A1>()
            .To<A2>([](const Bot&, const In& in) { return in.Bit(5); })
            .To<A1>([](const Bot&, const In& in) { return in.Bit(6) && in.Bit(7); })
        .From<Root>()
            .To<D>([](const Bot&, const In& in) { return in.Bit(0) && in.Bit(1) && in.Bit(2); })
        .From<A>()
            .To<C>([](const Bot&, const In& in, float t) { return in.Bit(2) && t >= 0.05f; })
            .To<A22>([](const Bot&, const In& in) { return in.Bit(3) && in.Bit(4); })
        .From<A21>()
            .To<A>([](const Bot&, const In& in) { return in.Bit(1) && in.Bit(5); })
            .To<B>([](const Bot&, const In& in) { return in.Bit(4); })
        .From<A22>()
            .To<A21>([](const Bot&, const In& in) { return in.Bit(2); })
            .To<C2>([](const Bot&, const In& in) { return in.Bit(6); })
        .From<B>()
            .To<A2>([](const Bot&, const In&, float t) { return t >= 0.1f; })
        .From<C>()
            .To<B>([](const Bot&, const In& in) { return in.Bit(7) && in.Bit(3); })
        .From<C1>()
            .To<C2>([](const Bot&, const In& in) { return in.Bit(0); })
            .To<Root>([](const Bot&, const In& in) { return in.Bit(5) && in.Bit(6); })
        .From<C2>()
            .To<C1>([](const Bot&, const In& in, float t) { return t >= 0.03f && in.Bit(1); })
        .From<D>()
            .To<A21>([](const Bot&, const In& in) { return in.Bit(3); })
            .To<C>([](const Bot&, const In& in) { return in.Bit(4); });

class ConstantBot : public tickfsm::StateManager<Bot, In> {
public:
    explicit ConstantBot(Bot& bot) : StateManager(bot, kDt) { Configure(kTable); }
};

// The same machine in the builder's words.
class WordsBot : public tickfsm::StateManager<Bot, In> {
public:
    explicit WordsBot(Bot& bot) : StateManager(bot, kDt) {
        SetSubstates<Root, A, B, C>();
        SetSubstates<A, A1, A2>();
        SetSubstates<A2, A21, A22>();
        SetSubstates<C, C1, C2>();
        SetInitialState<A1>()
            .To<A2>([](const Bot&, const In& in) { return in.Bit(5); })
            .To<A1>([](const Bot&, const In& in) { return in.Bit(6) && in.Bit(7); });
        From<Root>().To<D>([](const Bot&, const In& in) { return in.Bit(0) && in.Bit(1) && in.Bit(2); });
        From<A>()
            .To<C>([](const Bot&, const In& in, float t) { return in.Bit(2) && t >= 0.05f; })
            .To<A22>([](const Bot&, const In& in) { return in.Bit(3) && in.Bit(4); });
        From<A21>()
            .To<A>([](const Bot&, const In& in) { return in.Bit(1) && in.Bit(5); })
            .To<B>([](const Bot&, const In& in) { return in.Bit(4); });
        From<A22>()
            .To<A21>([](const Bot&, const In& in) { return in.Bit(2); })
            .To<C2>([](const Bot&, const In& in) { return in.Bit(6); });
        From<B>().To<A2>([](const Bot&, const In&, float t) { return t >= 0.1f; });
        From<C>().To<B>([](const Bot&, const In& in) { return in.Bit(7) && in.Bit(3); });
        From<C1>()
            .To<C2>([](const Bot&, const In& in) { return in.Bit(0); })
            .To<Root>([](const Bot&, const In& in) { return in.Bit(5) && in.Bit(6); });
        From<C2>().To<C1>([](const Bot&, const In& in, float t) { return t >= 0.03f && in.Bit(1); });
        From<D>()
            .To<A21>([](const Bot&, const In& in) { return in.Bit(3); })
            .To<C>([](const Bot&, const In& in) { return in.Bit(4); });
    }
};

// Random inputs, biased so that every transition fires many times.
In Draw(std::mt19937& rng) {
    std::uniform_int_distribution<int> byte(0, 255);
    return In{static_cast<std::uint8_t>(byte(rng) & byte(rng))};
}

template <class M>
std::vector<std::uint32_t> Times(const M& m) {
    return {m.template TicksInState<Root>(), m.template TicksInState<A>(),  m.template TicksInState<A2>(),
            m.template TicksInState<C>(),    m.template TicksInState<A1>(), m.template TicksInState<A21>(),
            m.template TicksInState<A22>(),  m.template TicksInState<B>(),  m.template TicksInState<C1>(),
            m.template TicksInState<C2>(),   m.template TicksInState<D>()};
}

template <class Crowd>
std::vector<bool> Where(const Crowd& crowd, std::size_t i) {
    return {crowd.template IsIn<Root>(i), crowd.template IsIn<A>(i),  crowd.template IsIn<A1>(i),
            crowd.template IsIn<A2>(i),   crowd.template IsIn<A21>(i), crowd.template IsIn<A22>(i),
            crowd.template IsIn<B>(i),    crowd.template IsIn<C>(i),  crowd.template IsIn<C1>(i),
            crowd.template IsIn<C2>(i),   crowd.template IsIn<D>(i)};
}

// Ticks `machine` and `words` on the same random inputs for `ticks` ticks and
// requires, after every tick, the same hooks, the same Performs' effects, the
// same active path and the same time in every state. `seen(before, log)` then
// gets the path before the tick and the tick's hooks.
template <class M, class W, class Seen>
void RequireSameTicks(M& machine, Bot& machine_bot, W& words, Bot& words_bot, unsigned seed, int ticks,
                      Seen&& seen) {
    std::mt19937 rng(seed);
    for (int tick = 0; tick < ticks; ++tick) {
        const In in = Draw(rng);
        const std::string before = words.ActivePath();
        words.Perform(in);
        machine.Perform(in);
        INFO("tick " << tick << " from " << before << " bits " << int(in.bits));
        REQUIRE(machine_bot.log == words_bot.log);
        REQUIRE(machine_bot.energy == words_bot.energy);
        REQUIRE(machine.ActivePath() == words.ActivePath());
        REQUIRE(Times(machine) == Times(words));
        seen(before, machine_bot.log);
        words_bot.log.clear();
        machine_bot.log.clear();
    }
}

} // namespace

TEST_CASE("A StateManager configured from a constant with nested states ticks exactly like the words written out",
          "[nested][configure]") {
    Bot words_bot, constant_bot;
    WordsBot words(words_bot);
    ConstantBot constant(constant_bot);
    std::set<std::pair<std::string, std::string>> changes;
    int exits_in_place = 0; // A1 left and entered again: its transition to itself
    RequireSameTicks(constant, constant_bot, words, words_bot, 2026, 20000,
                     [&](const std::string& before, const std::vector<int>& log) {
                         if (constant.ActivePath() != before) changes.emplace(before, constant.ActivePath());
                         for (const int hook : log) exits_in_place += hook == 32 && constant.ActivePath() == before;
                     });
    // Every transition fired, from every leaf it applies to.
    const std::set<std::pair<std::string, std::string>> expected{
        {"", "Root/A/A1"},
        {"D", "Root/A/A2/A21"},
        {"D", "Root/C/C1"},
        {"Root/A/A1", "D"},
        {"Root/A/A1", "Root/A/A2/A21"},
        {"Root/A/A1", "Root/A/A2/A22"},
        {"Root/A/A1", "Root/C/C1"},
        {"Root/A/A2/A21", "D"},
        {"Root/A/A2/A21", "Root/A/A1"},
        {"Root/A/A2/A21", "Root/A/A2/A22"},
        {"Root/A/A2/A21", "Root/B"},
        {"Root/A/A2/A21", "Root/C/C1"},
        {"Root/A/A2/A22", "D"},
        {"Root/A/A2/A22", "Root/A/A2/A21"},
        {"Root/A/A2/A22", "Root/C/C1"},
        {"Root/A/A2/A22", "Root/C/C2"},
        {"Root/B", "D"},
        {"Root/B", "Root/A/A2/A21"},
        {"Root/C/C1", "D"},
        {"Root/C/C1", "Root/A/A1"},
        {"Root/C/C1", "Root/B"},
        {"Root/C/C1", "Root/C/C2"},
        {"Root/C/C2", "D"},
        {"Root/C/C2", "Root/B"},
        {"Root/C/C2", "Root/C/C1"},
    };
    CHECK(changes == expected);
    CHECK(exits_in_place > 0);
    // The leaves tick with the steps compiled from the constant.
    CHECK(tickfsm::detail::FusedLeafCount(tickfsm::detail::TableAccess::Of(constant)) == 7);
    CHECK(tickfsm::detail::FusedLeafCount(tickfsm::detail::TableAccess::Of(words)) == 0);
}

TEST_CASE("A Crowd of a kind configured from a constant with nested states ticks each character as its machine",
          "[nested][configure][crowd]") {
    constexpr std::size_t kCount = 64;
    std::vector<Bot> crowd_bots(kCount), words_bots(kCount);
    tickfsm::Crowd<ConstantBot> crowd(kCount);
    tickfsm::Crowd<WordsBot> words(kCount);
    std::mt19937 rng(7);
    for (int tick = 0; tick < 3000; ++tick) {
        std::vector<In> inputs(kCount);
        for (In& in : inputs) in = Draw(rng);
        const auto input = [&](std::size_t i, Bot&) { return inputs[i]; };
        if (tick % 2 == 0) {
            crowd.TickAll(crowd_bots, input);
        } else {
            for (std::size_t i = 0; i < kCount; ++i) crowd.Perform(i, crowd_bots[i], inputs[i]);
        }
        words.TickAll(words_bots, input);
        for (std::size_t i = 0; i < kCount; ++i) {
            INFO("tick " << tick << " character " << i);
            REQUIRE(crowd_bots[i].log == words_bots[i].log);
            REQUIRE(Where(crowd, i) == Where(words, i));
            REQUIRE(crowd.TicksInState(i) == words.TicksInState(i));
            REQUIRE(crowd.ActivePath(i) == words.ActivePath(i));
            REQUIRE(crowd.TicksInState<A>(i) == words.TicksInState<A>(i));
            REQUIRE(crowd.TicksInState<Root>(i) == words.TicksInState<Root>(i));
            REQUIRE(crowd.TimeInState<A2>(i) == words.TimeInState<A2>(i));
            crowd_bots[i].log.clear();
            words_bots[i].log.clear();
        }
    }
}

TEST_CASE("A leaf configured since the constant ticks on the generic step, with the same rules",
          "[nested][configure]") {
    // Another transition on a state of the constant's tree: the compiled steps
    // no longer know every transition of the paths through it.
    class Extended : public tickfsm::StateManager<Bot, In> {
    public:
        explicit Extended(Bot& bot) : StateManager(bot, kDt) {
            Configure(kTable);
            From<B>().To<D>([](const Bot&, const In& in) { return in.Bit(0); });
        }
    };
    class ExtendedWords : public WordsBot {
    public:
        explicit ExtendedWords(Bot& bot) : WordsBot(bot) {
            From<B>().To<D>([](const Bot&, const In& in) { return in.Bit(0); });
        }
    };
    Bot extended_bot, words_bot;
    Extended extended(extended_bot);
    ExtendedWords words(words_bot);
    RequireSameTicks(extended, extended_bot, words, words_bot, 11, 5000, [](const std::string&, const auto&) {});
    CHECK(tickfsm::detail::FusedLeafCount(tickfsm::detail::TableAccess::Of(extended)) == 0);
}

TEST_CASE("History set after a constant's tree is kept by the compiled steps' changes, and read by the library's",
          "[nested][configure][history]") {
    // Deep history in A, shallow in C: changes out of them remember the leaf;
    // a change whose way down reads a history is made by the library.
    class Remembering : public tickfsm::StateManager<Bot, In> {
    public:
        explicit Remembering(Bot& bot) : StateManager(bot, kDt) {
            Configure(kTable);
            SetHistory<A>(tickfsm::History::Deep);
            SetHistory<C>(tickfsm::History::Shallow);
        }
    };
    class RememberingWords : public WordsBot {
    public:
        explicit RememberingWords(Bot& bot) : WordsBot(bot) {
            SetHistory<A>(tickfsm::History::Deep);
            SetHistory<C>(tickfsm::History::Shallow);
        }
    };
    Bot remembering_bot, words_bot;
    Remembering remembering(remembering_bot);
    RememberingWords words(words_bot);
    RequireSameTicks(remembering, remembering_bot, words, words_bot, 5, 20000,
                     [](const std::string&, const auto&) {});
    CHECK(tickfsm::detail::FusedLeafCount(tickfsm::detail::TableAccess::Of(remembering)) == 7);
}

namespace {
struct Fragile {
    bool throw_on_enter = false;
};
struct Calm {};
struct Outer {
    void OnStateEnter(Fragile& f, const In&) {
        if (f.throw_on_enter) throw std::runtime_error("Outer refuses");
    }
};
struct Inner {};
inline constexpr auto kFragileTable = tickfsm::Transitions<Fragile, In>()
                                          .SetSubstates<Outer, Inner>()
                                          .SetInitialState<Calm>()
                                          .To<Inner>([](const Fragile&, const In& in) { return in.Bit(0); })
                                          .From<Outer>()
                                          .To<Calm>([](const Fragile&, const In& in) { return in.Bit(1); });
class FragileConstant : public tickfsm::StateManager<Fragile, In> {
public:
    explicit FragileConstant(Fragile& f) : StateManager(f, kDt) { Configure(kFragileTable); }
};
class FragileWords : public tickfsm::StateManager<Fragile, In> {
public:
    explicit FragileWords(Fragile& f) : StateManager(f, kDt) {
        SetSubstates<Outer, Inner>();
        SetInitialState<Calm>().To<Inner>([](const Fragile&, const In& in) { return in.Bit(0); });
        From<Outer>().To<Calm>([](const Fragile&, const In& in) { return in.Bit(1); });
    }
};
} // namespace

TEST_CASE("An enter hook that throws during a compiled change leaves the machine as the words' machine is left",
          "[nested][configure][error]") {
    Fragile constant_f, words_f;
    FragileConstant constant(constant_f);
    FragileWords words(words_f);
    constant.Perform(In{});
    words.Perform(In{});
    REQUIRE(tickfsm::detail::FusedLeafCount(tickfsm::detail::TableAccess::Of(constant)) == 2);
    constant_f.throw_on_enter = words_f.throw_on_enter = true;
    REQUIRE_THROWS_AS(constant.Perform(In{1}), std::runtime_error);
    REQUIRE_THROWS_AS(words.Perform(In{1}), std::runtime_error);
    CHECK(constant.ActivePath() == words.ActivePath());
    CHECK(constant.TicksInState() == words.TicksInState());
    constant_f.throw_on_enter = words_f.throw_on_enter = false;
    for (const int bits : {0, 2, 0, 1, 1, 2, 0}) { // ticks on, out of Outer and back in
        const In in{static_cast<std::uint8_t>(bits)};
        constant.Perform(in);
        words.Perform(in);
        CHECK(constant.ActivePath() == words.ActivePath());
        CHECK(constant.TicksInState() == words.TicksInState());
        CHECK(constant.TicksInState<Outer>() == words.TicksInState<Outer>());
    }
}

TEST_CASE("A StaticStateManager of a constant with nested states ticks exactly like the words written out",
          "[nested][static]") {
    Bot words_bot, static_bot;
    WordsBot words(words_bot);
    tickfsm::StaticStateManager<kTable> machine(static_bot, kDt);
    std::set<std::pair<std::string, std::string>> changes;
    RequireSameTicks(machine, static_bot, words, words_bot, 2027, 20000,
                     [&](const std::string& before, const std::vector<int>&) {
                         if (machine.ActivePath() != before) changes.emplace(before, machine.ActivePath());
                     });
    CHECK(changes.size() == 25); // every transition, from every leaf it applies to (as above)
    CHECK(machine.IsIn<Root>() == words.IsIn<Root>());
    CHECK(machine.CurrentStateName() == words.CurrentStateName());
    CHECK(machine.TimeInState<Root>() == words.TimeInState<Root>());

    // A copy is a snapshot, composites' times included: from the state before
    // a tick, a copy ticks to where the original went (the conditions read
    // only the input and the times).
    tickfsm::StaticStateManager<kTable> copy(machine);
    std::mt19937 rng(99);
    for (int tick = 0; tick < 2000; ++tick) {
        const In in = Draw(rng);
        tickfsm::StaticStateManager<kTable> replay(copy); // bound to static_bot, as `machine` is
        machine.Perform(in);
        replay.Perform(in);
        REQUIRE(Times(replay) == Times(machine));
        REQUIRE(replay.ActivePath() == machine.ActivePath());
        copy = machine;
        static_bot.log.clear();
    }
}

TEST_CASE("A StaticCrowd of a constant with nested states ticks each character as its machine",
          "[nested][static][crowd]") {
    constexpr std::size_t kCount = 48;
    std::vector<Bot> static_bots(kCount), words_bots(kCount);
    tickfsm::StaticCrowd<kTable> crowd(kCount, kDt);
    std::vector<std::unique_ptr<WordsBot>> words;
    for (Bot& bot : words_bots) words.push_back(std::make_unique<WordsBot>(bot));
    std::mt19937 rng(8);
    for (int tick = 0; tick < 3000; ++tick) {
        std::vector<In> inputs(kCount);
        for (In& in : inputs) in = Draw(rng);
        const auto input = [&](std::size_t i, Bot&) { return inputs[i]; };
        if (tick % 3 == 0) {
            crowd.TickAll(static_bots, input);
        } else if (tick % 3 == 1) {
            crowd.TickAll(static_bots, input, tickfsm::TickOrder::ByState);
        } else {
            for (std::size_t i = 0; i < kCount; ++i) crowd.Perform(i, static_bots[i], inputs[i]);
        }
        for (std::size_t i = 0; i < kCount; ++i) words[i]->Perform(inputs[i]);
        for (std::size_t i = 0; i < kCount; ++i) {
            INFO("tick " << tick << " character " << i);
            const WordsBot& machine = *words[i];
            REQUIRE(static_bots[i].log == words_bots[i].log);
            REQUIRE(static_bots[i].energy == words_bots[i].energy);
            REQUIRE(crowd.ActivePath(i) == machine.ActivePath());
            REQUIRE(crowd.IsIn<A>(i) == machine.IsIn<A>());
            REQUIRE(crowd.IsIn<C1>(i) == machine.IsIn<C1>());
            REQUIRE(crowd.TicksInState(i) == machine.TicksInState());
            REQUIRE(crowd.TicksInState<A>(i) == machine.TicksInState<A>());
            REQUIRE(crowd.TicksInState<A2>(i) == machine.TicksInState<A2>());
            REQUIRE(crowd.TicksInState<Root>(i) == machine.TicksInState<Root>());
            REQUIRE(crowd.TicksInState<C>(i) == machine.TicksInState<C>());
            static_bots[i].log.clear();
            words_bots[i].log.clear();
        }
    }
    // Per character: the leaf and its ticks (8), a count for each level of
    // composites above the leaves (Root; A or C; A2), and B's object.
    CHECK(crowd.BytesPerCharacter() == 8 + 3 * sizeof(std::uint32_t) + sizeof(B));
}

namespace {
struct Guard {
    std::vector<std::string> log;
};
struct Patrol {
    void OnStateEnter(Guard& g, const In&) { g.log.push_back("enter Patrol"); }
    void OnStateExit(Guard& g, const In&) { g.log.push_back("exit Patrol"); }
    void Perform(Guard& g, const In&) { g.log.push_back("Patrol"); }
};
struct Walk {
    void OnStateEnter(Guard& g, const In&) { g.log.push_back("enter Walk"); }
    void OnStateExit(Guard& g, const In&) { g.log.push_back("exit Walk"); }
    void Perform(Guard& g, const In&) { g.log.push_back("Walk"); }
};
struct Look {
    void OnStateEnter(Guard& g, const In&) { g.log.push_back("enter Look"); }
    void Perform(Guard& g, const In&) { g.log.push_back("Look"); }
};
struct Alarm {
    void OnStateEnter(Guard& g, const In&) { g.log.push_back("enter Alarm"); }
    void Perform(Guard& g, const In&) { g.log.push_back("Alarm"); }
};
// The initial state is a composite: the machine starts in its initial substate.
inline constexpr auto kGuardTable = tickfsm::Transitions<Guard, In>()
                                        .SetSubstates<Patrol, Walk, Look>()
                                        .SetInitialState<Patrol>()
                                        .To<Alarm>([](const Guard&, const In& in) { return in.Bit(0); })
                                        .From<Walk>()
                                        .To<Look>([](const Guard&, const In&, float t) { return t >= 0.02f; })
                                        .From<Alarm>()
                                        .To<Patrol>([](const Guard&, const In& in) { return in.Bit(1); });
} // namespace

TEST_CASE("A StaticStateManager whose initial state is a composite enters it, then its initial substate",
          "[nested][static]") {
    Guard guard;
    tickfsm::StaticStateManager<kGuardTable> machine(guard, 0.01f);
    machine.Perform(In{});
    CHECK(guard.log == std::vector<std::string>{"enter Patrol", "enter Walk", "Patrol", "Walk"});
    CHECK(machine.ActivePath() == "Patrol/Walk");
    CHECK(machine.IsIn<Patrol>());
    CHECK(machine.IsIn<Walk>());
    CHECK_FALSE(machine.IsIn<Look>());
    guard.log.clear();
    machine.Perform(In{}); // Walk's time reaches 0.02 s: Walk -> Look inside Patrol, whose time runs on
    CHECK(guard.log == std::vector<std::string>{"exit Walk", "enter Look", "Patrol", "Look"});
    CHECK(machine.TicksInState() == 0);
    CHECK(machine.TicksInState<Patrol>() == 2);
    CHECK(machine.TicksInState<Walk>() == 0);
    guard.log.clear();
    machine.Perform(In{1}); // Patrol's transition, tried first, leaves the whole composite
    CHECK(guard.log == std::vector<std::string>{"exit Patrol", "enter Alarm", "Alarm"});
    CHECK(machine.ActivePath() == "Alarm");
    CHECK(machine.TicksInState<Patrol>() == 0);
    guard.log.clear();
    machine.Perform(In{2}); // back into the composite: its initial substate again
    CHECK(guard.log == std::vector<std::string>{"enter Patrol", "enter Walk", "Patrol", "Walk"});
    CHECK(machine.TicksInState<Patrol>() == 0);
    machine.Reset();
    CHECK(machine.ActivePath() == "");
}

namespace stale {
struct Npc {
    bool go = false, back = false, boom = false;
};
struct In {};
struct Alive {};
struct Idle {};
struct Attack {};
struct Light {};
struct Heavy {};
struct Combat {
    void OnStateEnter(Npc& n, const In&) {
        if (n.boom) throw std::runtime_error("combat enter");
    }
};
inline constexpr auto kStale = tickfsm::Transitions<Npc, In>()
                                   .SetSubstates<Alive, Idle, Combat>()
                                   .SetSubstates<Combat, Attack, Heavy>()
                                   .SetSubstates<Attack, Light>()
                                   .SetInitialState<Alive>()
                                   .From<Idle>()
                                   .To<Combat>([](const Npc& n) { return n.go; })
                                   .From<Combat>()
                                   .To<Idle>([](const Npc& n) { return n.back; });
} // namespace stale

TEST_CASE("A compile-time machine whose composite's enter hook throws leaves no composite with an old time",
          "[nested][static][error]") {
    using namespace stale;
    Npc npc;
    tickfsm::StaticStateManager<kStale> m(npc);
    npc.go = true;
    m.Perform({}); // Alive/Idle -> Alive/Combat/Attack/Light
    npc.go = false;
    for (int i = 0; i < 5; ++i) m.Perform({});
    REQUIRE(m.TicksInState<Attack>() == 5);
    npc.back = true;
    m.Perform({}); // back to Idle
    npc.back = false;
    npc.go = true;
    npc.boom = true;
    REQUIRE_THROWS_AS(m.Perform({}), std::runtime_error);
    CHECK(m.ActivePath() == "Alive/Combat"); // the composite whose enter threw, its substates not entered
    CHECK(m.TicksInState<Combat>() == 0);
    CHECK(m.TicksInState<Attack>() == 0); // not active, and not the 5 of its last visit
    npc.boom = false;
    npc.go = false;
    m.Perform({});
    CHECK(m.TicksInState<Combat>() == 1);
}

namespace half {
struct Npc {
    bool go = false, back = false, boom = false;
    std::string log;
};
struct In {};
template <char kName>
struct Hooked {
    void OnStateEnter(Npc& n, const In&) { n.log += std::string("+") + kName; }
    void OnStateExit(Npc& n, const In&) { n.log += std::string("-") + kName; }
    void Perform(Npc& n, const In&) { n.log += std::string(".") + kName; }
};
struct Alive : Hooked<'L'> {};
struct Idle : Hooked<'I'> {};
struct Attack : Hooked<'A'> {};
struct Light : Hooked<'H'> {};
struct Combat : Hooked<'C'> {
    void OnStateEnter(Npc& n, const In& in) {
        Hooked::OnStateEnter(n, in);
        if (n.boom) throw std::runtime_error("combat enter");
    }
};
inline constexpr auto kHalf = tickfsm::Transitions<Npc, In>()
                                  .SetSubstates<Alive, Idle, Combat>()
                                  .SetSubstates<Combat, Attack>()
                                  .SetSubstates<Attack, Light>()
                                  .SetInitialState<Alive>()
                                  .From<Idle>()
                                  .To<Combat>([](const Npc& n) { return n.go; })
                                  .From<Combat>()
                                  .To<Idle>([](const Npc& n) { return n.back; })
                                  .To<Attack>([](const Npc& n) { return n.go; });
// The initial state is the composite that throws.
inline constexpr auto kHalfStart = tickfsm::Transitions<Npc, In>()
                                       .SetSubstates<Combat, Attack>()
                                       .SetInitialState<Combat>()
                                       .To<Idle>([](const Npc& n) { return n.back; });
class HalfWords : public tickfsm::StateManager<Npc, In> {
public:
    explicit HalfWords(Npc& n) : StateManager(n) { Configure(kHalf); }
};
// One character's machine, whichever form: Perform and the queries.
template <class M>
struct One {
    M m;
    template <class... Args>
    explicit One(Npc& n, Args... args) : m(n, args...) {}
    void Perform() { m.Perform(In{}); }
    std::string Path() const { return m.ActivePath(); }
    template <class S>
    std::uint32_t Ticks() const { return m.template TicksInState<S>(); }
    template <class S>
    bool In_() const { return m.template IsIn<S>(); }
};
template <auto kTable>
struct OneOfCrowd {
    Npc& npc;
    tickfsm::StaticCrowd<kTable> crowd{1};
    explicit OneOfCrowd(Npc& n) : npc(n) {}
    void Perform() { crowd.TickAll(std::span<Npc>(&npc, 1), [](std::size_t, Npc&) { return In{}; }); }
    std::string Path() const { return crowd.ActivePath(0); }
    template <class S>
    std::uint32_t Ticks() const { return crowd.template TicksInState<S>(0); }
    template <class S>
    bool In_() const { return crowd.template IsIn<S>(0); }
};

// Alive/Idle; to Combat, whose enter throws; a tick in Combat; to Attack
// (Combat's own substate) and back to Idle. Returns the hooks that ran.
template <class M>
std::string HalfEntered() {
    Npc npc;
    M m(npc);
    m.Perform();
    npc.go = npc.boom = true;
    REQUIRE_THROWS_AS(m.Perform(), std::runtime_error);
    CHECK(m.Path() == "Alive/Combat");
    CHECK(m.template In_<Combat>());
    CHECK_FALSE(m.template In_<Attack>());
    CHECK(m.template Ticks<Combat>() == 0);
    npc.go = npc.boom = false;
    m.Perform(); // Combat current: its and Alive's transitions tried, their Performs run
    CHECK(m.Path() == "Alive/Combat");
    CHECK(m.template Ticks<Combat>() == 1);
    CHECK(m.template Ticks<Alive>() == 3);
    npc.go = true;
    m.Perform(); // Combat -> Attack, its substate: Combat stays
    CHECK(m.Path() == "Alive/Combat/Attack/Light");
    npc.go = false;
    npc.back = true;
    m.Perform();
    CHECK(m.Path() == "Alive/Idle");
    return npc.log;
}
} // namespace half

TEST_CASE("A compile-time machine whose composite's enter hook throws stays in it and exits no state it did not "
          "enter",
          "[nested][static][error]") {
    using namespace half;
    const std::string words = HalfEntered<One<HalfWords>>();
    CHECK(words == "+L+I.L.I-I+C.L.C+A+H.L.C.A.H-H-A-C+I.L.I");
    CHECK(HalfEntered<One<tickfsm::StaticStateManager<kHalf>>>() == words);
    CHECK(HalfEntered<OneOfCrowd<kHalf>>() == words);
}

TEST_CASE("A compile-time machine whose initial composite's enter hook throws starts in that composite",
          "[nested][static][error]") {
    using namespace half;
    Npc npc;
    npc.boom = true;
    tickfsm::StaticStateManager<kHalfStart> m(npc);
    REQUIRE_THROWS_AS(m.Perform(half::In{}), std::runtime_error);
    CHECK(m.IsStarted());
    CHECK(m.ActivePath() == "Combat");
    npc.boom = false;
    m.Perform(half::In{}); // not entered again
    npc.back = true;
    m.Perform(half::In{});
    CHECK(npc.log == "+C.C-C+I.I");
    CHECK(m.ActivePath() == "Idle");
}

namespace init_order {
struct Npc {
    std::string log;
};
struct In {};
template <char kName>
struct Initialized {
    void OnStateInit(Npc& n) { n.log += kName; }
};
struct Idle : Initialized<'I'> {};
struct Combat : Initialized<'C'> {};
struct Attack : Initialized<'A'> {};
struct Block : Initialized<'B'> {};
// The transitions name Idle first, the tree Combat, Attack and Block.
inline constexpr auto kTable = tickfsm::Transitions<Npc, In>()
                                   .SetSubstates<Combat, Attack, Block>()
                                   .SetInitialState<Idle>()
                                   .To<Combat>()
                                   .From<Combat>()
                                   .To<Idle>();
class Words : public tickfsm::StateManager<Npc, In> {
public:
    explicit Words(Npc& n) : StateManager(n) {
        SetSubstates<Combat, Attack, Block>();
        SetInitialState<Idle>().To<Combat>();
        From<Combat>().To<Idle>();
    }
};
} // namespace init_order

TEST_CASE("A compile-time machine runs OnStateInit in the order a StateManager declares the states",
          "[nested][static][init]") {
    using namespace init_order;
    Npc words_npc, static_npc, crowd_npc;
    Words words(words_npc);
    words.Perform(init_order::In{});
    CHECK(words_npc.log == "CABI"); // the tree's states first, as SetSubstates declared them
    tickfsm::StaticStateManager<init_order::kTable> machine(static_npc);
    machine.Perform(init_order::In{});
    CHECK(static_npc.log == words_npc.log);
    tickfsm::StaticCrowd<init_order::kTable> crowd(1);
    crowd.Perform(0, crowd_npc, init_order::In{});
    CHECK(crowd_npc.log == words_npc.log);
    CHECK(machine.StateNames()[0] == "Idle"); // ids stay in the transitions' order
}
