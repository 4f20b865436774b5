// Must not compile: two From<S>() chains for one state of a compile-time machine.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Move {};
struct Jump {};

constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>()
                                  .SetInitialState<Move>()
                                  .To<Jump>()
                                  .From<Jump>()
                                  .To<Move>()
                                  .From<Jump>()
                                  .To<Jump>();
