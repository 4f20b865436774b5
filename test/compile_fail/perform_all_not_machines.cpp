// Must not compile: PerformAllByState given something that is not a machine.
#include <span>
#include <vector>

#include <tickfsm/perform_all.hpp>

struct Hero {};

void TickAll(std::vector<Hero>& heroes) {
    tickfsm::PerformAllByState(std::span<Hero>(heroes), [](std::size_t) { return 0; });
}
