// Must not compile: IsIn<S>() asks about a state's class, and int is not one.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};

bool Asks(const tickfsm::StateManager<Hero, Input>& m) { return m.IsIn<int>(); }
