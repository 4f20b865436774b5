// Must not compile: a state of a compile-time machine whose hook takes the
// machine handle (there are no events or NextState to reach).
#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Move {
    void Perform(Hero&, const Input&, tickfsm::Machine<Hero, Input>&) {}
};

constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>().SetInitialState<Move>();
