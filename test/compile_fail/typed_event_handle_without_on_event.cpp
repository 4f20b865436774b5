// Must not compile: a state that handles a typed event in place needs OnEvent(Controller&, const E&).
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Hit { int damage = 0; };
struct Idle {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Idle>().On<Hit>().Handle();
}
