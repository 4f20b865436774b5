#pragma once
// The fluent builders of a StateManager's configuration:
// `SetInitialState<S>()` and `From<S>()` return a TransitionBuilder, whose
// `To<T>(condition)`, `ForceTo`, `On(event).To<T>()` and `Do<X>()` add S's
// transitions and actions in order; keyed states and delegate states have
// their own. Every builder works on the StateManager that made it.

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/owned.hpp"
#include "detail/config.hpp"
#include "detail/format.hpp"
#include "detail/manager_config.hpp"
#include "detail/table.hpp"
#include "detail/traits.hpp"
#include "event.hpp"
#include "machine.hpp"
#include "snapshot.hpp"
#include "state_ref.hpp"

namespace tickfsm {

template <class Controller, class Action>
class StateManager;

template <class Controller, class Action, class S, class... Edges>
class TransitionBuilder;
template <class Controller, class Action, class S, class E, class G, class... Edges>
class TypedEventBuilder;

/// Returned by `On(event)`: `To<T>()` completes the event transition and gives
/// back the builder of S's transitions.
template <class Controller, class Action, class S, class... Edges>
class EventTransitionBuilder {
public:
    /// The event moves the machine from S to T (exit S, enter T, ticks reset).
    template <class T>
    TransitionBuilder<Controller, Action, S, Edges...> To() && {
        static_assert(detail::CheckState<T, Controller, Action>());
        auto& m = *from.manager;
        Configuration::CheckConfigurable(m.machine_seat, [this] {
            return detail::MessageText(detail::Message::FromOnToCall, detail::StateName<S>(), event.name,
                                       detail::StateName<T>());
        });
        // Refused before anything changes, also for a builder off the machine's place on the shared path.
        if (Configuration::Sharing(m.machine_seat)) Configuration::template CheckNoEventOnPath<S, T>(m.machine_seat, event);
        if (Configuration::Sharing(m.machine_seat) && from.token == m.OwnBlock()->node) {
            detail::StepRecord step;
            step.key = detail::TypeKey<detail::OnStep<S, T>>();
            step.event = event;
            step.event_state = detail::TypeKey<S>();
            step.replay = &detail::ReplayOn<Controller, Action, S, T>;
            return TransitionBuilder<Controller, Action, S, Edges...>(m, from.chain, Configuration::Step(m.machine_seat, step));
        }
        detail::ManagerStorage<Controller, Action>::Detach(m.machine_seat);
        detail::ManagerStorage<Controller, Action>::ApplyPrivately(
            m.machine_seat, [this](auto& table) { detail::ApplyOn<Controller, Action, S, T>(table, event); });
        return TransitionBuilder<Controller, Action, S, Edges...>(m, from.chain, nullptr);
    }

private:
    using Configuration = detail::ManagerConfig<Controller, Action>;
    template <class, class, class, class...>
    friend class TransitionBuilder;
    EventTransitionBuilder(TransitionBuilder<Controller, Action, S, Edges...>&& builder, const Event& on) noexcept
        : from(builder), event(on) {}
    TransitionBuilder<Controller, Action, S, Edges...> from;
    Event event;
};

/// Returned by `On<E>(guard)`: `To<T>()` completes the transition on typed
/// event E, `Handle()` lets S handle E without changing state.
template <class Controller, class Action, class S, class E, class G, class... Edges>
class TypedEventBuilder {
public:
    /// E moves the machine from S to T when the guard holds; T receives the
    /// payload in `OnEvent(Controller&, const E&)`, if it has one, right after
    /// its enter hooks.
    template <class T>
    TransitionBuilder<Controller, Action, S, Edges...> To() && {
        static_assert(detail::CheckState<T, Controller, Action>());
        static_assert(!detail::HasMisfitOnEvent<T, Controller, Action, E>,
                      "tickfsm: On<E>().To<T>(): T's OnEvent takes E but would never receive it; the payload is "
                      "delivered to `void OnEvent(Controller&, const E&)` only (no Machine& handle: ask for changes "
                      "from OnStateEnter or Perform)");
        return std::move(*this).template Add<T>();
    }
    /// S handles E where it is: no change of state; S's `OnEvent(Controller&,
    /// const E&)` receives the payload.
    TransitionBuilder<Controller, Action, S, Edges...> Handle() && {
        static_assert(!std::is_same_v<S, detail::Any>,
                      "tickfsm: FromAny().On<E>().Handle(): no state is the any-state one, so none would handle E; "
                      "write From<S>().On<E>().Handle() for the state that handles it, or FromAny().On<E>().To<T>()");
        static_assert(std::is_same_v<S, detail::Any> || detail::HasOnEvent<S, Controller, E>,
                      "tickfsm: From<S>().On<E>().Handle(): S handles E in place, so S needs a member `void "
                      "OnEvent(Controller&, const E&)` (no Machine& handle)");
        return std::move(*this).template Add<void>();
    }

private:
    using Configuration = detail::ManagerConfig<Controller, Action>;
    template <class, class, class, class...>
    friend class TransitionBuilder;
    TypedEventBuilder(TransitionBuilder<Controller, Action, S, Edges...>&& builder, G&& g)
        : from(builder), guard(std::move(g)) {}

    template <class T>
    TransitionBuilder<Controller, Action, S, Edges...> Add() {
        auto& m = *from.manager;
        Configuration::CheckConfigurable(m.machine_seat, [] {
            return detail::MessageText(detail::Message::FromOnTypedCall, detail::StateName<S>(), detail::TypeName<E>());
        });
        if constexpr (std::is_empty_v<G> && std::is_default_constructible_v<G>) {
            if (Configuration::Sharing(m.machine_seat) && from.token == m.OwnBlock()->node) {
                detail::StepRecord step;
                step.key = detail::TypeKey<detail::TypedOnStep<S, E, G, T>>();
                step.replay = &detail::ReplayTypedOn<Controller, Action, S, E, G, T>;
                return TransitionBuilder<Controller, Action, S, Edges...>(m, from.chain,
                                                                          Configuration::Step(m.machine_seat, step));
            }
        }
        detail::ManagerStorage<Controller, Action>::Detach(m.machine_seat);
        detail::ManagerStorage<Controller, Action>::ApplyPrivately(m.machine_seat, [this](auto& table) {
            detail::ApplyTypedOn<Controller, Action, S, E, G, T>(table, std::move(guard));
        });
        return TransitionBuilder<Controller, Action, S, Edges...>(m, from.chain, nullptr);
    }

    TransitionBuilder<Controller, Action, S, Edges...> from;
    G guard;
};

/// Returned by `SetInitialState<S>()` and `From<S>()`: each `To<T>(condition)`
/// adds one transition from S, tried in the order written, and returns the
/// builder for the next one. The condition types are kept in the builder's type
/// so that S's whole tick compiles into one function.
template <class Controller, class Action, class S, class... Edges>
class TransitionBuilder {
public:
    /// Adds the transition S -> T taken when `condition` holds. Accepted forms:
    /// bool(const Controller&, const Action&, float timeInState),
    /// bool(const Controller&, const Action&), bool(const Controller&), bool().
    template <class T, class F>
    auto To(F&& condition) && {
        return std::move(*this).template AddEdge<T, 0>(std::forward<F>(condition), detail::NoMaker{});
    }

    /// Adds the transition S -> T taken when `condition` holds, entering a fresh
    /// T built by `make(controller, action)` (which returns a T): arguments for
    /// the state being entered, from the controller and the input.
    template <class T, class F, class M>
        requires(!std::is_convertible_v<M, std::string_view>)
    auto To(F&& condition, M&& make) && {
        using Maker = std::decay_t<M>;
        static_assert(std::is_invocable_r_v<T, const Maker&, const Controller&, const Action&>,
                      "tickfsm: To<T>(condition, make): `make` must be callable as T(const Controller&, const "
                      "Action&) and return the T to enter");
        return std::move(*this).template AddEdge<T, 0>(std::forward<F>(condition), std::forward<M>(make));
    }

    /// Like To, but the transition skips the gates (CanExitState, CanEnterState),
    /// as ForceSetState does.
    template <class T, class F>
    auto ForceTo(F&& condition) && {
        return std::move(*this).template AddEdge<T, detail::kEdgeForced>(std::forward<F>(condition), detail::NoMaker{});
    }

    /// ForceTo without a condition: S -> T, past the gates, on the first tick it is tried.
    template <class T>
    auto ForceTo() && {
        return std::move(*this).template ForceTo<T>(detail::Always{});
    }

    /// Adds an exit transition S -> T: taken when `condition` holds and the
    /// current state is done, that is it called its Machine handle's Done()
    /// since it was entered, or its CanExitState(to T) agrees. Meant for a
    /// parent S, whose transition then waits for the substate that is active;
    /// while it waits it is tried again every tick, condition included, and
    /// fires on the first tick both hold (a condition that stopped holding
    /// does not fire). T's CanEnterState is asked as for To.
    template <class T, class F>
    auto ToWhenDone(F&& condition) && {
        return std::move(*this).template AddEdge<T, detail::kEdgeWait>(std::forward<F>(condition), detail::NoMaker{});
    }
    /// ToWhenDone without a condition: S -> T as soon as the current state is done.
    template <class T>
    auto ToWhenDone() && {
        return std::move(*this).template ToWhenDone<T>(detail::Always{});
    }

    /// Adds a push taken when `condition` holds: T is entered on top of S,
    /// which stays buried, its object and time kept, until a pop (see
    /// StateManager::Push). Needs SetPushCapacity(n) in the configuration.
    template <class T, class F>
    auto Push(F&& condition) && {
        return std::move(*this).template AddEdge<T, detail::kEdgePush>(std::forward<F>(condition), detail::NoMaker{});
    }
    /// Push without a condition: T is pushed on the first tick it is tried.
    template <class T>
    auto Push() && {
        return std::move(*this).template Push<T>(detail::Always{});
    }

    /// Adds a pop taken when `condition` holds: S's layer is left and the state
    /// buried last becomes current again (see StateManager::Pop). Popping with
    /// nothing buried is a ConfigError.
    template <class F>
    auto Pop(F&& condition) && {
        return std::move(*this).template AddEdge<S, detail::kEdgePop>(std::forward<F>(condition), detail::NoMaker{});
    }
    /// Pop without a condition: S's layer is popped on the first tick it is tried.
    auto Pop() && {
        return std::move(*this).Pop(detail::Always{});
    }

    /// To, ForceTo, ToWhenDone, Push and Pop with a name for the condition,
    /// which pictures, Describe() and Validate() show ("can jump"; unnamed:
    /// "condition 2 of Idle"). The name lives in the configuration, not in
    /// what a tick reads; two machines share a table only if their names agree.
    template <class T, class F>
    auto To(F&& condition, std::string_view name) && {
        return std::move(*this).template To<T>(std::forward<F>(condition)).Named(name);
    }
    /// ForceTo with a name for the condition (see To(condition, name)).
    template <class T, class F>
    auto ForceTo(F&& condition, std::string_view name) && {
        return std::move(*this).template ForceTo<T>(std::forward<F>(condition)).Named(name);
    }
    /// ToWhenDone with a name for the condition (see To(condition, name)).
    template <class T, class F>
    auto ToWhenDone(F&& condition, std::string_view name) && {
        return std::move(*this).template ToWhenDone<T>(std::forward<F>(condition)).Named(name);
    }
    /// Push with a name for the condition (see To(condition, name)).
    template <class T, class F>
    auto Push(F&& condition, std::string_view name) && {
        return std::move(*this).template Push<T>(std::forward<F>(condition)).Named(name);
    }
    /// Pop with a name for the condition (see To(condition, name)).
    template <class F>
    auto Pop(F&& condition, std::string_view name) && {
        return std::move(*this).Pop(std::forward<F>(condition)).Named(name);
    }

    /// Adds the transition S -> T taken on the first tick it is tried.
    template <class T>
    auto To() && {
        return std::move(*this).template To<T>(detail::Always{});
    }

    /// Starts a transition taken when `event` is sent while in S:
    /// `From<Running>().On(Jump).To<Jumping>()`. A state has one transition per event.
    [[nodiscard]] EventTransitionBuilder<Controller, Action, S, Edges...> On(const Event& event) && {
        return EventTransitionBuilder<Controller, Action, S, Edges...>(std::move(*this), event);
    }

    /// Starts a transition on typed event E (a class, sent as a value:
    /// `SendEvent(Hit{.damage = 30})`), taken when `guard`, bool(const
    /// Controller&, const E&), holds (no guard: always):
    /// `From<Idle>().On<Hit>([](const Hero&, const Hit& h) { return h.damage > 20; }).To<Hurt>()`.
    /// A state may have several, tried in the order written.
    template <class E, class G = detail::AnyPayload>
    [[nodiscard]] TypedEventBuilder<Controller, Action, S, E, std::decay_t<G>, Edges...> On(G&& guard = {}) && {
        static_assert(detail::TypedEventValue<E>,
                      "tickfsm: On<E>(): a typed event is a class sent as a value (SendEvent(Hit{...})); for a "
                      "named or enum event write On(event)");
        static_assert(std::is_same_v<std::decay_t<G>, detail::AnyPayload> ||
                          std::is_invocable_r_v<bool, const std::decay_t<G>&, const Controller&, const E&>,
                      "tickfsm: On<E>(guard): the guard is bool(const Controller&, const E&)");
        return TypedEventBuilder<Controller, Action, S, E, std::decay_t<G>, Edges...>(std::move(*this),
                                                                                    std::forward<G>(guard));
    }

    /// Adds an action to S's list: a copy of `X(args...)` per character, whose
    /// optional OnEnter, OnUpdate and OnExit run in list order after S's own
    /// OnStateEnter, Perform and OnStateExit. An action built with arguments
    /// gives this machine a private table.
    template <class X, class... Args>
    TransitionBuilder Do(Args&&... args) && {
        static_assert(detail::CheckAction<X, Controller, Action>());
        Manager& m = *manager;
        Configuration::CheckConfigurable(m.machine_seat, [] {
            return detail::MessageText(detail::Message::FromDoCall, detail::StateName<S>(), detail::TypeName<X>());
        });
        if constexpr (sizeof...(Args) == 0 && std::is_default_constructible_v<X>) {
            if (Configuration::Sharing(m.machine_seat) && token == m.OwnBlock()->node) {
                StepRecord step;
                step.key = detail::TypeKey<detail::DoStep<S, X>>();
                step.replay = &detail::ReplayDo<Controller, Action, S, X>;
                return TransitionBuilder(m, chain, Configuration::Step(m.machine_seat, step));
            }
        }
        detail::ManagerStorage<Controller, Action>::Detach(m.machine_seat);
        detail::ManagerStorage<Controller, Action>::ApplyPrivately(m.machine_seat, [&](MachineTable& table) {
            detail::ApplyDo<Controller, Action, S, X>(table, detail::MakeShared<const X>(std::forward<Args>(args)...));
        });
        return TransitionBuilder(m, chain, nullptr);
    }
    /// Do<X> for an action class template, its arguments deduced from `args`:
    /// `Do<tickfsm::SendEventWhen>(condition, event)`.
    template <template <class...> class X, class... Args>
    TransitionBuilder Do(Args&&... args) && {
        return std::move(*this).template Do<decltype(X(std::forward<Args>(args)...))>(std::forward<Args>(args)...);
    }

    template <class T, class F>
    void To(F&&) & {
        static_assert(detail::kAlwaysFalse<T, F>,
                      "tickfsm: chain To<...>() calls on the builder that From<S>()/SetInitialState<S>() or the "
                      "previous To returned, e.g. From<A>().To<B>(c1).To<C>(c2); a builder kept in a variable cannot "
                      "add transitions (call From<A>() again to append)");
    }
    template <class T>
    void To() & {
        static_assert(detail::kAlwaysFalse<T>,
                      "tickfsm: chain To<...>() calls on the builder that From<S>()/SetInitialState<S>() or the "
                      "previous To returned, e.g. From<A>().To<B>(c1).To<C>(c2); a builder kept in a variable cannot "
                      "add transitions (call From<A>() again to append)");
    }

private:
    using Manager = StateManager<Controller, Action>;
    using Configuration = detail::ManagerConfig<Controller, Action>;
    using StepRecord = detail::StepRecord;

    static constexpr const char* EdgeApi(unsigned flags) noexcept {
        if (flags & detail::kEdgePush) return "Push";
        if (flags & detail::kEdgePop) return "Pop";
        if (flags & detail::kEdgeWait) return "ToWhenDone";
        return (flags & detail::kEdgeForced) ? "ForceTo" : "To";
    }

    /// Names the condition of the last edge added (To(condition, name)): a
    /// step of its own, so the edge's own step stays what it was unnamed.
    TransitionBuilder Named(std::string_view name) && {
        static_assert(sizeof...(Edges) > 0);
        Manager& m = *manager;
        if (Configuration::Sharing(m.machine_seat) && token == m.OwnBlock()->node) {
            StepRecord step;
            step.key = detail::TypeKey<detail::ConditionNameStep<S>>();
            step.replay = &detail::ReplayConditionName<Controller, Action, S>;
            step.chain = chain;
            step.edge = sizeof...(Edges) - 1;
            step.name = Text(name);
            return TransitionBuilder(m, chain, Configuration::Step(m.machine_seat, step));
        }
        detail::ManagerStorage<Controller, Action>::Detach(m.machine_seat);
        detail::ApplyConditionName(*m.CurrentTable(), m.CurrentTable()->Find(detail::TypeKey<S>()), chain,
                                   sizeof...(Edges) - 1, name);
        return TransitionBuilder(m, chain, nullptr);
    }

    template <class T, unsigned kFlags, class F, class M>
    auto AddEdge(F&& condition, M&& make) && {
        using Maker = std::decay_t<M>;
        using Cond = std::decay_t<F>;
        static_assert(detail::CheckCondition<Cond, Controller, Action>());
        static_assert(detail::CheckState<T, Controller, Action>());
        using E = detail::Edge<T, Cond, kFlags, Maker>;
        using Next = TransitionBuilder<Controller, Action, S, Edges..., E>;
        constexpr bool kShareable =
            detail::kShareableCondition<Cond> && std::is_empty_v<Maker> && std::is_default_constructible_v<Maker>;
        static constexpr typename Configuration::EdgeCall kCall{
            &detail::StateName<S>,
            &detail::StateName<T>,
            EdgeApi(kFlags),
            &detail::TypeKeyHolder<S>::key,
            &detail::TypeKeyHolder<detail::Chain<Controller, Action, S, Edges...>>::key,
            &detail::TypeKeyHolder<detail::Chain<Controller, Action, S, Edges..., E>>::key,
            []() -> typename Configuration::Record::Replay {
                if constexpr (kShareable)
                    return &detail::ReplayTo<Controller, Action, S, T, Cond, kFlags, Maker, Edges...>;
                else
                    return nullptr;
            }(),
            (kFlags & (detail::kEdgePush | detail::kEdgePop)) != 0};
        void (*function)() = nullptr;
        if constexpr (detail::kIsFunctionPointer<Cond>) function = reinterpret_cast<void (*)()>(condition);
        Manager& m = *manager;
        if (const void* next = Configuration::BeginEdge(m.machine_seat, token, chain, kCall, function))
            return Next(m, chain, next);
        m.template AddStatePrivately<T>();
        detail::ApplyTo<Controller, Action, S, T, Cond, kFlags, Maker, Edges...>(
            *m.CurrentTable(), chain, Cond(std::forward<F>(condition)), Maker(std::forward<M>(make)));
        return Next(m, chain, nullptr);
    }


    friend Manager;
    using MachineTable = detail::KindTable<Controller, Action>;
    template <class, class, class, class...>
    friend class TransitionBuilder;
    template <class, class, class, class...>
    friend class EventTransitionBuilder;
    template <class, class, class, class, class, class...>
    friend class TypedEventBuilder;

    TransitionBuilder(Manager& m, std::size_t which, const void* position) noexcept
        : manager(&m), chain(which), token(position) {}

    Manager* manager;
    std::size_t chain;  // which of S's chains this builder extends
    const void* token;  // the machine's step position after this builder's last step (shared tables only)
};

/// Returned by `SetInitialState(key)` and `From(key)` of keyed states: the same
/// fluent transitions as TransitionBuilder, between keys. Conditions take the
/// same forms; they are called through a pointer (the states' classes are known
/// only at run time), so keyed machines tick on the general path.
template <class Controller, class Action>
class KeyedTransitionBuilder {
public:
    /// Adds the transition to the state of `key`, taken when `condition` holds.
    template <class K, class F>
        requires StateKey<K>
    KeyedTransitionBuilder To(K key, F&& condition) && {
        static_assert(detail::CheckCondition<std::decay_t<F>, Controller, Action>());
        Configuration::AddKeyedEdge(manager->machine_seat, from, chain, key, std::forward<F>(condition), false);
        return std::move(*this);
    }
    /// To(key, condition) with a name for the condition (see TransitionBuilder::To(condition, name)).
    template <class K, class F>
        requires StateKey<K>
    KeyedTransitionBuilder To(K key, F&& condition, std::string_view name) && {
        static_assert(detail::CheckCondition<std::decay_t<F>, Controller, Action>());
        Configuration::AddKeyedEdge(manager->machine_seat, from, chain, key, std::forward<F>(condition), false, name);
        return std::move(*this);
    }
    /// Adds the transition to the state of `key`, taken on the first tick it is tried.
    template <class K>
        requires StateKey<K>
    KeyedTransitionBuilder To(K key) && {
        return std::move(*this).To(key, detail::Always{});
    }
    /// Like To, but skipping the gates.
    template <class K, class F>
        requires StateKey<K>
    KeyedTransitionBuilder ForceTo(K key, F&& condition) && {
        static_assert(detail::CheckCondition<std::decay_t<F>, Controller, Action>());
        Configuration::AddKeyedEdge(manager->machine_seat, from, chain, key, std::forward<F>(condition), true);
        return std::move(*this);
    }
    /// `On(event).To(key)`: the transition taken when `event` is sent.
    struct EventTarget {
        KeyedTransitionBuilder builder;
        Event event;
        template <class K>
            requires StateKey<K>
        KeyedTransitionBuilder To(K key) && {
            Configuration::AddKeyedEvent(builder.manager->machine_seat, builder.from, event, key);
            return std::move(builder);
        }
    };
    [[nodiscard]] EventTarget On(const Event& event) && { return EventTarget{std::move(*this), event}; }
    /// Adds an action to this state's list (see TransitionBuilder::Do).
    template <class X, class... Args>
    KeyedTransitionBuilder Do(Args&&... args) && {
        static_assert(detail::CheckAction<X, Controller, Action>());
        Configuration::template AddKeyedAction<X>(manager->machine_seat, from, std::forward<Args>(args)...);
        return std::move(*this);
    }
    /// Do<X> with X's arguments deduced from `args` (see TransitionBuilder::Do).
    template <template <class...> class X, class... Args>
    KeyedTransitionBuilder Do(Args&&... args) && {
        return std::move(*this).template Do<decltype(X(std::forward<Args>(args)...))>(std::forward<Args>(args)...);
    }

private:
    friend class StateManager<Controller, Action>;
    using Configuration = detail::ManagerConfig<Controller, Action>;
    KeyedTransitionBuilder(StateManager<Controller, Action>& m, detail::StateIndex state, std::size_t which) noexcept
        : manager(&m), from(state), chain(which) {}
    StateManager<Controller, Action>* manager;
    detail::StateIndex from;
    std::size_t chain;
};

namespace detail {
/// The hooks of a delegate state: lambdas, each called through one pointer.
template <class C, class A>
struct DelegateHooks {
    struct Hook {
        void (*call)(const void* f, C&, const A&, Machine<C, A>&) = nullptr;
        detail::Shared<const void> f;
    };
    struct Gate {
        bool (*call)(const void* f, const C&, const StateRef&) = nullptr;
        detail::Shared<const void> f;
    };
    Hook enter, perform, exit;
    Gate can_enter, can_exit;
};

/// A state made of lambdas (Animancer's DelegateState); each character holds a
/// pointer to the shared hooks.
template <class C, class A>
struct DelegateState {
    detail::Shared<const DelegateHooks<C, A>> hooks;
    void OnStateEnter(C& c, const A& a, Machine<C, A>& m) {
        if (hooks->enter.call) hooks->enter.call(hooks->enter.f.get(), c, a, m);
    }
    void Perform(C& c, const A& a, Machine<C, A>& m) {
        if (hooks->perform.call) hooks->perform.call(hooks->perform.f.get(), c, a, m);
    }
    void OnStateExit(C& c, const A& a, Machine<C, A>& m) {
        if (hooks->exit.call) hooks->exit.call(hooks->exit.f.get(), c, a, m);
    }
    bool CanEnterState(const C& c, const StateRef& from) const {
        return !hooks->can_enter.call || hooks->can_enter.call(hooks->can_enter.f.get(), c, from);
    }
    bool CanExitState(const C& c, const StateRef& to) const {
        return !hooks->can_exit.call || hooks->can_exit.call(hooks->can_exit.f.get(), c, to);
    }
    // Its one member is the configuration's hooks, the same in every
    // character: a snapshot has nothing of it to keep.
    void Save(SnapshotWriter&) const {}
    void Load(SnapshotReader&) {}
};
} // namespace detail

/// Returned by AddDelegateState: give the state's hooks as lambdas. Each hook
/// takes (Controller&, const Action&) or (Controller&, const Action&,
/// tickfsm::Machine<Controller, Action>&); each gate (const Controller&, const
/// tickfsm::StateRef&) and returns bool.
template <class Controller, class Action>
class DelegateBuilder {
public:
    // Each is configuration: after the machine's first Perform, a ConfigError.
    template <class F>
    DelegateBuilder& OnEnter(F&& f) { Check("OnEnter"); Set(hooks->enter, std::forward<F>(f)); return *this; }
    template <class F>
    DelegateBuilder& Perform(F&& f) { Check("Perform"); Set(hooks->perform, std::forward<F>(f)); return *this; }
    template <class F>
    DelegateBuilder& OnExit(F&& f) { Check("OnExit"); Set(hooks->exit, std::forward<F>(f)); return *this; }
    template <class F>
    DelegateBuilder& CanEnter(F&& f) {
        Check("CanEnter");
        SetGate(hooks->can_enter, std::forward<F>(f));
        Gates(true, false);
        return *this;
    }
    template <class F>
    DelegateBuilder& CanExit(F&& f) {
        Check("CanExit");
        SetGate(hooks->can_exit, std::forward<F>(f));
        Gates(false, true);
        return *this;
    }

private:
    friend class StateManager<Controller, Action>;
    using Hooks = detail::DelegateHooks<Controller, Action>;
    using Meta = detail::StateMeta<detail::AnyController, detail::AnyAction>;
    DelegateBuilder(detail::Shared<Hooks> shared, StateManager<Controller, Action>& owner, detail::StateIndex id)
        : hooks(std::move(shared)), manager(&owner), state(id) {
        // A delegate state's class has both gates; the table counts a gate
        // only once CanEnter or CanExit gives one, so that a state without
        // them is not "gated" to validation, pictures and the fast paths.
        detail::ManagerStorage<Controller, Action>::ApplyPrivately(manager->machine_seat, [&](auto& table) {
            Meta& meta = table.meta[state];
            meta.can_enter = nullptr;
            meta.can_exit = nullptr;
        });
    }

    /// Counts the gate just given in the table.
    void Gates(bool enter, bool exit) {
        using Delegate = detail::DelegateState<Controller, Action>;
        detail::ManagerStorage<Controller, Action>::ApplyPrivately(manager->machine_seat, [&](auto& table) {
            Meta& meta = table.meta[state];
            if (enter) meta.can_enter = &detail::CanEnterGate<Controller, Delegate>;
            if (exit) meta.can_exit = &detail::CanExitGate<Controller, Delegate>;
            table.finalized = false;
        });
    }

    void Check(const char* hook) const {
        detail::ManagerConfig<Controller, Action>::CheckConfigurable(
            manager->machine_seat, [hook] { return detail::MessageText(detail::Message::DelegateHookCall, hook); });
    }

    template <class F>
    static void Set(typename Hooks::Hook& hook, F&& f) {
        using Fn = std::decay_t<F>;
        static_assert(std::is_invocable_v<const Fn&, Controller&, const Action&, Machine<Controller, Action>&> ||
                          std::is_invocable_v<const Fn&, Controller&, const Action&>,
                      "tickfsm: a delegate state's hook takes (Controller&, const Action&) or (Controller&, const "
                      "Action&, tickfsm::Machine<Controller, Action>&)");
        hook.f = detail::MakeShared<const Fn>(std::forward<F>(f));
        hook.call = [](const void* p, Controller& c, const Action& a, Machine<Controller, Action>& m) {
            const Fn& fn = *static_cast<const Fn*>(p);
            if constexpr (std::is_invocable_v<const Fn&, Controller&, const Action&, Machine<Controller, Action>&>)
                fn(c, a, m);
            else
                fn(c, a);
        };
    }
    template <class F>
    static void SetGate(typename Hooks::Gate& gate, F&& f) {
        using Fn = std::decay_t<F>;
        static_assert(std::is_invocable_r_v<bool, const Fn&, const Controller&, const StateRef&>,
                      "tickfsm: a delegate state's gate is bool(const Controller&, const tickfsm::StateRef&)");
        gate.f = detail::MakeShared<const Fn>(std::forward<F>(f));
        gate.call = [](const void* p, const Controller& c, const StateRef& r) {
            return static_cast<bool>((*static_cast<const Fn*>(p))(c, r));
        };
    }

    detail::Shared<Hooks> hooks;
    StateManager<Controller, Action>* manager;
    detail::StateIndex state;
};

} // namespace tickfsm
