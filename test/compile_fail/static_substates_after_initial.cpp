// Must not compile: SetSubstates in a constant after SetInitialState.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Alive {};
struct Move {};
struct Jump {};

constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>()
                                  .SetInitialState<Move>()
                                  .To<Jump>()
                                  .SetSubstates<Alive, Move, Jump>();
