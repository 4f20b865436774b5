#pragma once
#define TICKFSM_STATIC_MACHINE_HPP
// Compile-time machines: the whole transition table is the type of one
// constant, built with the same fluent words as a StateManager's constructor,
// so a tick compiles to one switch over state ids with every condition and
// hook inlined, as the switch one would write by hand. For the machines whose
// last percent matters; StateManager keeps everything that needs a table at
// run time (events, actions, gates, observers, keyed states, listing tools).

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/format.hpp"

#include "config_error.hpp"
#include "list.hpp"
#include "text.hpp"
#include "detail/grouped.hpp"
#include "detail/static_chains.hpp"
#include "detail/static_core.hpp"
#include "tick_order.hpp"
#include "detail/runtime.hpp"
#include "detail/traits.hpp"
#include "detail/type_name.hpp"
#include "state_ref.hpp"

namespace tickfsm {

template <auto kTransitions>
class StaticStateManager;
template <auto kTransitions>
class StaticCrowd;

/// The transitions of a compile-time machine (see the declaration in
/// detail/static_chains.hpp).
template <class Controller, class Action, class Initial, class... Done, class Current, class... Nodes>
class StaticTransitions<Controller, Action, Initial, detail::TypeList<Done...>, Current, detail::TypeList<Nodes...>> {
public:
    /// Nests states, as StateManager::SetSubstates does: Initial and Others
    /// become Parent's substates, Initial its initial one. Written before
    /// SetInitialState, one call per parent. StaticStateManager and
    /// StaticCrowd run such a constant with each leaf's whole active path
    /// (conditions, changes and Performs) in its case of the switch; a
    /// StateManager configured from it (Configure) ticks each leaf's path as
    /// one step.
    template <class Parent, class Initial_, class... Others>
    constexpr auto SetSubstates() const {
        static_assert(std::is_void_v<Initial>,
                      "tickfsm: Transitions: write SetSubstates<Parent, Substates...>() before SetInitialState<S>(), "
                      "the whole tree first, then the transitions");
        static_assert(detail::CheckStaticState<Parent, Controller, Action>() &&
                      detail::CheckStaticState<Initial_, Controller, Action>() &&
                      (... && detail::CheckStaticState<Others, Controller, Action>()));
        static_assert(!std::is_same_v<Parent, Initial_> && (... && !std::is_same_v<Parent, Others>),
                      "tickfsm: Transitions: SetSubstates<Parent, Substates...>(): a state cannot be its own "
                      "substate; list Parent's children after it");
        return StaticTransitions<Controller, Action, void, detail::TypeList<>, void,
                                 detail::TypeList<Nodes..., detail::StaticSubstates<Parent, Initial_, Others...>>>{};
    }

    /// The state every character starts in; its transitions follow.
    template <class S>
    constexpr auto SetInitialState() const {
        static_assert(std::is_void_v<Initial>, "tickfsm: Transitions: SetInitialState<S>() is called once, first; "
                                               "use From<S>() for the transitions of the other states");
        static_assert(detail::CheckStaticState<S, Controller, Action>());
        return StaticTransitions<Controller, Action, S, detail::TypeList<>, detail::StaticChain<S>,
                                 detail::TypeList<Nodes...>>{};
    }

    /// The transitions of S follow (each state has at most one From).
    template <class S>
    constexpr auto From() const {
        static_assert(!std::is_void_v<Initial>,
                      "tickfsm: Transitions: call SetInitialState<S>() first, then From<S2>() for the other states");
        static_assert(detail::CheckStaticState<S, Controller, Action>());
        if constexpr ((std::is_same_v<typename Done::From, S> || ...) || std::is_same_v<typename Current::From, S>) {
            (void)sizeof(detail::FromAppearsTwice<S>);
            return *this;
        } else {
            return StaticTransitions<Controller, Action, Initial, detail::TypeList<Done..., Current>,
                                     detail::StaticChain<S>, detail::TypeList<Nodes...>>{};
        }
    }

    /// A transition to T, tried after the ones before it: taken when
    /// `condition(controller, action, timeInState)` holds (or one of the
    /// shorter forms StateManager takes). The condition's type is what counts:
    /// a captureless lambda or an empty function object. Without one, always.
    template <class T, class F = detail::Always>
    constexpr auto To(F = {}) const {
        static_assert(!std::is_void_v<Initial>,
                      "tickfsm: Transitions: call SetInitialState<S>() (or From<S>()) before To<T>()");
        static_assert(detail::CheckStaticState<T, Controller, Action>());
        static_assert(detail::CheckStaticCondition<F, Controller, Action>());
        return StaticTransitions<Controller, Action, Initial, detail::TypeList<Done...>,
                                 typename detail::AppendEdge<Current, detail::StaticEdge<T, F>>::type,
                                 detail::TypeList<Nodes...>>{};
    }

private:
    template <class Table>
    friend struct detail::StaticCore;
    using ControllerType = Controller;
    using ActionType = Action;
    using InitialType = Initial;
    using ChainTypes = detail::TypeList<Done..., Current>;
    using TreeTypes = detail::TypeList<Nodes...>;
};

/// The start of a compile-time machine's transitions (see StaticTransitions).
template <class Controller, class Action>
constexpr StaticTransitions<Controller, Action, void, detail::TypeList<>, void> Transitions() noexcept {
    return {};
}

/// One character's compile-time machine: `kTransitions` (built with
/// tickfsm::Transitions) is its whole table. Ticks like a StateManager
/// (Perform: the first enters the initial state; count the tick; the first
/// transition whose condition holds fires; the current state performs) with
/// every condition and hook inlined into one switch. Holds its controller, the
/// current state and its ticks, and the objects of states that have data; a
/// copy (or copy-assignment) is a snapshot of all of it, the controller binding
/// included.
template <auto kTransitions>
class StaticStateManager : public detail::StaticStateIds<detail::StaticCoreOf<kTransitions>> {
    using Core = detail::StaticCoreOf<kTransitions>;

public:
    using Controller = typename Core::C;
    using Action = typename Core::A;

    /// A machine driving `character`, one tick lasting `fixed_dt` seconds.
    /// `fixed_dt` not finite and positive is a ConfigError.
    explicit StaticStateManager(Controller& character, float fixed_dt = 1.0f / 60.0f)
        : bound_controller(&character), fixed_step(fixed_dt) {
        if (!detail::PositiveFinite(fixed_dt)) Core::FailDt("StaticStateManager", fixed_dt);
    }

    StaticStateManager(const StaticStateManager& other)
        : bound_controller(other.bound_controller), machine_runtime(other.machine_runtime),
          fixed_step(other.fixed_step), state_objects(other.state_objects), composite_ticks(other.composite_ticks) {}
    StaticStateManager& operator=(const StaticStateManager& other) {
        bound_controller = other.bound_controller;
        machine_runtime = other.machine_runtime;
        fixed_step = other.fixed_step;
        state_objects = other.state_objects;
        composite_ticks = other.composite_ticks;
        return *this; // in_tick stays this machine's own
    }

    /// One fixed tick (see the class comment).
    [[gnu::always_inline]] void Perform(const Action& action) {
        if (in_tick) [[unlikely]]
            Refuse("Perform()");
        detail::ScopedValue<bool> mark(in_tick, true);
        Core::Tick(*bound_controller, action, machine_runtime, state_objects, fixed_step, composite_ticks.data());
    }

    /// Back to the initial state, entered on the next Perform. No hook runs now;
    /// state objects keep their data and OnStateInit does not run again.
    void Reset() {
        if (in_tick) [[unlikely]]
            Refuse("Reset()");
        Core::Unstart(machine_runtime);
    }

    /// Whether S is active: the current state or, in a nested constant, one of its ancestors.
    template <class S>
    bool IsIn() const noexcept {
        return Core::template IsIn<S>(machine_runtime.state);
    }
    /// The current state's id (a leaf of a nested constant; not valid before the first Perform).
    StateId CurrentState() const noexcept { return StateId{machine_runtime.state}; }
    std::string_view CurrentStateName() const noexcept { return Core::NameOf(machine_runtime.state); }
    /// The active path as text, outermost first: "Alive/Grounded/Run" ("" before the first Perform).
    Text ActivePath() const { return Core::PathText(machine_runtime.state); }
    /// This machine's object of state S.
    template <class S>
    S& State() noexcept {
        Core::template CheckQueried<S>();
        return Core::template Get<S>(state_objects);
    }
    /// This machine's object of state S, read-only.
    template <class S>
    const S& State() const noexcept {
        return const_cast<StaticStateManager&>(*this).template State<S>();
    }
    std::uint32_t TicksInState() const noexcept { // 0 before the start (the count is Initialize's then)
        return machine_runtime.state == detail::kNoState ? 0 : machine_runtime.ticks;
    }
    double TimeInState() const noexcept { return detail::SecondsOf(TicksInState(), fixed_step); }
    /// The ticks S has been active: the current state's, or a composite's that
    /// holds it (which runs on while its substates change); 0 when S is not active.
    template <class S>
    std::uint32_t TicksInState() const noexcept {
        return Core::template TicksIn<S>(machine_runtime, composite_ticks.data());
    }
    /// TicksInState<S>() in seconds.
    template <class S>
    double TimeInState() const noexcept {
        return detail::SecondsOf(TicksInState<S>(), fixed_step);
    }
    bool IsStarted() const noexcept { return (machine_runtime.flags & detail::kStarted) != 0; }
    float FixedDeltaTime() const noexcept { return fixed_step; }

private:
    friend struct detail::TicksAccess;
    std::uint32_t& Ticks() noexcept { return machine_runtime.ticks; }

    [[noreturn, gnu::cold, gnu::noinline]] void Refuse(std::string_view what) const {
        detail::ReportConfigError(
            detail::MessageText(detail::Message::StaticManagerInsideHook, Core::Machine(), what, CurrentStateName()));
    }

    Controller* bound_controller;
    detail::Runtime machine_runtime{};
    float fixed_step;
    bool in_tick = false; // a byte of its own: see detail::ScopedValue
    [[no_unique_address]] typename Core::Storage state_objects{};
    [[no_unique_address]] typename Core::Bases composite_ticks{};
};

/// Many characters on one compile-time machine: per character the current
/// state id and its ticks (8 bytes), a count per level of nesting above the
/// leaves if the constant nests states (4 bytes each), and the objects of
/// states that have data. The controllers stay yours.
template <auto kTransitions>
class StaticCrowd : public detail::StaticStateIds<detail::StaticCoreOf<kTransitions>> {
    using Core = detail::StaticCoreOf<kTransitions>;
    using Storage = typename Core::Storage;
    using Bases = typename Core::Bases;

public:
    using Controller = typename Core::C;
    using Action = typename Core::A;

    /// `count` characters, none started; one tick lasts `fixed_dt` seconds.
    explicit StaticCrowd(std::size_t count, float fixed_dt = 1.0f / 60.0f) : runtimes(count), dt(fixed_dt) {
        if (!detail::PositiveFinite(fixed_dt)) Core::FailDt("StaticCrowd", fixed_dt);
        if constexpr (Core::kHasData) states.resize(count);
        if constexpr (Core::kNested) bases.resize(count);
        Recount();
    }

    /// One fixed tick of character i (StaticStateManager::Perform's rules).
    void Perform(std::size_t i, Controller& controller, const Action& action) {
        CheckIndex(i, "Perform");
        if (active != kNothing) [[unlikely]]
            Refuse(detail::MessageText(detail::Message::PerformCall, i));
        detail::ScopedValue<std::size_t> running(active, i + 1);
        Core::Tick(controller, action, runtimes[i], StatesOf(i), dt, BasesOf(i));
    }

    /// One tick of every character: controllers[i] with actions[i].
    void TickAll(std::span<Controller> controllers, std::span<const Action> actions) {
        if (actions.size() != runtimes.size()) [[unlikely]]
            Refuse(detail::MessageText(detail::Message::TickAllActions, actions.size(),
                                       detail::PluralEnding(actions.size())));
        TickAll(controllers, [actions](std::size_t i, Controller&) -> const Action& { return actions[i]; });
    }

    /// One tick of every character: `make_action(i, controllers[i])` returns
    /// character i's action (read its input, run its physics), then character
    /// i ticks, in `order` (Crowd::TickAll's rules).
    template <class MakeAction>
        requires std::is_invocable_r_v<Action, MakeAction&, std::size_t, Controller&>
    void TickAll(std::span<Controller> controllers, MakeAction&& make_action, TickOrder order = TickOrder::ByIndex) {
        if (order == TickOrder::ByState) return TickByState(controllers, make_action);
        if (controllers.size() != fast_count || active != kNothing) [[unlikely]]
            return TickNobody(controllers.size());
        detail::ScopedValue<std::size_t> running(active, kTickingAll);
        detail::Runtime* const runtime = runtimes.data();
        Controller* const controller = controllers.data();
        const std::size_t count = controllers.size();
        detail::Assume(count != 0); // the loop's first test goes
        const float seconds = dt;
        for (std::size_t i = 0; i < count; ++i) {
            const Action& action = make_action(i, controller[i]);
            Core::Tick(controller[i], action, runtime[i], StatesOf(i), seconds, BasesOf(i));
        }
    }

    /// Character i back to the initial state, entered on its next Perform.
    void Reset(std::size_t i) {
        CheckIndex(i, "Reset");
        if (active != kNothing) [[unlikely]]
            Refuse(detail::MessageText(detail::Message::ResetCall, i));
        Core::Unstart(runtimes[i]);
    }

    /// Adds one character (not started) and returns its index. Allocates: not for the tick.
    std::size_t Add() {
        if (active != kNothing) [[unlikely]]
            Refuse("Add()");
        runtimes.emplace_back();
        if constexpr (Core::kHasData) states.emplace_back();
        if constexpr (Core::kNested) bases.emplace_back();
        Recount();
        return runtimes.size() - 1;
    }

    /// Removes character i: the last character moves into slot i (as a
    /// vector's swap-and-pop), so only the last character's index changes (it
    /// becomes i). No hook runs (as Reset). Mirror it in the controllers you tick with.
    void Remove(std::size_t i) {
        CheckIndex(i, "Remove");
        if (active != kNothing) [[unlikely]]
            Refuse(detail::MessageText(detail::Message::RemoveCall, i));
        const std::size_t last = runtimes.size() - 1;
        runtimes[i] = runtimes[last];
        runtimes.pop_back();
        if constexpr (Core::kHasData) MoveLastInto(states, i);
        if constexpr (Core::kNested) {
            bases[i] = bases[last];
            bases.pop_back();
        }
        Recount();
    }

    // In checked builds (TICKFSM_CHECKED), every call taking a character's
    // index refuses one out of range with a ConfigError, as Crowd's do.
    /// Whether S is active for character i: its current state or, in a nested constant, one of its ancestors.
    template <class S>
    bool IsIn(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "IsIn");
        return Core::template IsIn<S>(runtimes[i].state);
    }
    StateId CurrentState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "CurrentState");
        return StateId{runtimes[i].state};
    }
    std::string_view CurrentStateName(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "CurrentStateName");
        return Core::NameOf(runtimes[i].state);
    }
    /// Character i's active path as text, outermost first ("" before its first tick).
    Text ActivePath(std::size_t i) const {
        CheckIndex(i, "ActivePath");
        return Core::PathText(runtimes[i].state);
    }
    /// Character i's object of state S.
    template <class S>
    S& State(std::size_t i) noexcept(!TICKFSM_CHECKED) {
        Core::template CheckQueried<S>();
        CheckIndex(i, "State");
        return Core::template Get<S>(StatesOf(i));
    }
    /// Character i's object of state S, read-only.
    template <class S>
    const S& State(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        return const_cast<StaticCrowd&>(*this).template State<S>(i);
    }
    std::uint32_t TicksInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TicksInState");
        return runtimes[i].state == detail::kNoState ? 0 : runtimes[i].ticks; // 0 before the start
    }
    double TimeInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TimeInState");
        return detail::SecondsOf(TicksInState(i), dt);
    }
    /// The ticks S has been active for character i (StaticStateManager::TicksInState<S>()).
    template <class S>
    std::uint32_t TicksInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TicksInState");
        return Core::template TicksIn<S>(runtimes[i], BasesOf(i));
    }
    /// TicksInState<S>(i) in seconds.
    template <class S>
    double TimeInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TimeInState");
        return detail::SecondsOf(TicksInState<S>(i), dt);
    }
    bool IsStarted(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "IsStarted");
        return (runtimes[i].flags & detail::kStarted) != 0;
    }
    std::size_t Size() const noexcept { return runtimes.size(); }
    float FixedDeltaTime() const noexcept { return dt; }
    /// Bytes the crowd holds per character: state id, flags and ticks, the
    /// counts of a nested constant's composites, plus state data.
    static constexpr std::size_t BytesPerCharacter() noexcept {
        return sizeof(detail::Runtime) + (Core::kNested ? sizeof(Bases) : 0) + (Core::kHasData ? sizeof(Storage) : 0);
    }

private:
    friend struct detail::TicksAccess;
    std::uint32_t& Ticks(std::size_t i) noexcept { return runtimes[i].ticks; }

    static constexpr std::size_t kNothing = 0;
    static constexpr std::size_t kTickingAll = static_cast<std::size_t>(-1);
    /// Characters per block of TickOrder::ByState: 256, fewer for an action of more than 8 bytes.
    static constexpr std::size_t kGroupBlock = detail::GroupBlockFor(sizeof(Action));

    /// TickAll in TickOrder::ByState: blocks of up to kGroupBlock characters,
    /// each block's actions made in index order, then its characters ticked
    /// grouped by current state. Fewer than detail::kGroupMin characters, or a
    /// machine of more than 255 states, tick by index.
    template <class MakeAction>
    void TickByState(std::span<Controller> controllers, MakeAction& make_action) {
        // One group per state, and one for characters not started yet.
        constexpr std::size_t kGroups = Core::kStateCount + 1;
        if constexpr (kGroups > detail::kGroupMaxBuckets) {
            TickAll(controllers, make_action);
        } else {
            if (controllers.size() < detail::kGroupMin) return TickAll(controllers, make_action);
            if (active != kNothing || controllers.size() != runtimes.size()) [[unlikely]]
                Refuse(detail::MessageText(detail::Message::TickAllByStateControllers, controllers.size(),
                                           detail::PluralEnding(controllers.size())));
            detail::ScopedValue<std::size_t> running(active, kTickingAll);
            detail::Runtime* const runtime = runtimes.data();
            Controller* const controller = controllers.data();
            const float seconds = dt;
            detail::TickGrouped<Action, kGroupBlock, false>(
                controllers.size(), kGroups, [&](std::size_t i) { return make_action(i, controller[i]); },
                [runtime](std::size_t i) {
                    const detail::StateIndex s = runtime[i].state;
                    return s < Core::kStateCount ? s : Core::kStateCount;
                },
                [&](std::size_t i, std::uint16_t, const Action& action) {
                    Core::Tick(controller[i], action, runtime[i], StatesOf(i), seconds, BasesOf(i));
                });
        }
    }

    /// Checked builds: character i exists, or a ConfigError naming the call.
    void CheckIndex([[maybe_unused]] std::size_t i, [[maybe_unused]] const char* api) const {
#if TICKFSM_CHECKED
        if (i >= runtimes.size()) [[unlikely]]
            FailIndex(i, api);
#endif
    }
    [[noreturn, gnu::cold, gnu::noinline]] void FailIndex(std::size_t i, const char* api) const {
        detail::ReportConfigError(
            detail::MessageText(detail::Message::StaticCrowdNoCharacter, Core::Machine(), api, i, i, runtimes.size(),
                                detail::PluralEnding(runtimes.size())));
    }

    [[gnu::always_inline]] Storage& StatesOf(std::size_t i) noexcept {
        if constexpr (Core::kHasData) return states[i];
        else return stateless;
    }
    [[gnu::always_inline]] std::uint32_t* BasesOf(std::size_t i) noexcept {
        if constexpr (Core::kNested) return bases[i].data();
        else return nullptr;
    }
    const std::uint32_t* BasesOf(std::size_t i) const noexcept {
        if constexpr (Core::kNested) return bases[i].data();
        else return nullptr;
    }

    /// Remove's part for the state objects: character i's destroyed, the last
    /// character's moved into their place, as a Crowd relocates them. noexcept:
    /// a state whose move constructor throws ends the program rather than
    /// leave objects the crowd would destroy twice.
    static void MoveLastInto(List<Storage>& objects, std::size_t i) noexcept {
        const std::size_t last = objects.size() - 1;
        if (i != last) {
            objects[i].~Storage();
            ::new (static_cast<void*>(&objects[i])) Storage(std::move(objects[last]));
        }
        objects.pop_back();
    }

    /// TickAll's gate follows the character count (see fast_count).
    void Recount() noexcept { fast_count = runtimes.empty() ? detail::kNoFastCount : runtimes.size(); }

    /// TickAll when the gate is shut: an empty crowd ticks nobody; anything
    /// else is a wrong number of controllers or a call from inside a tick.
    [[gnu::cold, gnu::noinline]] void TickNobody(std::size_t controllers) const {
        if (controllers != runtimes.size() || active != kNothing)
            Refuse(detail::MessageText(detail::Message::TickAllControllers, controllers,
                                       detail::PluralEnding(controllers)));
    }

    /// `what` was called while the crowd runs, or (TickAll) for the wrong number of characters.
    [[noreturn, gnu::cold, gnu::noinline]] void Refuse(std::string_view what) const {
        Text why;
        if (active == kTickingAll)
            why = detail::MessageText(detail::Message::StaticCrowdInsideTickAll);
        else if (active != kNothing)
            why = detail::MessageText(detail::Message::StaticCrowdInsideCharacter, active - 1);
        else
            why = detail::MessageText(detail::Message::StaticCrowdSize, runtimes.size(),
                                      detail::PluralEnding(runtimes.size()));
        detail::ReportConfigError(detail::MessageText(detail::Message::StaticCrowdRefused, Core::Machine(), what, why));
    }

    List<detail::Runtime> runtimes;
    List<Storage> states; // empty unless some state has data
    List<Bases> bases;    // empty unless the constant nests states
    float dt;
    // Nothing, TickAll, or i + 1 while character i ticks: a hook may not tick,
    // reset or grow the crowd that runs it.
    std::size_t active = kNothing;
    // TickAll's gate: the character count, or kNoFastCount for an empty crowd,
    // so that one compare with the span's size decides its common case.
    std::size_t fast_count = detail::kNoFastCount;
    // What stateless states are handed; nothing when states hold data (each
    // character then has its own objects, and no spare set is built).
    struct NoObjects {};
    [[no_unique_address]] std::conditional_t<Core::kHasData, NoObjects, Storage> stateless{};
};

} // namespace tickfsm

// StateManager::Configure's code for these constants (see the end of
// state_manager.hpp): only where a StateManager can call it.
#if defined(TICKFSM_STATE_MANAGER_HPP)
#include "detail/static_tree.hpp"
#endif
