// Typed events: values of a class sent with SendEvent, guards that read the
// payload, the payload handed to the entered state, handling in place, from
// the leaf outward, and an unhandled payload type.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Hero {
    int hp = 100;
    std::vector<std::string> log;
};
struct Pad {};

struct Hit {
    int damage = 0;
};
struct Heard {
    float x = 0, y = 0;
};
struct Unused {};

struct Idle {
    int noises = 0;
    void OnEvent(Hero& h, const Heard& n) {
        ++noises;
        h.log.push_back("heard at " + std::to_string(static_cast<int>(n.x)));
    }
};
struct Hurt {
    void OnStateEnter(Hero& h, const Pad&) { h.log.push_back("enter Hurt"); }
    void OnEvent(Hero& h, const Hit& hit) {
        h.hp -= hit.damage;
        h.log.push_back("Hurt took " + std::to_string(hit.damage));
    }
};
struct Staggered {};
struct Combat {};

class HeroMachine : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroMachine(Hero& h) : StateManager(h) {
        SetInitialState<Idle>()
            .On<Hit>([](const Hero&, const Hit& hit) { return hit.damage >= 20; })
            .To<Hurt>()
            .On<Hit>()
            .To<Staggered>()
            .On<Heard>()
            .Handle();
        From<Hurt>().To<Idle>([](const Hero&, const Pad&, float t) { return t > 0.05f; });
        From<Staggered>().To<Idle>();
    }
};

} // namespace

TEST_CASE("A typed event's guard reads the payload, and the entered state receives it after its enter hook",
          "[typed_event]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    CHECK(m.SendEvent(Hit{.damage = 30}));
    CHECK(m.IsIn<Hurt>());
    CHECK(hero.log == std::vector<std::string>{"enter Hurt", "Hurt took 30"});
    CHECK(hero.hp == 70);
    CHECK(m.SharesTable());
}

TEST_CASE("Transitions on one typed event are tried in order, the first whose guard holds fires", "[typed_event]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    CHECK(m.SendEvent(Hit{.damage = 5}));
    CHECK(m.IsIn<Staggered>());
    CHECK(hero.hp == 100); // Staggered has no OnEvent: the payload goes nowhere
}

TEST_CASE("A state handles a typed event in place without changing state", "[typed_event]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    m.Perform({});
    CHECK(m.SendEvent(Heard{.x = 4, .y = 2}));
    CHECK(m.IsIn<Idle>());
    CHECK(m.TicksInState() == 2);
    CHECK(m.State<Idle>().noises == 1);
    CHECK(hero.log == std::vector<std::string>{"heard at 4"});
}

TEST_CASE("A typed event no state takes is reported like an unhandled event", "[typed_event]") {
    struct Listener : tickfsm::Observer {
        std::string what;
        void OnUnhandledEvent(std::string_view, std::string_view state, const tickfsm::Event& event) override {
            what = std::string(event.name) + " in " + std::string(state);
        }
    } listener;
    Hero hero;
    HeroMachine m(hero);
    m.SetObserver(&listener, "hero");
    m.Perform({});
    CHECK_FALSE(m.SendEvent(Unused{}));
    CHECK(listener.what == "Unused in Idle");
    m.ForceSetState<Staggered>();
    CHECK_FALSE(m.SendEvent(Heard{}));
    CHECK(listener.what == "Heard in Staggered");
}

TEST_CASE("Typed events go from the active leaf outward", "[typed_event][nested]") {
    struct Nested : tickfsm::StateManager<Hero, Pad> {
        explicit Nested(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Idle, Staggered>();
            SetInitialState<Combat>().On<Hit>().To<Hurt>();
            From<Idle>().On<Hit>([](const Hero&, const Hit& hit) { return hit.damage < 10; }).To<Staggered>();
            From<Hurt>();
        }
    };
    Hero hero;
    Nested m(hero);
    m.Perform({});
    CHECK(m.SendEvent(Hit{.damage = 5})); // the leaf's own transition
    CHECK(m.ActivePath() == "Combat/Staggered");
    CHECK(m.SendEvent(Hit{.damage = 5})); // Staggered has none: its parent's
    CHECK(m.ActivePath() == "Hurt");
    CHECK(hero.hp == 95);
}

TEST_CASE("A crowd character receives typed events", "[typed_event][crowd]") {
    tickfsm::Crowd<HeroMachine> crowd(2);
    std::vector<Hero> heroes(2);
    for (std::size_t i = 0; i < 2; ++i) crowd.Perform(i, heroes[i], Pad{});
    CHECK(crowd.SendEvent(1, heroes[1], Hit{.damage = 50}, Pad{}));
    CHECK(crowd.IsIn<Idle>(0));
    CHECK(crowd.IsIn<Hurt>(1));
    CHECK(heroes[1].hp == 50);
}

TEST_CASE("A hook sends a typed event: the change applies when it returns, with a copy of the value",
          "[typed_event][hook]") {
    struct Shooter {
        void Perform(Hero&, const Pad&, tickfsm::Machine<Hero, Pad>& m) {
            Hit local{.damage = 40};
            m.SendEvent(local); // `local` is gone when the change applies: the machine keeps a copy
        }
    };
    struct Listener {
        int noises = 0;
        void OnEvent(Hero&, const Heard&) { ++noises; }
        void Perform(Hero&, const Pad&, tickfsm::Machine<Hero, Pad>& m) { m.SendEvent(Heard{}); } // in place
    };
    struct Hooked : tickfsm::StateManager<Hero, Pad> {
        explicit Hooked(Hero& h) : StateManager(h) {
            SetInitialState<Listener>().On<Heard>().Handle().To<Shooter>([](const Hero&, const Pad&, float t) {
                return t > 0.02f;
            });
            From<Shooter>().On<Hit>().To<Hurt>();
            From<Hurt>();
        }
    };
    Hero hero;
    Hooked m(hero);
    m.Perform({});
    CHECK(m.State<Listener>().noises == 1);
    m.Perform({}); // Listener -> Shooter; Shooter performs and sends Hit
    CHECK(m.IsIn<Hurt>());
    CHECK(hero.hp == 60);
}

TEST_CASE("WouldTakeEvent tells whether SendEvent would be taken, calling guards but no hook", "[typed_event][query]") {
    Hero hero;
    HeroMachine m(hero);
    CHECK_FALSE(m.WouldTakeEvent(Hit{.damage = 30})); // not started
    m.Perform({});
    CHECK(m.WouldTakeEvent(Hit{.damage = 30}));
    CHECK(m.WouldTakeEvent(Heard{})); // handled in place
    CHECK_FALSE(m.WouldTakeEvent(Unused{}));
    CHECK_FALSE(m.WouldTakeEvent(tickfsm::Event("jump")));
    CHECK(hero.log.empty());
    CHECK(m.IsIn<Idle>());
    CHECK(m.State<Idle>().noises == 0);
    CHECK(m.SendEvent(Hit{.damage = 5}));
    CHECK(m.IsIn<Staggered>());
    CHECK_FALSE(m.WouldTakeEvent(Hit{.damage = 30})); // Staggered takes no Hit
}

TEST_CASE("A typed event sent from an exit hook is refused, naming the event and the state",
          "[typed_event][config_error]") {
    struct Leaving {
        void OnStateExit(Hero&, const Pad&, tickfsm::Machine<Hero, Pad>& m) { m.SendEvent(Hit{.damage = 1}); }
    };
    struct Gone {};
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<Leaving>().To<Gone>([](const Hero& hero) { return hero.hp < 100; });
    m.From<Gone>();
    m.Perform({});
    h.hp = 50;
    CHECK_THROWS_WITH(m.Perform({}), Catch::Contains("SendEvent(Hit) called from an exit hook of state Leaving"));
}
