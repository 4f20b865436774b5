// Must not compile: a typed event sent from a hook is copied into 64 bytes.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Big { char bytes[65] = {}; };
struct Idle {
    void Perform(Hero&, const Input&, tickfsm::Machine<Hero, Input>& m) { m.SendEvent(Big{}); }
};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Idle>();
}
