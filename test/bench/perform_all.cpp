// The benchmark's PerformAllByState (bench/brawler/perform_all.hpp): many
// StateManagers ticked grouped by state, each as its own Perform would.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

#include "brawler/perform_all.hpp"
#include "tickfsm/tick_log.hpp"

namespace {

struct Critter {
    std::size_t id = 0;
    int moved = 0;
    tick_log::Log* log = nullptr;
};
struct Sense {
    int tick = 0;
};
void Note(Critter& c) {
    if (c.log) c.log->push_back({'T', c.id});
}
struct Roam {
    void Perform(Critter& c, const Sense&) {
        ++c.moved;
        Note(c);
    }
};
struct Chase {
    void Perform(Critter& c, const Sense&) {
        c.moved += 2;
        Note(c);
    }
};
struct Doze {
    void Perform(Critter& c, const Sense&) { Note(c); }
};

bool Spots(const Critter& c, const Sense& s) { return (c.id * 7 + static_cast<std::size_t>(s.tick)) % 5 == 0; }
bool Loses(const Critter& c, const Sense& s) { return (c.id + static_cast<std::size_t>(s.tick)) % 3 == 0; }

class CritterStateManager : public tickfsm::StateManager<Critter, Sense> {
public:
    explicit CritterStateManager(Critter& c) : StateManager(c) {
        SetInitialState<Roam>().To<Chase>([](const Critter& cr, const Sense& s) { return Spots(cr, s); });
        From<Chase>().To<Doze>([](const Critter& cr, const Sense& s) { return Loses(cr, s); });
        From<Doze>().To<Roam>([](const Critter&, const Sense&, float t) { return t >= 0.05f; });
    }
};

inline constexpr auto kCritterTransitions =
    tickfsm::Transitions<Critter, Sense>()
        .SetInitialState<Roam>()
        .To<Chase>([](const Critter& cr, const Sense& s) { return Spots(cr, s); })
        .From<Chase>()
        .To<Doze>([](const Critter& cr, const Sense& s) { return Loses(cr, s); })
        .From<Doze>()
        .To<Roam>([](const Critter&, const Sense&, float t) { return t >= 0.05f; });

/// `count` critters, each with its own machine, in one array (machines are not movable).
template <class Machine>
struct Pack {
    explicit Pack(std::size_t count, tick_log::Log* log = nullptr) : critters(count) {
        machines = std::allocator<Machine>{}.allocate(count);
        for (std::size_t i = 0; i < count; ++i) {
            critters[i] = Critter{i, 0, log};
            std::construct_at(machines + i, critters[i]);
        }
    }
    ~Pack() {
        for (std::size_t i = 0; i < critters.size(); ++i) std::destroy_at(machines + i);
        std::allocator<Machine>{}.deallocate(machines, critters.size());
    }
    Pack(const Pack&) = delete;
    Pack& operator=(const Pack&) = delete;
    std::span<Machine> Machines() { return {machines, critters.size()}; }

    std::vector<Critter> critters;
    Machine* machines = nullptr;
};

} // namespace

TEST_CASE("PerformAllByState ticks each machine as Perform in a loop would", "[perform_all]") {
    constexpr std::size_t kCount = 600; // two full blocks and a part
    Pack<CritterStateManager> grouped(kCount), looped(kCount);
    int changes = 0;
    for (int tick = 0; tick < 120; ++tick) {
        brawler::PerformAllByState(grouped.Machines(), [tick](std::size_t) { return Sense{tick}; });
        for (std::size_t i = 0; i < kCount; ++i) looped.machines[i].Perform(Sense{tick});
        for (std::size_t i = 0; i < kCount; ++i) {
            REQUIRE(grouped.machines[i].CurrentState() == looped.machines[i].CurrentState());
            REQUIRE(grouped.machines[i].TicksInState() == looped.machines[i].TicksInState());
            REQUIRE(grouped.critters[i].moved == looped.critters[i].moved);
            changes += grouped.machines[i].TicksInState() == 0;
        }
    }
    CHECK(changes > 10000);
}

TEST_CASE("PerformAllByState makes a block's actions in index order, then ticks it grouped by state",
          "[perform_all]") {
    constexpr std::size_t kCount = 600;
    constexpr std::size_t kBlock = 256; // an action of 8 bytes or less
    tick_log::Log log;
    Pack<CritterStateManager> pack(kCount, &log);
    int grouped_ticks = 0;
    for (int tick = 0; tick < 30; ++tick) {
        std::vector<tickfsm::StateId> before(kCount);
        for (std::size_t i = 0; i < kCount; ++i) before[i] = pack.machines[i].CurrentState();
        log.clear();
        brawler::PerformAllByState(pack.Machines(), [&](std::size_t i) {
            log.push_back({'M', i});
            return Sense{tick};
        });
        // Machines not started yet (the first tick) form one group, in index order.
        grouped_ticks += tick_log::RequireGroupedBlocks(log, before, kBlock);
    }
    CHECK(grouped_ticks > 20);
}

TEST_CASE("PerformAllByState ticks fewer than 32 machines in index order", "[perform_all]") {
    constexpr std::size_t kCount = 31;
    tick_log::Log log;
    Pack<CritterStateManager> pack(kCount, &log);
    for (int tick = 0; tick < 10; ++tick) {
        log.clear();
        brawler::PerformAllByState(pack.Machines(), [&](std::size_t i) {
            log.push_back({'M', i});
            return Sense{tick};
        });
        tick_log::RequireIndexOrder(log, kCount);
    }
}

TEST_CASE("PerformAllByState ticks compile-time machines too", "[perform_all][static]") {
    using Machine = tickfsm::StaticStateManager<kCritterTransitions>;
    constexpr std::size_t kCount = 300;
    Pack<Machine> grouped(kCount);
    Pack<CritterStateManager> looped(kCount);
    for (int tick = 0; tick < 60; ++tick) {
        brawler::PerformAllByState(grouped.Machines(), [tick](std::size_t) { return Sense{tick}; });
        for (std::size_t i = 0; i < kCount; ++i) looped.machines[i].Perform(Sense{tick});
        for (std::size_t i = 0; i < kCount; ++i) {
            REQUIRE(grouped.machines[i].CurrentState() == looped.machines[i].CurrentState());
            REQUIRE(grouped.critters[i].moved == looped.critters[i].moved);
        }
    }
}
