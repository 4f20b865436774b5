// Must not compile: a state listed as its own substate.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Combat {};
struct Attack {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetSubstates<Combat, Attack, Combat>();
}
