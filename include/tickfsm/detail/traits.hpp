#pragma once
// Compile-time detection of state hooks and condition forms, with the
// static_assert messages a user sees when a signature does not fit.

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../state_ref.hpp"
#include "type_name.hpp"

namespace tickfsm {
template <class Controller, class Action>
class Machine;
} // namespace tickfsm

namespace tickfsm::detail {

template <class...>
inline constexpr bool kAlwaysFalse = false;

/// Type I of a pack. One class derives from every (index, type) pair and
/// overload resolution picks pair I: a lookup instantiates one class per
/// pack, where a recursion would instantiate one per step and per index (and
/// std::tuple_element would need <tuple>, which every user's file would parse).
template <std::size_t I, class T>
struct Indexed {
    using type = T;
};
template <class Indices, class... Ts>
struct IndexedPack;
template <std::size_t... I, class... Ts>
struct IndexedPack<std::index_sequence<I...>, Ts...> : Indexed<I, Ts>... {};
template <std::size_t I, class T>
Indexed<I, T> PickIndexed(const Indexed<I, T>*); // only named in decltype
template <std::size_t I, class... Ts>
using PackAt = typename decltype(PickIndexed<I>(
    static_cast<const IndexedPack<std::index_sequence_for<Ts...>, Ts...>*>(nullptr)))::type;

// --- state names -----------------------------------------------------------

template <class S>
concept HasStaticName = requires {
    { S::Name } -> std::convertible_to<std::string_view>;
};

/// A state's `static constexpr std::string_view Name` if it has one, else its
/// unqualified class name.
template <class S>
constexpr std::string_view StateName() noexcept {
    if constexpr (HasStaticName<S>) return std::string_view(S::Name);
    else return TypeName<S>();
}

// --- hook detection ----------------------------------------------------------
// A state may leave out any hook. A member that has a hook's name but not its
// signature is an error, not a hook silently skipped: we find the name with
// the ambiguity trick (a class deriving from S and from a class that declares
// the name cannot take its address iff S declares it too), so overloads and
// templates with the name are found as well.
//
// Each Check*() fires its static_assert and then returns true, so that the
// caller's static_assert(Check*()) adds no second, message-less error; the
// Call*() helpers skip a hook or condition that does not fit, so nothing
// else fails. Only a type that cannot be used at all returns false.

struct HookNameProbe {
    void OnStateEnter();
    void Perform();
    void OnStateExit();
    void OnStatePause();
    void OnStateResume();
    void OnStateInit();
    void OnEnter();
    void OnUpdate();
    void OnExit();
    void CanEnterState();
    void CanExitState();
};

template <class S>
struct HookNameDetector : S, HookNameProbe {};

// A hook takes (Controller&, const Action&), or that and the machine handle
// (tickfsm::Machine<Controller, Action>&) through which it can send events,
// request its successor or read its time in state.
#define TICKFSM_DETAIL_HOOK_TRAITS(Hook, What)                                                          \
    template <class S>                                                                                  \
    consteval bool Declares##Hook() {                                                                   \
        if constexpr (std::is_final_v<S>) return requires { &S::Hook; };                                \
        else return !requires { &HookNameDetector<S>::Hook; };                                          \
    }                                                                                                   \
    template <class S, class C, class A>                                                                \
    concept Has##Hook = requires(S& s, C& c, const A& a) { s.Hook(c, a); };                             \
    template <class S, class C, class A>                                                                \
    concept Has##Hook##M = requires(S& s, C& c, const A& a, ::tickfsm::Machine<C, A>& m) { s.Hook(c, a, m); }; \
    template <class S>                                                                                  \
    struct HookHasABadlyTyped_##Hook {                                                                \
        static_assert(kAlwaysFalse<S>, "tickfsm: " #What " hook " #Hook                                 \
                      " has the wrong signature (the " #What " is the type in HookHasABadlyTyped_" #Hook \
                      "<...> above); expected `void " #Hook "(Controller&, const Action&)` or `void " #Hook \
                      "(Controller&, const Action&, tickfsm::Machine<Controller, Action>&)`; rename the "       \
                      "member if it is not a hook");                                                    \
    };                                                                                                  \
    template <class S, class C, class A>                                                                \
    consteval bool Check##Hook() {                                                                      \
        if constexpr (Declares##Hook<S>() && !Has##Hook<S, C, A> && !Has##Hook##M<S, C, A>) {           \
            (void)sizeof(HookHasABadlyTyped_##Hook<S>);                                               \
            return true;                                                                               \
        }                                                                                               \
        return true;                                                                                    \
    }                                                                                                   \
    template <class S, class C, class A, class M>                                                       \
    [[gnu::always_inline]] inline void Call##Hook(S& s, C& c, const A& a, M&& make_machine) {           \
        if constexpr (Has##Hook##M<S, C, A>) {                                                          \
            auto m = make_machine();                                                                    \
            s.Hook(c, a, m);                                                                            \
        } else if constexpr (Has##Hook<S, C, A>) {                                                      \
            s.Hook(c, a);                                                                               \
        }                                                                                               \
    }

TICKFSM_DETAIL_HOOK_TRAITS(OnStateEnter, state)
TICKFSM_DETAIL_HOOK_TRAITS(Perform, state)
TICKFSM_DETAIL_HOOK_TRAITS(OnStateExit, state)
TICKFSM_DETAIL_HOOK_TRAITS(OnStatePause, state)
TICKFSM_DETAIL_HOOK_TRAITS(OnStateResume, state)
TICKFSM_DETAIL_HOOK_TRAITS(OnEnter, action)
TICKFSM_DETAIL_HOOK_TRAITS(OnUpdate, action)
TICKFSM_DETAIL_HOOK_TRAITS(OnExit, action)
#undef TICKFSM_DETAIL_HOOK_TRAITS

// OnStateInit(Controller&): once per state when the machine initializes.
template <class S>
consteval bool DeclaresOnStateInit() {
    if constexpr (std::is_final_v<S>) return requires { &S::OnStateInit; };
    else return !requires { &HookNameDetector<S>::OnStateInit; };
}
template <class S, class C>
concept HasOnStateInit = requires(S& s, C& c) { s.OnStateInit(c); };
template <class S>
struct StateHasABadlyTyped_OnStateInit {
    static_assert(kAlwaysFalse<S>, "tickfsm: state hook OnStateInit has the wrong signature (the state is the type "
                                   "in StateHasABadlyTyped_OnStateInit<...> above); expected `void "
                                   "OnStateInit(Controller&)`; rename the member if it is not a hook");
};
template <class S, class C>
consteval bool CheckOnStateInit() {
    if constexpr (DeclaresOnStateInit<S>() && !HasOnStateInit<S, C>) {
        (void)sizeof(StateHasABadlyTyped_OnStateInit<S>);
        return true;
    }
    return true;
}

// Gates: bool CanEnterState(const Controller&, const tickfsm::StateRef& from)
// and bool CanExitState(const Controller&, const tickfsm::StateRef& to).
#define TICKFSM_DETAIL_GATE_TRAITS(Gate, Other)                                                               \
    template <class S>                                                                                        \
    consteval bool Declares##Gate() {                                                                         \
        if constexpr (std::is_final_v<S>) return requires { &S::Gate; };                                      \
        else return !requires { &HookNameDetector<S>::Gate; };                                                \
    }                                                                                                         \
    template <class S, class C>                                                                               \
    concept Has##Gate = requires(S& s, const C& c, const ::tickfsm::StateRef& r) {                            \
        { s.Gate(c, r) } -> std::convertible_to<bool>;                                                        \
    };                                                                                                        \
    template <class S>                                                                                        \
    struct HookHasABadlyTyped_##Gate {                                                                        \
        static_assert(kAlwaysFalse<S>, "tickfsm: state gate " #Gate " has the wrong signature (the state is the " \
                                       "type in HookHasABadlyTyped_" #Gate "<...> above); expected `bool " #Gate \
                                       "(const Controller&, const tickfsm::StateRef& " #Other ")`");           \
    };                                                                                                        \
    template <class S, class C>                                                                               \
    consteval bool Check##Gate() {                                                                            \
        if constexpr (Declares##Gate<S>() && !Has##Gate<S, C>) {                                              \
            (void)sizeof(HookHasABadlyTyped_##Gate<S>);                                                       \
            return true;                                                                                     \
        }                                                                                                     \
        return true;                                                                                          \
    }

TICKFSM_DETAIL_GATE_TRAITS(CanEnterState, from)
TICKFSM_DETAIL_GATE_TRAITS(CanExitState, to)
#undef TICKFSM_DETAIL_GATE_TRAITS

/// A state whose hooks take the machine handle runs on the general tick path.
template <class S, class C, class A>
inline constexpr bool kTakesMachine =
    HasOnStateEnterM<S, C, A> || HasPerformM<S, C, A> || HasOnStateExitM<S, C, A>;

template <class S>
struct StateMustBeAClassType {
    static_assert(kAlwaysFalse<S>, "tickfsm: a state must be a class type (struct or class), not the type in "
                                   "StateMustBeAClassType<...> above; declare `struct MyState { ... };`");
};

template <class S>
struct StateMustBeDefaultConstructible {
    static_assert(kAlwaysFalse<S>, "tickfsm: a state must be default-constructible (the type in "
                                   "StateMustBeDefaultConstructible<...> above); give it a default constructor");
};

template <class S>
struct StateHasAnActionHook {
    static_assert(kAlwaysFalse<S>, "tickfsm: the state in StateHasAnActionHook<...> above has a member OnEnter, "
                                   "OnUpdate or OnExit that fits an action's hook, which a state never calls: a "
                                   "state's hooks are OnStateEnter, Perform and OnStateExit; rename it, or attach "
                                   "the class to a state as an action with From<S>().Do<X>()");
};
template <class X>
struct ActionHasAStateHook {
    static_assert(kAlwaysFalse<X>, "tickfsm: the action in ActionHasAStateHook<...> above has a member "
                                   "OnStateEnter, Perform or OnStateExit that fits a state's hook, which an action "
                                   "never calls: an action's hooks are OnEnter, OnUpdate and OnExit; rename it");
};
/// A hook of the other kind (an action's on a state, a state's on an action)
/// with a signature that fits: a mix-up that would otherwise be silent.
template <class S, class C, class A>
inline constexpr bool kHasActionHooks = HasOnEnter<S, C, A> || HasOnEnterM<S, C, A> || HasOnUpdate<S, C, A> ||
                                        HasOnUpdateM<S, C, A> || HasOnExit<S, C, A> || HasOnExitM<S, C, A>;
template <class X, class C, class A>
inline constexpr bool kHasStateHooks = HasOnStateEnter<X, C, A> || HasOnStateEnterM<X, C, A> ||
                                       HasPerform<X, C, A> || HasPerformM<X, C, A> || HasOnStateExit<X, C, A> ||
                                       HasOnStateExitM<X, C, A>;

/// Every compile-time check of a state type; instantiating it fires the
/// matching static_assert, each naming the state.
template <class S, class C, class A>
consteval bool CheckState() {
    if constexpr (!std::is_class_v<S>) {
        (void)sizeof(StateMustBeAClassType<S>);
        return false; // the type cannot be used at all: stop here
    } else if constexpr (!std::is_default_constructible_v<S>) {
        (void)sizeof(StateMustBeDefaultConstructible<S>);
        return false; // the type cannot be used at all: stop here
    } else if constexpr (kHasActionHooks<S, C, A>) {
        (void)sizeof(StateHasAnActionHook<S>);
        return true;
    } else {
        return CheckOnStateEnter<S, C, A>() && CheckPerform<S, C, A>() && CheckOnStateExit<S, C, A>() &&
               CheckOnStatePause<S, C, A>() && CheckOnStateResume<S, C, A>() &&
               CheckOnStateInit<S, C>() && CheckCanEnterState<S, C>() && CheckCanExitState<S, C>();
    }
}

template <class X>
struct ActionMustBeACopyableClass {
    static_assert(kAlwaysFalse<X>, "tickfsm: a state action must be a copy-constructible class (the type in "
                                   "ActionMustBeACopyableClass<...> above): each character gets a copy of the one "
                                   "Do<X>(args...) built");
};

/// Every compile-time check of a state action type.
template <class X, class C, class A>
consteval bool CheckAction() {
    if constexpr (!std::is_class_v<X> || !std::is_copy_constructible_v<X>) {
        (void)sizeof(ActionMustBeACopyableClass<X>);
        return false; // the type cannot be used at all: stop here
    } else if constexpr (kHasStateHooks<X, C, A>) {
        (void)sizeof(ActionHasAStateHook<X>);
        return true;
    } else {
        return CheckOnEnter<X, C, A>() && CheckOnUpdate<X, C, A>() && CheckOnExit<X, C, A>();
    }
}

// The fast tick path only ever runs states whose hooks take no machine handle.
template <class S, class C, class A>
[[gnu::always_inline]] inline void CallEnter(S& s, C& c, const A& a) {
    if constexpr (HasOnStateEnter<S, C, A>) s.OnStateEnter(c, a);
}
template <class S, class C, class A>
[[gnu::always_inline]] inline void CallPerform(S& s, C& c, const A& a) {
    if constexpr (HasPerform<S, C, A>) s.Perform(c, a);
}
template <class S, class C, class A>
[[gnu::always_inline]] inline void CallExit(S& s, C& c, const A& a) {
    if constexpr (HasOnStateExit<S, C, A>) s.OnStateExit(c, a);
}

/// OnEvent(Controller&, const E&): a state's handler of typed event E.
template <class S, class C, class E>
concept HasOnEvent = requires(S& s, C& c, const E& e) { s.OnEvent(c, e); };
/// An OnEvent that takes E in a form the payload is never delivered to (with
/// the Machine& handle, without the controller, or E by non-const reference):
/// a mistake that would otherwise be silent.
template <class S, class C, class A, class E>
concept HasMisfitOnEvent =
    !HasOnEvent<S, C, E> && (requires(S& s, C& c, const E& e, ::tickfsm::Machine<C, A>& m) { s.OnEvent(c, e, m); } ||
                             requires(S& s, const E& e) { s.OnEvent(e); } || requires(S& s, C& c, E& e) { s.OnEvent(c, e); });

// --- conditions ----------------------------------------------------------------

template <class F, class C, class A>
concept ConditionFull = std::is_invocable_r_v<bool, const F&, const C&, const A&, float>;
template <class F, class C, class A>
concept ConditionCA = std::is_invocable_r_v<bool, const F&, const C&, const A&>;
template <class F, class C>
concept ConditionC = std::is_invocable_r_v<bool, const F&, const C&>;
template <class F>
concept ConditionNone = std::is_invocable_r_v<bool, const F&>;

/// Any of the four accepted condition forms.
template <class F, class C, class A>
concept Condition = ConditionFull<F, C, A> || ConditionCA<F, C, A> || ConditionC<F, C> || ConditionNone<F>;

template <class F>
struct ConditionHasTheWrongSignature {
    static_assert(kAlwaysFalse<F>,
                  "tickfsm: a transition condition must be callable as bool(const Controller&, const Action&, float "
                  "timeInState), bool(const Controller&, const Action&), bool(const Controller&) or bool(), and "
                  "callable on a const object (no `mutable` lambda); a parameter taken by non-const reference "
                  "does not fit: take it by const reference; the condition is the type in "
                  "ConditionHasTheWrongSignature<...> above");
};

template <class F, class C, class A>
consteval bool CheckCondition() {
    if constexpr (!Condition<F, C, A>) {
        (void)sizeof(ConditionHasTheWrongSignature<F>);
        return true;
    }
    return true;
}

template <class F, class C, class A>
[[gnu::always_inline]] inline bool CallCondition(const F& f, const C& c, const A& a, float t) {
    if constexpr (ConditionFull<F, C, A>) return static_cast<bool>(f(c, a, t));
    else if constexpr (ConditionCA<F, C, A>) return static_cast<bool>(f(c, a));
    else if constexpr (ConditionC<F, C>) return static_cast<bool>(f(c));
    else if constexpr (ConditionNone<F>) return static_cast<bool>(f());
    else return false; // unreachable: CheckCondition already failed, keep the error list short
}

/// The condition of `To<T>()` without an argument.
struct Always {
    constexpr bool operator()() const noexcept { return true; }
};

/// How StateManager::Configure writes out a compile-time machine's
/// transitions: specialized for StaticTransitions in detail/static_tree.hpp,
/// which a file includes when it includes both state_manager.hpp and
/// static_machine.hpp.
template <class Transitions>
struct StaticReplay;
/// What StaticReplay calls on a StateManager, one chain or parent at a time:
/// not a member of StaticReplay, whose arguments name the whole table (see
/// StaticStep in static_machine.hpp). Befriended by StateManager.
struct StaticReplayAccess;
template <class T>
concept ReplayableTransitions = requires { StaticReplay<T>::kReplayable; };

} // namespace tickfsm::detail
