// The tick path allocates nothing: global operator new is counted here (its own
// test binary, so the replacement touches no other test).

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

namespace {
std::atomic<long> g_allocations{0};
std::atomic<long> g_deallocations{0};
// Every new block is filled with this byte, as a heap that held other data would leave it.
std::atomic<unsigned char> g_fill{0xA5};
void* Filled(void* p, std::size_t size) noexcept {
    if (p) std::memset(p, g_fill.load(std::memory_order_relaxed), size);
    return p;
}
void CountedFree(void* p) noexcept {
    if (p) g_deallocations.fetch_add(1, std::memory_order_relaxed);
    std::free(p);
}
}

[[gnu::noinline]] void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1)) return Filled(p, size);
    throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, std::align_val_t align) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    const auto a = static_cast<std::size_t>(align);
    if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return Filled(p, size);
    throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
[[gnu::noinline]] void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    const auto a = static_cast<std::size_t>(align);
    return std::aligned_alloc(a, (size + a - 1) / a * a);
}
// noinline: g++ 12 misreads an inlined free() after our new as a mismatched pair.
[[gnu::noinline]] void operator delete(void* p) noexcept { CountedFree(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { CountedFree(p); }
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept { CountedFree(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept { CountedFree(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { CountedFree(p); }
[[gnu::noinline]] void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { CountedFree(p); }

namespace {

struct Walker {
    int tick = 0;
    float x = 0;
};
struct Step {
    int period = 3;
};
struct Idle {
    void Perform(Walker& w, const Step&) { w.x *= 0.5f; }
};
struct Walk {
    float speed = 2.0f; // a state with data
    void OnStateEnter(Walker& w, const Step&) { w.x += 1; }
    void Perform(Walker& w, const Step&) { w.x += speed; }
};
struct Rest {
    void OnStateExit(Walker& w, const Step&) { w.x = 0; }
};

class WalkerStateManager : public tickfsm::StateManager<Walker, Step> {
public:
    explicit WalkerStateManager(Walker& w) : StateManager(w) {
        SetInitialState<Idle>()
            .To<Walk>([](const Walker& wk, const Step& s) { return wk.tick % s.period == 0; });
        From<Walk>()
            .To<Rest>([](const Walker&, const Step&, float t) { return t > 0.03f; });
        From<Walk>() // a second chain: the multi-chain path is counted too
            .To<Idle>([](const Walker& wk) { return wk.x > 1000.0f; });
        From<Rest>()
            .To<Idle>();
    }
};

} // namespace

TEST_CASE("Perform allocates nothing across 10,000 ticks after the first", "[alloc]") {
    Walker w;
    WalkerStateManager m(w);
    m.Perform({});
    int changes = 0;
    const long before = g_allocations.load();
    for (int i = 0; i < 10000; ++i) {
        ++w.tick;
        m.Perform({});
        changes += m.TicksInState() == 0;
    }
    const long after = g_allocations.load();
    CHECK(after - before == 0);
    CHECK(changes > 1000); // transitions did fire on the counted ticks
}

TEST_CASE("The counter does see allocations", "[alloc]") {
    const long before = g_allocations.load();
    auto* p = new int(4);
    const long after = g_allocations.load();
    delete p;
    CHECK(after - before == 1);
}

TEST_CASE("Saving into a snapshot large enough and restoring allocate nothing", "[alloc][snapshot]") {
    Walker w;
    WalkerStateManager m(w);
    m.Perform({});
    tickfsm::Snapshot snapshot = m.Save();
    tickfsm::Crowd<WalkerStateManager> crowd(100);
    std::vector<Walker> walkers(100);
    for (std::size_t i = 0; i < walkers.size(); ++i) crowd.Perform(i, walkers[i], Step{});
    tickfsm::Snapshot all = crowd.Save();
    const long before = g_allocations.load();
    for (int i = 0; i < 100; ++i) {
        ++w.tick;
        m.Perform({});
        m.SaveInto(snapshot);
        m.Restore(snapshot);
        crowd.SaveInto(all);
        crowd.Restore(all);
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(m.TicksInState() < 100); // the machine ran on between the saves
}

TEST_CASE("Queries on a running machine allocate nothing", "[alloc]") {
    Walker w;
    WalkerStateManager m(w);
    m.Perform({});
    const long before = g_allocations.load();
    bool any = false;
    for (int i = 0; i < 100; ++i) {
        any = any || m.IsIn<Walk>() || m.CurrentStateName().empty() || m.WouldTransition({}).Valid();
        any = any || m.State<Walk>().speed > 1.0f || m.TimeInState() > 0;
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(any);
}

TEST_CASE("A second machine configured the same way allocates only its own small block", "[alloc][shared]") {
    Walker w1, w2;
    WalkerStateManager first(w1);
    first.Perform({}); // builds and publishes the shared table
    const long before = g_allocations.load();
    {
        WalkerStateManager second(w2);
        second.Perform({});
        CHECK(second.SharesTable());
    }
    // One block at construction, regrown once when Walk's data is placed in it.
    CHECK(g_allocations.load() - before <= 2);
}

namespace {
// States without data, conditions without captures: once running, a machine
// of this kind needs nothing but its object and the shared table.
struct Calm {};
struct Alert {
    void Perform(Walker& w, const Step&) { ++w.tick; }
};
class GuardStateManager : public tickfsm::StateManager<Walker, Step> {
public:
    explicit GuardStateManager(Walker& w) : StateManager(w) {
        SetInitialState<Calm>().To<Alert>([](const Walker& wk) { return wk.x > 0; });
        From<Alert>().To<Calm>([](const Walker&, const Step&, float t) { return t >= 0.05f; });
    }
};
} // namespace

TEST_CASE("A running machine whose states hold no data owns no heap", "[alloc][shared]") {
    Walker w1, w2;
    GuardStateManager first(w1);
    first.Initialize(); // builds and publishes the shared table
    const long allocated = g_allocations.load();
    const long freed = g_deallocations.load();
    {
        GuardStateManager second(w2);
        second.Initialize(); // closes the configuration: the block it used goes
        CHECK(g_allocations.load() - allocated == g_deallocations.load() - freed);
        CHECK(second.SharesTable());
        const long before = g_allocations.load();
        for (int i = 0; i < 1000; ++i) {
            w2.x = static_cast<float>(i % 7 == 0);
            second.Perform({});
            (void)second.TimeInState();
            (void)second.CurrentStateName();
            (void)second.GlobalStateName();
        }
        CHECK(g_allocations.load() - before == 0);
        CHECK(w2.tick > 0);
    }
    CHECK(g_allocations.load() - allocated == g_deallocations.load() - freed);
}

TEST_CASE("A machine object is five words: the controller and its Seat", "[alloc]") {
    STATIC_REQUIRE(sizeof(WalkerStateManager) == 5 * sizeof(void*));
}

TEST_CASE("A crowd's ticks allocate nothing", "[alloc][crowd]") {
    std::vector<Walker> walkers(64);
    Walker prototype;
    tickfsm::Crowd<WalkerStateManager> crowd(walkers.size(), prototype);
    for (std::size_t i = 0; i < walkers.size(); ++i) crowd.Perform(i, walkers[i], {});
    const long before = g_allocations.load();
    for (int t = 0; t < 1000; ++t) {
        for (Walker& one : walkers) ++one.tick;
        if (t % 3 == 0)
            for (std::size_t i = 0; i < walkers.size(); ++i) crowd.Perform(i, walkers[i], {});
        else if (t % 3 == 1)
            crowd.TickAll(walkers, [](std::size_t, Walker&) { return Step{}; });
        else // 64 characters: grouped by state
            crowd.TickAll(walkers, [](std::size_t, Walker&) { return Step{}; }, tickfsm::TickOrder::ByState);
    }
    CHECK(g_allocations.load() - before == 0);
}

namespace {
struct Pulse {
    int n = 0;
    void OnUpdate(Walker& w, const Step&, tickfsm::Machine<Walker, Step>& m) {
        ++n;
        if (w.tick % 7 == 0) m.SendEvent("Flip");
        if (w.tick % 11 == 0) m.NextState<Idle>();
    }
};
} // namespace

TEST_CASE("The general path (actions, events, NextState) allocates nothing per tick", "[alloc][general]") {
    Walker w;
    tickfsm::StateManager<Walker, Step> m(w);
    m.SetInitialState<Idle>().Do<Pulse>().On("Flip").To<Walk>();
    m.From<Walk>().Do<Pulse>().On("Flip").To<Idle>();
    m.Perform({});
    int changes = 0;
    const long before = g_allocations.load();
    for (int i = 0; i < 10000; ++i) {
        ++w.tick;
        m.Perform({});
        changes += m.TicksInState() == 0;
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(changes > 1000);
}

namespace {
struct Busy {
    bool CanExitState(const Walker& w, const tickfsm::StateRef&) const { return w.tick % 5 == 0; }
};
struct Free {};
} // namespace

TEST_CASE("Input buffers allocate nothing while they retry", "[alloc][buffer]") {
    Walker w;
    tickfsm::StateManager<Walker, Step> m(w);
    m.SetInitialState<Busy>();
    m.From<Free>().To<Busy>();
    tickfsm::InputBuffer buffer(m);
    tickfsm::InputSequenceBuffer sequence(m);
    m.Perform({});
    int entered = 0;
    const long before = g_allocations.load();
    for (int i = 0; i < 10000; ++i) {
        ++w.tick;
        m.Perform({});
        if (i % 3 == 0) buffer.Buffer<Free>(0.1f);
        if (i % 4 == 0) sequence.Buffer<Free>(0.1f);
        buffer.Update();
        sequence.Update();
        entered += m.IsIn<Free>();
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(entered > 100);
}

namespace {
struct Goal {
    int target = 0;
    Goal() = default;
    explicit Goal(int t) : target(t) {}
};
struct Wait {};
} // namespace

TEST_CASE("Entering a state with arguments allocates nothing", "[alloc][args]") {
    Walker w;
    tickfsm::StateManager<Walker, Step> m(w);
    m.SetInitialState<Wait>().To<Goal>([](const Walker& wk) { return wk.tick % 2 == 0; },
                                       [](const Walker& wk, const Step&) { return Goal(wk.tick); });
    m.From<Goal>().To<Wait>();
    m.Perform({});
    const long before = g_allocations.load();
    for (int i = 0; i < 10000; ++i) {
        ++w.tick;
        m.Perform({});
        if (i % 100 == 0) m.ForceSetState<Goal>(i);
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(m.State<Goal>().target > 0);
}

namespace {
inline constexpr auto kWalkerTransitions =
    tickfsm::Transitions<Walker, Step>()
        .SetInitialState<Idle>()
        .To<Walk>([](const Walker& wk, const Step& s) { return wk.tick % s.period == 0; })
        .From<Walk>()
        .To<Rest>([](const Walker&, const Step&, float t) { return t > 0.03f; })
        .To<Idle>([](const Walker& wk) { return wk.x > 1000.0f; })
        .From<Rest>()
        .To<Idle>();
} // namespace

TEST_CASE("Compile-time machines and crowds allocate nothing per tick", "[alloc][static]") {
    Walker w;
    tickfsm::StaticStateManager<kWalkerTransitions> m(w);
    std::vector<Walker> walkers(64);
    tickfsm::StaticCrowd<kWalkerTransitions> crowd(walkers.size()); // a state with data: per-character objects
    const long before = g_allocations.load();
    for (int t = 0; t < 1000; ++t) {
        ++w.tick;
        m.Perform(Step{});
        for (Walker& one : walkers) ++one.tick;
        if (t % 3 == 0) {
            crowd.TickAll(walkers, [](std::size_t, Walker&) { return Step{}; });
        } else if (t % 3 == 1) {
            crowd.TickAll(walkers, [](std::size_t, Walker&) { return Step{}; }, tickfsm::TickOrder::ByState);
        } else {
            for (std::size_t i = 0; i < walkers.size(); ++i) crowd.Perform(i, walkers[i], Step{});
        }
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(crowd.State<Walk>(0).speed == 2.0f);
    CHECK(w.x != 0.0f); // it did walk
}

namespace {
struct Unresolved {
    int value = 0;
};
struct UnresolvedAlive {};
struct UnresolvedIdle {};
// Configured by this test alone: no machine in the process has built its table.
class UnresolvedManager : public tickfsm::StateManager<Unresolved, int> {
public:
    explicit UnresolvedManager(Unresolved& u) : StateManager(u) {
        SetSubstates<UnresolvedAlive, UnresolvedIdle>();
        SetInitialState<UnresolvedAlive>();
    }
};
} // namespace

TEST_CASE("Questions about the active states before the first Perform need no table and allocate nothing",
          "[alloc][queries]") {
    Unresolved u;
    UnresolvedManager m(u);
    const long before = g_allocations.load();
    tickfsm::StateId out[4];
    CHECK_FALSE(m.IsIn<UnresolvedIdle>());
    CHECK(m.TicksInState<UnresolvedIdle>() == 0);
    CHECK(m.TicksInState(tickfsm::StateId{}) == 0);
    CHECK(m.ActiveStates(out) == 0);
    CHECK(m.ActivePath().empty());
    CHECK(m.CurrentStateName().empty());
    CHECK(m.BuriedCount() == 0);
    CHECK(g_allocations.load() - before == 0);
    m.Perform(0); // the table is built now, and the machine answers from it
    CHECK(m.ActivePath() == "UnresolvedAlive/UnresolvedIdle");
}

namespace {
struct Flag {
    char raised = 1; // then padding before `count`
    int count = 2;
    void Perform(Walker& w, const int&) { count += w.tick; }
};
struct Quiet {};
class Pushing : public tickfsm::StateManager<Walker, int> {
public:
    explicit Pushing(Walker& w) : StateManager(w) {
        SetPushCapacity<3>();
        SetInitialState<Flag>().Push<Quiet>([](const Walker& c) { return c.tick == 2; });
        From<Quiet>().Pop([](const Walker& c) { return c.tick == 4; });
    }
};

// A machine's and a crowd's snapshot after the same ticks, made with every new block filled with `fill`.
std::vector<std::byte> SnapshotsWithHeapOf(unsigned char fill) {
    g_fill = fill;
    Walker w;
    Pushing m(w);
    tickfsm::Crowd<Pushing> crowd(3);
    std::vector<Walker> walkers(3);
    for (int t = 0; t < 3; ++t) {
        w.tick = t;
        m.Perform(0);
        for (std::size_t i = 0; i < walkers.size(); ++i) {
            walkers[i].tick = t + static_cast<int>(i);
            crowd.Perform(i, walkers[i], 0);
        }
    }
    std::vector<std::byte> bytes;
    for (const tickfsm::Snapshot& s : {m.Save(), crowd.Save(), crowd.Save(1)})
        bytes.insert(bytes.end(), s.Bytes().begin(), s.Bytes().end());
    g_fill = 0xA5;
    return bytes;
}
} // namespace

TEST_CASE("Two identical runs save identical bytes whatever the heap held before", "[alloc][snapshot]") {
    // Padding (a buried state's, a state's, a crowd's stride), push stack
    // slots never written: a snapshot that copied them would differ from run
    // to run, and a replay or a peer comparing hashes would see a divergence.
    CHECK(SnapshotsWithHeapOf(0x11) == SnapshotsWithHeapOf(0xEE));
}

TEST_CASE("Remove allocates nothing", "[alloc][crowd][remove]") {
    std::vector<Walker> walkers(64);
    tickfsm::Crowd<WalkerStateManager> crowd(walkers.size()); // a state with data
    tickfsm::Crowd<Pushing> pushing(walkers.size());          // a push stack
    tickfsm::StaticCrowd<kWalkerTransitions> swarm(walkers.size());
    for (std::size_t i = 0; i < walkers.size(); ++i) {
        walkers[i].tick = static_cast<int>(i);
        crowd.Perform(i, walkers[i], {});
        pushing.Perform(i, walkers[i], 0);
        swarm.Perform(i, walkers[i], Step{});
    }
    crowd.Reset(40); // a character not started moves too
    const long before = g_allocations.load();
    while (crowd.Size() > 0) {
        crowd.Remove(crowd.Size() / 2);
        pushing.Remove(pushing.Size() / 3);
        swarm.Remove(swarm.Size() - 1);
    }
    CHECK(g_allocations.load() - before == 0);
    CHECK(pushing.Size() == 0);
    CHECK(swarm.Size() == 0);
}

TEST_CASE("Adding characters one at a time allocates a few times in all and reuses the room Remove left",
          "[alloc][crowd]") {
    std::vector<Walker> walkers(1000);
    tickfsm::Crowd<WalkerStateManager> crowd(0); // a state with data: the data block grows too
    tickfsm::Crowd<Pushing> pushing(0);         // a push stack
    const long before = g_allocations.load();
    for (std::size_t i = 0; i < walkers.size(); ++i) {
        crowd.Add();
        pushing.Add();
    }
    // Each crowd's per-character lists and data double when they fill: about
    // log2(1000) = 10 allocations each, never one per Add.
    CHECK(g_allocations.load() - before <= 2 * 3 * 11);
    for (std::size_t i = 0; i < walkers.size(); ++i) {
        walkers[i].tick = static_cast<int>(i);
        crowd.Perform(i, walkers[i], {});
        pushing.Perform(i, walkers[i], 0);
    }
    crowd.Remove(3);
    pushing.Remove(3);
    const long spawned = g_allocations.load();
    const std::size_t back = crowd.Add();
    pushing.Add();
    CHECK(g_allocations.load() - spawned == 0);
    CHECK(back == walkers.size() - 1);
    CHECK_FALSE(crowd.IsStarted(back)); // a new character, entered on its first Perform
    walkers[back].tick = 1;
    crowd.Perform(back, walkers[back], {});
    CHECK(crowd.IsIn<Idle>(back));
}
