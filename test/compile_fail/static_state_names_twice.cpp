// Must not compile: a compile-time machine of two states with the same name.
#include <string_view>
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
namespace ground {
struct Idle {};
} // namespace ground
namespace air {
struct Idle {};
} // namespace air

inline constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>().SetInitialState<ground::Idle>().To<air::Idle>();

void Tick(Hero& hero) {
    tickfsm::StaticStateManager<kTransitions> machine(hero);
    machine.Perform(Input{});
}
