#pragma once
// The tree of a compile-time machine's constant as types (Transitions'
// SetSubstates): parents, paths, initial substates and the states each change
// exits and enters. Type computations only: static_machine.hpp checks a
// constant's tree with them, and static_tree.hpp compiles its steps.

#include <cstddef>
#include <type_traits>
#include <utility>

#include "static_chains.hpp"
#include "tree.hpp"

namespace tickfsm::detail {

/// SetSubstates<Parent, Initial, Others...>() in a constant.
template <class Parent, class... Children>
struct StaticSubstates {
    using ParentType = Parent;
};

/// The states a tree names (each parent, then its children), appended to
/// List in order of first appearance.
template <class List, class... Nodes>
struct TreeStates {
    using type = List;
};
template <class List, class P, class... Ch, class... More>
struct TreeStates<List, StaticSubstates<P, Ch...>, More...> {
    using Here = typename decltype(((StatesSoFar<List>{} + std::type_identity<P>{}) + ... +
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
/// longer than kMaxDepth (a state that is its own ancestor) gives
/// TypeList<>; the configuration refuses such a tree (ConfigError).
template <std::size_t kDepth, class S, class Tree, class... Below>
struct StaticPathTo;
template <std::size_t kDepth, class S, class... Nodes, class... Below>
struct StaticPathTo<kDepth, S, TypeList<Nodes...>, Below...> {
    using Parent = typename StaticParentOf<S, Nodes...>::type;
    using type = typename std::conditional_t<
        (kDepth > kMaxDepth), std::type_identity<TypeList<>>,
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
        std::is_void_v<Initial> || (kDepth > kMaxDepth), std::type_identity<TypeList<Path...>>,
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

/// How many transitions a StaticChain holds.
template <class Level>
inline constexpr std::size_t kStaticEdges = 0;
template <class S, class... Edges>
inline constexpr std::size_t kStaticEdges<StaticChain<S, Edges...>> = sizeof...(Edges);

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
