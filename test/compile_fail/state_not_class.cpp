// Must not compile: a state must be a class type.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};

void Configure(tickfsm::StateManager<Hero, Input>& m) { m.SetInitialState<int>(); }
