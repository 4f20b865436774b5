#pragma once
// StateManager::Configure on a compile-time machine's constant: each chain
// added in one step and, for a constant with nested states, the tree as types
// and the step of each leaf's active path with every condition and Perform
// inlined, which a StateManager or Crowd configured from the constant ticks
// the leaf with (see FusedLeaf). Included by state_manager.hpp and static_machine.hpp only when
// both are: a file using one of them alone does not compile it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "chain.hpp"
#include "config.hpp"
#include "nested_plan.hpp"
#include "registry.hpp"
#include "static_chains.hpp"
#include "traits.hpp"
#include "tree.hpp"
#include "type_key.hpp"

namespace tickfsm::detail {

static_assert(kStaticMaxDepth == kMaxDepth, "a constant's tree and the library's tree nest as deep");

/// How many transitions a StaticChain holds.
template <class Level>
inline constexpr std::size_t kStaticEdges = 0;
template <class S, class... Edges>
inline constexpr std::size_t kStaticEdges<StaticChain<S, Edges...>> = sizeof...(Edges);

/// The step of one leaf whose active path has these chains (StaticChain<S,
/// StaticEdge...>, one per state, outermost first): NestedStep's rules with
/// the conditions and Performs inlined, the change itself made by the
/// library (FusedFire) as the generic step makes it.
template <class C, class A, class Tree, class... Levels>
struct FusedPath {
    static constexpr std::size_t kDepth = sizeof...(Levels);
    using Self = NestedStepper<AnyController, AnyAction>;
    using Path = TypeList<typename Levels::From...>;

    /// The transitions on the path before level J (the plan's moves are
    /// numbered in that order).
    template <std::size_t J>
    static constexpr std::uint32_t kMovesBefore = [] {
        constexpr std::array<std::size_t, kDepth> edges{kStaticEdges<Levels>...};
        std::uint32_t n = 0;
        for (std::size_t i = 0; i < J; ++i) n += static_cast<std::uint32_t>(edges[i]);
        return n;
    }();

    /// The change the plan's move `move` makes, its hooks inlined: ChangeTo's
    /// exits (remembering the leaf in a composite that keeps history), the
    /// enters, each state current while it is entered, then the Performs of
    /// the leaf entered. A move the plan left to the library (history on the
    /// way down, an entered leaf off the nested fast path) goes there.
    template <bool kMachine, class Move>
    [[gnu::noinline]] static void FireMove(const ErasedWord* steps, AnyController& any_c, const AnyAction& any_a,
                                           Runtime& rt, std::byte* data, std::uint32_t chain, int index,
                                           std::uint32_t at) {
        const Self& self = SelfOf<Self>(steps, rt.state);
        const NestedMove& move = self.moves.data()[at];
        if (move.leaf == kNoState || move.enters - move.exits != Move::kExits ||
            move.end - move.enters != Move::kEnters) [[unlikely]] {
            if constexpr (kMachine) FusedFireMachine(any_c, any_a, rt, chain, index);
            else FusedFire(steps, any_c, any_a, rt, data, chain, index);
            return;
        }
        C& c = Real<C>(any_c);
        const A& a = Real<A>(any_a);
        const NestedMoveStep<AnyController, AnyAction>* const exits = self.move_steps + move.exits;
        const NestedMoveStep<AnyController, AnyAction>* const enters = self.move_steps + move.enters;
        // Until the change is made, the general step, which serves any state.
        if constexpr (kMachine) SeatOf(rt).step = reinterpret_cast<void (*)()>(&MachineGeneralStep<AnyController, AnyAction>);
        const StateIndex from = rt.state;
        [&]<class... X, std::size_t... I>(TypeList<X...>, std::index_sequence<I...>) {
            (..., [&] {
                if constexpr (kStaticComposite<X, Tree>)
                    if (exits[I].slot != kNoSlot) reinterpret_cast<HistorySlot*>(data + exits[I].slot)->last = from;
                CallExit(StateObject<X>(data, kStateless<X> ? 0u : exits[I].offset), c, a);
            }());
        }(typename Move::Exits{}, std::make_index_sequence<Move::kExits>{});
        // Each composite that stays active keeps its time (Table::composite_bases);
        // one left is reset when it is entered again.
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (..., [&] {
                std::uint32_t& ticks = reinterpret_cast<CompositeSlot*>(data + self.slots.data()[I])->ticks;
                ticks = SumTicks(ticks, rt.ticks);
            }());
        }(std::make_index_sequence<Move::kStart>{});
        rt.ticks = 0;
        rt.flags = static_cast<std::uint16_t>(rt.flags & ~(kSlow | kFresh | kDone));
        // Every entered composite's time is 0 before any enter hook runs.
        SlowIfThrown guard{rt, Move::kEnters == 1}; // one state entered: a throw leaves a leaf current
        [&]<class... Y, std::size_t... I>(TypeList<Y...>, std::index_sequence<I...>) {
            (..., [&] {
                if constexpr (kStaticComposite<Y, Tree>)
                    reinterpret_cast<CompositeSlot*>(data + enters[I].slot)->ticks = 0;
            }());
            (..., [&] {
                rt.state = enters[I].state;
                CallEnter(StateObject<Y>(data, kStateless<Y> ? 0u : enters[I].offset), c, a);
            }());
        }(typename Move::Enters{}, std::make_index_sequence<Move::kEnters>{});
        guard.entered = true;
        if constexpr (kMachine) {
            const MachineStepFn<AnyController, AnyAction> next =
                rt.flags & kGeneralReasons ? &MachineGeneralStep<AnyController, AnyAction> : steps[move.leaf].machine;
            SeatOf(rt).step = reinterpret_cast<void (*)()>(next);
        }
        const Self& entered = SelfOf<Self>(steps, move.leaf);
        [&]<class... Z, std::size_t... I>(TypeList<Z...>, std::index_sequence<I...>) {
            (CallPerform(StateObject<Z>(data, kStateless<Z> ? 0u : entered.offsets.data()[I]), c, a), ...);
        }(typename Move::EnteredPath{}, std::make_index_sequence<Move::kEnteredDepth>{});
    }

    /// The lists of transitions on the path before level J (the generic
    /// plan numbers only the states that have some).
    template <std::size_t J>
    static constexpr std::uint32_t kChainsBefore = [] {
        constexpr std::array<bool, kDepth> has{(kStaticEdges<Levels> > 0)...};
        std::uint32_t n = 0;
        for (std::size_t i = 0; i < J; ++i) n += has[i] ? 1u : 0u;
        return n;
    }();

    /// Level J's conditions in order, with its time: the first that holds
    /// makes its change (FireMove) and ends the tick.
    template <bool kMachine, std::size_t J, class S, class... Edges>
    [[gnu::always_inline]] static bool TryLevel(StaticChain<S, Edges...>, const ErasedWord* steps, AnyController& c,
                                                const AnyAction& a, Runtime& rt, std::byte* data, float dt,
                                                std::uint32_t leaf_ticks, const std::uint32_t* slots) {
        if constexpr (sizeof...(Edges) == 0) {
            (void)steps, (void)c, (void)a, (void)rt, (void)data, (void)dt, (void)leaf_ticks, (void)slots;
            return false;
        } else {
            std::uint32_t ticks = leaf_ticks;
            if constexpr (J + 1 < kDepth) // a composite's time follows its leaf's (Table::composite_bases)
                ticks = SumTicks(reinterpret_cast<const CompositeSlot*>(data + slots[J])->ticks, leaf_ticks);
            const float t = TimeOf(ticks, dt);
            return [&]<std::size_t... I>(std::index_sequence<I...>) {
                return ((CallCondition(typename Edges::Condition{}, Real<C>(std::as_const(c)), Real<A>(a), t) &&
                         (FireMove<kMachine, StaticMove<Tree, Path, typename Edges::Target>>(
                              steps, c, a, rt, data, kChainsBefore<J>, static_cast<int>(I), kMovesBefore<J> + I),
                          true)) ||
                        ...);
            }(std::index_sequence_for<Edges...>{});
        }
    }

    /// Where state J's object lives (no load for a state without data).
    template <std::size_t J, class S>
    [[gnu::always_inline]] static S& ObjectAt(const Self& self, std::byte* data) noexcept {
        if constexpr (kStateless<S>) return StateObject<S>(data, 0);
        else return StateObject<S>(data, self.offsets.data()[J]);
    }

    template <bool kMachine, std::size_t... J>
    [[gnu::always_inline]] static void Tick(const ErasedWord* steps, AnyController& any_c, const AnyAction& any_a,
                                            Runtime& rt, std::byte* data, std::index_sequence<J...>) {
        C& c = Real<C>(any_c);
        const A& a = Real<A>(any_a);
        const Self& self = SelfOf<Self>(steps, rt.state);
        const float dt = steps[kDtWord].dt;
        const std::uint32_t leaf_ticks = CountTickInPlace(rt.ticks);
        const std::uint32_t* slots = self.slots.data();
        if ((TryLevel<kMachine, J>(Levels{}, steps, any_c, any_a, rt, data, dt, leaf_ticks, slots) || ...))
            return; // outermost first
        (CallPerform(ObjectAt<J, typename Levels::From>(self, data), c, a), ...); // outermost first
    }

    /// The leaf's step in a crowd.
    static void Step(const ErasedWord* steps, AnyController& c, const AnyAction& a, Runtime& rt, std::byte* data) {
        Tick<false>(steps, c, a, rt, data, std::make_index_sequence<kDepth>{});
    }
    /// The leaf's step in a StateManager (see Seat).
    static void MachineStep(AnyController& c, const AnyAction& a, Runtime& rt) {
        Tick<true>(SeatedSteps<AnyController, AnyAction>(rt), c, a, rt, SeatedData(rt),
                   std::make_index_sequence<kDepth>{});
    }
};

/// The TypeKey of the chain StateManager::Configure makes of a constant's
/// chain (ApplyWholeChain's), or null for a state without transitions.
template <class C, class A, class Level>
inline constexpr const void* kFusedChainKey = nullptr;
template <class C, class A, class S, class E, class... Edges>
inline constexpr const void* kFusedChainKey<C, A, StaticChain<S, E, Edges...>> =
    &TypeKeyHolder<Chain<C, A, S, Edge<typename E::Target, typename E::Condition>,
                         Edge<typename Edges::Target, typename Edges::Condition>...>>::key;

/// A leaf's FusedLeaf, its path's chains given.
template <class C, class A, class Tree, class... Levels>
struct FusedLeafOf {
    static constexpr const void* kPath[] = {&TypeKeyHolder<typename Levels::From>::key...};
    static constexpr const void* kChains[] = {kFusedChainKey<C, A, Levels>...};
    static FusedLeaf Make() noexcept {
        return FusedLeaf{kPath, kChains, sizeof...(Levels), &FusedPath<C, A, Tree, Levels...>::Step,
                         &FusedPath<C, A, Tree, Levels...>::MachineStep};
    }
};

/// Configure's last step for a constant with a tree: each leaf's FusedLeaf,
/// registered with the table. `Facts` gives each state's chain (ChainOf).
template <class C, class A, class Tree, class States, class Facts>
struct FusedTree;
template <class C, class A, class... Nodes, class... States, class Facts>
struct FusedTree<C, A, TypeList<Nodes...>, TypeList<States...>, Facts> {
    template <class S>
    static constexpr bool kLeaf = (!std::is_same_v<S, typename Nodes::ParentType> && ...);

    template <class... Path>
    static void AddPath(ErasedTable& table, TypeList<Path...>) {
        if constexpr (sizeof...(Path) > 0)
            AddFusedLeaf(table,
                         FusedLeafOf<C, A, TypeList<Nodes...>, typename Facts::template ChainOf<Path>...>::Make());
    }
    [[TICKFSM_DETAIL_COLD]] static void Apply(ErasedTable& table) {
        (..., [&] {
            if constexpr (kLeaf<States>) AddPath(table, typename StaticPathTo<1, States, TypeList<Nodes...>>::type{});
        }());
    }
    [[TICKFSM_DETAIL_COLD]] static void Replay(void* erased, const StepRecord&) { Apply(*TableFrom(erased)); }
};

struct StaticReplayAccess {
    /// One SetSubstates of a constant, as its words would call it.
    template <class Manager, class Parent, class... Children>
    static void Substates(Manager& manager, StaticSubstates<Parent, Children...>) {
        manager.template SetSubstates<Parent, Children...>();
    }
    /// One chain of a constant, added in one step as the builder's words would
    /// add it (its chain type is made once here, rather than once per To).
    template <bool kInitial, class Manager, class S, class... Edges>
    static void AddChainOf(Manager& manager, StaticChain<S, Edges...>) {
        manager.template AddChain<kInitial, S, Edge<typename Edges::Target, typename Edges::Condition>...>();
    }
};

/// StateManager::Configure on a compile-time machine's transitions: each
/// chain added in one configuration step (StateManager::AddChain).
template <class Controller, class Action, class Initial, class... Done, class Current, class... Nodes>
struct StaticReplay<StaticTransitions<Controller, Action, Initial, TypeList<Done...>, Current, TypeList<Nodes...>>> {
    static constexpr bool kReplayable = true;

    template <class Manager>
    static void Apply(Manager& manager) {
        static_assert(std::is_same_v<typename Manager::ControllerType, Controller> &&
                          std::is_same_v<typename Manager::ActionType, Action>,
                      "tickfsm: StateManager::Configure(transitions): the transitions were written for another "
                      "Controller or Action than this StateManager's: start them with "
                      "tickfsm::Transitions<Controller, Action>() of this machine's types");
        static_assert(!std::is_void_v<Initial>,
                      "tickfsm: StateManager::Configure(transitions): the transitions have no initial state: start "
                      "them with tickfsm::Transitions<Controller, Action>().SetInitialState<S>()");
        if constexpr (!std::is_void_v<Initial>) {
            (..., StaticReplayAccess::Substates(manager, Nodes{}));
            // One fold in this function, not a function per chain (see StaticStep):
            // the first chain is the initial state's, and every state has one chain.
            using First = typename TypeAt<0, TypeList<Done..., Current>>::type;
            (..., StaticReplayAccess::AddChainOf<std::is_same_v<Done, First>>(manager, Done{}));
            StaticReplayAccess::AddChainOf<std::is_same_v<Current, First>>(manager, Current{});
            if constexpr (sizeof...(Nodes) > 0) {
                using Facts = StaticTableFacts<TypeList<Done..., Current>>;
                using States = typename CollectStates<typename TreeStates<TypeList<>, Nodes...>::type, Done...,
                                                      Current>::type;
                manager.template AddFusedSteps<FusedTree<Controller, Action, TypeList<Nodes...>, States, Facts>>();
            }
        }
    }
};

} // namespace tickfsm::detail
