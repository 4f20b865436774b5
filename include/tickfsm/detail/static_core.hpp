#pragma once
// What a compile-time machine's StaticStateManager and StaticCrowd share
// (StaticCore): its states, their ids and names, and its tick, one switch
// over the state ids whose cases are each state's step (StaticStep) or, in a
// nested constant, each leaf's whole active path (StaticPathStep), every
// condition and hook inlined. Included by <tickfsm/static_machine.hpp>.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../config_error.hpp"
#include "../list.hpp"
#include "../state_ref.hpp"
#include "../text.hpp"
#include "format.hpp"
#include "grouped.hpp"
#include "runtime.hpp"
#include "static_chains.hpp"
#include "traits.hpp"
#include "type_name.hpp"

namespace tickfsm::detail {

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

template <class First, class Second>
struct StaticStatesShareAName {
    static_assert(kAlwaysFalse<First>,
                  "tickfsm: two states of a compile-time machine (the types in StaticStatesShareAName<...> above) "
                  "have the same name: states are told apart by name (ActivePath, CurrentStateName, StateNames); "
                  "rename one of the two classes, or give one a `static constexpr std::string_view Name`");
};

/// The ids of the first two states that share a name ({N, N} if none do).
template <std::size_t N>
consteval std::pair<std::size_t, std::size_t> StaticNameRepeated(const std::array<std::string_view, N>& names) {
    for (std::size_t i = 1; i < N; ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (names[i] == names[j]) return {j, i};
    return {N, N};
}

template <class State>
struct StaticStateNameUnfit {
    static_assert(kAlwaysFalse<State>,
                  "tickfsm: the Name of a compile-time machine's state (the type in StaticStateNameUnfit<...> "
                  "above) is empty, or holds '/', or '{', '}' or ',' outside <...> and (...): ActivePath() puts "
                  "those between states (\"Alive/{Legs/Run, Arms/Aim}\"), and an empty name reads as no state; "
                  "give it a `static constexpr std::string_view Name` without them");
};

/// The id of the first state whose name is empty or holds a separator of
/// ActivePath() (as Table::PrepareAdd refuses at run time), N if none.
template <std::size_t N>
consteval std::size_t StaticNameUnfit(const std::array<std::string_view, N>& names) {
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i].empty()) return i;
        int depth = 0;
        for (const char ch : names[i]) {
            if (ch == '/') return i;
            if (ch == '<' || ch == '(') ++depth;
            else if ((ch == '>' || ch == ')') && depth > 0) --depth;
            else if (depth == 0 && (ch == '{' || ch == '}' || ch == ',')) return i;
        }
    }
    return N;
}

/// Whether every state of States has a name of its own, fit for ActivePath()
/// (a static_assert naming a state that does not, otherwise).
template <class States>
consteval bool StaticNamesDistinct() {
    constexpr auto kNames = StaticNames<States>::kNames;
    constexpr auto kUnfit = StaticNameUnfit(kNames);
    if constexpr (kUnfit < kNames.size()) {
        (void)sizeof(StaticStateNameUnfit<typename TypeAt<kUnfit, States>::type>);
        return false;
    }
    constexpr auto kRepeated = StaticNameRepeated(kNames);
    if constexpr (kRepeated.first < kNames.size()) {
        (void)sizeof(StaticStatesShareAName<typename TypeAt<kRepeated.first, States>::type,
                                            typename TypeAt<kRepeated.second, States>::type>);
        return false;
    }
    return true;
}

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

/// Makes composite `id` current if its enter hook throws (the leaf below it
/// was made current before the enters): the machine is left in the deepest
/// state whose enter ran, as a StateManager is. Nothing runs when the hook
/// returns, so the compiler drops it there.
struct StaticEnterGuard {
    Runtime& rt;
    StateIndex id;
    bool entered = false;
    ~StaticEnterGuard() {
        if (!entered) rt.state = id;
    }
};

/// Enters Y..., outermost first, the first at depth kStart of Tree; each
/// composite's count (see StaticCore::kSlots) is 0 before any enter hook runs,
/// so that one that throws leaves no composite of the path with an old time.
/// A composite whose enter hook throws is left current (StaticEnterGuard).
template <std::size_t kStart, class Tree, class... Y, std::size_t... I, class... St, class C, class A,
          class Storage>
[[gnu::always_inline]] inline void StaticEnterAll(TypeList<Y...>, std::index_sequence<I...>, TypeList<St...>,
                                                  [[maybe_unused]] C& c, [[maybe_unused]] const A& a,
                                                  [[maybe_unused]] Runtime& rt, [[maybe_unused]] Storage& d,
                                                  [[maybe_unused]] std::uint32_t* bases) {
    (..., [&] {
        if constexpr (kStaticComposite<Y, Tree>) bases[kStart + I] = 0;
    }());
    (..., [&] {
        Y& state = StaticObject<Y>(TypeList<St...>{}, d);
        if constexpr (kStaticComposite<Y, Tree>) {
            StaticEnterGuard guard{rt, static_cast<StateIndex>(IndexIn<Y>(TypeList<St...>{}))};
            CallEnter(state, c, a);
            guard.entered = true;
        } else {
            CallEnter(state, c, a);
        }
    }());
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
        // A composite left current by an enter hook that threw (see
        // StaticEnterGuard) keeps none of its own ticks when it enters its
        // substates, as in a StateManager.
        KeepBases(std::make_index_sequence<(Move::kStart < kDepth ? Move::kStart : kDepth - 1)>{}, bases, rt.ticks);
        rt.state = LeafOf(typename Move::EnteredPath{});
        rt.ticks = 0;
        StaticEnterAll<Move::kStart, Tree>(typename Move::Enters{}, std::make_index_sequence<Move::kEnters>{},
                                           TypeList<St...>{}, c, a, rt, d, bases);
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
    /// The tick of this path's last state: a leaf, or a composite left
    /// current by an enter hook that threw (see StaticEnterGuard). Compiled in
    /// place: a call taking the action by reference would keep it in memory
    /// on every tick's path.
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

    static_assert(StaticNamesDistinct<States>());
    static constexpr std::size_t kStateCount = []<class... S>(TypeList<S...>) { return sizeof...(S); }(States{});
    static_assert(kStateCount < kNoState, "tickfsm: a compile-time machine holds at most 65534 states");
    using Indices = std::make_index_sequence<kStateCount>;
    using Storage = typename StaticStorageOf<Indices, States>::type;
    static constexpr bool kHasData = []<class... S>(TypeList<S...>) {
        return (!kStateless<S> || ...); // see kStateless: an effectful constructor runs per character
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
            std::array<StateIndex, kStateCount> roots{};
            roots.fill(kNoState);
            return roots;
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
    /// A fixed_dt that is not finite and positive, refused; `form` names the
    /// class refusing it ("StaticStateManager", "StaticCrowd").
    [[noreturn, gnu::cold, gnu::noinline]] static void FailDt(const char* form, float fixed_dt) {
        ReportConfigError(KindMessage(MessageText(Message::FormAndTypes, form, TypeName<C>(), TypeName<A>()),
                                      MessageText(Message::FixedDtInvalid, fixed_dt)));
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

    /// The tick of state I (see StaticStep and StaticPathStep). A
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
            return (StepAt<Base + (k)>::Run(c, a, rt, dt, d, bases), true);                                  \
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

    /// The states in the order a StateManager configured from the constant
    /// declares them (the tree's, then the chains'): the order of OnStateInit.
    using InitOrder = typename StaticChainStates<typename StaticStatesWithTree<TypeList<>, Tree>::type,
                                                 typename Table::ChainTypes>::type;

    /// Every state's OnStateInit, in InitOrder. Until the character starts its
    /// tick count is unused, so it counts the states initialized: after one
    /// that throws, the next start resumes with that state (as a StateManager
    /// does). One fold here rather than a member function per state (see
    /// StaticStep).
    template <class... S, std::size_t... I>
    static void InitAll(C& c, Runtime& rt, Storage& d, TypeList<S...>, std::index_sequence<I...>) {
        (..., (rt.ticks > I ? void()
                            : (CallInit(Get<S>(d), c), void(rt.ticks = static_cast<std::uint32_t>(I + 1)))));
    }

    /// OnStateInit of every state, once per character.
    [[gnu::noinline, gnu::cold]] static void InitOnce(C& c, Runtime& rt, Storage& d) {
        if (!(rt.flags & kInitialized)) {
            InitAll(c, rt, d, InitOrder{}, Indices{});
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
                                rt, d, bases);
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

/// What a StaticStateManager or StaticCrowd given anything but a constant of
/// Transitions runs instead, after the static_assert that says so: a table
/// of one state, so that the compiler stops at that message.
struct StaticNotATable {};

template <class T>
struct StaticTableOf {
    static_assert(kAlwaysFalse<T>,
                  "tickfsm: StaticStateManager<kTransitions> and StaticCrowd<kTransitions> take the constant of a "
                  "compile-time machine: write `inline constexpr auto kTable = tickfsm::Transitions<Controller, "
                  "Action>().SetInitialState<S>()...;` (Transitions called, with its parentheses) and pass kTable");
    using type = StaticTransitions<StaticNotATable, StaticNotATable, StaticNotATable, TypeList<>,
                                   StaticChain<StaticNotATable>>;
};
template <class Controller, class Action, class Initial, class Done, class Current, class Tree>
struct StaticTableOf<StaticTransitions<Controller, Action, Initial, Done, Current, Tree>> {
    using type = StaticTransitions<Controller, Action, Initial, Done, Current, Tree>;
};

template <auto kTransitions>
using StaticCoreOf = StaticCore<typename StaticTableOf<std::remove_cvref_t<decltype(kTransitions)>>::type>;

} // namespace tickfsm::detail
