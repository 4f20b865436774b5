// Must not compile: StateManager::Configure given something other than the
// constant of a compile-time machine.
#include <tickfsm/state_manager.hpp>

struct Hero {};
struct Input {};

void Build(tickfsm::StateManager<Hero, Input>& m) { m.Configure(42); }
