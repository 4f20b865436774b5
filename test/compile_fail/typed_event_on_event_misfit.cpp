// Must not compile: the state entered on a typed event has an OnEvent that
// takes the event with the Machine& handle, a form the payload never reaches.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Hit { int damage = 0; };
struct Idle {};
struct Hurt {
    void OnEvent(Hero&, const Hit&, tickfsm::Machine<Hero, Input>&) {}
};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Idle>().On<Hit>().To<Hurt>();
}
