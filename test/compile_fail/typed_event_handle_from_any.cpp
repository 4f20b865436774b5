// Must not compile: FromAny() has no state to handle a typed event in place.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Hit { int damage = 0; };
struct Idle {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Idle>();
    m.FromAny().On<Hit>().Handle();
}
