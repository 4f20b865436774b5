#pragma once
// The types a compile-time machine (static_machine.hpp) is built from: its
// chains of transitions as type lists, the checks of its states and
// conditions, and the storage of its states' objects.

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

template <class List, class T>
struct AppendUnique;
template <class... Ts, class T>
struct AppendUnique<TypeList<Ts...>, T> {
    using type = std::conditional_t<(std::is_same_v<T, Ts> || ...), TypeList<Ts...>, TypeList<Ts..., T>>;
};

template <class List, class... Ts>
struct AppendAllUnique {
    using type = List;
};
template <class List, class T, class... Rest>
struct AppendAllUnique<List, T, Rest...> {
    using type = typename AppendAllUnique<typename AppendUnique<List, T>::type, Rest...>::type;
};

/// The states a list of chains names, in order of first appearance.
template <class List, class... Chains>
struct CollectStates {
    using type = List;
};
template <class List, class S, class... Edges, class... Rest>
struct CollectStates<List, StaticChain<S, Edges...>, Rest...> {
    using type = typename CollectStates<typename AppendAllUnique<List, S, typename Edges::Target...>::type,
                                        Rest...>::type;
};

template <class T, class... Ts>
consteval std::size_t IndexIn(TypeList<Ts...>) {
    constexpr std::array<bool, sizeof...(Ts)> same{std::is_same_v<T, Ts>...};
    for (std::size_t i = 0; i < same.size(); ++i)
        if (same[i]) return i;
    return sizeof...(Ts);
}

template <std::size_t I, class List>
struct TypeAt;
template <std::size_t I, class T, class... Ts>
struct TypeAt<I, TypeList<T, Ts...>> : TypeAt<I - 1, TypeList<Ts...>> {};
template <class T, class... Ts>
struct TypeAt<0, TypeList<T, Ts...>> {
    using type = T;
};

/// The chain whose source is S, or an empty one.
template <class S, class... Chains>
struct ChainFrom {
    using type = StaticChain<S>;
};
template <class S, class Chain, class... Rest>
struct ChainFrom<S, Chain, Rest...> {
    using type = std::conditional_t<std::is_same_v<typename Chain::From, S>, Chain,
                                    typename ChainFrom<S, Rest...>::type>;
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

} // namespace tickfsm::detail
