// Must not compile: a gate on a state of a compile-time machine, which would
// never be asked.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Move {};
struct Locked {
    bool CanEnterState(const Hero&, const tickfsm::StateRef&) const { return false; }
};

constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>().SetInitialState<Move>().To<Locked>();
