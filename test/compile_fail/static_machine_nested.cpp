// Must not compile: a StaticStateManager of a constant that nests states.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Alive {};
struct Move {};
struct Jump {};

inline constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>()
                                         .SetSubstates<Alive, Move, Jump>()
                                         .SetInitialState<Move>()
                                         .To<Jump>();

void Tick(Hero& hero) {
    tickfsm::StaticStateManager<kTransitions> machine(hero);
    machine.Perform(Input{});
}
