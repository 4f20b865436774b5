// Must not compile: an action with Perform, a state's hook name, which an action never calls.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Idle {};
struct Blink {
    void Perform(Hero&, const Input&) {}
};

void Configure(tickfsm::StateManager<Hero, Input>& m) { m.SetInitialState<Idle>().Do<Blink>(); }
