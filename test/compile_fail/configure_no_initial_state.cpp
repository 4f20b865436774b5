// Must not compile: StateManager::Configure given transitions that were never
// given an initial state.
#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};

constexpr auto kNothingYet = tickfsm::Transitions<Hero, Input>();

void Build(tickfsm::StateManager<Hero, Input>& m) { m.Configure(kNothingYet); }
