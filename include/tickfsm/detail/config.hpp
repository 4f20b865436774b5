#pragma once
// Configuration steps and the registry that lets every character configured
// the same way share one immutable table.
//
// Each configuration call (SetInitialState<S>, From<S>, To<T>(cond), State<S>
// of a new state) is a step whose identity is a type: the builder's chain type
// carries every condition type, and a captureless lambda's type is its code.
// Steps whose conditions hold no data (captureless lambdas, empty functors,
// plain functions, compared by address) can be replayed from their identity
// alone, so a machine records only its position in a trie of steps, and the
// first machine that needs a table at a position builds it by replay and
// publishes it there for every later one. A step that holds data (a capturing
// lambda) gives that machine a private table instead.

#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "owned.hpp"
#include "../list.hpp"
#include "registry.hpp"
#include "format.hpp"

#include "../event.hpp"

#include "sharing.hpp"
#include "table.hpp"
#include "nested_plan.hpp"
#include "engine.hpp"
#include "traits.hpp"

namespace tickfsm::detail {

template <class S>
struct InitStep {};
template <class S>
struct FromStep {};
template <class S>
struct AddStep {};
template <class S, class T>
struct OnStep {};
template <class Parent, class... Children>
struct SubstatesStep {};
template <class Parallel, class... Regions>
struct RegionsStep {};
template <class S>
struct HistoryStep {};
template <class S, class X>
struct DoStep {};
template <bool kInitial, class Chain>
struct WholeChainStep {};

template <class F>
inline constexpr bool kIsFunctionPointer = std::is_pointer_v<F> && std::is_function_v<std::remove_pointer_t<F>>;

/// A condition that can be rebuilt from its type (and address, for functions).
template <class F>
inline constexpr bool kShareableCondition =
    kIsFunctionPointer<F> || (std::is_empty_v<F> && std::is_default_constructible_v<F>);

// --- the steps, applied to a table --------------------------------------------

// The steps below that take no type of the kind's are compiled once, in
// lib/engine.cpp.
using ErasedTable = Table<AnyController, AnyAction>;

/// A table the registry hands out as `void*` (which points at its
/// ErasedTable base, see kTableOps), as the ErasedTable it is.
inline ErasedTable* TableFrom(void* table) noexcept { return static_cast<ErasedTable*>(table); }
/// The same, as the kind's table.
template <class C, class A>
KindTable<C, A>* KindTableFrom(void* table) noexcept {
    return static_cast<KindTable<C, A>*>(TableFrom(table));
}

/// Gives state `id` the chain `fresh` (owned from the call on): its index among the state's chains.
std::size_t AppendChain(ErasedTable& table, StateIndex id, ChainBase<AnyController, AnyAction>* fresh);

template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] std::size_t ApplyNewChain(KindTable<C, A>& table) {
    const StateIndex id = table.template Register<S>();
    return AppendChain(table, id, new Chain<C, A, S>({}, nullptr, Target{}));
}

template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] std::size_t ApplyInit(KindTable<C, A>& table) {
    if (table.initial != kNoState)
        table.Fail(detail::MessageText(detail::Message::InitialStateTwice, StateName<S>(), table.NameOf(table.initial),
                                       StateName<S>(), StateName<S>()));
    const std::size_t chain = ApplyNewChain<C, A, S>(table);
    table.initial = table.Find(TypeKey<S>());
    return chain;
}

/// Refuses chain `chain` of state `from_key` unless it is of type `expected`
/// (the builder extends what it built).
void CheckChainToExtend(const ErasedTable& table, const void* from_key, std::size_t chain, const void* expected,
                        std::string_view (*from_name)() noexcept, std::string_view (*to_name)() noexcept);

/// Chain `chain` of state `from_key`, checked to be of type `expected`.
ChainPtr<AnyController, AnyAction>& ChainToExtend(ErasedTable& table, const void* from_key, std::size_t chain,
                                                   const void* expected, std::string_view (*from_name)() noexcept,
                                                   std::string_view (*to_name)() noexcept);

/// A push or a pop needs the push stack: refused unless SetPushCapacity came first.
void CheckStackFor(const ErasedTable& table, std::string_view (*from_name)() noexcept, std::uint8_t kind);

/// Puts `fresh` (chain `chain` of `from`, one transition longer) in place of
/// the chain it extends; `always` notes that its last condition is Always.
void ReplaceChain(ErasedTable& table, StateIndex from, std::size_t chain, ChainBase<AnyController, AnyAction>* fresh,
                  bool always);

template <class C, class A, class S, class T, class Cond, unsigned kFlags, class Maker, class... Edges>
[[TICKFSM_DETAIL_COLD]] void ApplyTo(KindTable<C, A>& table, std::size_t chain, Cond&& condition, Maker&& make) {
    using Old = Chain<C, A, S, Edges...>;
    using E = Edge<T, Cond, kFlags, Maker>;
    using New = Chain<C, A, S, Edges..., E>;
    if constexpr (E::kKind == kKindPush || E::kKind == kKindPop) CheckStackFor(table, &StateName<S>, E::kKind);
    const StateIndex to = table.template Register<T>();
    Old& old = static_cast<Old&>(*ChainToExtend(table, TypeKey<S>(), chain, TypeKey<Old>(), &StateName<S>,
                                                &StateName<T>));
    // The old chain's edges move over one by one: no tuple machinery per prefix.
    New* fresh = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return new New(typename New::Store{static_cast<EdgeHolder<I, Edges>&&>(old.edges)...,
                                           EdgeHolder<sizeof...(Edges), E>{std::move(condition), std::move(make)}},
                       old.targets, Target{to, 0, table.meta[to].offset});
    }(std::index_sequence_for<Edges...>{});
    ReplaceChain(table, table.Find(TypeKey<S>()), chain, fresh, std::is_same_v<Cond, Always>);
}

/// A whole chain of S's transitions (StateManager::Configure): what
/// `SetInitialState<S>()` (kInitial) or `From<S>()` and one To per edge would
/// make, the targets registered in the same order, but with no chain per prefix.
/// Each edge is a detail::Edge without flags or maker whose condition is
/// rebuilt from its type.
template <class C, class A, bool kInitial, class S, class... Edges>
[[TICKFSM_DETAIL_COLD]] void ApplyWholeChain(KindTable<C, A>& table) {
    std::size_t chain = 0;
    if constexpr (kInitial) chain = ApplyInit<C, A, S>(table);
    else chain = ApplyNewChain<C, A, S>(table);
    if constexpr (sizeof...(Edges) > 0) {
        static_assert(((Edges::kKind == kKindChange && !Edges::kForced &&
                        std::is_same_v<typename Edges::Maker, NoMaker>) && ...),
                      "tickfsm internal: a whole chain holds plain To<T>(condition) transitions only");
        const auto target = [&](StateIndex to) { return Target{to, 0, table.meta[to].offset}; };
        const Target targets[] = {target(table.template Register<typename Edges::To>())...}; // in order
        using Whole = Chain<C, A, S, Edges...>;
        Whole* fresh = [&]<std::size_t... I>(std::index_sequence<I...>) {
            return new Whole(typename Whole::Store{EdgeHolder<I, Edges>{typename Edges::Condition{}, NoMaker{}}...},
                             targets, targets[sizeof...(Edges) - 1]);
        }(std::index_sequence_for<Edges...>{});
        const StateIndex from = table.Find(TypeKey<S>());
        ReplaceChain(table, from, chain, fresh, false);
        std::size_t edge = 0; // each Always noted, as its own To<T>() notes it
        (((std::is_same_v<typename Edges::Condition, Always> ? table.NoteAlways(from, chain, edge)
                                                              : void()),
          ++edge),
         ...);
    }
}

template <class C, class A, bool kInitial, class S, class... Edges>
[[TICKFSM_DETAIL_COLD]] void ReplayWholeChain(void* erased, const StepRecord&) {
    ApplyWholeChain<C, A, kInitial, S, Edges...>(*KindTableFrom<C, A>(erased));
}

template <class C, class A, class S, class T>
[[TICKFSM_DETAIL_COLD]] void ApplyOn(KindTable<C, A>& table, const Event& event) {
    // Refused before T is added as a state.
    const StateIndex known = table.Find(TypeKey<S>());
    if (const EventEdge* existing = known == kNoState ? nullptr : table.FindEvent(known, event))
        table.Fail(detail::MessageText(detail::Message::EventTransitionTwice, StateName<S>(), detail::EventText(event),
                                       StateName<T>(), StateName<S>(), detail::EventText(event),
                                       table.NameOf(existing->to)));
    const StateIndex to = table.template Register<T>();
    const StateIndex from = table.template Register<S>();
    table.meta[from].events.push_back(EventEdge{event, to});
    table.finalized = false;
}

template <class C, class A, class X>
[[TICKFSM_DETAIL_COLD]] void ApplyDoAt(KindTable<C, A>& table, StateIndex id, detail::Shared<const X> prototype) {
    static_assert(CheckAction<X, C, A>());
    static_assert(alignof(X) <= 64, "tickfsm: a state action aligned to more than 64 bytes is not supported");
    if constexpr (requires(const X& x) {
                      requires std::is_convertible_v<decltype(x.ArgumentProblem()), std::string_view>;
                  }) {
        if (const std::string_view problem = prototype->ArgumentProblem(); !problem.empty())
            table.Fail(MessageText(Message::ActionArguments, table.NameOf(id), TypeName<X>(), problem));
    }
    ReserveOneMore(table.items);
    ReserveOneMore(table.meta[id].actions);
    ActionSlot<AnyController, AnyAction> action;
    action.name = TypeName<X>();
    action.offset = table.template Place<X>();
    action.enter = &ActionEnter<C, A, X>;
    action.update = &ActionUpdate<C, A, X>;
    action.exit = &ActionExit<C, A, X>;
    DataItem item = DataItemFor<X, true>(action.offset, std::move(prototype));
    table.items.push_back(std::move(item));
    table.meta[id].actions.push_back(action);
    table.finalized = false;
}

/// Gives back, unless kept, the per-character room placed in `table` since it
/// was made: what a configuration step the tree refuses had reserved.
template <class C, class A>
struct PlacedRoom {
    KindTable<C, A>* table;
    std::uint32_t size, align;
    explicit PlacedRoom(KindTable<C, A>& t) noexcept : table(&t), size(t.data_size), align(t.data_align) {}
    void Keep() noexcept { table = nullptr; }
    ~PlacedRoom() {
        if (table) {
            table->data_size = size;
            table->data_align = align;
        }
    }
    PlacedRoom(const PlacedRoom&) = delete;
    PlacedRoom& operator=(const PlacedRoom&) = delete;
};

/// SetSubstates: `children` (ids of states in `table`) become the substates of
/// `parent`, the first its initial one; each character gets the parent's
/// CompositeSlot. Nothing changes if the tree refuses it.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ApplySubstates(KindTable<C, A>& table, StateIndex parent,
                                            std::span<const TreeIndex> children) {
    ReserveOneMore(table.items);
    // A sibling's counter serves both (never active together), unless a push
    // stack may bury one while the other runs.
    const std::uint32_t shared = table.stack_capacity == 0 ? SiblingSlot(table.tree, parent) : kNoSlot;
    PlacedRoom<C, A> room(table); // the slot's room goes back if the tree refuses
    if (table.meta[parent].pass_through)
        RefusePassThroughComposite(table.NameOf(parent), "SetSubstates", &KindTable<C, A>::Fail);
    const std::uint32_t slot = shared != kNoSlot ? shared : table.template Place<CompositeSlot>();
    SetChildren(table.tree, table.StateNames(), parent, children, slot, table.meta[parent].key_type != nullptr,
                &KindTable<C, A>::Fail);
    room.Keep();
    if (shared == kNoSlot) {
        table.items.push_back(DataItemFor<CompositeSlot, false>(slot, nullptr));
        table.items.back().role = ItemRole::Composite;
    }
    table.nested = true;
    table.plan_nested = [](Table<AnyController, AnyAction>& t) { t.PlanNested(); };
    table.finalized = false;
}

/// SetSubstates<Parent, Children...>() on a table holding those states (added if new).
template <class C, class A, class Parent, class... Children>
[[TICKFSM_DETAIL_COLD]] void ApplySubstates(KindTable<C, A>& table) {
    const StateIndex parent = table.template Register<Parent>();
    const TreeIndex children[] = {table.template Register<Children>()...};
    ApplySubstates(table, parent, children);
}
template <class C, class A, class Parent, class... Children>
[[TICKFSM_DETAIL_COLD]] void ReplaySubstates(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplySubstates<C, A, Parent, Children...>(table);
}

/// SetRegions: `regions` (ids of states in `table`) become the regions of
/// `parallel`, in order; each character gets a Runtime per region (its lane).
/// Nothing changes if the tree refuses it.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ApplyRegions(KindTable<C, A>& table, StateIndex parallel,
                                          std::span<const TreeIndex> regions) {
    if (table.meta[parallel].pass_through)
        RefusePassThroughComposite(table.NameOf(parallel), "SetRegions", &KindTable<C, A>::Fail);
    table.items.reserve(table.items.size() + regions.size());
    PlacedRoom<C, A> room(table); // the lanes' room goes back if the tree refuses
    List<std::uint32_t> lanes;
    for (std::size_t i = 0; i < regions.size(); ++i) lanes.push_back(table.template Place<Runtime>());
    SetRegionsOf(table.tree, table.StateNames(), parallel, regions, lanes, table.meta[parallel].key_type != nullptr,
                 &KindTable<C, A>::Fail);
    room.Keep();
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        table.items.push_back(DataItemFor<Runtime, false>(lanes[i], nullptr));
        table.items.back().role = ItemRole::Lane;
        table.items.back().node = regions[i];
    }
    table.nested = true;
    table.parallel = true;
    table.code.lane_accepts = &LaneAccepts<AnyController, AnyAction>;
    table.code.enter_regions = &EnterRegions<AnyController, AnyAction>;
    table.code.exit_regions = &ExitRegionsFrom<AnyController, AnyAction>;
    table.code.tick_regions = &TickRegions<AnyController, AnyAction>;
    table.code.check_lanes = [](const Table<AnyController, AnyAction>& t) { t.CheckLanes(); };
    table.finalized = false;
}

/// SetRegions<Parallel, Regions...>() on a table holding those states (added if new).
template <class C, class A, class Parallel, class... Regions>
[[TICKFSM_DETAIL_COLD]] void ApplyRegions(KindTable<C, A>& table) {
    const StateIndex parallel = table.template Register<Parallel>();
    const TreeIndex regions[] = {table.template Register<Regions>()...};
    ApplyRegions(table, parallel, regions);
}
template <class C, class A, class Parallel, class... Regions>
[[TICKFSM_DETAIL_COLD]] void ReplayRegions(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyRegions<C, A, Parallel, Regions...>(table);
}

/// SetHistory of state `id` of `table`: the first time, each character gets
/// its HistorySlot. Nothing changes if the tree refuses it.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ApplyHistoryAt(KindTable<C, A>& table, StateIndex id, History history) {
    ReserveOneMore(table.items);
    PlacedRoom<C, A> room(table); // the slot's room goes back if the tree refuses
    const bool placed = table.tree[id].history_slot != kNoSlot;
    const std::uint32_t slot = placed ? table.tree[id].history_slot : table.template Place<HistorySlot>();
    SetHistoryOf(table.tree, table.StateNames(), id, history, table.meta[id].key_type != nullptr,
                 &KindTable<C, A>::Fail);
    room.Keep();
    if (!placed) {
        table.tree[id].history_slot = slot;
        table.items.push_back(DataItemFor<HistorySlot, false>(slot, nullptr));
        table.items.back().role = ItemRole::History;
        table.items.back().node = id;
    }
    table.finalized = false;
}
/// SetHistory<S>(history).
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ApplyHistory(KindTable<C, A>& table, History history) {
    ApplyHistoryAt(table, table.template Register<S>(), history);
}
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayHistory(void* erased, const StepRecord& step) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyHistory<C, A, S>(table, static_cast<History>(step.chain));
}

/// No guard on a typed event's transition: it is taken whatever the payload.
struct AnyPayload {};
template <class S, class E, class G, class T>
struct TypedOnStep {};

/// From<S>().On<E>(guard).To<T>() (T void: .Handle(), S handles E in place).
template <class C, class A, class S, class E, class G, class T>
[[TICKFSM_DETAIL_COLD]] void ApplyTypedOn(KindTable<C, A>& table, G guard) {
    using Receiver = std::conditional_t<std::is_void_v<T>, S, T>;
    const StateIndex from = table.template Register<S>();
    StateIndex to = kNoState;
    if constexpr (!std::is_void_v<T>) to = table.template Register<T>();
    ReserveOneMore(table.meta[from].typed);
    TypedEdge<AnyController> edge;
    edge.type = TypeKey<E>();
    edge.event = TypedEvent<E>();
    edge.to = to;
    if constexpr (!std::is_same_v<G, AnyPayload>) {
        edge.guard = [](const void* g, const AnyController& c, const void* payload) {
            return static_cast<bool>((*static_cast<const G*>(g))(Real<C>(c), *static_cast<const E*>(payload)));
        };
        edge.guard_object = detail::MakeShared<const G>(std::move(guard));
    }
    if constexpr (HasOnEvent<Receiver, C, E>)
        edge.deliver = [](AnyController& c, std::byte* data, std::uint32_t offset, const void* payload) {
            StateObject<Receiver>(data, offset).OnEvent(Real<C>(c), *static_cast<const E*>(payload));
        };
    table.meta[from].typed.push_back(std::move(edge));
    table.finalized = false;
}
template <class C, class A, class S, class E, class G, class T>
[[TICKFSM_DETAIL_COLD]] void ReplayTypedOn(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyTypedOn<C, A, S, E, G, T>(table, G{});
}

template <class S>
struct PassThroughStep {};

/// SetPassThrough<S>().
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ApplyPassThrough(KindTable<C, A>& table) {
    const StateIndex id = table.template Register<S>();
    if (table.tree[id].initial != kNoNode || table.tree[id].first_region != kNoNode)
        RefusePassThroughComposite(table.NameOf(id), "SetPassThrough", &KindTable<C, A>::Fail);
    table.meta[id].pass_through = true;
    table.passing = true;
    table.code.pass_through = &PassThrough<AnyController, AnyAction>;
    table.finalized = false;
}
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayPassThrough(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyPassThrough<C, A, S>(table);
}

template <class S>
struct ConditionNameStep {};

/// To<T>(condition, name): edge `edge` of S's chain `chain` is called `name`.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ApplyConditionName(KindTable<C, A>& table, StateIndex from, std::size_t chain,
                                                std::size_t edge, std::string_view name) {
    table.NoteName(from, chain, edge, name);
}
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayConditionName(void* erased, const StepRecord& step) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyConditionName(table, table.Find(TypeKey<S>()), step.chain, step.edge, step.name);
}

template <class S>
struct TerminalStep {};

/// SetTerminal<S>().
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ApplyTerminal(KindTable<C, A>& table) {
    const StateIndex id = table.template Register<S>();
    for (const StateIndex t : table.terminal)
        if (t == id) return;
    table.terminal.push_back(id);
    table.finalized = false;
}
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayTerminal(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyTerminal<C, A, S>(table);
}

struct DeclareEventStep {};

/// DeclareEvent(event).
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ApplyDeclareEvent(KindTable<C, A>& table, const Event& event) {
    for (const Event& e : table.declared)
        if (e == event) return;
    table.declared.push_back(event);
}
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ReplayDeclareEvent(void* erased, const StepRecord& step) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyDeclareEvent(table, step.event);
}

template <std::size_t N>
struct PushCapacityStep {};

/// SetPushCapacity<N>(): each character gets a stack of N buried states.
template <class C, class A, std::size_t N>
[[TICKFSM_DETAIL_COLD]] void ApplyPushCapacity(KindTable<C, A>& table) {
    if (table.stack_capacity != 0) table.Fail(MessageText(Message::PushCapacityTwice, N, table.stack_capacity));
    table.items.reserve(table.items.size() + 1 + UnshareSlots(table.tree, nullptr, nullptr));
    const std::uint32_t offset = table.template Place<PushStack<N>>();
    table.items.push_back(DataItemFor<PushStack<N>, false>(offset, nullptr));
    table.items.back().role = ItemRole::Stack;
    UnshareSlots(
        table.tree,
        [](void* erased) {
            KindTable<C, A>& t = *static_cast<KindTable<C, A>*>(erased);
            const std::uint32_t slot = t.template Place<CompositeSlot>();
            t.items.push_back(DataItemFor<CompositeSlot, false>(slot, nullptr));
            t.items.back().role = ItemRole::Composite;
            return slot;
        },
        &table);
    table.stack = offset;
    table.stack_capacity = static_cast<std::uint32_t>(N);
    table.code.push = &PushLayer<AnyController, AnyAction>;
    table.code.pop = &PopLayer<AnyController, AnyAction>;
    table.code.check_buried = &CheckNotBuried<AnyController, AnyAction>;
    table.finalized = false;
}
template <class C, class A, std::size_t N>
[[TICKFSM_DETAIL_COLD]] void ReplayPushCapacity(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyPushCapacity<C, A, N>(table);
}

template <class C, class A, class S, class X>
[[TICKFSM_DETAIL_COLD]] void ApplyDo(KindTable<C, A>& table, detail::Shared<const X> prototype) {
    ApplyDoAt<C, A, X>(table, table.template Register<S>(), std::move(prototype));
}


template <class C, class A, class S, class T>
[[TICKFSM_DETAIL_COLD]] void ReplayOn(void* erased, const StepRecord& step) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyOn<C, A, S, T>(table, step.event);
}
template <class C, class A, class S, class X>
[[TICKFSM_DETAIL_COLD]] void ReplayDo(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyDo<C, A, S, X>(table, detail::MakeShared<const X>());
}

struct KeepPreviousStep {};

template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void ReplayKeepPrevious(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    table.keep_previous = true;
    table.finalized = false;
}

template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayInit(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyInit<C, A, S>(table);
}
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayFrom(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    ApplyNewChain<C, A, S>(table);
}
template <class C, class A, class S>
[[TICKFSM_DETAIL_COLD]] void ReplayAdd(void* erased, const StepRecord&) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    table.template Register<S>();
}
template <class C, class A, class S, class T, class Cond, unsigned kFlags, class Maker, class... Edges>
[[TICKFSM_DETAIL_COLD]] void ReplayTo(void* erased, const StepRecord& step) {
    KindTable<C, A>& table = *KindTableFrom<C, A>(erased);
    if constexpr (kIsFunctionPointer<Cond>)
        ApplyTo<C, A, S, T, Cond, kFlags, Maker, Edges...>(table, step.chain, reinterpret_cast<Cond>(step.function),
                                                            Maker{});
    else
        ApplyTo<C, A, S, T, Cond, kFlags, Maker, Edges...>(table, step.chain, Cond{}, Maker{});
}

// --- the registry ------------------------------------------------------------------

/// The registry's view of the tables of kind <C, A>.
template <class C, class A>
inline constexpr TableOps kTableOps{
    [](float dt) -> void* { return static_cast<ErasedTable*>(new KindTable<C, A>(dt)); },
    [](void* table) { TableFrom(table)->Finalize(); },
    [](void* table) noexcept { TableFrom(table)->Acquire(); },
    [](void* table) noexcept { ErasedTable::Release(TableFrom(table)); },
};

/// The registry of kind <C, A>.
template <class C, class A>
Registry& RegistryOf() {
    static Registry registry(kTableOps<C, A>);
    return registry;
}

/// What a StateManager's configuration steps compiled in the library need of
/// its kind: its registry, and its name for the errors that name it.
struct KindCode {
    Registry& (*registry)();
    Text (*name)();
};
template <class C, class A>
inline constexpr KindCode kKindCode{&RegistryOf<C, A>, &KindTable<C, A>::CharacterName};

/// The table of the configuration root..node (see Registry::TableAt).
template <class C, class A>
KindTable<C, A>* SharedTableAt(StepNode* node) {
    return KindTableFrom<C, A>(RegistryOf<C, A>().TableAt(node));
}

} // namespace tickfsm::detail
