// Must not compile: a compile-time machine's condition that captures (its
// type alone cannot rebuild it).
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Move {};
struct Jump {};

int threshold = 3;
const auto kTransitions =
    tickfsm::Transitions<Hero, Input>().SetInitialState<Move>().To<Jump>([t = threshold] { return t > 2; });
