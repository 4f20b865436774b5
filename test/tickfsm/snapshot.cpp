// Snapshots: Save and Restore of machines and crowds, bytes and back, state
// data kept as bytes or through Save/Load hooks, snapshots of another
// configuration and bytes that are not one, and what every kind of machine
// state (paths, regions, the push stack, requests, the global state) keeps.

#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Fighter {
    std::vector<std::string> log;
    bool jump = false;
    bool hit = false;
    int hp = 100;
};
struct Pad {};

struct Idle {
    void OnStateEnter(Fighter& f, const Pad&) { f.log.push_back("enter Idle"); }
    void Perform(Fighter& f, const Pad&) { f.log.push_back("Idle"); }
};
struct Jump {
    int height = 0; // trivially copyable data: kept as bytes
    void OnStateEnter(Fighter& f, const Pad&) {
        height = 0;
        f.log.push_back("enter Jump");
    }
    void Perform(Fighter& f, const Pad&) {
        ++height;
        f.log.push_back("Jump " + std::to_string(height));
    }
};
struct Hurt {
    std::string last; // not trivially copyable: kept through its hooks
    void OnStateEnter(Fighter& f, const Pad&) {
        f.hp -= 10;
        last += "!";
        f.log.push_back("Hurt " + last);
    }
    void Save(tickfsm::SnapshotWriter& writer) const { writer.Write(std::string_view(last)); }
    void Load(tickfsm::SnapshotReader& reader) { last = reader.ReadString(); }
};

class FighterStateManager : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit FighterStateManager(Fighter& f) : StateManager(f) {
        SetInitialState<Idle>().To<Jump>([](const Fighter& c) { return c.jump; });
        From<Jump>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.05f; });
        From<Idle>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Jump>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Hurt>().To<Idle>([](const Fighter& c) { return !c.hit; });
    }
};

// Drives a machine with the input of tick t of a fixed script.
void Drive(FighterStateManager& m, Fighter& f, int t) {
    f.jump = t % 7 == 2;
    f.hit = t % 11 == 5 || t % 11 == 6;
    m.Perform({});
}

} // namespace

TEST_CASE("A restored machine does what it did after the Save", "[snapshot]") {
    Fighter f;
    FighterStateManager m(f);
    for (int t = 0; t < 20; ++t) Drive(m, f, t);
    const tickfsm::Snapshot snapshot = m.Save();
    const std::string saved_state(m.CurrentStateName());
    const std::uint32_t saved_ticks = m.TicksInState();
    const Fighter saved_fighter = f; // the controller is the game's to keep
    f.log.clear();
    for (int t = 20; t < 60; ++t) Drive(m, f, t);
    const std::vector<std::string> expected = f.log;

    Fighter g = saved_fighter;
    g.log.clear();
    FighterStateManager n(g);
    n.Restore(snapshot);
    CHECK(n.CurrentStateName() == saved_state);
    CHECK(n.TicksInState() == saved_ticks);
    for (int t = 20; t < 60; ++t) Drive(n, g, t);
    CHECK(g.log == expected);
    CHECK(n.Save() == m.Save());

    // And the same machine, back in time.
    f = saved_fighter;
    f.log.clear();
    m.Restore(snapshot);
    for (int t = 20; t < 60; ++t) Drive(m, f, t);
    CHECK(f.log == expected);
}

TEST_CASE("A snapshot keeps each state's data as bytes or through its Save and Load hooks", "[snapshot]") {
    Fighter f;
    FighterStateManager m(f);
    f.jump = true;
    m.Perform({});
    m.Perform({});
    REQUIRE(m.State<Jump>().height == 2);
    f.jump = false;
    f.hit = true;
    m.Perform({});
    REQUIRE(m.State<Hurt>().last == "!");
    const tickfsm::Snapshot snapshot = m.Save();
    m.State<Jump>().height = 99;
    m.State<Hurt>().last = "changed";
    m.Restore(snapshot);
    CHECK(m.State<Jump>().height == 2);
    CHECK(m.State<Hurt>().last == "!");
    CHECK(m.CurrentStateName() == "Hurt");
}

TEST_CASE("A snapshot goes to bytes and back", "[snapshot]") {
    Fighter f;
    FighterStateManager m(f);
    for (int t = 0; t < 30; ++t) Drive(m, f, t);
    const tickfsm::Snapshot snapshot = m.Save();
    std::vector<std::byte> file(snapshot.Bytes().begin(), snapshot.Bytes().end());
    tickfsm::Snapshot read;
    tickfsm::Text error;
    REQUIRE(tickfsm::Snapshot::FromBytes(file, read, &error));
    CHECK(error.empty());
    CHECK(read == snapshot);
    CHECK(read.Fingerprint() == snapshot.Fingerprint());
    CHECK(read.Characters() == 1);
    Fighter g;
    FighterStateManager n(g);
    n.Restore(read);
    CHECK(n.Save() == snapshot);
}

TEST_CASE("Bytes that are cut short changed or of another version are refused and change nothing",
          "[snapshot][config_error]") {
    Fighter f;
    FighterStateManager m(f);
    for (int t = 0; t < 10; ++t) Drive(m, f, t);
    const tickfsm::Snapshot good = m.Save();
    const std::vector<std::byte> bytes(good.Bytes().begin(), good.Bytes().end());
    tickfsm::Snapshot out = good;
    tickfsm::Text error;

    std::vector<std::byte> cut(bytes.begin(), bytes.end() - 3);
    CHECK_FALSE(tickfsm::Snapshot::FromBytes(cut, out, &error));
    CHECK_THAT(error, Catch::Contains("was cut short or run on"));

    std::vector<std::byte> changed = bytes;
    changed[changed.size() - 5] ^= std::byte{0x10};
    CHECK_FALSE(tickfsm::Snapshot::FromBytes(changed, out, &error));
    CHECK_THAT(error, Catch::Contains("checksum does not match"));

    std::vector<std::byte> newer = bytes;
    newer[4] = std::byte{7};
    CHECK_FALSE(tickfsm::Snapshot::FromBytes(newer, out, &error));
    CHECK_THAT(error, Catch::Contains("format version 7"));

    std::vector<std::byte> other(100, std::byte{1});
    CHECK_FALSE(tickfsm::Snapshot::FromBytes(other, out, &error));
    CHECK_THAT(error, Catch::Contains("not a tickfsm snapshot"));
    CHECK(out == good); // left as it was

    Fighter g;
    FighterStateManager n(g);
    CHECK_THROWS_WITH(n.Restore(tickfsm::Snapshot{}), Catch::Contains("the snapshot is empty"));
}

namespace {
// The format's seal (lib/snapshot.cpp), written again here so that a test can
// forge bytes a careless serializer might produce, sealed as if by Save().
std::uint64_t Word(const std::byte* at) {
    std::uint64_t value;
    std::memcpy(&value, at, sizeof value);
    return value;
}
void Reseal(std::vector<std::byte>& b) {
    constexpr std::uint64_t kPrime = 0x100000001B3ull;
    const std::byte* rest = b.data() + 40;
    const std::size_t size = b.size() - 40;
    std::uint64_t lane[4] = {0x9E3779B97F4A7C15ull ^ size, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                             0x27D4EB2F165667C5ull};
    std::size_t i = 0;
    for (; i + 32 <= size; i += 32)
        for (std::size_t k = 0; k < 4; ++k) lane[k] = (lane[k] ^ Word(rest + i + 8 * k)) * kPrime;
    std::uint64_t hash = lane[0] ^ (lane[1] << 1) ^ (lane[2] << 2) ^ (lane[3] << 3);
    for (; i < size; ++i) hash = (hash ^ static_cast<std::uint64_t>(rest[i])) * kPrime;
    hash ^= hash >> 29;
    for (std::size_t k = 0; k < 32; ++k) hash = (hash ^ static_cast<std::uint64_t>(b[k])) * kPrime;
    std::memcpy(b.data() + 32, &hash, sizeof hash);
}
} // namespace

TEST_CASE("A change to a snapshot's header is refused by its checksum", "[snapshot][config_error]") {
    Fighter f;
    FighterStateManager m(f);
    for (int t = 0; t < 5; ++t) Drive(m, f, t);
    const tickfsm::Snapshot good = m.Save();
    const std::vector<std::byte> bytes(good.Bytes().begin(), good.Bytes().end());
    std::vector<std::byte> resealed = bytes;
    Reseal(resealed);
    REQUIRE(resealed == bytes); // the test's seal is the format's
    for (const std::size_t at : {6u, 8u, 16u, 28u}) { // kind, fingerprint, characters, reserved
        CAPTURE(at);
        std::vector<std::byte> changed = bytes;
        changed[at] ^= std::byte{0x01};
        tickfsm::Snapshot out;
        tickfsm::Text error;
        CHECK_FALSE(tickfsm::Snapshot::FromBytes(changed, out, &error));
        CHECK_THAT(error, Catch::Contains("checksum does not match"));
    }
}

TEST_CASE("Sealed bytes whose list of states runs past its end are refused, not read", "[snapshot][config_error]") {
    Fighter f;
    FighterStateManager m(f);
    Drive(m, f, 0);
    const tickfsm::Snapshot good = m.Save();
    std::vector<std::byte> forged(good.Bytes().begin(), good.Bytes().end());
    const std::uint16_t huge = 60000; // the first state's name length
    std::memcpy(forged.data() + 40 + 8, &huge, sizeof huge);
    Reseal(forged);
    tickfsm::Snapshot out;
    tickfsm::Text error;
    CHECK_FALSE(tickfsm::Snapshot::FromBytes(forged, out, &error));
    CHECK_THAT(error, Catch::Contains("list of states is not well formed"));
}

namespace {
struct Block {};
// The same character with a state added, states reordered, other data, other transitions.
class Added : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit Added(Fighter& f) : StateManager(f) {
        SetInitialState<Idle>().To<Jump>([](const Fighter& c) { return c.jump; });
        From<Jump>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.05f; });
        From<Idle>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Jump>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Hurt>().To<Block>([](const Fighter& c) { return !c.hit; });
    }
};
class Reordered : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit Reordered(Fighter& f) : StateManager(f) {
        SetInitialState<Idle>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Idle>().To<Jump>([](const Fighter& c) { return c.jump; });
        From<Jump>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.05f; });
        From<Jump>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Hurt>().To<Idle>([](const Fighter& c) { return !c.hit; });
    }
};
class Rewired : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit Rewired(Fighter& f) : StateManager(f) {
        SetInitialState<Idle>().To<Jump>([](const Fighter& c) { return c.jump; });
        From<Jump>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.05f; });
        From<Idle>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Jump>().To<Hurt>([](const Fighter& c) { return c.hit; });
        From<Hurt>().To<Jump>([](const Fighter& c) { return !c.hit; }); // Jump, not Idle
    }
};
struct Other {
    int x = 0;
};
struct Wander {};
struct OtherPad {};
} // namespace

TEST_CASE("A snapshot of another configuration is a ConfigError naming what differs, and changes nothing",
          "[snapshot][config_error]") {
    Fighter f;
    FighterStateManager m(f);
    for (int t = 0; t < 10; ++t) Drive(m, f, t);
    const tickfsm::Snapshot snapshot = m.Save();

    Fighter g;
    Added added(g);
    added.Perform({});
    const tickfsm::Snapshot before = added.Save();
    CHECK_THROWS_WITH(added.Restore(snapshot), Catch::Contains("the snapshot's machine has 3 states and this one 4"));
    CHECK(added.Save() == before);

    Reordered reordered(g);
    CHECK_THROWS_WITH(reordered.Restore(snapshot),
                      Catch::Contains("state 1 is Jump in the snapshot and Hurt here: a state was added, removed or "
                                      "reordered"));

    Rewired rewired(g);
    CHECK_THROWS_WITH(rewired.Restore(snapshot),
                      Catch::Contains("another configuration of this machine: its transitions"));

    Other o;
    tickfsm::StateManager<Other, OtherPad> other(o);
    other.SetInitialState<Wander>();
    CHECK_THROWS_WITH(other.Restore(snapshot), Catch::Contains("StateManager<Other, OtherPad>: Restore(): state 0 is Idle in the snapshot and Wander here"));

    tickfsm::Crowd<FighterStateManager> crowd(2);
    CHECK_THROWS_WITH(crowd.Restore(snapshot),
                      Catch::Contains("Crowd<FighterStateManager>::Restore(): the snapshot is of a StateManager, "
                                      "and this is a whole Crowd"));
}

namespace {
struct Unsaved {
    std::vector<int> trail; // neither trivially copyable nor with hooks
};
struct Alive {};
struct Legs {};
struct Stand {};
struct Run {};
struct Arms {};
struct Lower {};
struct Aim {};
struct Stunned {};
struct Battery {
    int charge = 10;
    void Perform(Fighter&, const Pad&) { --charge; }
};
struct Asker {
    void Perform(Fighter& f, const Pad&, tickfsm::Machine<Fighter, Pad>& m) {
        if (f.hp == 1) m.ForceSetState<Idle>();
    }
};

// Alive (parallel): Legs {Stand, Run} with history, Arms {Lower, Aim}; a
// push of Stunned; a global Battery; the previous state kept.
class Whole : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit Whole(Fighter& f) : StateManager(f) {
        SetPushCapacity<2>();
        KeepPreviousState();
        SetInitialState<Alive>().Push<Stunned>([](const Fighter& c) { return c.hit; });
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim, Asker>();
        SetHistory<Legs>(tickfsm::History::Shallow);
        From<Stand>().To<Run>([](const Fighter& c) { return c.jump; });
        From<Lower>().To<Aim>([](const Fighter& c) { return c.hp < 50; });
        From<Aim>().To<Asker>([](const Fighter& c) { return c.hp == 1; });
        From<Stunned>().Pop([](const Fighter& c) { return !c.hit; });
        From<Idle>().To<Alive>([](const Fighter&) { return true; });
        State<Battery>();
    }
};

/// Runs `m` to Stunned pushed over Alive, with a global state, a region moved
/// (history) and the previous state kept: every part a record holds.
void PushStunned(Whole& m, Fighter& f) {
    m.SetGlobalState<Battery>();
    f.jump = true;
    m.Perform({});
    m.Perform({});
    f.hp = 40;
    m.Perform({});
    f.hit = true;
    m.Perform({}); // Stunned pushed over Alive
}
} // namespace

TEST_CASE("A state with data a snapshot cannot keep is a ConfigError naming it", "[snapshot][config_error]") {
    Fighter f;
    tickfsm::StateManager<Fighter, Pad> m(f);
    m.SetInitialState<Unsaved>();
    m.Perform({});
    CHECK_THROWS_WITH(m.Save(), Catch::Contains("Save(): Unsaved holds data that is not trivially copyable and has no "
                                                "snapshot hooks; give it void Save(tickfsm::SnapshotWriter&) const"));
}

TEST_CASE("A snapshot of a machine with another push capacity is refused, naming what can differ",
          "[snapshot][config_error][push]") {
    Fighter f;
    const auto configure = [](tickfsm::StateManager<Fighter, Pad>& m) {
        m.SetInitialState<Alive>().Push<Stunned>([](const Fighter& c) { return c.hit; });
        m.From<Stunned>().Pop([](const Fighter& c) { return !c.hit; });
    };
    tickfsm::StateManager<Fighter, Pad> one(f);
    one.SetPushCapacity<1>();
    configure(one);
    one.Perform({});
    tickfsm::StateManager<Fighter, Pad> two(f);
    two.SetPushCapacity<2>();
    configure(two);
    two.Perform({});
    CHECK_THROWS_WITH(two.Restore(one.Save()), Catch::Contains("the states' data differs") &&
                                                    Catch::Contains("SetPushCapacity<N>()"));
}

TEST_CASE("A snapshot keeps regions, history, the push stack, the global state and the previous state",
          "[snapshot][regions][push]") {
    Fighter f;
    Whole m(f);
    PushStunned(m, f);
    REQUIRE(m.ActivePath() == "Stunned");
    REQUIRE(m.BuriedCount() == 1);
    const tickfsm::Snapshot snapshot = m.Save();
    const Fighter saved = f;

    auto run = [](Whole& w, Fighter& c) {
        std::vector<std::string> seen;
        c.hit = false;
        w.Perform({}); // the pop
        seen.push_back(w.ActivePath() + " " + std::to_string(w.TicksInState<Run>()));
        c.hp = 1;
        w.Perform({}); // Aim -> Asker, which leaves Alive for Idle
        w.Perform({}); // Idle, then Alive again with Legs' history
        seen.push_back(w.ActivePath());
        seen.push_back(std::string(w.PreviousState().Name()));
        seen.push_back(std::to_string(w.State<Battery>().charge));
        return seen;
    };
    const std::vector<std::string> expected = run(m, f);

    Fighter g = saved;
    Whole n(g);
    n.SetGlobalState<Battery>();
    n.Restore(snapshot);
    CHECK(n.ActivePath() == "Stunned");
    CHECK(n.BuriedCount() == 1);
    CHECK(n.State<Battery>().charge == 6);
    CHECK(run(n, g) == expected);
    CHECK(expected[0] == "Alive/{Legs/Run, Arms/Aim} 3");
}

namespace {
// Whole with a state kept through hooks: a crowd of it saves one record per character.
class WholeWithHooks : public Whole {
public:
    explicit WholeWithHooks(Fighter& f) : Whole(f) { State<Hurt>(); }
};

// Sets each byte of `good`'s payload in turn to a few values, seals the bytes
// again as a peer could, and hands each forgery that FromBytes reads to
// `use` (a Restore then ticks); returns how many Restore refused.
template <class Use>
int ForgeEachByte(const tickfsm::Snapshot& good, Use use) {
    const std::vector<std::byte> bytes(good.Bytes().begin(), good.Bytes().end());
    std::uint32_t layout = 0;
    std::memcpy(&layout, bytes.data() + 20, sizeof layout);
    int refused = 0;
    for (std::size_t at = 40 + layout; at < bytes.size(); ++at) {
        for (const unsigned value : {0x00u, 0x01u, 0x07u, 0x7Fu, 0xFFu}) {
            if (bytes[at] == std::byte(value)) continue;
            std::vector<std::byte> forged = bytes;
            forged[at] = std::byte(value);
            Reseal(forged);
            tickfsm::Snapshot snapshot;
            REQUIRE(tickfsm::Snapshot::FromBytes(forged, snapshot));
            try {
                use(snapshot);
            } catch (const tickfsm::ConfigError& e) {
                const std::string what = e.what();
                refused += what.find("Restore()") != std::string::npos;
            }
        }
    }
    return refused;
}
} // namespace

TEST_CASE("A forged snapshot sealed again is refused by Restore or restores a machine that runs safely",
          "[snapshot][config_error][regions][push]") {
    // Each byte of the record in turn: the flags, the regions' states, the
    // history, the push stack's count and entries, the requests. A field
    // Restore did not check crashed the next tick (under ASan, read past an array).
    Fighter f;
    Whole m(f);
    PushStunned(m, f);
    REQUIRE(m.BuriedCount() == 1);
    const int refused = ForgeEachByte(m.Save(), [](const tickfsm::Snapshot& snapshot) {
        Fighter g;
        Whole n(g);
        n.SetGlobalState<Battery>();
        n.Restore(snapshot);
        for (int t = 0; t < 12; ++t) {
            g.hit = t % 4 == 1;
            g.jump = t % 3 == 0;
            g.hp = t == 8 ? 1 : 40;
            n.Perform({});
            (void)n.ActivePath();
        }
    });
    CHECK(refused > 0);

    SECTION("in a crowd's snapshot, in bulk, as records, and of one character") {
        auto crowd_case = [](auto tag) {
            using Kind = typename decltype(tag)::type;
            std::vector<Fighter> fighters(2);
            tickfsm::Crowd<Kind> crowd(2);
            auto tick = [&](tickfsm::Crowd<Kind>& c, int t) {
                for (std::size_t i = 0; i < 2; ++i) {
                    fighters[i].hit = (t + static_cast<int>(i)) % 4 == 1;
                    fighters[i].jump = t % 3 == 0;
                    fighters[i].hp = t == 8 ? 1 : 40;
                    c.Perform(i, fighters[i], Pad{});
                    (void)c.ActivePath(i);
                }
            };
            for (int t = 0; t < 6; ++t) tick(crowd, t);
            CHECK(ForgeEachByte(crowd.Save(), [&](const tickfsm::Snapshot& snapshot) {
                      tickfsm::Crowd<Kind> other(2);
                      other.Restore(snapshot);
                      for (int t = 0; t < 12; ++t) tick(other, t);
                  }) > 0);
            CHECK(ForgeEachByte(crowd.Save(1), [&](const tickfsm::Snapshot& snapshot) {
                      tickfsm::Crowd<Kind> other(2);
                      other.Restore(0, snapshot);
                      for (int t = 0; t < 12; ++t) tick(other, t);
                  }) > 0);
        };
        crowd_case(std::type_identity<Whole>{});
        crowd_case(std::type_identity<WholeWithHooks>{});
    }
}

namespace {
class Plain : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit Plain(Fighter& f) : StateManager(f) {
        SetInitialState<Idle>().To<Jump>([](const Fighter& c) { return c.jump; });
        From<Jump>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.05f; });
    }
};
} // namespace

TEST_CASE("A crowd saves and restores all its characters, or one", "[snapshot][crowd]") {
    for (int hooks = 0; hooks < 2; ++hooks) {
        INFO((hooks ? "with Save/Load hooks: one record each" : "in bulk"));
        std::vector<Fighter> fighters(5);
        auto tick = [&](auto& crowd, int t) {
            for (std::size_t i = 0; i < fighters.size(); ++i) {
                fighters[i].jump = (t + static_cast<int>(i)) % 5 == 0;
                fighters[i].hit = hooks && (t + static_cast<int>(i)) % 9 == 0;
                crowd.Perform(i, fighters[i], Pad{});
            }
        };
        auto check = [&](auto& crowd) {
            for (int t = 0; t < 12; ++t) tick(crowd, t);
            const tickfsm::Snapshot all = crowd.Save();
            const tickfsm::Snapshot third = crowd.Save(3);
            const std::vector<Fighter> saved = fighters;
            for (auto& f : fighters) f.log.clear();
            for (int t = 12; t < 40; ++t) tick(crowd, t);
            std::vector<std::vector<std::string>> expected;
            for (auto& f : fighters) expected.push_back(f.log);

            fighters = saved;
            for (auto& f : fighters) f.log.clear();
            crowd.Restore(all);
            for (int t = 12; t < 40; ++t) tick(crowd, t);
            for (std::size_t i = 0; i < fighters.size(); ++i) CHECK(fighters[i].log == expected[i]);

            crowd.Restore(1, third); // character 3's state, into character 1
            CHECK(crowd.Save(1).Fingerprint() == third.Fingerprint());
            CHECK_THROWS_WITH(crowd.Restore(1, all), Catch::Contains("the snapshot is of a whole Crowd"));
        };
        if (hooks) {
            tickfsm::Crowd<FighterStateManager> crowd(5);
            check(crowd);
            tickfsm::Crowd<FighterStateManager> smaller(4);
            CHECK_THROWS_WITH(smaller.Restore(crowd.Save()),
                              Catch::Contains("the snapshot holds 5 characters and this crowd 4"));
        } else {
            tickfsm::Crowd<Plain> crowd(5);
            check(crowd);
        }
    }
}

namespace {
struct Waiting {};
struct Woken {};
inline constexpr tickfsm::Event kWake{"Wake"};
} // namespace

TEST_CASE("A machine with the library's own actions saves and restores", "[snapshot][action]") {
    static_assert(std::is_trivially_copyable_v<tickfsm::TimedWait>, "kept as bytes");
    std::string log;
    const std::string label = "awake"; // a lambda that holds a string is not trivially copyable
    const auto configure = [&](tickfsm::StateManager<Fighter, Pad>& machine) {
        machine.SetInitialState<Waiting>().On(kWake).To<Woken>();
        machine.From<Waiting>()
            .Do<tickfsm::LogLine>("waiting", log)
            .Do<tickfsm::TimedWait>(1.0f, kWake)
            .Do<tickfsm::SendEventWhen<std::function<bool(const Fighter&)>>>(
                std::function<bool(const Fighter&)>([label](const Fighter& c) { return c.hit && !label.empty(); }),
                kWake);
    };
    Fighter f;
    tickfsm::StateManager<Fighter, Pad> m(f);
    configure(m);
    m.Perform({});
    const tickfsm::Snapshot snapshot = m.Save();
    Fighter g;
    tickfsm::StateManager<Fighter, Pad> n(g);
    configure(n);
    n.Restore(snapshot);
    CHECK(n.CurrentStateName() == "Waiting");
    g.hit = true;
    n.Perform({});
    CHECK(n.CurrentStateName() == "Woken");
}

namespace {
struct HeardUnhandled : tickfsm::Observer {
    int count = 0;
    void OnUnhandledEvent(std::string_view, std::string_view, const tickfsm::Event&) override { ++count; }
};
inline constexpr tickfsm::Event kPing{"Ping"}; // nothing handles it
void AddPingers(tickfsm::StateManager<Fighter, Pad>& m) {
    m.SetInitialState<Waiting>()
        .Do<tickfsm::TimedWait>(0.02f, kPing)
        .Do<tickfsm::SendEventWhen<std::function<bool(const Fighter&)>>>(
            std::function<bool(const Fighter&)>([](const Fighter& c) { return c.hit; }), kPing);
}
} // namespace

TEST_CASE("TimedWait's and SendEventWhen's once per visit survives a restore", "[snapshot][action]") {
    Fighter f;
    f.hit = true;
    tickfsm::StateManager<Fighter, Pad> m(f);
    AddPingers(m);
    HeardUnhandled heard;
    m.SetObserver(&heard);
    for (int i = 0; i < 3; ++i) m.Perform({});
    REQUIRE(heard.count == 2); // each sent once
    const tickfsm::Snapshot sent = m.Save();
    Fighter g;
    g.hit = true;
    tickfsm::StateManager<Fighter, Pad> n(g);
    AddPingers(n);
    HeardUnhandled again;
    n.SetObserver(&again);
    n.Restore(sent);
    for (int i = 0; i < 3; ++i) n.Perform({});
    CHECK(again.count == 0); // restored as having sent
}

namespace {
struct Lazy {
    int a = 1, b = 2;
    void Save(tickfsm::SnapshotWriter& w) const {
        w.Write(a);
        w.Write(b);
    }
    void Load(tickfsm::SnapshotReader& r) { a = r.Read<int>(); } // forgets b
};
struct Greedy {
    int a = 1;
    void Save(tickfsm::SnapshotWriter& w) const { w.Write(a); }
    void Load(tickfsm::SnapshotReader& r) {
        a = r.Read<int>();
        a += r.Read<int>(); // reads what Save never wrote
    }
};
class LazyStateManager : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit LazyStateManager(Fighter& f) : StateManager(f) { SetInitialState<Lazy>(); }
};
class GreedyStateManager : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit GreedyStateManager(Fighter& f) : StateManager(f) { SetInitialState<Greedy>(); }
};
} // namespace

TEST_CASE("A Load that reads less or more than its Save wrote is a ConfigError naming the machine and the state",
          "[snapshot][config_error]") {
    Fighter f;
    tickfsm::StateManager<Fighter, Pad> lazy(f);
    lazy.SetInitialState<Lazy>();
    lazy.Perform({});
    CHECK_THROWS_WITH(lazy.Restore(lazy.Save()),
                      Catch::Contains("StateManager<Fighter, Pad>: Restore(): the Load of Lazy reads 4 bytes fewer "
                                      "than its Save wrote"));
    tickfsm::StateManager<Fighter, Pad> greedy(f);
    greedy.SetInitialState<Greedy>();
    greedy.Perform({});
    CHECK_THROWS_WITH(greedy.Restore(greedy.Save()),
                      Catch::Contains("StateManager<Fighter, Pad>: Restore(): the Load of Greedy reads 4 bytes more "
                                      "than its Save wrote"));

    std::vector<Fighter> fighters(2);
    tickfsm::Crowd<LazyStateManager> lazy_crowd(2);
    lazy_crowd.Perform(0, fighters[0], {});
    CHECK_THROWS_WITH(lazy_crowd.Restore(lazy_crowd.Save()),
                      Catch::Contains("Crowd<LazyStateManager>::Restore(): the Load of Lazy reads 4 bytes fewer"));
    tickfsm::Crowd<GreedyStateManager> greedy_crowd(2);
    greedy_crowd.Perform(1, fighters[1], {});
    CHECK_THROWS_WITH(greedy_crowd.Restore(1, greedy_crowd.Save(1)),
                      Catch::Contains("Crowd<GreedyStateManager>::Restore(): the Load of Greedy reads 4 bytes more"));
}

TEST_CASE("A snapshot restored into a machine of another fixed_dt is a ConfigError naming both rates",
          "[snapshot][config_error]") {
    Fighter f;
    tickfsm::StateManager<Fighter, Pad> at60(f);
    at60.SetInitialState<Idle>();
    at60.Perform({});
    tickfsm::StateManager<Fighter, Pad> at30(f, 1.0f / 30.0f);
    at30.SetInitialState<Idle>();
    CHECK_THROWS_WITH(at30.Restore(at60.Save()), Catch::Contains("ticking at 60 Hz") && Catch::Contains("ticks at 30 Hz") &&
                                                     Catch::Contains("restore it into a machine of the same fixed_dt"));
}
