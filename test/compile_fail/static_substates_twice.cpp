// Must not compile: a compile-time machine whose tree lists a parent's substates in two calls.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Alive {};
struct Move {};
struct Attack {};

inline constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>()
                                         .SetSubstates<Alive, Move>()
                                         .SetSubstates<Alive, Attack>()
                                         .SetInitialState<Move>()
                                         .To<Attack>();

void Tick(Hero& hero) {
    tickfsm::StaticStateManager<kTransitions> machine(hero);
    machine.Perform(Input{});
}
