// Must not compile: OnStateEnter takes the action by non-const reference.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Jump {
    void OnStateEnter(Hero&, Input&) {}
};

void Configure(tickfsm::StateManager<Hero, Input>& m) { m.SetInitialState<Jump>(); }
