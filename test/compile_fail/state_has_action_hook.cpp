// Must not compile: a state with OnEnter, an action's hook name, which a state never calls.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Jump {
    void OnEnter(Hero&, const Input&) {}
};

void Configure(tickfsm::StateManager<Hero, Input>& m) { m.SetInitialState<Jump>(); }
