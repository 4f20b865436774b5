// Must not compile: a compile-time machine given something other than the
// constant of Transitions (here the function itself, its parentheses forgotten).
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};

void Tick(Hero& hero) {
    tickfsm::StaticStateManager<tickfsm::Transitions<Hero, Input>> machine(hero);
    machine.Perform(Input{});
}
