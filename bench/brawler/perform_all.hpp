#pragma once
// PerformAllByState: many StateManagers (one per character) ticked grouped by
// state, as a Crowd's TickAll(..., TickOrder::ByState) does for a crowd. The
// benchmark's `tickfsm-by-state` row; not part of the library.

#include <cstddef>
#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>

#include <tickfsm/detail/grouped.hpp>
#include <tickfsm/detail/traits.hpp>
#include <tickfsm/state_manager.hpp>

namespace brawler {

namespace perform_all {
/// The action type of a StateManager (ActionType) or a StaticStateManager (Action).
template <class M>
struct MachineAction {};
template <class M>
    requires requires { typename M::ActionType; }
struct MachineAction<M> {
    using type = typename M::ActionType;
};
template <class M>
    requires(requires { typename M::Action; } && !requires { typename M::ActionType; })
struct MachineAction<M> {
    using type = typename M::Action;
};

template <class M>
concept PerformableMachine = requires { typename MachineAction<M>::type; } &&
                             requires(M& m, const typename MachineAction<M>::type& a) {
                                 m.Perform(a);
                                 { m.CurrentState() } -> std::same_as<tickfsm::StateId>;
                             };

template <class M>
struct PerformAllNeedsMachines {
    static_assert(tickfsm::detail::kAlwaysFalse<M>, "PerformAllByState(machines, make_action) takes a span of your "
                                   "StateManager subclass (or StaticStateManager), e.g. std::span<HeroStateManager>");
};
} // namespace perform_all

/// Ticks every machine once, `machines[i]` with `make_action(i)` (its
/// character's action: read its input, run its physics), in an order that
/// suits the CPU, for characters that do not read each other during a tick:
/// blocks of up to 256 machines, each block's actions made in index order,
/// then its machines ticked grouped by current state (by state id, then by
/// index), so that machines of one kind in the same state run the same step
/// in a row and the CPU predicts its call. Each machine ticks by Perform, with
/// all of Perform's checks. Fewer than 32 machines tick in index order, each
/// action made just before its machine ticks. If a hook throws, the machines
/// after it in that order do not tick. Uses about 4 KB of stack.
template <class Manager, class MakeAction>
void PerformAllByState(std::span<Manager> machines, MakeAction&& make_action) {
    if constexpr (!perform_all::PerformableMachine<Manager>) {
        (void)sizeof(perform_all::PerformAllNeedsMachines<Manager>);
    } else {
        using Action = typename perform_all::MachineAction<Manager>::type;
        static_assert(std::is_invocable_r_v<Action, MakeAction&, std::size_t>,
                      "tickfsm: PerformAllByState(machines, make_action): make_action(i) must return machine i's "
                      "action (the Action type of the machines)");
        Manager* const machine = machines.data();
        const std::size_t count = machines.size();
        if (count < tickfsm::detail::kGroupMin) {
            for (std::size_t i = 0; i < count; ++i) machine[i].Perform(make_action(i));
            return;
        }
        // One group per state id below 256; machines not started yet, and
        // states beyond, share the last one.
        constexpr std::size_t kLast = tickfsm::detail::kGroupMaxBuckets - 1;
        tickfsm::detail::TickGrouped<Action, tickfsm::detail::GroupBlockFor(sizeof(Action)), true>(
            count, tickfsm::detail::kGroupMaxBuckets, [&](std::size_t i) { return make_action(i); },
            [machine](std::size_t i) {
                const std::size_t s = machine[i].CurrentState().value;
                return s < kLast ? s : kLast;
            },
            [machine](std::size_t i, std::uint16_t, const Action& action) { machine[i].Perform(action); });
    }
}

} // namespace brawler
