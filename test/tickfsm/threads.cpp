// Threads: machines and crowds of one kind share one table, and different
// machines and crowds may be built, ticked and destroyed on different threads
// at the same time. Each test runs the same characters on several threads at
// once and on one thread, and requires the same outcome; scripts/test.sh also
// runs this file under ThreadSanitizer (its tsan stage), which fails on any
// data race.

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <latch>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Drone {
    std::uint32_t id = 0;
    int dives = 0;
    int scans = 0;
    float height = 0;
};
struct Radio {
    std::uint32_t noise = 0;
};
using M = tickfsm::Machine<Drone, Radio>;

/// The radio noise drone `id` hears on tick `tick`: the same on every thread.
Radio RadioAt(std::uint32_t id, std::uint32_t tick) {
    std::uint32_t s = id * 7919u + tick * 104729u + 1u;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return Radio{s};
}

// Hover and Dive tick on the fast path; Scan holds data and takes the machine
// handle, so it ticks on the general path and asks for NextState.
struct Hover {
    void Perform(Drone& d, const Radio&) { d.height += 0.5f; }
};
struct Dive {
    void OnStateEnter(Drone& d, const Radio&) { ++d.dives; }
    void Perform(Drone& d, const Radio&) { d.height -= 2.0f; }
};
struct Scan {
    int sweeps = 0;
    void Perform(Drone& d, const Radio& r, M& m) {
        ++sweeps;
        ++d.scans;
        if (r.noise % 7 == 0) m.NextState<Hover>();
    }
};
struct Dock {};

class DroneStateManager : public tickfsm::StateManager<Drone, Radio> {
public:
    explicit DroneStateManager(Drone& d) : StateManager(d) {
        SetInitialState<Hover>()
            .To<Dive>([](const Drone& drone, const Radio& r) { return r.noise % 5 == 0 && drone.height > 3; })
            .To<Scan>([](const Drone&, const Radio&, float t) { return t > 0.25f; });
        From<Dive>().To<Hover>([](const Drone& drone) { return drone.height < 0; });
        From<Scan>().To<Dock>([](const Drone& drone) { return drone.scans % 11 == 10; });
        From<Dock>().To<Hover>([](const Drone&, const Radio&, float t) { return t >= 0.05f; });
    }
};

/// The same machine with a capturing condition: each machine gets a private table.
class TetheredDroneStateManager : public tickfsm::StateManager<Drone, Radio> {
public:
    TetheredDroneStateManager(Drone& d, float ceiling) : StateManager(d) {
        SetInitialState<Hover>().To<Dock>([ceiling](const Drone& drone) { return drone.height > ceiling; });
        From<Dock>().To<Hover>([](const Drone&, const Radio&, float t) { return t >= 0.1f; });
    }
};

constexpr std::uint32_t kThreads = 4;
constexpr std::uint32_t kTicks = 300;

/// One line per character: what it ends in, and what its hooks did.
std::string Describe(const Drone& d, std::string_view state, std::uint32_t ticks, int sweeps) {
    return fmt::format("drone {}: {} for {} ticks, {} dives, {} scans, {} sweeps, height {}", d.id, state, ticks,
                       d.dives, d.scans, sweeps, d.height);
}
template <class Machine>
std::string Describe(const Drone& d, const Machine& m, int sweeps) {
    return Describe(d, m.CurrentStateName(), m.TicksInState(), sweeps);
}

// No Catch2 assertion runs on the threads: Catch2 2.x is not thread-safe.

/// Drones [first, first + count) as StateManagers, each ticked kTicks times,
/// with a trace of every `traced`-th one appended to its line.
std::vector<std::string> FlyMachines(std::uint32_t first, std::uint32_t count, std::uint32_t traced) {
    std::vector<Drone> drones(count);
    std::vector<std::unique_ptr<DroneStateManager>> machines;
    std::vector<std::string> traces(count);
    std::vector<std::string> names(count); // SetObserver keeps a view of the name
    std::vector<std::unique_ptr<tickfsm::TracePrinter>> printers;
    for (std::uint32_t i = 0; i < count; ++i) {
        drones[i].id = first + i;
        machines.push_back(std::make_unique<DroneStateManager>(drones[i]));
        if ((first + i) % traced == 0) {
            printers.push_back(std::make_unique<tickfsm::TracePrinter>(traces[i]));
            names[i] = fmt::format("drone {}", first + i);
            machines[i]->SetObserver(printers.back().get(), names[i]);
        }
    }
    for (std::uint32_t tick = 0; tick < kTicks; ++tick)
        for (std::uint32_t i = 0; i < count; ++i) machines[i]->Perform(RadioAt(first + i, tick));
    std::vector<std::string> lines;
    for (std::uint32_t i = 0; i < count; ++i)
        lines.push_back(Describe(drones[i], *machines[i], machines[i]->State<Scan>().sweeps) +
                        (machines[i]->SharesTable() ? ", shared table" : ", private table") + traces[i]);
    return lines;
}

/// Drones [first, first + count) as one crowd, ticked kTicks times by TickAll
/// (or by state).
std::vector<std::string> FlyCrowd(std::uint32_t first, std::uint32_t count, bool by_state) {
    std::vector<Drone> drones(count);
    for (std::uint32_t i = 0; i < count; ++i) drones[i].id = first + i;
    Drone prototype;
    tickfsm::Crowd<DroneStateManager> crowd(count, prototype);
    for (std::uint32_t tick = 0; tick < kTicks; ++tick) {
        auto radio = [tick](std::size_t, Drone& d) { return RadioAt(d.id, tick); };
        if (by_state) crowd.TickAll(std::span<Drone>(drones), radio, tickfsm::TickOrder::ByState);
        else crowd.TickAll(std::span<Drone>(drones), radio);
    }
    std::vector<std::string> lines;
    for (std::uint32_t i = 0; i < count; ++i)
        lines.push_back(
            Describe(drones[i], crowd.CurrentStateName(i), crowd.TicksInState(i), crowd.State<Scan>(i).sweeps));
    return lines;
}

/// `fly(first, count)` for kThreads slices of `total` characters, each on its
/// own thread, all released at once so that they configure their first
/// machines together; the slices' lines in order.
std::vector<std::string> OnThreads(std::uint32_t total,
                                   const std::function<std::vector<std::string>(std::uint32_t, std::uint32_t)>& fly) {
    const std::uint32_t slice = total / kThreads;
    std::vector<std::vector<std::string>> results(kThreads);
    std::latch start(static_cast<std::ptrdiff_t>(kThreads));
    {
        std::vector<std::jthread> threads;
        for (std::size_t t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                start.arrive_and_wait();
                results[t] = fly(static_cast<std::uint32_t>(t) * slice, slice);
            });
    }
    std::vector<std::string> lines;
    for (const auto& r : results) lines.insert(lines.end(), r.begin(), r.end());
    return lines;
}

/// The first line where `a` and `b` differ, or empty if they are equal.
std::string FirstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a.size() != b.size()) return fmt::format("{} lines against {}", a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return fmt::format("line {}:\n  {}\n  {}", i, a[i], b[i]);
    return {};
}

} // namespace

TEST_CASE("Machines of one kind configured and ticked on several threads at once tick as on one thread",
          "[threads]") {
    constexpr std::uint32_t kDrones = 48 * kThreads;
    const auto threaded = OnThreads(kDrones, [](std::uint32_t first, std::uint32_t count) {
        return FlyMachines(first, count, 16);
    });
    const auto alone = FlyMachines(0, kDrones, 16);
    CHECK(FirstDifference(threaded, alone) == "");
    // The drones went through every state, the general path's included.
    CHECK(alone[0].find("Initializing state machine 'drone 0'") != std::string::npos);
    std::size_t scanned = 0, dived = 0;
    for (const std::string& line : alone) {
        scanned += line.find(" 0 scans") == std::string::npos;
        dived += line.find(" 0 dives") == std::string::npos;
    }
    CHECK(scanned > alone.size() / 2);
    CHECK(dived > 0);
    CHECK(alone[0].find(", shared table") != std::string::npos);
}

TEST_CASE("Crowds of one kind, one per thread, tick at once as one crowd ticks on one thread", "[threads][crowd]") {
    constexpr std::uint32_t kDrones = 512 * kThreads;
    const bool by_state = GENERATE(false, true);
    CAPTURE(by_state);
    const auto threaded = OnThreads(kDrones, [by_state](std::uint32_t first, std::uint32_t count) {
        return FlyCrowd(first, count, by_state);
    });
    const auto alone = FlyCrowd(0, kDrones, by_state);
    CHECK(FirstDifference(threaded, alone) == "");
}

TEST_CASE("Machines are made and destroyed on several threads while others tick", "[threads]") {
    // Each round makes shared-table machines, a private-table machine and a
    // crowd, ticks them and lets them go, so that the shared table's count of
    // users goes up and down on every thread at once.
    constexpr int kRounds = 40;
    auto churn = [](std::uint32_t first, std::uint32_t) {
        std::vector<std::string> lines;
        for (int round = 0; round < kRounds; ++round) {
            Drone a{first, 0, 0, 0}, b{first + 1, 0, 0, 0};
            auto shared = std::make_unique<DroneStateManager>(a);
            TetheredDroneStateManager tethered(b, 2.0f + static_cast<float>(round % 3));
            Drone prototype;
            std::vector<Drone> crowd_drones(3);
            tickfsm::Crowd<DroneStateManager> crowd(crowd_drones.size(), prototype);
            for (std::uint32_t tick = 0; tick < 20; ++tick) {
                shared->Perform(RadioAt(a.id, tick));
                tethered.Perform(RadioAt(b.id, tick));
                crowd.TickAll(std::span<Drone>(crowd_drones),
                              [tick](std::size_t i, Drone&) { return RadioAt(static_cast<std::uint32_t>(i), tick); });
            }
            lines.push_back(Describe(a, *shared, shared->State<Scan>().sweeps) + " | " + Describe(b, tethered, 0) +
                            (tethered.SharesTable() ? ", shared table" : ", private table") + " | " +
                            std::string(crowd.CurrentStateName(2)));
            shared.reset(); // before the crowd: the table outlives either
        }
        return lines;
    };
    const auto threaded = OnThreads(kThreads, churn);
    std::vector<std::string> alone;
    for (std::uint32_t t = 0; t < kThreads; ++t) {
        const auto lines = churn(t, 1);
        alone.insert(alone.end(), lines.begin(), lines.end());
    }
    CHECK(FirstDifference(threaded, alone) == "");
    CHECK(alone[0].find(", private table") != std::string::npos);
}
