// Must not compile: a parallel state without regions.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Alive {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetRegions<Alive>();
}
