// Must not compile: asking a compile-time machine about a type none of its
// transitions names.
#include <tickfsm/static_machine.hpp>

struct Hero {};
struct Input {};
struct Move {};
struct Jump {};

constexpr auto kTransitions = tickfsm::Transitions<Hero, Input>().SetInitialState<Move>();

bool InJump(const tickfsm::StaticStateManager<kTransitions>& m) { return m.IsIn<Jump>(); }
