// Must not compile: a parallel state listed as its own region.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Alive {};
struct Legs {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetRegions<Alive, Legs, Alive>();
}
