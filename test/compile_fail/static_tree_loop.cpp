// Must not compile: a compile-time machine whose tree makes a state its own ancestor.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Alive {};
struct Combat {};
struct Move {};

inline constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>()
                                         .SetSubstates<Alive, Combat>()
                                         .SetSubstates<Combat, Alive, Move>()
                                         .SetInitialState<Move>()
                                         .To<Combat>();

void Tick(Hero& hero) {
    tickfsm::StaticStateManager<kTransitions> machine(hero);
    machine.Perform(Input{});
}
