#pragma once
// The compiled transition table: contiguous steps indexed by small state ids,
// one step function per state that inlines that state's conditions and the
// hooks of every state it can reach. Built while configuring, immutable once a
// machine runs, and shareable by every character of one type.
//
// Two tick paths read it. The fast path is one indirect call to a state's step
// function; it serves states whose hooks need nothing but the controller and
// the action. Everything else (hooks that take the machine handle, action
// lists, events sent from hooks, NextState requests, an attached observer)
// runs on the general path (detail/tick.hpp, defined in lib/engine/), which a
// flag in the character's Runtime selects, so a machine that uses none of it never pays for it.

//
// The per-character steps and the Runtime are in runtime.hpp, the chains'
// compiled conditions in chain.hpp.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "owned.hpp"
#include "../list.hpp"
#include "format.hpp"

#include "../config_error.hpp"
#include "../describe.hpp"
#include "../event.hpp"
#include "../observer.hpp"
#include "../snapshot.hpp"
#include "../state_ref.hpp"
#include "chain.hpp"
#include "nested_plan.hpp"
#include "runtime.hpp"
#include "sharing.hpp"
#include "snapshot_io.hpp"
#include "traits.hpp"
#include "tree.hpp"
#include "type_key.hpp"
#include "type_name.hpp"

namespace tickfsm::detail {

struct EventEdge {
    Event event;
    StateIndex to;
};

/// A transition on a typed event (From<S>().On<E>(guard).To<T>()), or its
/// handling in place (.Handle(): `to` is kNoState).
template <class C>
struct TypedEdge {
    const void* type = nullptr; // TypeKey<E>
    Event event;                // how observers see it: E's name
    bool (*guard)(const void* guard, const C&, const void* payload) = nullptr; // null: always
    detail::Shared<const void> guard_object;
    StateIndex to = kNoState;
    // Hands the payload to the receiving state (T, or S in place): its OnEvent(C&, const E&); null if it has none.
    void (*deliver)(C&, std::byte* data, std::uint32_t offset, const void* payload) = nullptr;
};

/// One action of a state's list (Do<X>(args...)): its hooks and where its copy lives.
template <class C, class A>
struct ActionSlot {
    std::string_view name;
    std::uint32_t offset = 0;
    HookFn<C, A> enter = nullptr;
    HookFn<C, A> update = nullptr;
    HookFn<C, A> exit = nullptr;
};

/// How a snapshot keeps a DataItem.
enum class Kept : std::uint8_t {
    Bytes, // trivially copyable: copied as it is
    Hooks, // through its Save(SnapshotWriter&) and Load(SnapshotReader&)
    No,    // neither: Save() of a machine that has it is a ConfigError naming it
};

/// Something each character holds a copy of: a state with data, or an action.
struct DataItem {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    Kept kept = Kept::Bytes;
    ItemRole role = ItemRole::Object;
    TreeIndex node = kNoNode; // ItemRole::Lane: its region; ItemRole::History: its composite
    std::string_view type; // its class, for messages
    void (*construct)(void* at, const void* prototype) = nullptr;
    void (*relocate)(void* dst, void* src) = nullptr;
    void (*destroy)(void*) = nullptr;
    void (*save)(const void* object, SnapshotWriter& writer) = nullptr; // Kept::Hooks
    void (*load)(void* object, SnapshotReader& reader) = nullptr;       // Kept::Hooks
    detail::Shared<const void> prototype; // actions: the object Do<X>(args...) built
};

/// How each character's copy of a T is made, moved and destroyed: a copy of
/// `prototype` if kFromPrototype, else default-constructed.
template <class T, bool kFromPrototype>
DataItem DataItemFor(std::uint32_t offset, detail::Shared<const void> prototype) {
    DataItem item;
    item.offset = offset;
    if constexpr (kFromPrototype)
        item.construct = [](void* at, const void* proto) { ::new (at) T(*static_cast<const T*>(proto)); };
    else
        item.construct = [](void* at, const void*) { ::new (at) T(); };
    item.relocate = [](void* dst, void* src) {
        T* from = static_cast<T*>(src);
        ::new (dst) T(std::move(*from));
        from->~T();
    };
    item.destroy = [](void* p) { static_cast<T*>(p)->~T(); };
    item.prototype = std::move(prototype);
    item.size = static_cast<std::uint32_t>(sizeof(T));
    item.type = TypeName<T>();
    static_assert(SavesItself<T> || !HasSaveOrLoad<T>,
                  "tickfsm: a state or action with a Save(tickfsm::SnapshotWriter&) const hook needs a "
                  "Load(tickfsm::SnapshotReader&) hook too, and the other way round: add the one it lacks");
    if constexpr (SavesItself<T>) {
        item.kept = Kept::Hooks;
        item.save = [](const void* object, SnapshotWriter& writer) { static_cast<const T*>(object)->Save(writer); };
        item.load = [](void* object, SnapshotReader& reader) { static_cast<T*>(object)->Load(reader); };
    } else if constexpr (std::is_trivially_copyable_v<T>) {
        item.kept = Kept::Bytes;
    } else if constexpr (std::is_empty_v<T>) { // an object only for its constructor's and destructor's effects
        item.kept = Kept::Hooks;
        item.save = [](const void*, SnapshotWriter&) {};
        item.load = [](void*, SnapshotReader&) {};
    } else {
        item.kept = Kept::No;
    }
    return item;
}

struct Prepare;

/// Which lane makes a change to `to` (see LaneAccepts).
enum class LaneMove : std::uint8_t {
    Here,  // the lane that runs holds `to`: it makes the change
    Outer, // an enclosing lane holds `to` (a region's state leaving the region): left in ctx.pending for it
    Inner, // a region of an active parallel state below this lane holds `to`: made there, now
};

/// The general path's code for features a machine may not use, set by the
/// configuration call that switches the feature on (SetPushCapacity,
/// SetPassThrough, SetRegions): a machine without the feature never
/// compiles its code. Null while the feature is off.
template <class C, class A>
struct FeatureCode {
    void (*push)(TickContext<C, A>&, StateIndex to) = nullptr;
    bool (*pop)(TickContext<C, A>&, std::size_t condition) = nullptr;
    void (*check_buried)(TickContext<C, A>&, StateIndex base, StateIndex to) = nullptr;
    void (*pass_through)(TickContext<C, A>&) = nullptr;
    LaneMove (*lane_accepts)(TickContext<C, A>&, StateIndex to, Cause, std::size_t condition, const Event*,
                             const Prepare&) = nullptr;
    bool (*enter_regions)(TickContext<C, A>&, StateIndex parallel) = nullptr;
    void (*exit_regions)(TickContext<C, A>&, StateIndex first_region) = nullptr;
    void (*tick_regions)(TickContext<C, A>&) = nullptr;
    void (*check_lanes)(const Table<C, A>&) = nullptr;
};

/// The cold part of a state: configuration, queries, the general path, tools.
template <class C, class A>
struct StateMeta {
    static_assert(kErased<C, A>, "tickfsm internal: a table's types are made for AnyController and AnyAction");
    std::string_view name;
    const void* key = nullptr;       // TypeKey of the state's type (or tag); null for a keyed state
    const void* type = nullptr;      // TypeKey of the class of its object (a keyed state's too)
    std::string_view type_name;      // that class's name, for messages
    const void* key_type = nullptr;  // keyed states: TypeKey of the key's type
    std::uint64_t key_value = 0;     // keyed states: the key
    detail::Owned<const Text> owned_name; // a keyed state's name when the key is a number
    bool has_data = false;
    bool takes_machine = false; // a hook takes the machine handle
    bool slow = false;          // set by Finalize: this state's tick runs on the general path
    bool has_enter = false;     // it has an OnStateEnter hook
    bool has_exit = false;      // it has an OnStateExit hook
    bool pass_through = false;  // SetPassThrough<S>(): its transitions are tried again as soon as it is entered
    std::uint32_t offset = 0;
    void (*init)(C&, std::byte*, std::uint32_t) = nullptr;
    bool (*can_enter)(const C&, std::byte*, std::uint32_t, const StateRef& from) = nullptr;
    bool (*can_exit)(const C&, std::byte*, std::uint32_t, const StateRef& to) = nullptr;
    HookFn<C, A> enter = nullptr;
    HookFn<C, A> perform = nullptr;
    HookFn<C, A> exit = nullptr;
    HookFn<C, A> pause = nullptr;  // OnStatePause, if it has one: buried by a push
    HookFn<C, A> resume = nullptr; // OnStateResume, if it has one: back on top after a pop
    typename NestedLink<C, A>::LevelFn perform_link = nullptr; // its Perform without the machine handle, if it has one
    typename NestedLink<C, A>::LevelFn perform_last = nullptr; // the same, ending the row
    PlainHookFn<C, A> plain_enter = nullptr; // its OnStateEnter without the machine handle, if it has one
    PlainHookFn<C, A> plain_exit = nullptr;  // its OnStateExit without the machine handle, if it has one
    NoneStepper<C, A> step_none; // the fast step when the state has no transitions
    List<ChainPtr<C, A>> chains;
    List<EventEdge> events;
    List<TypedEdge<C>> typed;
    List<ActionSlot<C, A>> actions;
};

template <class C, class A>
struct Table {
    static_assert(kErased<C, A>, "tickfsm internal: a table's types are made for AnyController and AnyAction");
    /// [dt, selfs, one step per state]: see StepWord. Steps() is what machines hold.
    List<StepWord<C, A>> words = List<StepWord<C, A>>(kStepHeaderWords);
    List<StepWord<C, A>> machine_words; // its StateManagers' steps, laid out as `words` (see Seat)
    List<const Stepper<C, A>*> selfs; // steps[kSelfsWord].selfs
    List<StateMeta<C, A>> meta;
    List<const void*> keys;
    List<DataItem> items;          // per-character copies, in construction order
    List<std::string_view> names;  // set by Finalize, by id (the Any pseudo-state's too)
    List<std::string_view> observed; // set by Finalize: the states alone (no Any), for Observer::OnInitialized
    std::size_t observed_initial = 0; // the initial state's place in `observed`
    List<TreeNode> tree;           // one per state: which state holds which (see tree.hpp)
    Owned<KeyedStates, DeleteInLibrary> keyed; // keyed states by key, for FindKey; made with the first
    float dt = 1.0f / 60.0f;
    StateIndex initial = kNoState;
    StateIndex any = kNoState;            // the Any pseudo-state, once FromAny() was called
    std::uint32_t stack = 0;              // with SetPushCapacity<N>(): the PushStack's offset in a character's data
    std::uint32_t stack_capacity = 0;     // N; 0 without SetPushCapacity
    std::uint32_t data_size = 0;
    std::uint32_t data_align = 1;
    List<std::uint8_t> slow_states;       // set by Finalize: 1 where a state's tick runs on the general path
    std::uint64_t fingerprint = 0;        // set by Finalize: what a snapshot of this configuration carries
    Text character;                       // the kind, as a ConfigError names it ("StateManager<Hero, Input>")
    bool finalized = false;
    bool keep_previous = false;           // KeepPreviousState(): every change records where it came from
    bool nested = false;                  // some state holds substates or regions: every tick takes the general path
    bool parallel = false;                // some state holds regions
    // Set by Finalize for a nested table without regions or push stack: a
    // composite's CompositeSlot holds its ticks up to the entry of the current
    // leaf, so that its time is that plus the leaf's ticks and a tick counts
    // the leaf alone (CompositeTicks). Every change that resets the leaf's
    // ticks first adds them to each of the leaf's composites (RebaseComposites).
    bool composite_bases = false;
    bool passing = false;                 // some state is a pass-through state
    bool uses_machine = false;            // set by Finalize: some hook may call NextState
    bool all_fast = false;                // set by Finalize: every state ticks on the fast path
    bool bare = false;                    // set by Finalize: no per-character data; steps are `bare`
    // Set by Finalize: a character's first tick runs no hook before the initial
    // state's step (no OnStateInit anywhere, no OnStateEnter on a fast initial
    // state), so it can start by writing its Runtime and take the fast path.
    bool quick_start = false;
    // Owners: every machine running on this table, plus the registry once it is shared.
    std::size_t refs = 1; // changed through AddOwner and DropOwner alone

    // Read by Describe and Validate alone, never by a tick; kept last so that
    // the members a tick reads stay where they are. What the builder said of
    // a transition beyond its chain (see NoteAlways, NoteName): the library's alone.
    Owned<EdgeNotes, DeleteInLibrary> notes;
    // The nested fast path's steppers and what they point into (see
    // NestedStepper): made and read by the library alone, set once a tree exists.
    Owned<NestedPlan, DeleteInLibrary> nested_plan;
    // Set by the first SetSubstates: a flat machine never compiles the nested fast path.
    void (*plan_nested)(Table&) = nullptr;
    FeatureCode<C, A> code;
    List<StateIndex> terminal; // SetTerminal<S>()
    List<Event> declared;      // DeclareEvent(...)

    /// Notes that edge `index` of chain `chain` of `from` has no condition (Always).
    void NoteAlways(StateIndex from, std::size_t chain, std::size_t index);
    /// Notes the name the builder gave the condition of edge `index` of chain `chain` of `from`.
    void NoteName(StateIndex from, std::size_t chain, std::size_t index, std::string_view name);
    /// The note of that edge, or null if the builder said nothing of it.
    const EdgeNote* FindNote(StateIndex from, std::size_t chain, std::size_t index) const noexcept;

    /// A table of the kind `who` names ("StateManager<Hero, Input>").
    Table(float fixed_dt, Text who);
    // Virtual: a kind's table (KindTable) is released through this type. Out
    // of line, so that only the library compiles it (see TICKFSM_DETAIL_ENGINE_TEMPLATES).
    virtual ~Table();

    /// The first state's step (see StepWord); valid once finalized, until the table changes.
    const StepWord<C, A>* Steps() const noexcept { return words.data() + kStepHeaderWords; }
    /// The steps a StateManager calls, all `machine` steps (see Seat), with the
    /// same header as Steps(); valid once finalized, until the table changes.
    const StepWord<C, A>* MachineSteps() const noexcept {
        return machine_words.data() + kStepHeaderWords;
    }
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    void Acquire() noexcept { AddOwner(refs); }
    static void Release(Table* table) noexcept {
        if (table && DropOwner(table->refs)) delete table;
    }

    /// Reports a mistake as a ConfigError naming the kind.
    [[noreturn]] void Fail(std::string_view what) const {
        ReportConfigError(KindMessage(character, what));
    }

    StateIndex Find(const void* key) const noexcept {
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key) return static_cast<StateIndex>(i);
        return kNoState;
    }

    std::string_view NameOf(StateIndex id) const noexcept {
        return id < meta.size() ? meta[id].name : std::string_view{};
    }

    /// Room for one more per-character object of type T; returns its offset.
    template <class T>
    std::uint32_t Place() {
        const std::uint32_t align = alignof(T);
        const std::uint32_t offset = (data_size + align - 1) / align * align;
        data_size = offset + static_cast<std::uint32_t>(sizeof(T));
        data_align = data_align > align ? data_align : align;
        return offset;
    }

    /// Add's part that does not depend on the state's class: the id of the
    /// state known by `identity` if there is one, else kNoState once `name`
    /// is checked (`class_name` names the class in a refusal) and every
    /// per-state list has room for one more (so that PushState cannot throw).
    [[TICKFSM_DETAIL_COLD]] StateIndex PrepareAdd(const void* identity, std::string_view name,
                                                  std::string_view class_name);
    /// Appends a state (and its per-character data item, if any) after PrepareAdd: its facts, to fill in.
    [[TICKFSM_DETAIL_COLD]] StateMeta<C, A>& PushState(const void* identity, std::string_view name,
                                                       DataItem* item) noexcept;

    /// Id of the keyed state `value` of key type `key_type`, or kNoState.
    StateIndex FindKey(const void* key_type, std::uint64_t value) const noexcept;
    /// State `id` becomes the keyed state `value` of key type `key_type`.
    void SetKey(StateIndex id, const void* key_type, std::uint64_t value);

    /// Undo the last Register (its data state could not be constructed).
    [[TICKFSM_DETAIL_COLD]] void PopLast() noexcept;

    /// Pick the step for every state and point each at its context. Run once the
    /// table's shape is final (before the first tick): contexts point into
    /// `meta`, which moves while states are being added.
    [[TICKFSM_DETAIL_COLD]] void Finalize();

    /// Gives the leaves that can take the nested fast path their
    /// NestedStepper (defined in lib/engine/nested_step.hpp).
    void PlanNested();
    /// What transition `index` of `chain` does when it fires from `leaf`
    /// (lib/engine/nested_step.hpp).
    NestedMove PlanMove(StateIndex leaf, const ChainBase<C, A>& chain, std::size_t index);
    /// Whether state `leaf` is still the leaf `fused` was compiled for (lib/engine/nested_step.hpp).
    bool FusedFits(const FusedLeaf& fused, StateIndex leaf) const;

    /// What a snapshot of this configuration holds per character; the
    /// fingerprint is set once the table is finalized.
    SnapshotLayout Layout() const noexcept {
        SnapshotLayout layout;
        layout.names = names;
        layout.items = items.data();
        layout.item_count = items.size();
        layout.data_size = data_size;
        layout.fingerprint = fingerprint;
        layout.tree = tree;
        layout.slow = slow_states;
        layout.stack_capacity = stack_capacity;
        layout.dt = dt;
        return layout;
    }

    /// A hash of what a snapshot's meaning depends on beyond the states' names
    /// and data: the tree, each state's transitions and events, the push stack.
    std::uint64_t Shape() const;

    /// A ConfigError names a transition that enters a region from outside it,
    /// or an initial state inside a region.
    void CheckLanes() const;

    /// Whether transition `i` of `chain`, a chain of `from`, asks the gates
    /// (from's CanExitState or its target's CanEnterState) before it fires.
    bool Gated(const StateMeta<C, A>& from, const ChainBase<C, A>& chain, std::size_t i) const noexcept {
        return !chain.forced[i] && (from.can_exit || meta[chain.targets[i].id].can_enter);
    }

    /// A reference to state `id` (or to none) for a gate.
    StateRef Ref(StateIndex id) const noexcept {
        if (id == kNoState) return {};
        return StateRef(keys[id], meta[id].name, StateId{id}, meta[id].key_type, meta[id].key_value);
    }

    /// Whether the gates let the machine go from `from` to `to`: from's
    /// CanExitState told `to`, then to's CanEnterState told `from`.
    bool Allowed(StateIndex from, StateIndex to, const C& c, std::byte* data) const;
    /// Whether `from`'s CanExitState lets a pop go back to the state buried
    /// last (which is resumed, not entered: its CanEnterState is not asked).
    bool PopAllowed(StateIndex from, const C& c, std::byte* data) const;

    /// Which state the conditions of `from` send the machine to after `ticks` ticks in it: the
    /// first whose condition holds and whose gates agree (forced ones skip them).
    /// For the any-state transitions, `leaf` is the current state: its gate is
    /// asked, and a transition into an active state is passed over. A
    /// ToWhenDone transition also waits for the current state `active` to be
    /// done: `done` (it called Machine::Done()), or its CanExitState agrees.
    Probed<C, A> Probe(StateIndex from, const C& c, const A& a, std::uint32_t ticks, std::byte* data,
                       StateIndex leaf = kNoState, StateIndex active = kNoState, bool done = false) const;

    /// Which state the conditions of the active path of `leaf` send the machine
    /// to: each state's transitions from the outermost state in, each with its
    /// own time in state (`leaf_ticks` for the leaf, its slot's for a composite,
    /// one tick on if `ahead`: a dry run sees the ticks the next tick will).
    /// A region's lane has no any-state transitions (`with_any` false): those are the machine's.
    Probed<C, A> ProbePath(StateIndex leaf, std::uint32_t leaf_ticks, const C& c, const A& a, std::byte* data,
                           bool ahead = false, bool done = false, bool with_any = true) const;

    /// The state outward of `s`: its parent, or (`across` regions) the
    /// parallel state that holds a region.
    StateIndex Outward(StateIndex s, bool across) const noexcept {
        if (tree[s].parent != kNoNode) return tree[s].parent;
        return across ? tree[s].owner : kNoState;
    }

    /// FromAny()'s transition on `event`, unless its target is active while
    /// `leaf` is the machine's current state (passed over, as FromAny()'s
    /// conditions are): offered an event before the active states are.
    const EventEdge* FindAnyEvent(StateIndex leaf, const Event& event, const std::byte* data) const noexcept {
        if (any == kNoState || leaf == kNoState) return nullptr;
        const EventEdge* edge = FindEvent(any, event);
        return edge && !Active(leaf, edge->to, data) ? edge : nullptr;
    }
    /// FromAny()'s first transition on the typed event of TypeKey `type` whose
    /// target is not active while `leaf` is current and whose guard holds.
    const TypedEdge<C>* FindAnyTyped(StateIndex leaf, const void* type, const C& c, const void* payload,
                                     const std::byte* data) const {
        if (any == kNoState || leaf == kNoState) return nullptr;
        for (const TypedEdge<C>& edge : meta[any].typed)
            if (edge.type == type && edge.to != kNoState && !Active(leaf, edge.to, data) &&
                (!edge.guard || edge.guard(edge.guard_object.get(), c, payload)))
                return &edge;
        return nullptr;
    }

    /// For a hook that runs outside the regions of `leaf` (a parallel state):
    /// `find(region_leaf)` in each active region, in the order written, a
    /// region's own regions before its path, as an event from outside reaches
    /// them; the first found, or null.
    template <class Find>
    auto FindInRegions(StateIndex leaf, const std::byte* data, Find& find) const -> decltype(find(leaf)) {
        decltype(find(leaf)) found = nullptr;
        if (!parallel || leaf == kNoState) return found;
        AnyEnteredRegion(leaf, data, [&](StateIndex, StateIndex lane_leaf) {
            found = FindInRegions(lane_leaf, data, find);
            if (!found) found = find(lane_leaf);
            return found != nullptr;
        });
        return found;
    }

    /// Calls `visit(region, region_leaf)` for each region of `leaf` that has a
    /// current state, in the order written, until it returns true; returns
    /// whether one did.
    template <class Visit>
    bool AnyEnteredRegion(StateIndex leaf, const std::byte* data, Visit&& visit) const {
        for (StateIndex r = tree[leaf].first_region; r != kNoNode; r = tree[r].next_region)
            if (const StateIndex lane_leaf = LaneOf(tree[r], data).state; lane_leaf != kNoState && visit(r, lane_leaf))
                return true;
        return false;
    }

    /// The transition for `event` of the innermost state of `leaf`'s active
    /// path that has one (the leaf first, then its parent, ...; `across`: on
    /// past a region to its parallel state and beyond), or null.
    const EventEdge* FindEventOutward(StateIndex leaf, const Event& event, bool across = false) const noexcept {
        for (StateIndex s = leaf; s != kNoState; s = Outward(s, across))
            if (const EventEdge* edge = FindEvent(s, event)) return edge;
        return nullptr;
    }

    /// The leaf entered on entering `state` with no history: its initial substate's, ...
    StateIndex InitialLeaf(StateIndex state) const noexcept {
        if (state != kNoState)
            while (tree[state].initial != kNoNode) state = tree[state].initial;
        return state;
    }

    /// Every state's name, by id.
    List<std::string_view> StateNames() const {
        List<std::string_view> list;
        list.reserve(meta.size());
        for (const StateMeta<C, A>& m : meta) list.push_back(m.name);
        return list;
    }

    /// "Combat/Attack": the active path of `leaf` ("" for none), regions in braces.
    Text PathText(StateIndex leaf, const std::byte* data) const {
        return detail::PathText(tree, StateNames(), leaf, data);
    }

    /// Every state but the Any pseudo-state, by id (StateManager::States()).
    List<StateInfo> DescribeStates() const;
    /// Every transition, the any-state ones first, then by state id, each
    /// state's in the order they are tried (StateManager::Transitions()).
    List<TransitionRule> DescribeTransitions() const;
    /// The whole table as one value (StateManager::Describe()).
    Description Describe() const;

    /// Whether the state of type S is active while `leaf` is the machine's
    /// current state: it is `leaf` or, nested, holds it, or it is active in a
    /// region of a parallel state that is.
    template <class S>
    bool IsIn(StateIndex leaf, const std::byte* data) const noexcept {
        static_assert(std::is_class_v<S>, "tickfsm: IsIn<S>() asks about a state's class, and S is not a class; "
                                          "for a keyed state, ask IsIn(key)");
        if (leaf == kNoState) return false;
        if (keys[leaf] == TypeKey<S>()) return true;
        return Active(leaf, Find(TypeKey<S>()), data);
    }

    /// Whether an event sent now, `leaf` current, would be taken: FromAny()'s
    /// transition on it, or one of an active state (any of them would take it).
    bool TakesEvent(StateIndex leaf, const Event& event, const std::byte* data) const noexcept {
        if (leaf == kNoState) return false;
        if (FindAnyEvent(leaf, event, data)) return true;
        for (std::size_t s = 0; s < meta.size(); ++s)
            if (s != any && FindEvent(static_cast<StateIndex>(s), event) && Active(leaf, static_cast<StateIndex>(s), data))
                return true;
        return false;
    }
    /// TakesEvent for the typed event of TypeKey `type`: a transition whose
    /// guard holds for `payload`, or a state that handles it in place.
    bool TakesTyped(StateIndex leaf, const void* type, const C& c, const void* payload, const std::byte* data) const {
        if (leaf == kNoState) return false;
        if (FindAnyTyped(leaf, type, c, payload, data)) return true;
        for (std::size_t s = 0; s < meta.size(); ++s) {
            if (s == any || !Active(leaf, static_cast<StateIndex>(s), data)) continue;
            for (const TypedEdge<C>& edge : meta[s].typed)
                if (edge.type == type && (!edge.guard || edge.guard(edge.guard_object.get(), c, payload))) return true;
        }
        return false;
    }

    /// IsIn for the keyed state of key `value` of type `key_type`.
    bool IsInKey(StateIndex leaf, const void* key_type, std::uint64_t value, const std::byte* data) const noexcept {
        if (leaf == kNoState) return false;
        if (meta[leaf].key_type == key_type && meta[leaf].key_value == value) return true;
        const StateIndex id = nested ? FindKey(key_type, value) : kNoState;
        return id != kNoState && Active(leaf, id, data);
    }

    /// Whether `state` is active while `leaf` is the machine's current state (see IsIn).
    bool Active(StateIndex leaf, StateIndex state, const std::byte* data) const noexcept {
        if (!parallel) return Within(leaf, state);
        return state != kNoState && IsActive(tree, data, leaf, state);
    }

    /// Writes the leaves pushes buried in a character's `data` to `out`, the
    /// one buried first first, as many as fit; returns how many are buried.
    std::size_t BuriedStates(std::byte* data, std::span<StateId> out) const noexcept {
        if (stack_capacity == 0) return 0;
        const std::uint32_t count = BuriedCount(data, stack);
        const Buried* entries = BuriedEntries(data, stack);
        for (std::size_t i = 0; i < count && i < out.size(); ++i) out[i] = StateId{entries[i].leaf};
        return count;
    }

    /// Whether `region` runs while `leaf` is the machine's current state: its
    /// parallel state is active, so the region's own lane makes a change into it.
    bool RegionRuns(StateIndex leaf, StateIndex region, const std::byte* data) const noexcept {
        return region != kNoState && Active(leaf, tree[region].owner, data);
    }

    /// The ticks `state` has been active while `leaf` is the machine's current state (0 if it is not active).
    std::uint32_t TicksOf(StateIndex leaf, std::uint32_t leaf_ticks, StateIndex state, std::byte* data) const noexcept {
        if (state == leaf) return leaf_ticks;
        if (!Active(leaf, state, data)) return 0;
        if (tree[state].initial != kNoNode) return CompositeTicks(state, leaf_ticks, data);
        return LaneOf(tree[RegionOf(tree, state)], data).ticks; // active and a leaf: its region's current state
    }

    /// The ticks of composite `state`, active while the current leaf has `leaf_ticks` (see composite_bases).
    std::uint32_t CompositeTicks(StateIndex state, std::uint32_t leaf_ticks, const std::byte* data) const noexcept {
        const std::uint32_t slot = reinterpret_cast<const CompositeSlot*>(data + tree[state].slot)->ticks;
        return composite_bases ? SumTicks(slot, leaf_ticks) : slot;
    }

    /// Before the current leaf's ticks restart (a change): each composite
    /// above `leaf` keeps the time it has (see composite_bases). A composite
    /// that is itself current (its enter hook threw, or asked for a change)
    /// ticked as a leaf, so its slot takes those ticks: a change into its
    /// substate does not re-enter it, and its time goes on.
    void RebaseComposites(StateIndex leaf, std::uint32_t leaf_ticks, std::byte* data) const noexcept {
        if (!nested || leaf == kNoState) return;
        if (tree[leaf].initial != kNoNode) {
            std::uint32_t& own = SlotOf(tree[leaf], data).ticks;
            own = SumTicks(own, leaf_ticks);
        }
        if (!composite_bases) return;
        for (StateIndex s = tree[leaf].parent; s != kNoState; s = tree[s].parent) {
            std::uint32_t& ticks = SlotOf(tree[s], data).ticks;
            ticks = SumTicks(ticks, leaf_ticks);
        }
    }

    /// The typed-event transition for a value of type `type` (its TypeKey):
    /// from `leaf` outward, the first on that type whose guard holds for
    /// `payload`; `holder` is set to the state that has it. Null if none.
    const TypedEdge<C>* FindTypedOutward(StateIndex leaf, const void* type, const C& c, const void* payload,
                                         StateIndex& holder, bool across = false) const {
        for (StateIndex s = leaf; s != kNoState; s = Outward(s, across))
            for (const TypedEdge<C>& edge : meta[s].typed)
                if (edge.type == type && (!edge.guard || edge.guard(edge.guard_object.get(), c, payload))) {
                    holder = s;
                    return &edge;
                }
        return nullptr;
    }

    /// Whether `state` is `leaf` or one of its ancestors: active while `leaf` is.
    bool Within(StateIndex leaf, StateIndex state) const noexcept {
        if (leaf == state) return true;
        return nested && leaf != kNoState && IsWithin(tree, leaf, state);
    }

    /// The transition state `from` has for `event`, or null.
    const EventEdge* FindEvent(StateIndex from, const Event& event) const noexcept {
        for (const EventEdge& edge : meta[from].events)
            if (edge.event == event) return &edge;
        return nullptr;
    }

};

template <class C, class A>
Table<C, A>::Table(float fixed_dt, Text who) : dt(fixed_dt), character(std::move(who)) {}
template <class C, class A>
Table<C, A>::~Table() = default;

/// A state's hooks on the general path (defined in tick.hpp).
template <class C, class A, class S>
void EnterHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset);
template <class C, class A, class S>
void PerformHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset);
template <class C, class A, class S>
void ExitHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset);
template <class C, class A, class S>
void PauseHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset);
template <class C, class A, class S>
void ResumeHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset);

/// A state's gates as the table calls them.
template <class C, class S>
bool CanEnterGate(const AnyController& c, std::byte* data, std::uint32_t offset, const StateRef& from) {
    return static_cast<bool>(StateObject<S>(data, offset).CanEnterState(Real<C>(c), from));
}
template <class C, class S>
bool CanExitGate(const AnyController& c, std::byte* data, std::uint32_t offset, const StateRef& to) {
    return static_cast<bool>(StateObject<S>(data, offset).CanExitState(Real<C>(c), to));
}

/// The table of the machines of one kind, StateManager<C, A>: the table
/// (compiled once, for AnyController and AnyAction) and what only the kind's
/// own types can write into it, its states' hooks and its name.
template <class C, class A>
struct KindTable final : Table<AnyController, AnyAction> {
    explicit KindTable(float fixed_dt) : Table<AnyController, AnyAction>(fixed_dt, CharacterName()) {}

    static Text CharacterName() { return MessageText(Message::StateManagerName, TypeName<C>(), TypeName<A>()); }
    /// Reports a mistake of this kind as a ConfigError, where no table is at hand.
    [[noreturn]] static void Fail(std::string_view what) {
        ReportConfigError(KindMessage(CharacterName(), what));
    }

    /// Id of S, adding S to the table if it is new.
    template <class S>
    StateIndex Register() {
        return Add<S, false>(TypeKey<S>(), StateName<S>(), nullptr);
    }

    /// Adds a state of class S known by `identity` (its TypeKey, a tag's, or null
    /// for a keyed state) and `name`; each character's object is a copy of
    /// `prototype` if kFromPrototype, else default-constructed.
    template <class S, bool kFromPrototype>
    [[TICKFSM_DETAIL_COLD]] StateIndex Add(const void* identity, std::string_view name,
                                           detail::Shared<const S> prototype) {
        static_assert(CheckState<S, C, A>());
        static_assert(alignof(S) <= 64, "tickfsm: a state aligned to more than 64 bytes is not supported; lower its "
                                        "alignas or keep the over-aligned data behind a pointer");
        if (const StateIndex found = PrepareAdd(identity, name, TypeName<S>()); found != kNoState) return found;
        DataItem item;
        std::uint32_t offset = 0;
        if constexpr (!kStateless<S>) {
            offset = Place<S>();
            item = DataItemFor<S, kFromPrototype>(offset, std::move(prototype));
        }
        // Nothing below throws: PrepareAdd made room.
        StateMeta<AnyController, AnyAction>& m = PushState(identity, name, kStateless<S> ? nullptr : &item);
        m.offset = offset;
        m.type = TypeKey<S>();
        m.type_name = TypeName<S>();
        m.takes_machine = kTakesMachine<S, C, A>;
        m.has_enter = HasOnStateEnter<S, C, A> || HasOnStateEnterM<S, C, A>;
        m.has_exit = HasOnStateExit<S, C, A> || HasOnStateExitM<S, C, A>;
        if constexpr (HasCanEnterState<S, C>) m.can_enter = &CanEnterGate<C, S>;
        if constexpr (HasCanExitState<S, C>) m.can_exit = &CanExitGate<C, S>;
        if constexpr (HasOnStateInit<S, C>)
            m.init = [](AnyController& c, std::byte* data, std::uint32_t at) {
                StateObject<S>(data, at).OnStateInit(Real<C>(c));
            };
        m.enter = &EnterHook<C, A, S>;
        m.perform = &PerformHook<C, A, S>;
        m.exit = &ExitHook<C, A, S>;
        if constexpr (HasOnStatePause<S, C, A> || HasOnStatePauseM<S, C, A>) m.pause = &PauseHook<C, A, S>;
        if constexpr (HasOnStateResume<S, C, A> || HasOnStateResumeM<S, C, A>) m.resume = &ResumeHook<C, A, S>;
        if constexpr (HasPerform<S, C, A>) {
            m.perform_link = &PerformLevel<C, A, S>;
            m.perform_last = &PerformLast<C, A, S>;
        }
        if constexpr (HasOnStateEnter<S, C, A>) m.plain_enter = &PlainEnter<C, A, S>;
        if constexpr (HasOnStateExit<S, C, A>) m.plain_exit = &PlainExit<C, A, S>;
        m.step_none.step = &StepNone<C, A, S>;
        if constexpr (kStateless<S>) m.step_none.bare = &StepNoneBare<C, A, S>;
        m.step_none.machine = &StepNoneMachine<C, A, S>;
        m.step_none.offset = offset;
        if constexpr (std::is_same_v<S, Any>) any = static_cast<StateIndex>(meta.size() - 1);
        return static_cast<StateIndex>(meta.size() - 1);
    }

};

} // namespace tickfsm::detail
