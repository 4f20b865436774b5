// Gates (CanEnterState, CanExitState), TrySetState, TryResetState and
// ForceSetState, with seed 003's attack as the worked example.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Creature {
    bool grounded = true;
    bool animation_done = false;
    std::vector<std::string> log;
};
struct Buttons {
    bool attack = false;
    bool hit = false;
};
using M = tickfsm::Machine<Creature, Buttons>;

struct Idle {
    void OnStateEnter(Creature& c, const Buttons&) { c.log.push_back("enter Idle"); }
};
struct Walk {
    float speed = 1;
    Walk() = default;
    explicit Walk(float s) : speed(s) {}
    void OnStateEnter(Creature& c, const Buttons&) { c.log.push_back("enter Walk " + std::to_string(int(speed))); }
};
struct Jump {
    // You cannot jump if you are not on the ground.
    bool CanEnterState(const Creature& c, const tickfsm::StateRef&) const { return c.grounded; }
};
struct Flinch {};
struct Die {};
struct Attack {
    // Attacks cannot be interrupted, except by being hit or killed.
    bool CanExitState(const Creature&, const tickfsm::StateRef& next) const {
        return next.Is<Flinch>() || next.Is<Die>();
    }
    void OnStateEnter(Creature& c, const Buttons&) { c.log.push_back("enter Attack"); }
    // Once the animation is done, the attack ends itself: Idle imposes nothing,
    // so it forces the change past its own gate.
    void Perform(Creature& c, const Buttons&, M& m) {
        if (c.animation_done) m.ForceSetState<Idle>();
    }
};

class CreatureStateManager : public tickfsm::StateManager<Creature, Buttons> {
public:
    explicit CreatureStateManager(Creature& c) : StateManager(c) {
        SetInitialState<Idle>()
            .To<Attack>([](const Creature&, const Buttons& b) { return b.attack; });
        From<Attack>()
            .To<Idle>([](const Creature&, const Buttons& b) { return !b.attack; }) // refused by the gate
            .To<Flinch>([](const Creature&, const Buttons& b) { return b.hit; });
        From<Flinch>().To<Idle>();
        From<Walk>();
        From<Jump>();
        From<Die>();
    }
};

} // namespace

TEST_CASE("A gate that refuses stops a transition, and the next one in order is tried", "[gate]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({.attack = true});
    REQUIRE(m.IsIn<Attack>());
    m.Perform({.attack = false});          // Attack -> Idle holds, but Attack refuses to exit
    CHECK(m.IsIn<Attack>());
    m.Perform({.attack = false, .hit = true}); // Idle still refused; Flinch is allowed
    CHECK(m.IsIn<Flinch>());
}

TEST_CASE("Seed 003's attack ends itself with a forced change to Idle", "[gate][seed]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({.attack = true});
    c.animation_done = true;
    m.Perform({.attack = true});
    CHECK(m.IsIn<Idle>());
}

TEST_CASE("TrySetState goes through the gates and reports whether it changed", "[gate][direct]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({});
    CHECK(m.TrySetState<Walk>());
    CHECK(m.IsIn<Walk>());
    CHECK_FALSE(m.TrySetState<Walk>()); // already there: no change
    c.grounded = false;
    CHECK_FALSE(m.TrySetState<Jump>()); // Jump's CanEnterState refuses
    c.grounded = true;
    CHECK(m.TrySetState<Jump>());
    CHECK(m.TrySetState<Attack>());
    CHECK_FALSE(m.TrySetState<Walk>()); // Attack refuses to exit into Walk
    CHECK(m.TrySetState<Die>());
}

TEST_CASE("TryResetState re-enters the current state through the gates, ForceSetState without them", "[gate][direct]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({});
    m.TrySetState<Attack>();
    c.log.clear();
    CHECK_FALSE(m.TryResetState<Attack>()); // Attack's exit gate refuses even itself
    CHECK(c.log.empty());
    m.ForceSetState<Attack>();
    CHECK(c.log == std::vector<std::string>{"enter Attack"});
    m.ForceSetState<Idle>();
    CHECK(m.IsIn<Idle>());
    c.log.clear();
    CHECK(m.TryResetState<Idle>());
    CHECK(c.log == std::vector<std::string>{"enter Idle"});
}

TEST_CASE("A state entered with arguments is built fresh from them", "[direct][args]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({});
    CHECK(m.TrySetState<Walk>(3.0f));
    CHECK(m.State<Walk>().speed == 3.0f);
    m.ForceSetState<Walk>(5.0f);
    CHECK(m.State<Walk>().speed == 5.0f);
    CHECK(c.log.back() == "enter Walk 5");
}

TEST_CASE("A machine not started yet starts in the state set directly", "[direct]") {
    Creature c;
    CreatureStateManager m(c);
    CHECK(m.TrySetState<Walk>());
    CHECK(m.IsStarted());
    CHECK(c.log == std::vector<std::string>{"enter Walk 1"});
    m.Perform({});
    CHECK(m.IsIn<Walk>());
}

TEST_CASE("Setting a state from inside a hook through the machine is an error pointing to the handle",
          "[direct][error]") {
    struct Meddler {
        tickfsm::StateManager<Creature, Buttons>* m = nullptr;
        void Perform(Creature&, const Buttons&) { m->TrySetState<Idle>(); }
    };
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.SetInitialState<Meddler>().To<Idle>([] { return false; });
    m.State<Meddler>().m = &m;
    REQUIRE_THROWS_WITH(m.Perform({}), Catch::Matchers::Contains("tickfsm::Machine<Controller, Action>&"));
}

TEST_CASE("A forced transition skips the gates", "[gate]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.SetInitialState<Attack>().ForceTo<Walk>([](const Creature&, const Buttons& b) { return !b.attack; });
    m.Perform({.attack = true});
    m.Perform({.attack = false});
    CHECK(m.IsIn<Walk>());
}

TEST_CASE("WouldTransition respects the gates", "[gate][query]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({.attack = true});
    CHECK_FALSE(m.WouldTransition({.attack = false}).Valid());
    CHECK(m.WouldTransition({.hit = true}) == m.IdOf<Flinch>());
}

TEST_CASE("A gate that throws leaves the machine where it was", "[gate][throw]") {
    struct Boom : std::runtime_error {
        Boom() : std::runtime_error("boom") {}
    };
    struct Touchy {
        bool CanEnterState(const Creature& c, const tickfsm::StateRef&) const {
            if (!c.grounded) throw Boom();
            return true;
        }
    };
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.SetInitialState<Idle>().To<Touchy>([](const Creature&, const Buttons& b) { return b.attack; });
    m.Perform({});
    c.grounded = false;
    REQUIRE_THROWS_AS(m.Perform({.attack = true}), Boom);
    CHECK(m.IsIn<Idle>());
    REQUIRE_THROWS_AS(m.TrySetState<Touchy>(), Boom);
    CHECK(m.IsIn<Idle>());
    c.grounded = true;
    m.Perform({.attack = true});
    CHECK(m.IsIn<Touchy>());
}

TEST_CASE("A condition transition can build the state it enters from the controller and the input", "[direct][args]") {
    struct Goal {
        int target = 0;
        Goal() = default;
        explicit Goal(int t) : target(t) {}
    };
    struct Pick {
        bool go = false;
        int where = 0;
    };
    struct Waiting {};
    struct World {
        int base = 100;
    };
    World w;
    tickfsm::StateManager<World, Pick> fast(w);   // fast path: the build is inlined
    tickfsm::StateManager<World, Pick> slow(w);   // general path: observed
    std::string trace;
    tickfsm::TracePrinter quiet(trace);
    slow.SetObserver(&quiet, "slow");
    for (auto* m : {&fast, &slow}) {
        m->SetInitialState<Waiting>().To<Goal>([](const World&, const Pick& p) { return p.go; },
                                                [](const World& world, const Pick& p) { return Goal(world.base + p.where); });
        m->From<Goal>().To<Waiting>([](const World&, const Pick& p) { return !p.go; });
    }
    for (auto* m : {&fast, &slow}) {
        m->Perform({});
        m->Perform({true, 7});
        CHECK(m->IsIn<Goal>());
        CHECK(m->State<Goal>().target == 107);
        m->Perform({});
        m->Perform({true, 9});
        CHECK(m->State<Goal>().target == 109);
    }
    CHECK(fast.SharesTable());
}

TEST_CASE("A hook can revert to the previous state through its handle", "[previous][direct]") {
    struct Home {};
    struct Away {};
    struct Visit {
        void Perform(Creature&, const Buttons& b, M& m) {
            if (b.hit) m.RevertToPreviousState();
        }
    };
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.KeepPreviousState();
    m.SetInitialState<Home>().To<Away>([](const Creature&, const Buttons& b) { return b.attack; });
    m.From<Away>().To<Visit>([](const Creature&, const Buttons& b) { return !b.attack; });
    m.From<Visit>();
    m.Perform({});
    m.Perform({.attack = true});
    m.Perform({});
    REQUIRE(m.IsIn<Visit>());
    m.Perform({.hit = true});
    CHECK(m.IsIn<Away>());
}
