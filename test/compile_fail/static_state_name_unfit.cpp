// Must not compile: a compile-time machine's state whose Name holds '/', a separator of ActivePath().
#include <string_view>
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Idle {};
struct Run {
    static constexpr std::string_view Name = "Alive/Run";
};

inline constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>().SetInitialState<Idle>().To<Run>();

void Tick(Hero& hero) {
    tickfsm::StaticStateManager<kTransitions> machine(hero);
    machine.Perform(Input{});
}
