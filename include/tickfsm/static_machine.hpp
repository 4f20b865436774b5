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
#include "tick_order.hpp"
#include "detail/runtime.hpp"
#include "detail/traits.hpp"
#include "detail/type_name.hpp"
#include "state_ref.hpp"

namespace tickfsm {

namespace detail {

template <class Table>
struct StaticCore;

} // namespace detail

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

namespace detail {

/// The path from the root to `leaf` as text, outermost first ("Alive/Grounded/Run"):
/// each state's parent by id in `parents` (kNoState at the root), its name in
/// `names`; "" if `leaf` is no state. Compiled once, in lib/tree.cpp.
Text StaticPathText(std::span<const StateIndex> parents, std::span<const std::string_view> names,
                    StateIndex leaf);

template <class States>
struct StaticNames;
template <class... S>
struct StaticNames<TypeList<S...>> {
    static constexpr std::array<std::string_view, sizeof...(S)> kNames{StateName<S>()...};
};

template <class C, class A, class States, class Chain>
struct StaticStep;
/// The tick of state S, whose transitions are Edges, in a machine of these
/// States: count it, fire the first transition that holds (S's exit, the
/// switch, the target's enter, then the target performs this tick), else
/// perform. A template of S's chain and the states' list rather than a member
/// of StaticCore: every function compiled for a state carries its template's
/// arguments in its symbol's name, and a whole table's (every transition's
/// condition type) makes those names, and the compile time spent writing them,
/// grow with the table for each state, as the square of its size in all.
template <class C, class A, class... St, class S, class... Edges>
struct StaticStep<C, A, TypeList<St...>, StaticChain<S, Edges...>> {
    template <class T, class Storage>
    [[gnu::always_inline]] static T& Object(Storage& d) noexcept {
        return StaticObject<T>(TypeList<St...>{}, d);
    }
    template <class T, class Storage>
    [[gnu::always_inline]] static void Fire(C& c, const A& a, Runtime& rt, Storage& d) {
        CallExit(Object<S>(d), c, a);
        rt.state = static_cast<StateIndex>(IndexIn<T>(TypeList<St...>{}));
        rt.ticks = 0;
        T& next = Object<T>(d);
        CallEnter(next, c, a);
        CallPerform(next, c, a);
    }
    template <class Storage>
    [[gnu::always_inline]] static void Run(C& c, const A& a, Runtime& rt, float dt, Storage& d, std::uint32_t*) {
        const std::uint32_t ticks = CountTick(rt.ticks);
        [[maybe_unused]] const float t = TimeOf(ticks, dt);
        if (!((CallCondition(typename Edges::Condition{}, c, a, t) &&
               (Fire<typename Edges::Target>(c, a, rt, d), true)) ||
              ...))
            CallPerform(Object<S>(d), c, a);
    }
};

/// Enters Y, at depth kAt of Tree; a composite's count (see StaticCore::kSlots) starts at 0.
template <std::size_t kAt, class Tree, class Y, class States, class C, class A, class Storage>
[[gnu::always_inline]] inline void StaticEnterOne(States, C& c, const A& a, Storage& d, std::uint32_t* bases) {
    if constexpr (kStaticComposite<Y, Tree>) bases[kAt] = 0;
    CallEnter(StaticObject<Y>(States{}, d), c, a);
}
/// Enters Y..., outermost first, the first at depth kStart of Tree (StaticEnterOne each).
template <std::size_t kStart, class Tree, class... Y, std::size_t... I, class States, class C, class A,
          class Storage>
[[gnu::always_inline]] inline void StaticEnterAll(TypeList<Y...>, std::index_sequence<I...>, States,
                                                  [[maybe_unused]] C& c, [[maybe_unused]] const A& a,
                                                  [[maybe_unused]] Storage& d,
                                                  [[maybe_unused]] std::uint32_t* bases) {
    (..., StaticEnterOne<kStart + I, Tree, Y>(States{}, c, a, d, bases));
}

template <class C, class A, class States, class Tree, class Levels>
struct StaticPathStep;
/// The tick of a leaf of a nested constant, whose active path has these
/// chains (StaticChain<S, StaticEdge...>, one per state, outermost first):
/// count it; try each level's transitions in order, outermost first, each
/// with its own state's time; the first that holds makes its change (exits
/// innermost first up to the lowest ancestor the target shares, enters from
/// below it down to the target and on by initial substates, then the
/// entered path performs); else the path performs, outermost first. The
/// rules of StateManager's nested tick, with every hook inlined.
template <class C, class A, class... St, class Tree, class... Levels>
struct StaticPathStep<C, A, TypeList<St...>, Tree, TypeList<Levels...>> {
    static constexpr std::size_t kDepth = sizeof...(Levels);
    using Path = TypeList<typename Levels::From...>;

    template <class T, class Storage>
    [[gnu::always_inline]] static T& Object(Storage& d) noexcept {
        return StaticObject<T>(TypeList<St...>{}, d);
    }

    template <class... X, class Storage>
    [[gnu::always_inline]] static void ExitAll(TypeList<X...>, C& c, const A& a, Storage& d) {
        (..., CallExit(Object<X>(d), c, a));
    }
    template <class... Z, class Storage>
    [[gnu::always_inline]] static void PerformAll(TypeList<Z...>, C& c, const A& a, Storage& d) {
        (..., CallPerform(Object<Z>(d), c, a));
    }
    // The composites that stay active keep their time. The counts are read
    // again here, through a pointer opaque to the compiler: merged with the
    // sum a level's conditions get as their time, that sum (and its overflow
    // test) would be made on every tick, even for conditions that do not
    // read the time.
    template <std::size_t... I>
    [[gnu::always_inline]] static void KeepBases(std::index_sequence<I...>, [[maybe_unused]] std::uint32_t* bases,
                                                 [[maybe_unused]] std::uint32_t ticks) {
        if constexpr (sizeof...(I) > 0) {
            std::uint32_t* const counts = Opaque(bases);
            (..., void(counts[I] = SumTicks(counts[I], ticks)));
        }
    }
    template <class... P>
    static constexpr StateIndex LeafOf(TypeList<P...>) {
        return static_cast<StateIndex>(IndexIn<PackAt<sizeof...(P) - 1, P...>>(TypeList<St...>{}));
    }

    /// The change Move describes (a StaticMove from this path).
    template <class Move, class Storage>
    [[gnu::always_inline]] static void Fire(C& c, const A& a, Runtime& rt, Storage& d, std::uint32_t* bases) {
        ExitAll(typename Move::Exits{}, c, a, d);
        KeepBases(std::make_index_sequence<Move::kStart>{}, bases, rt.ticks);
        rt.state = LeafOf(typename Move::EnteredPath{});
        rt.ticks = 0;
        StaticEnterAll<Move::kStart, Tree>(typename Move::Enters{}, std::make_index_sequence<Move::kEnters>{},
                                           TypeList<St...>{}, c, a, d, bases);
        PerformAll(typename Move::EnteredPath{}, c, a, d);
    }

    /// Level J's transitions in order, with its state's time.
    template <std::size_t J, class S, class... Edges, class Storage>
    [[gnu::always_inline]] static bool TryLevel(StaticChain<S, Edges...>, C& c, const A& a, Runtime& rt, Storage& d,
                                                std::uint32_t* bases, float dt, std::uint32_t leaf_ticks) {
        if constexpr (sizeof...(Edges) == 0) {
            (void)c, (void)a, (void)rt, (void)d, (void)bases, (void)dt, (void)leaf_ticks;
            return false;
        } else {
            std::uint32_t ticks = leaf_ticks;
            if constexpr (J + 1 < kDepth) ticks = SumTicks(bases[J], leaf_ticks);
            [[maybe_unused]] const float t = TimeOf(ticks, dt);
            return ((CallCondition(typename Edges::Condition{}, c, a, t) &&
                     (Fire<StaticMove<Tree, Path, typename Edges::Target>>(c, a, rt, d, bases), true)) ||
                    ...);
        }
    }

    template <std::size_t... J, class Storage>
    [[gnu::always_inline]] static void RunLevels(std::index_sequence<J...>, C& c, const A& a, Runtime& rt, float dt,
                                                 Storage& d, std::uint32_t* bases) {
        const std::uint32_t ticks = CountTick(rt.ticks);
        if (!(TryLevel<J>(Levels{}, c, a, rt, d, bases, dt, ticks) || ...)) PerformAll(Path{}, c, a, d);
    }
    template <class Storage>
    [[gnu::always_inline]] static void Run(C& c, const A& a, Runtime& rt, float dt, Storage& d,
                                           std::uint32_t* bases) {
        RunLevels(std::make_index_sequence<kDepth>{}, c, a, rt, dt, d, bases);
    }
};

/// S's OnStateInit, if it has one.
template <class S, class C>
[[gnu::always_inline]] inline void CallInit(S& s, C& c) {
    if constexpr (HasOnStateInit<S, C>) s.OnStateInit(c);
}

/// What StaticStateManager and StaticCrowd share: the states, their ids, and
/// the tick, all known at compile time.
template <class Table>
struct StaticCore {
    using C = typename Table::ControllerType;
    using A = typename Table::ActionType;
    static_assert(!std::is_void_v<typename Table::InitialType>,
                  "tickfsm: a compile-time machine needs an initial state: start its transitions with "
                  "tickfsm::Transitions<Controller, Action>().SetInitialState<S>()");
    using Tree = typename Table::TreeTypes;
    /// Whether the constant nests states (SetSubstates): then the current
    /// state is always a leaf, and each composite on its path has a count of
    /// its own (see Bases).
    static constexpr bool kNested = !std::is_same_v<Tree, TypeList<>>;
    static_assert(StaticTreeChecked(Tree{}));
    using Facts = StaticTableFacts<typename Table::ChainTypes>;
    // The states of the chains, in the order they appear (the ids of a flat
    // machine), then the tree's others.
    using States = typename StaticStatesWithTree<typename Facts::States, Tree>::type;
    template <class S>
    using ChainOf = typename Facts::template ChainOf<S>;
    /// S's active path, outermost first (TypeList<S> in a flat machine).
    template <class S>
    using PathOf = typename StaticPathTo<1, S, Tree>::type;

    static constexpr std::size_t kStateCount = []<class... S>(TypeList<S...>) { return sizeof...(S); }(States{});
    static_assert(kStateCount < kNoState, "tickfsm: a compile-time machine holds at most 65534 states");
    using Indices = std::make_index_sequence<kStateCount>;
    using Storage = typename StaticStorageOf<Indices, States>::type;
    static constexpr bool kHasData = []<class... S>(TypeList<S...>) {
        return (!std::is_empty_v<S> || ...);
    }(States{});

    template <class S>
    static constexpr std::size_t kIndexOf = IndexIn<S>(States{});
    template <class S>
    static constexpr bool kIsState = kIndexOf<S> < kStateCount;
    template <std::size_t I>
    using StateAt = typename TypeAt<I, States>::type;
    template <class S>
    static constexpr bool kComposite = kStaticComposite<S, Tree>;
    template <class S>
    static constexpr std::size_t kDepthOf = StaticCount(PathOf<S>{}); // 1 at the root

    /// Each state's parent's id (kNoState at the root), by id.
    static constexpr std::array<StateIndex, kStateCount> kParents = []<class... S>(TypeList<S...>) {
        if constexpr (kNested) {
            constexpr auto parent = [](std::size_t id) {
                return static_cast<StateIndex>(id < kStateCount ? id : kNoState);
            };
            return std::array<StateIndex, kStateCount>{
                parent(IndexIn<typename StaticParentIn<S, Tree>::type>(States{}))...};
        } else {
            return std::array<StateIndex, kStateCount>{}; // not read: a flat machine's states are all leaves
        }
    }(States{});
    /// A count per level of nesting above the leaves: the ticks the composite
    /// at that depth had when the current leaf was entered (its time is that
    /// plus the leaf's). Composites at one depth are never active together,
    /// so they share it.
    static constexpr std::size_t kSlots = []<class... S>(TypeList<S...>) {
        if constexpr (kNested) {
            std::size_t deepest = 1;
            ((deepest = StaticCount(PathOf<S>{}) > deepest ? StaticCount(PathOf<S>{}) : deepest), ...);
            return deepest - 1;
        } else {
            return std::size_t{0};
        }
    }(States{});
    using Bases = StaticBases<kSlots>;
    /// The leaf the initial state leads to (itself, or on by initial substates)
    /// and the path to it.
    using InitialPath = typename StaticDescent<kDepthOf<typename Table::InitialType> + 1, typename Table::InitialType,
                                               Tree, PathOf<typename Table::InitialType>>::type;
    static constexpr std::size_t kInitialLeaf = []<class... P>(TypeList<P...>) {
        return IndexIn<PackAt<sizeof...(P) - 1, P...>>(States{});
    }(InitialPath{});

    static constexpr const std::array<std::string_view, kStateCount>& Names() noexcept {
        return StaticNames<States>::kNames;
    }
    static std::string_view NameOf(StateIndex id) noexcept { return id < kStateCount ? Names()[id] : ""; }
    static Text Machine() {
        return detail::MessageText(detail::Message::MachineTypes, TypeName<C>(), TypeName<A>());
    }

    /// Back to not started, entered on the next tick; OnStateInit stays done.
    static void Unstart(Runtime& rt) noexcept {
        rt = Runtime{kNoState, static_cast<std::uint16_t>(rt.flags & kInitialized), 0};
    }

    template <class S>
    [[gnu::always_inline]] static S& Get(Storage& d) noexcept {
        return StaticObject<S>(States{}, d);
    }

    template <class... P>
    static auto PathChains(TypeList<P...>) -> TypeList<ChainOf<P>...>;

    /// The tick of state I, a leaf (see StaticStep and StaticPathStep). A
    /// type, not a member function per state: a member's symbol would carry
    /// the whole table's type (see StaticStep).
    template <std::size_t I>
    using StepAt =
        std::conditional_t<kNested, StaticPathStep<C, A, States, Tree, decltype(PathChains(PathOf<StateAt<I>>{}))>,
                           StaticStep<C, A, States, ChainOf<StateAt<I>>>>;

    /// The tick of the current state among states Base to Base + 63, false
    /// when the character has not started. Written as one switch, not as a
    /// fold of comparisons, so that it compiles to the single range check and
    /// jump table of a hand-written switch: the compiler turns a fold into a
    /// table only after testing its first comparison apart.
    template <std::size_t Base = 0>
    [[gnu::always_inline]] static bool Dispatch(C& c, const A& a, Runtime& rt, Storage& d, float dt,
                                                std::uint32_t* bases) {
#define TICKFSM_DETAIL_STATE_CASE(k)                                                                           \
    case k:                                                                                                   \
        if constexpr (Base + (k) < kStateCount) {                                                            \
            if constexpr (!kStaticComposite<StateAt<Base + (k)>, Tree>)                                        \
                return (StepAt<Base + (k)>::Run(c, a, rt, dt, d, bases), true);                               \
            else return false;                                                                                \
        } else {                                                                                              \
            return false;                                                                                     \
        }
#define TICKFSM_DETAIL_STATE_CASES8(k)                                                                         \
    TICKFSM_DETAIL_STATE_CASE(k) TICKFSM_DETAIL_STATE_CASE(k + 1) TICKFSM_DETAIL_STATE_CASE(k + 2)             \
    TICKFSM_DETAIL_STATE_CASE(k + 3) TICKFSM_DETAIL_STATE_CASE(k + 4) TICKFSM_DETAIL_STATE_CASE(k + 5)         \
    TICKFSM_DETAIL_STATE_CASE(k + 6) TICKFSM_DETAIL_STATE_CASE(k + 7)
        switch (static_cast<std::size_t>(rt.state) - Base) {
            TICKFSM_DETAIL_STATE_CASES8(0)
            TICKFSM_DETAIL_STATE_CASES8(8)
            TICKFSM_DETAIL_STATE_CASES8(16)
            TICKFSM_DETAIL_STATE_CASES8(24)
            TICKFSM_DETAIL_STATE_CASES8(32)
            TICKFSM_DETAIL_STATE_CASES8(40)
            TICKFSM_DETAIL_STATE_CASES8(48)
            TICKFSM_DETAIL_STATE_CASES8(56)
        default:
            if constexpr (Base + 64 < kStateCount) return Dispatch<Base + 64>(c, a, rt, d, dt, bases);
            else return false;
        }
#undef TICKFSM_DETAIL_STATE_CASES8
#undef TICKFSM_DETAIL_STATE_CASE
    }

    /// Every state's OnStateInit, in order. Until the character starts its tick
    /// count is unused, so it counts the states initialized: after one that
    /// throws, the next start resumes with that state (as a StateManager does).
    /// One fold here rather than a member function per state (see StaticStep).
    template <std::size_t... I>
    static void InitAll(C& c, Runtime& rt, Storage& d, std::index_sequence<I...>) {
        (..., (rt.ticks > I ? void()
                            : (CallInit(static_cast<StaticStateSlot<I, StateAt<I>>&>(d).state, c),
                               void(rt.ticks = static_cast<std::uint32_t>(I + 1)))));
    }

    /// OnStateInit of every state, once per character.
    [[gnu::noinline, gnu::cold]] static void InitOnce(C& c, Runtime& rt, Storage& d) {
        if (!(rt.flags & kInitialized)) {
            InitAll(c, rt, d, Indices{});
            rt.flags = static_cast<std::uint16_t>(rt.flags | kInitialized);
        }
    }
    /// OnStateInit of every state once per character, then the initial state
    /// is entered (with its ancestors, outermost first, and on by initial
    /// substates down to a leaf). Its hooks are compiled in place, on the path
    /// of a character's first tick: a call taking the action by reference
    /// would keep the action in memory on every tick.
    [[gnu::always_inline]] static void Start(C& c, const A& a, Runtime& rt, Storage& d, std::uint32_t* bases) {
        InitOnce(c, rt, d);
        rt.state = static_cast<StateIndex>(kInitialLeaf);
        rt.ticks = 0;
        rt.flags = static_cast<std::uint16_t>(rt.flags | kStarted);
        StaticEnterAll<0, Tree>(InitialPath{}, std::make_index_sequence<StaticCount(InitialPath{})>{}, States{}, c, a,
                                d, bases);
    }

    /// One fixed tick by the tick rules (StateManager's): a character not
    /// started yet first enters the initial state. `bases` is the character's
    /// Bases (null for a flat machine).
    [[gnu::always_inline]] static void Tick(C& c, const A& a, Runtime& rt, Storage& d, float dt,
                                            std::uint32_t* bases) {
        if (!Dispatch(c, a, rt, d, dt, bases)) [[unlikely]] {
            Start(c, a, rt, d, bases);
            StepAt<kInitialLeaf>::Run(c, a, rt, dt, d, bases);
        }
    }

    /// Whether S is active for a character whose leaf is `leaf`: the leaf or one of its ancestors.
    template <class S>
    static bool IsIn(StateIndex leaf) noexcept {
        CheckQueried<S>();
        if constexpr (!kComposite<S>) {
            return leaf == kIndexOf<S>;
        } else {
            for (std::size_t at = leaf; at < kStateCount; at = kParents[at])
                if (at == kIndexOf<S>) return true;
            return false;
        }
    }
    /// The ticks S has been active (0 if it is not).
    template <class S>
    static std::uint32_t TicksIn(const Runtime& rt, const std::uint32_t* bases) noexcept {
        if (!IsIn<S>(rt.state)) return 0;
        if constexpr (kComposite<S>) return SumTicks(bases[kDepthOf<S> - 1], rt.ticks);
        else return rt.ticks;
    }
    /// The active path as text, outermost first ("" before the start).
    static Text PathText(StateIndex leaf) { return StaticPathText(kParents, Names(), leaf); }

    template <class S>
    static constexpr void CheckQueried() {
        static_assert(kIsState<S>, "tickfsm: the state asked for is not one of this compile-time machine's: it "
                                   "appears in none of its transitions");
    }
};

/// The ids and names StaticStateManager and StaticCrowd both answer.
template <class Core>
struct StaticStateIds {
    /// S's id: its position in the transitions, the initial state first.
    template <class S>
    static constexpr StateId IdOf() noexcept {
        Core::template CheckQueried<S>();
        return StateId{static_cast<std::uint16_t>(Core::template kIndexOf<S>)};
    }
    static std::string_view StateName(StateId id) noexcept { return Core::NameOf(id.value); }
    /// Every state's name, by id.
    static constexpr std::span<const std::string_view> StateNames() noexcept { return Core::Names(); }
    static constexpr std::size_t StateCount() noexcept { return Core::kStateCount; }
};

template <auto kTransitions>
using StaticCoreOf = StaticCore<std::remove_cvref_t<decltype(kTransitions)>>;

} // namespace detail

/// One character's compile-time machine: `kTransitions` (built with
/// tickfsm::Transitions) is its whole table. Ticks like a StateManager
/// (Perform: the first enters the initial state; count the tick; the first
/// transition whose condition holds fires; the current state performs) with
/// every condition and hook inlined into one switch. Holds its controller, the
/// current state and its ticks, and the objects of states that have data; a
/// copy is a snapshot of all of it.
template <auto kTransitions>
class StaticStateManager : public detail::StaticStateIds<detail::StaticCoreOf<kTransitions>> {
    using Core = detail::StaticCoreOf<kTransitions>;

public:
    using Controller = typename Core::C;
    using Action = typename Core::A;

    /// A machine driving `character`, one tick lasting `fixed_dt` seconds.
    explicit StaticStateManager(Controller& character, float fixed_dt = 1.0f / 60.0f) noexcept
        : bound_controller(&character), fixed_step(fixed_dt) {}

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
    std::uint32_t TicksInState() const noexcept { return machine_runtime.ticks; }
    double TimeInState() const noexcept { return detail::SecondsOf(machine_runtime.ticks, fixed_step); }
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
            Refuse(detail::MessageText(detail::Message::TickAllActions, actions.size()));
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
    std::uint32_t TicksInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TicksInState");
        return runtimes[i].ticks;
    }
    double TimeInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TimeInState");
        return detail::SecondsOf(runtimes[i].ticks, dt);
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
                Refuse(detail::MessageText(detail::Message::TickAllByStateControllers, controllers.size()));
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
            detail::MessageText(detail::Message::StaticCrowdNoCharacter, Core::Machine(), api, i, i, runtimes.size()));
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

    /// TickAll's gate follows the character count (see fast_count).
    void Recount() noexcept { fast_count = runtimes.empty() ? detail::kNoFastCount : runtimes.size(); }

    /// TickAll when the gate is shut: an empty crowd ticks nobody; anything
    /// else is a wrong number of controllers or a call from inside a tick.
    [[gnu::cold, gnu::noinline]] void TickNobody(std::size_t controllers) const {
        if (controllers != runtimes.size() || active != kNothing)
            Refuse(detail::MessageText(detail::Message::TickAllControllers, controllers));
    }

    /// `what` was called while the crowd runs, or (TickAll) for the wrong number of characters.
    [[noreturn, gnu::cold, gnu::noinline]] void Refuse(std::string_view what) const {
        Text why;
        if (active == kTickingAll)
            why = "called from inside a hook, condition or make_action of this crowd's TickAll; call it between ticks";
        else if (active != kNothing)
            why = detail::MessageText(detail::Message::StaticCrowdInsideCharacter, active - 1);
        else
            why = detail::MessageText(detail::Message::StaticCrowdSize, runtimes.size());
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
    [[no_unique_address]] Storage stateless{}; // what stateless states are handed
};

} // namespace tickfsm

// StateManager::Configure's code for these constants (see the end of
// state_manager.hpp): only where a StateManager can call it.
#if defined(TICKFSM_STATE_MANAGER_HPP)
#include "detail/static_tree.hpp"
#endif
