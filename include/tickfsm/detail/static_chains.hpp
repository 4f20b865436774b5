#pragma once
// The types a compile-time machine (static_machine.hpp) is built from: its
// chains of transitions as type lists, its SetSubstates, the checks of its
// states and conditions, and the storage of its states' objects.

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "traits.hpp"

namespace tickfsm::detail {

template <class... Ts>
struct TypeList {};

/// Transition to T when a default-constructed F holds.
template <class T, class F>
struct StaticEdge {
    using Target = T;
    using Condition = F;
};

/// The transitions of state S, in the order they are tried.
template <class S, class... Edges>
struct StaticChain {
    using From = S;
};

template <class Chain, class Edge>
struct AppendEdge;
template <class S, class... Edges, class Edge>
struct AppendEdge<StaticChain<S, Edges...>, Edge> {
    using type = StaticChain<S, Edges..., Edge>;
};

/// The states met so far (see CollectStates): `+ std::type_identity<T>`
/// appends T if it is new, `+ chain` appends the chain's source, then its
/// targets. Folds rather than recursions, so that no step copies the rest of
/// the list into a new instantiation.
template <class List>
struct StatesSoFar {
    using type = List;
};
template <class... Ts, class T>
auto operator+(StatesSoFar<TypeList<Ts...>>, std::type_identity<T>)
    -> StatesSoFar<std::conditional_t<(std::is_same_v<T, Ts> || ...), TypeList<Ts...>, TypeList<Ts..., T>>>;
template <class List, class S, class... Edges>
auto operator+(StatesSoFar<List>, StaticChain<S, Edges...>)
    -> decltype(((StatesSoFar<List>{} + std::type_identity<S>{}) + ... +
                 std::type_identity<typename Edges::Target>{}));

/// The states a list of chains names, in order of first appearance.
template <class List, class... Chains>
struct CollectStates {
    using type = typename decltype((StatesSoFar<List>{} + ... + Chains{}))::type;
};

template <class T, class... Ts>
consteval std::size_t IndexIn(TypeList<Ts...>) {
    constexpr std::array<bool, sizeof...(Ts)> same{std::is_same_v<T, Ts>...};
    for (std::size_t i = 0; i < same.size(); ++i)
        if (same[i]) return i;
    return sizeof...(Ts);
}

/// Type I of a list (see PackAt).
template <std::size_t I, class List>
struct TypeAt;
template <std::size_t I, class... Ts>
struct TypeAt<I, TypeList<Ts...>> {
    using type = PackAt<I, Ts...>;
};

/// The chain whose source is S, or an empty one. As TypeAt: one class
/// derives from every chain keyed by its source (each state has at most one
/// chain, which StaticTransitions::From checks), and overload resolution
/// picks S's, or the fallback, a worse conversion, if S has none.
template <class S, class Chain>
struct ChainKeyed {};
template <class... Chains>
struct ChainsByFrom : ChainKeyed<typename Chains::From, Chains>... {};
template <class S, class Chain>
Chain PickChain(const ChainKeyed<S, Chain>*); // only named in decltype
template <class S>
StaticChain<S> PickChain(const void*);

template <class S, class... Chains>
struct ChainFrom {
    using type = decltype(PickChain<S>(static_cast<const ChainsByFrom<Chains...>*>(nullptr)));
};

template <class S>
struct StaticStateMayNotTakeTheMachine {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: a state of a compile-time machine (the type in StaticStateMayNotTakeTheMachine<...> "
                  "above) has a hook taking tickfsm::Machine<Controller, Action>&; a compile-time machine has no "
                  "events or NextState to reach: drop that parameter, or run the state in a StateManager");
};
template <class S>
struct StaticStateMayNotHaveGates {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: a state of a compile-time machine (the type in StaticStateMayNotHaveGates<...> above) "
                  "declares CanEnterState or CanExitState; compile-time machines do not ask gates, so they would be "
                  "ignored: fold the gate into the transitions' conditions, or run the state in a StateManager");
};

/// Every check of a state of a compile-time machine.
template <class S, class C, class A>
consteval bool CheckStaticState() {
    if constexpr (!CheckState<S, C, A>()) {
        return false;
    } else if constexpr (kTakesMachine<S, C, A>) {
        (void)sizeof(StaticStateMayNotTakeTheMachine<S>);
        return false;
    } else if constexpr (DeclaresCanEnterState<S>() || DeclaresCanExitState<S>()) {
        (void)sizeof(StaticStateMayNotHaveGates<S>);
        return false;
    }
    return true;
}

template <class F>
struct StaticConditionMustBeEmpty {
    static_assert(kAlwaysFalse<F>,
                  "tickfsm: a condition of a compile-time machine (the type in StaticConditionMustBeEmpty<...> "
                  "above) must be a captureless lambda or an empty, default-constructible function object: the "
                  "machine rebuilds it from its type. Wrap a function in a lambda "
                  "([](const Controller& c, const Action& a, float t) { return Fn(c, a, t); }) and reach "
                  "per-character data through the controller");
};

template <class F, class C, class A>
consteval bool CheckStaticCondition() {
    if constexpr (!CheckCondition<F, C, A>()) {
        return false;
    } else if constexpr (!std::is_empty_v<F> || !std::is_default_constructible_v<F>) {
        (void)sizeof(StaticConditionMustBeEmpty<F>);
        return false;
    }
    return true;
}

template <class S>
struct FromAppearsTwice {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: Transitions: From<S>() appears twice for the state in FromAppearsTwice<...> above; a "
                  "compile-time machine takes each state's transitions in one chain (tried in the order written): "
                  "merge the two chains");
};

/// One state's object per state, per character; states without data take no room.
template <std::size_t I, class S>
struct StaticStateSlot {
    [[no_unique_address]] S state{};
};
template <class Indices, class States>
struct StaticStorageOf;
template <std::size_t... I, class... S>
struct StaticStorageOf<std::index_sequence<I...>, TypeList<S...>> {
    struct type : StaticStateSlot<I, S>... {};
};

/// SetSubstates<Parent, Initial, Others...>() in a constant.
template <class Parent, class... Children>
struct StaticSubstates {
    using ParentType = Parent;
};

/// What a constant's chains say: its states, and the chain of each.
template <class Chains>
struct StaticTableFacts;
template <class... Chains>
struct StaticTableFacts<TypeList<Chains...>> {
    using States = typename CollectStates<TypeList<>, Chains...>::type;
    template <class S>
    using ChainOf = typename ChainFrom<S, Chains...>::type;
};

} // namespace tickfsm::detail

namespace tickfsm {

/// The transitions of a compile-time machine, written as a StateManager's
/// constructor writes them: `SetInitialState<S>()`, then `To<T>(condition)`
/// for each of S's transitions in the order they are tried, then
/// `From<S2>()` for the next state. Each call returns a new type; a constant
/// of the last one is the machine (see StaticStateManager and StaticCrowd).
/// Start from `tickfsm::Transitions<Controller, Action>()`.
template <class Controller, class Action, class Initial, class Done, class Current,
          class Tree = detail::TypeList<>>
class StaticTransitions;

} // namespace tickfsm
