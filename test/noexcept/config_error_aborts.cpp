// Built with -fno-exceptions: a configuration error prints its message to
// stderr and aborts. CTest checks the message (the abort is expected).
#include <cstdio>

#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Move {};
struct Jump {};

int main() {
    Hero hero;
    tickfsm::StateManager<Hero, Input> machine(hero);
    machine.SetInitialState<Move>();
    machine.SetInitialState<Jump>(); // reported here: stderr, then abort
    std::puts("not reached");
    return 0;
}
