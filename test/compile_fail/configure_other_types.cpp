// Must not compile: StateManager::Configure given the transitions of a machine
// written for another Controller.
#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Villain {};
struct Input {};
struct Move {};

constexpr auto kVillainTransitions = tickfsm::Transitions<Villain, Input>().SetInitialState<Move>();

void Build(tickfsm::StateManager<Hero, Input>& m) { m.Configure(kVillainTransitions); }
