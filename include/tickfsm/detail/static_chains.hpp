#pragma once
// The types a compile-time machine (static_machine.hpp) is built from: its
// chains of transitions as type lists, its SetSubstates and the paths and
// changes of its tree, the checks of its states, conditions and tree, and
// the storage of its states' objects.

#include <array>
#include <cstddef>
#include <cstdint>
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
template <class Known>
struct StatesSoFar {
    using type = Known;
};
template <class... Ts, class T>
auto operator+(StatesSoFar<TypeList<Ts...>>, std::type_identity<T>)
    -> StatesSoFar<std::conditional_t<(std::is_same_v<T, Ts> || ...), TypeList<Ts...>, TypeList<Ts..., T>>>;
template <class Known, class S, class... Edges>
auto operator+(StatesSoFar<Known>, StaticChain<S, Edges...>)
    -> decltype(((StatesSoFar<Known>{} + std::type_identity<S>{}) + ... +
                 std::type_identity<typename Edges::Target>{}));

/// The states a list of chains names, in order of first appearance.
template <class Known, class... Chains>
struct CollectStates {
    using type = typename decltype((StatesSoFar<Known>{} + ... + Chains{}))::type;
};

/// Known, then the states a TypeList of chains names that Known lacks.
template <class Known, class ChainList>
struct StaticChainStates;
template <class Known, class... Chains>
struct StaticChainStates<Known, TypeList<Chains...>> {
    using type = typename CollectStates<Known, Chains...>::type;
};

template <class T, class... Ts>
consteval std::size_t IndexIn(TypeList<Ts...>) {
    constexpr std::array<bool, sizeof...(Ts)> same{std::is_same_v<T, Ts>...};
    for (std::size_t i = 0; i < same.size(); ++i)
        if (same[i]) return i;
    return sizeof...(Ts);
}

/// Type I of a list (see PackAt).
template <std::size_t I, class Known>
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
                  "events or NextState to reach: drop that parameter, or leave the state out of the constant and give "
                  "it its transitions with the builder (From<S>()...) in a StateManager, after Configure if you "
                  "use one");
};
template <class S>
struct StaticStateMayNotHaveGates {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: a state of a compile-time machine (the type in StaticStateMayNotHaveGates<...> above) "
                  "declares CanEnterState or CanExitState; compile-time machines do not ask gates, so they would be "
                  "ignored: fold the gate into the transitions' conditions, or leave the state out of the constant "
                  "and give it its transitions with the builder (From<S>()...) in a StateManager, after Configure "
                  "if you use one");
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
/// State T's object in a character's storage of the states St...
template <class T, class... St, class Storage>
[[gnu::always_inline]] inline T& StaticObject(TypeList<St...>, Storage& d) noexcept {
    return static_cast<StaticStateSlot<IndexIn<T>(TypeList<St...>{}), T>&>(d).state;
}

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

// --- the tree of a constant that nests states --------------------------------

/// How deep a tree may nest (tree.hpp's kMaxDepth): a longer path is a loop.
inline constexpr std::size_t kStaticMaxDepth = 16;

/// The states a tree names (each parent, then its children), appended to
/// Known in order of first appearance.
template <class Known, class... Nodes>
struct TreeStates {
    using type = Known;
};
template <class Known, class P, class... Ch, class... More>
struct TreeStates<Known, StaticSubstates<P, Ch...>, More...> {
    using Here = typename decltype(((StatesSoFar<Known>{} + std::type_identity<P>{}) + ... +
                                    std::type_identity<Ch>{}))::type;
    using type = typename TreeStates<Here, More...>::type;
};

/// S's parent in a constant's tree, or void at the root.
template <class S, class... Nodes>
struct StaticParentOf {
    using type = void;
};
template <class S, class P, class... Ch, class... More>
struct StaticParentOf<S, StaticSubstates<P, Ch...>, More...> {
    using type = std::conditional_t<(std::is_same_v<S, Ch> || ...), P, typename StaticParentOf<S, More...>::type>;
};

/// TypeList<root, ..., S, Below...>: S's active path, outermost first. A path
/// longer than kStaticMaxDepth (a state that is its own ancestor) gives
/// TypeList<>: StateManager::Configure refuses such a tree with a
/// ConfigError, a compile-time machine at compile time (StaticTreeChecked).
template <std::size_t kDepth, class S, class Tree, class... Below>
struct StaticPathTo;
template <std::size_t kDepth, class S, class... Nodes, class... Below>
struct StaticPathTo<kDepth, S, TypeList<Nodes...>, Below...> {
    using Parent = typename StaticParentOf<S, Nodes...>::type;
    using type = typename std::conditional_t<
        (kDepth > kStaticMaxDepth), std::type_identity<TypeList<>>,
        std::conditional_t<std::is_void_v<Parent>, std::type_identity<TypeList<S, Below...>>,
                           StaticPathTo<kDepth + 1, Parent, TypeList<Nodes...>, S, Below...>>>::type;
};

/// S's initial substate in a constant's tree, or void for a leaf.
template <class S, class... Nodes>
struct StaticInitialOf {
    using type = void;
};
template <class S, class P, class First, class... Rest, class... More>
struct StaticInitialOf<S, StaticSubstates<P, First, Rest...>, More...> {
    using type = std::conditional_t<std::is_same_v<S, P>, First, typename StaticInitialOf<S, More...>::type>;
};

/// Whether S has substates in a constant's tree.
template <class S, class Tree>
inline constexpr bool kStaticComposite = false;
template <class S, class... Nodes>
inline constexpr bool kStaticComposite<S, TypeList<Nodes...>> = (std::is_same_v<S, typename Nodes::ParentType> || ...);

/// TypeList<Path..., initial substates below S...>: on from S down to a leaf
/// by initial substates (the way a change into a composite goes on).
template <std::size_t kDepth, class S, class Tree, class Path>
struct StaticDescent;
template <std::size_t kDepth, class S, class... Nodes, class... Path>
struct StaticDescent<kDepth, S, TypeList<Nodes...>, TypeList<Path...>> {
    using Initial = typename StaticInitialOf<S, Nodes...>::type;
    using type = typename std::conditional_t<
        std::is_void_v<Initial> || (kDepth > kStaticMaxDepth), std::type_identity<TypeList<Path...>>,
        StaticDescent<kDepth + 1, Initial, TypeList<Nodes...>, TypeList<Path..., Initial>>>::type;
};

template <std::size_t I, class... Ts>
using StaticAtOrVoid =
    typename std::conditional_t<(I < sizeof...(Ts)), TypeAt<I, TypeList<Ts...>>, std::type_identity<void>>::type;

/// What a change from the leaf whose active path is `LeafPath` to T does,
/// by the tick rules (ChangeBase, EntryPath): the states exited, innermost
/// first, up to (not including) the lowest proper ancestor of T that holds
/// the leaf; the states entered from below it down to T and on by initial
/// substates; the path of the leaf entered. No history is read: a table
/// whose ways down keep history leaves such changes to the library.
template <class Tree, class LeafPath, class T>
struct StaticMove;
template <class Tree, class... Leaf, class T>
struct StaticMove<Tree, TypeList<Leaf...>, T> {
    template <class... Q>
    static constexpr std::ptrdiff_t BaseOf(TypeList<Q...>) {
        constexpr std::size_t kTarget = sizeof...(Q) - 1;
        return []<std::size_t... I>(std::index_sequence<I...>) {
            std::ptrdiff_t base = -1;
            ((I < kTarget && std::is_same_v<StaticAtOrVoid<I, Q...>, StaticAtOrVoid<I, Leaf...>>
                  ? void(base = static_cast<std::ptrdiff_t>(I))
                  : void()),
             ...);
            return base;
        }(std::index_sequence_for<Q...>{});
    }
    using TargetPath = typename StaticPathTo<1, T, Tree>::type;
    static constexpr std::size_t kStart = static_cast<std::size_t>(BaseOf(TargetPath{}) + 1); // below the base
    static constexpr std::size_t kExits = sizeof...(Leaf) - kStart;

    template <class... Q, std::size_t... I>
    static auto ExitsOf(std::index_sequence<I...>) -> TypeList<StaticAtOrVoid<sizeof...(Leaf) - 1 - I, Leaf...>...>;
    template <class... Q, std::size_t... I>
    static auto EntersOf(TypeList<Q...>, std::index_sequence<I...>) -> TypeList<StaticAtOrVoid<kStart + I, Q...>...>;
    template <class... Q>
    static auto CountOf(TypeList<Q...>) -> std::integral_constant<std::size_t, sizeof...(Q)>;

    using EnteredPath = typename StaticDescent<decltype(CountOf(TargetPath{}))::value + 1, T, Tree, TargetPath>::type;
    static constexpr std::size_t kEnteredDepth = decltype(CountOf(EnteredPath{}))::value;
    static constexpr std::size_t kEnters = kEnteredDepth - kStart;
    using Exits = decltype(ExitsOf(std::make_index_sequence<kExits>{}));
    using Enters = decltype(EntersOf(EnteredPath{}, std::make_index_sequence<kEnters>{}));
};

/// How many types a list holds.
template <class... Ts>
consteval std::size_t StaticCount(TypeList<Ts...>) {
    return sizeof...(Ts);
}

/// S's parent in a tree given as a list, or void at the root.
template <class S, class Tree>
struct StaticParentIn;
template <class S, class... Nodes>
struct StaticParentIn<S, TypeList<Nodes...>> {
    using type = typename StaticParentOf<S, Nodes...>::type;
};

/// Known, then the states the tree names that Known lacks.
template <class Known, class Tree>
struct StaticStatesWithTree;
template <class Known, class... Nodes>
struct StaticStatesWithTree<Known, TypeList<Nodes...>> {
    using type = typename TreeStates<Known, Nodes...>::type;
};

/// A count per level of nesting of one character (see StaticCore::kSlots);
/// a flat machine's holds none.
template <std::size_t N>
struct StaticBases {
    std::uint32_t ticks[N]{};
    std::uint32_t* data() noexcept { return ticks; }
    const std::uint32_t* data() const noexcept { return ticks; }
};
template <>
struct StaticBases<0> {
    std::uint32_t* data() noexcept { return nullptr; }
    const std::uint32_t* data() const noexcept { return nullptr; }
};

template <class S>
struct StaticStateHasTwoParents {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: Transitions: the state in StaticStateHasTwoParents<...> above is listed as a substate "
                  "more than once (under two parents, or twice under one): a state has one parent; list it in one "
                  "SetSubstates call");
};
template <class S>
struct StaticSubstatesWrittenTwice {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: Transitions: SetSubstates is written twice for the parent in "
                  "StaticSubstatesWrittenTwice<...> above: list all of its substates in one call, the initial first");
};
template <class S>
struct StaticStateIsItsOwnAncestor {
    static_assert(kAlwaysFalse<S>,
                  "tickfsm: Transitions: the state in StaticStateIsItsOwnAncestor<...> above is its own ancestor "
                  "through SetSubstates calls (or nests more than 16 deep): a tree has no loops");
};

template <class S, class P, class... Ch>
consteval std::size_t StaticTimesListed(StaticSubstates<P, Ch...>) {
    return (std::size_t{std::is_same_v<S, Ch>} + ... + 0);
}

/// The checks of one state of a constant's tree (a static_assert naming it
/// if one fails).
template <class S, class... Nodes>
consteval bool StaticTreeStateChecked(TypeList<Nodes...>) {
    if constexpr ((StaticTimesListed<S>(Nodes{}) + ... + 0) > 1) {
        (void)sizeof(StaticStateHasTwoParents<S>);
        return false;
    } else if constexpr ((std::size_t{std::is_same_v<S, typename Nodes::ParentType>} + ... + 0) > 1) {
        (void)sizeof(StaticSubstatesWrittenTwice<S>);
        return false;
    } else if constexpr (StaticCount(typename StaticPathTo<1, S, TypeList<Nodes...>>::type{}) == 0) {
        (void)sizeof(StaticStateIsItsOwnAncestor<S>);
        return false;
    }
    return true;
}
/// Every state of a constant's tree checked (true for a flat constant).
template <class Tree>
consteval bool StaticTreeChecked(Tree) {
    return []<class... S>(TypeList<S...>) {
        return (StaticTreeStateChecked<S>(Tree{}) && ...);
    }(typename StaticStatesWithTree<TypeList<>, Tree>::type{});
}

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
