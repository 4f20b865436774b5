// Must not compile: a condition taking the action alone is not one of the accepted forms.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input { bool jump = false; };
struct Move {};
struct Jump {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Move>().To<Jump>([](const Input& in) { return in.jump; });
}
