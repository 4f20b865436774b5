// Must not compile: a hook enters a state with arguments larger than the
// 64 bytes a pending change keeps them in.
#include <array>

#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
using M = tickfsm::Machine<Hero, Input>;
struct Walk {
    std::array<int, 32> path{};
    Walk() = default;
    explicit Walk(std::array<int, 32> p) : path(p) {}
};
struct Stand {
    void Perform(Hero&, const Input&, M& m) { m.ForceSetState<Walk>(std::array<int, 32>{}); }
};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Stand>();
    m.From<Walk>();
}
