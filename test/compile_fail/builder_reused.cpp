// Must not compile: To<> on a builder kept in a variable.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Move {};
struct Jump {};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    auto from_move = m.SetInitialState<Move>();
    from_move.To<Jump>();
}
