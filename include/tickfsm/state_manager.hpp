#pragma once
#define TICKFSM_STATE_MANAGER_HPP
// StateManager<Controller, Action>: the fluent, fixed-tick state machine of
// tickfsm. Subclass it per character, configure transitions in the
// constructor, call Perform once per fixed tick.
//
// The class below is the whole interface, read top to bottom. The longer
// members are defined by job in detail/: manager_states.hpp (states and
// transitions by type), manager_keyed.hpp (keyed and delegate states),
// manager_control.hpp (acting from outside a tick), manager_buffers.hpp
// (what input buffers ask) and manager_queries.hpp (questions, the dry
// run). What they work on lives beside them:
// detail::ManagerStorage (the per-character block and its state data),
// detail::ManagerConfig (configuration checks, the shared configuration path)
// and detail::ManagerEngine (the tick's context, the Seat's step, snapshots).

#include <cstddef>
#include <cstring>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/format.hpp"
#include "list.hpp"

#include "builders.hpp"
#include "config_error.hpp"
#include "detail/config.hpp"
#include "detail/manager_config.hpp"
#include "detail/manager_engine.hpp"
#include "detail/manager_storage.hpp"
#include "detail/table.hpp"
#include "detail/engine.hpp"
#include "detail/traits.hpp"
#include "event.hpp"
#include "machine.hpp"
#include "observer.hpp"
#include "state_ref.hpp"

namespace tickfsm {

template <class Controller, class Action>
class StateManager;

template <class Manager>
class Crowd;
template <class Controller, class Action>
class InputBuffer;
template <class Controller, class Action, std::size_t Capacity>
class InputSequenceBuffer;

/// A finite state machine driving one `Controller` (the character) with one
/// `Action` (the input of a tick). States are small classes with optional hooks
/// `OnStateEnter`, `Perform` and `OnStateExit`, each `(Controller&, const Action&)`.
///
/// Machines configured the same way (same state types, captureless conditions)
/// share one immutable transition table: the per-character cost is a pointer to
/// the controller, one to the table, one to the states' data, and the current
/// state with its tick count.
template <class Controller, class Action>
class StateManager {
public:
    using ControllerType = Controller;
    using ActionType = Action;

    /// Refers to `character`, its controller (does not own it); ticks are `fixed_dt` seconds long.
    explicit StateManager(Controller& character, float fixed_dt = 1.0f / 60.0f) : bound_controller(&character) {
        if (!detail::PositiveFinite(fixed_dt))
            MachineTable::Fail(detail::MessageText(detail::Message::FixedDtInvalid, fixed_dt));
        machine_seat.home = ManagerStorage::NewBlock(0, alignof(ManagerBlock));
        OwnBlock()->node = detail::RegistryOf<Controller, Action>().Root(fixed_dt);
        OwnBlock()->dt = fixed_dt;
    }

    // A machine is bound to its controller and its conditions may capture `this`:
    // copying or moving one would leave those pointing at the old object.
    StateManager(const StateManager&) = delete;
    StateManager& operator=(const StateManager&) = delete;

    ~StateManager() {
        ManagerStorage::ReleaseData(machine_seat);
        MachineTable* table = CurrentTable();
        if (ManagerBlock* block = BlockIfAny()) ManagerStorage::FreeBlock(block);
        MachineTable::Release(table);
    }

    /// Declares the state the machine starts in (entered on the first Perform)
    /// and returns the builder of its transitions.
    template <class S>
    TransitionBuilder<Controller, Action, S> SetInitialState();

    /// Returns the builder of transitions from S; several calls for one S append in order.
    template <class S>
    TransitionBuilder<Controller, Action, S> From();

    /// Returns the builder of the any-state transitions: tried before every
    /// other transition on every tick, in the order written, whatever the
    /// current state; one whose target is active (the current state, or a
    /// composite that holds it) is passed over. The current state's
    /// CanExitState and the target's CanEnterState are asked; conditions get
    /// the current state's time. A machine with any-state transitions ticks on
    /// the general path.
    TransitionBuilder<Controller, Action, detail::Any> FromAny() { return From<detail::Any>(); }

    /// Configures the machine from a compile-time machine's transitions
    /// (tickfsm/static_machine.hpp), as if their words were written here:
    /// its `SetSubstates<Parent, ...>()` calls, `SetInitialState<S>()` and each
    /// `From<S>()` with its `To<T>(condition)` calls, in order. One flat
    /// constant can then drive a StaticCrowd and this machine, with its
    /// observer and trace; a nested one gives each leaf of this kind a step
    /// compiled for its whole active path. More configuration may follow
    /// (events, actions, gates), as after the words themselves; a machine that
    /// has an initial state already, or has ticked, refuses it (ConfigError).
    template <class Transitions>
    void Configure(const Transitions&) {
        static_assert(detail::ReplayableTransitions<Transitions>,
                      "tickfsm: StateManager::Configure(transitions) takes the constant of a compile-time machine "
                      "(tickfsm::Transitions<Controller, Action>().SetInitialState<S>()...): pass that constant, and "
                      "#include <tickfsm/static_machine.hpp> (not in the umbrella header)");
        if constexpr (detail::ReplayableTransitions<Transitions>) detail::StaticReplay<Transitions>::Apply(*this);
    }

    /// One fixed tick: (first time) enter the initial state; count the tick; try
    /// the current state's transitions in order, firing the first that holds;
    /// then the current state performs.
    void Perform(const Action& action) {
        if (FastFlags() != kFastByte) [[unlikely]]
            return SlowTick(action);
        FastScope busy(FastFlags());
        reinterpret_cast<detail::MachineStepFn<detail::AnyController, detail::AnyAction>>(machine_seat.step)(
            detail::EraseController(*bound_controller), detail::EraseAction(action), machine_seat.rt);
    }

    /// Changes to T now if the gates agree (the current state's CanExitState
    /// told T, T's CanEnterState told the current state): exit, enter, ticks
    /// reset. No change if already in T. `args`, if any, build a fresh T before
    /// it is entered. A machine not started yet starts in T. Hooks receive
    /// `Action{}`. From inside a hook, use the hook's tickfsm::Machine parameter.
    template <class T, class... Args>
    bool TrySetState(Args&&... args) {
        return MakeChange<T>(detail::Direct::Try, "TrySetState", std::forward<Args>(args)...);
    }
    /// Like TrySetState, but re-enters T if it is the current state.
    template <class T, class... Args>
    bool TryResetState(Args&&... args) {
        return MakeChange<T>(detail::Direct::TryReset, "TryResetState", std::forward<Args>(args)...);
    }
    /// Changes to T now, skipping the gates (re-enters T if it is the current state).
    template <class T, class... Args>
    void ForceSetState(Args&&... args) {
        MakeChange<T>(detail::Direct::Force, "ForceSetState", std::forward<Args>(args)...);
    }

    /// Configuration: remember, on every change, the state it came from, for
    /// PreviousState and RevertToPreviousState (seed 004). The machine's ticks
    /// then take the general path.
    void KeepPreviousState();

    /// The state the last change came from (not Valid() before the second state).
    /// Needs KeepPreviousState() in the configuration.
    StateRef PreviousState() const;

    /// Goes back to PreviousState() through the gates (TrySetState), or past
    /// them with `force`. Returns whether the state changed; with no previous
    /// state it does nothing and returns false.
    template <class A = Action> // a template so that explicit instantiation does not require Action{}
    bool RevertToPreviousState(bool force = false) {
        if (!ResolvedTable().keep_previous)
            MachineTable::Fail(detail::MessageText(detail::Message::RevertNeedsPreviousState));
        if (InsideOwnTick()) // refused whether or not there is a state to go back to
            MachineTable::Fail(detail::MessageText(detail::Message::ChangeInsideHook, "RevertToPreviousState",
                                                   ManagerEngine::CurrentName(machine_seat)));
        const detail::StateIndex previous = PreviousState().Id().value;
        if (previous == detail::kNoState) return false;
        return MakeChangeTo<A>(previous, force ? detail::Direct::Force : detail::Direct::Try,
                                 "RevertToPreviousState", detail::Prepare{});
    }

    /// Sets the global state (seed 004): its Perform runs every tick, before the
    /// current state's, beside whatever state is current. The old global state
    /// (if any) is exited, G entered, both with `Action{}`. Ticks with a global
    /// state take the general path.
    template <class G>
    void SetGlobalState();
    /// Exits the global state, if any; ticks go back to the fast path.
    template <class A = Action> // a template so that explicit instantiation does not require Action{}
    void ClearGlobalState() {
        ChangeGlobal<A>(detail::kNoState);
    }
    /// The global state's name, or empty.
    std::string_view GlobalStateName() const;

    /// Initializes the machine now rather than on the first Perform: closes the
    /// configuration, runs every state's OnStateInit in order and tells the
    /// observer (seed 002's InitFSM). The initial state is still entered by the
    /// first Perform. Calling it again does nothing.
    void Initialize();

    /// Sends `event` from outside a tick: if FromAny() or the current state
    /// (nested: the innermost active state that has one) has a transition on
    /// it, the machine changes state now (exit, enter, ticks reset) and this
    /// returns true; otherwise nothing changes, the observer hears of it, and
    /// this returns false. `action` is what the exit and enter hooks receive.
    /// From inside a hook, use the hook's tickfsm::Machine parameter instead.
    bool SendEvent(const Event& event, const Action& action);

    /// SendEvent with a default-constructed Action for the hooks.
    bool SendEvent(const Event& event)
        requires std::is_default_constructible_v<Action>
    {
        return SendEvent(event, Action{});
    }

    /// Sends a typed event, a value of class E (`SendEvent(Hit{.damage = 30})`),
    /// from outside a tick: FromAny()'s transitions on E first, then from the
    /// current state outward, the first whose guard holds takes it now, its target
    /// receiving the payload in `OnEvent(Controller&, const E&)`; or a state
    /// that handles E in place receives it. Returns false (and the observer
    /// hears of it, as of an unhandled event) when no state takes it.
    template <class E>
        requires detail::TypedEventValue<E>
    bool SendEvent(const E& event, const Action& action);
    /// The typed SendEvent with a default-constructed Action for the hooks.
    template <class E>
        requires detail::TypedEventValue<E> && std::is_default_constructible_v<Action>
    bool SendEvent(const E& event) {
        return SendEvent(event, Action{});
    }

    /// Attaches `observer` (or detaches, with nullptr), which hears what this
    /// machine does under `name` (copied, so a temporary will do; empty:
    /// "StateManager"). A machine without an observer pays nothing for the
    /// feature; with one, every tick takes the general path.
    void SetObserver(Observer* observer, std::string_view name = {});

    /// Back to the initial state, entered on the next Perform. No hook runs now:
    /// the current state's exit is not called and state objects keep their data
    /// (Restore a snapshot saved before the first Perform to clear it).
    void Reset();

    /// True when S is the current state, or holds it (nested states); false
    /// before the first Perform.
    template <class S>
    bool IsIn() const noexcept {
        // Not started: there may be no table yet.
        return machine_seat.rt.state != detail::kNoState && CurrentTable()->template IsIn<S>(machine_seat.rt.state, MachineStateData());
    }

    /// This machine's one object of state S (added as a state if not configured yet).
    template <class S>
    S& State();

    // --- nested states ------------------------------------------------------

    /// Configuration: Parent holds Initial and Others as its substates, Initial
    /// first entered. While a substate is active its parent is too: the
    /// parent's transitions are tried before the substate's, and it performs
    /// before it. Entering Parent enters Initial (or Parent's history, see
    /// SetHistory). A substate may hold substates in turn. Nested machines tick
    /// on the general path and get a private table. A state listed twice,
    /// under two parents or as its own ancestor is a ConfigError.
    template <class Parent, class Initial, class... Others>
    void SetSubstates();

    /// Configuration: Parallel holds Regions, all active at once while it is
    /// (e.g. a character's legs and arms). Each region is a state of its own,
    /// usually holding substates, with its own active path and time: entering
    /// Parallel enters every region in order, each down to its initial state
    /// (or history); each tick runs Parallel's path, then each region's
    /// transitions and Perform in order; an event sent to the machine reaches
    /// every region. A region's transitions stay in it or leave Parallel; a
    /// transition from outside cannot enter a region's middle (ConfigError).
    template <class Parallel, class... Regions>
    void SetRegions();

    /// Configuration: what composite state S re-enters when it is entered again
    /// (History::None: its initial substate; Shallow: the substate it held when
    /// it was last left; Deep: the whole path it held). Set it after
    /// SetSubstates<S, ...>(); on a state without substates it is a ConfigError.
    template <class S>
    void SetHistory(History history);

    /// Configuration: S is a pass-through state: on a tick that enters it, its
    /// transitions (the whole active path's, any-state ones first) are tried
    /// again at once, with its time 0, so it can route the machine on in the
    /// same tick; it performs only if none holds. A tick that passes through
    /// one state twice is a loop, a ConfigError naming the states. The
    /// machine then ticks on the general path.
    template <class S>
    void SetPassThrough();

    // --- push and pop (seed 002's bury and unbury) ----------------------------

    /// Configuration: each character can bury up to N states under pushes
    /// (its stack lives in the machine's data: no allocation when pushing).
    /// Pushes and pops need it; setting it twice is a ConfigError. A machine
    /// with a push stack ticks on the general path.
    template <std::size_t N>
    void SetPushCapacity();

    /// Buries the current state (its active path, paused innermost first by
    /// OnStatePause: not exited, its object and time kept) and enters T on
    /// top, now. A full stack, T already active or buried, or a machine not
    /// started are ConfigErrors. Hooks receive `Action{}`; from a hook, use its
    /// tickfsm::Machine parameter. As a transition: `From<S>().Push<T>(cond)`.
    template <class T, class A = Action>
    void Push();
    /// Exits the top state's active path (innermost first) and makes the state
    /// buried last current again, with its time, its path resumed outermost
    /// first by OnStateResume. Popping with nothing buried is a ConfigError.
    /// As a transition: `From<S>().Pop(cond)`.
    template <class A = Action>
    void Pop() {
        ChangeStack<A>(machine_seat.rt.state, Cause::Pop, "Pop");
    }
    /// How many states pushes keep buried now.
    std::size_t BuriedCount() const;
    /// Writes the buried states to `out`, the one buried first first (a pop
    /// returns to the last), as many as fit; returns how many are buried. Each
    /// is the leaf a push buried; its ancestors were buried with it.
    std::size_t BuriedStates(std::span<StateId> out) const;

    /// The seconds S has been active: the current state's TimeInState(), or a
    /// composite's that holds it (which runs on while its substates change);
    /// 0 when S is not active.
    template <class S>
    double TimeInState() const {
        return detail::SecondsOf(TicksInState<S>(), FixedDeltaTime());
    }
    /// The ticks S has been active (see TimeInState<S>()).
    template <class S>
    std::uint32_t TicksInState() const;

    /// The active path as text, outermost first: "Combat/Attack" ("" before the first Perform).
    Text ActivePath() const {
        if (machine_seat.rt.state == detail::kNoState) return {}; // not started: the table is not needed
        return ResolvedTable().PathText(machine_seat.rt.state, MachineStateData());
    }

    /// Writes the active states to `out`, outermost first (the current state
    /// last), as many as fit; returns how many states are active.
    std::size_t ActiveStates(std::span<StateId> out) const;

    /// Every state of the machine by id: name, parent, initial substate,
    /// history, pass-through, and which one the machine starts in.
    List<StateInfo> States() const { return ResolvedTable().DescribeStates(); }
    /// Every transition: the any-state ones first, then each state's in the
    /// order they are tried (conditions, then events, then typed events).
    List<TransitionRule> Transitions() const { return ResolvedTable().DescribeTransitions(); }
    /// The whole table as one value: States(), Transitions(), the declared
    /// events, the push capacity, the global state now, titled with the
    /// observer's name if one was given. Its names stay valid while the machine lives.
    Description Describe() const;
    /// What cannot work as written in this machine's table (tickfsm::Validate(Describe())).
    List<Finding> Validate() const { return tickfsm::Validate(Describe()); }

    /// Configuration: S is meant to be a state the machine never leaves (a
    /// death, an end screen): Validate() does not report its lack of a way out.
    template <class S>
    void SetTerminal();
    /// Configuration: `event` is one this machine expects to be sent;
    /// Validate() reports a declared event that no state has a transition on.
    /// Sending works the same whether or not it is declared.
    void DeclareEvent(const Event& event);
    /// DeclareEvent for typed event E (a class sent as a value).
    template <class E>
        requires detail::TypedEventValue<E>
    void DeclareEvent() {
        DeclareEvent(detail::TypedEvent<E>());
    }

    /// The state that holds state `id`; not Valid() for a top-level state.
    StateId ParentOf(StateId id) const;

    // --- snapshots ------------------------------------------------------------

    /// The machine's whole state as a value (see Snapshot): restore it with
    /// Restore. A state or action whose data is neither trivially copyable nor
    /// has Save and Load hooks is a ConfigError naming it. Like the first
    /// Perform, Save and Restore close the configuration.
    Snapshot Save() const {
        Snapshot snapshot;
        SaveInto(snapshot);
        return snapshot;
    }
    /// Save() into `snapshot`, reusing its memory: no allocation once it is large enough.
    void SaveInto(Snapshot& snapshot) const { ManagerEngine::Save(machine_seat, snapshot); }
    /// Puts the machine back exactly as it was when `snapshot` was saved: no
    /// hook runs, and the next Perform with the same input and controller
    /// does what it did then. A snapshot of another configuration (another
    /// kind of character, a state added or reordered, other data) is a
    /// ConfigError naming what differs, and the machine is left as it was.
    void Restore(const Snapshot& snapshot) { ManagerEngine::Restore(machine_seat, snapshot); }

    // --- keyed states (seed 003's StateMachine<TKey, TState>) -------------------

    /// Registers an object of class S under `key` (a value of your enum, or an
    /// integer), built from `args` (each character gets a copy) or
    /// default-constructed. Two keys may hold two objects of one class. A key
    /// registered twice is a ConfigError. Keyed machines get a private table.
    template <class S, class K, class... Args>
        requires StateKey<K>
    void AddState(K key, Args&&... args);

    /// Registers a state made of lambdas under `key`; give its hooks on the returned builder.
    template <class K>
        requires StateKey<K>
    DelegateBuilder<Controller, Action> AddDelegateState(K key);

    /// Registers a state made of lambdas under the type tag `Tag` (IsIn<Tag>(),
    /// TrySetState<Tag>() and From<Tag>() then name it).
    template <class Tag>
    DelegateBuilder<Controller, Action> AddDelegateState();

    /// The keyed state the machine starts in; returns the builder of its transitions.
    template <class K>
        requires StateKey<K>
    KeyedTransitionBuilder<Controller, Action> SetInitialState(K key);

    /// Returns the builder of transitions from the keyed state `key`.
    template <class K>
        requires StateKey<K>
    KeyedTransitionBuilder<Controller, Action> From(K key);

    /// SetTerminal for the keyed state `key` (registered already).
    template <class K>
        requires StateKey<K>
    void SetTerminal(K key);
    /// SetSubstates for keyed states (registered already), the initial one
    /// first; the substates' keys may be of another type than the parent's.
    template <class K, class KS>
        requires StateKey<K> && StateKey<KS>
    void SetSubstates(K parent, std::initializer_list<KS> substates);
    /// SetRegions for keyed states (registered already), in order.
    template <class K, class KS>
        requires StateKey<K> && StateKey<KS>
    void SetRegions(K parallel, std::initializer_list<KS> regions);
    /// SetHistory for the keyed composite state `key`.
    template <class K>
        requires StateKey<K>
    void SetHistory(K key, History history);
    /// TrySetState for a keyed state.
    template <class K>
        requires StateKey<K>
    bool TrySetState(K key) {
        return MakeChangeTo(KeyedIndex(key, "TrySetState"), detail::Direct::Try, "TrySetState", detail::Prepare{});
    }
    /// TryResetState for a keyed state.
    template <class K>
        requires StateKey<K>
    bool TryResetState(K key) {
        return MakeChangeTo(KeyedIndex(key, "TryResetState"), detail::Direct::TryReset, "TryResetState",
                              detail::Prepare{});
    }
    /// ForceSetState for a keyed state.
    template <class K>
        requires StateKey<K>
    void ForceSetState(K key) {
        MakeChangeTo(KeyedIndex(key, "ForceSetState"), detail::Direct::Force, "ForceSetState", detail::Prepare{});
    }
    /// ForceSetState for the state `id` (from IdOf, States() or ActiveStates):
    /// what a tool that only knows ids (an inspector's button) calls. An id
    /// that is not a state of this machine is a ConfigError.
    template <class A = Action> // a template so that explicit instantiation does not require Action{}
    void ForceSetState(StateId id) {
        MakeChangeTo<A>(CheckedIndex(id, "ForceSetState"), detail::Direct::Force, "ForceSetState", detail::Prepare{});
    }
    /// TicksInState<S>() for the state `id`: the current state's ticks, or a
    /// composite's that holds it; 0 when the state is not active.
    std::uint32_t TicksInState(StateId id) const;
    /// True when the keyed state `key` is current, or holds it (nested states).
    template <class K>
        requires StateKey<K>
    bool IsIn(K key) const noexcept;
    /// The current state's key; a ConfigError if the current state has no key of type K.
    template <class K>
        requires StateKey<K>
    K CurrentKey() const;
    /// Character data of the keyed state `key` (of class S).
    template <class S, class K>
        requires StateKey<K>
    S& State(K key);

    /// Seconds in the current state: TicksInState() * fixed_dt in double, with no drift.
    double TimeInState() const noexcept { return detail::SecondsOf(TicksInState(), FixedDeltaTime()); }
    /// Ticks counted in the current state (0 on the tick it was entered).
    std::uint32_t TicksInState() const noexcept {
        // Not started, the count is the states initialized so far (Initialize).
        return machine_seat.rt.state == detail::kNoState ? 0 : machine_seat.rt.ticks;
    }
    /// The current state's `Name`, or its class name; empty before the first Perform.
    std::string_view CurrentStateName() const noexcept {
        return machine_seat.rt.state == detail::kNoState ? std::string_view{} : CurrentTable()->NameOf(machine_seat.rt.state);
    }
    /// The current state's id (not Valid() before the first Perform).
    StateId CurrentState() const noexcept { return StateId{machine_seat.rt.state}; }
    /// Name of any state of this machine.
    std::string_view StateName(StateId id) const { return ResolvedTable().NameOf(id.value); }
    /// Id of S in this machine (not Valid() if S is not one of its states).
    template <class S>
    StateId IdOf() const {
        return StateId{ResolvedTable().Find(detail::TypeKey<S>())};
    }
    /// Number of states configured.
    std::size_t StateCount() const;
    /// The fixed tick length in seconds.
    float FixedDeltaTime() const noexcept { return ManagerStorage::Dt(machine_seat); }
    /// False before the first Perform and after Reset.
    bool IsStarted() const noexcept { return (machine_seat.rt.flags & detail::kStarted) != 0; }
    /// True when this machine runs on a table shared with every machine configured
    /// the same way (all its conditions are captureless lambdas, functions or empty functors).
    bool SharesTable() const;

    Controller& GetController() noexcept { return *bound_controller; }
    const Controller& GetController() const noexcept { return *bound_controller; }

    /// Dry run: the state the next Perform would move to, or an id that is not
    /// Valid() if it would stay, without calling any hook. Before the first
    /// Perform it tries the initial state's transitions as if it had just
    /// been entered. A pass-through state on the way is passed through, as
    /// Perform does: the answer is where the tick ends.
    StateId WouldTransition(const Action& action) const;

    /// Dry run of SendEvent(event): whether FromAny() or an active state has a
    /// transition on `event` now (UnityHFSM's HasAction). No hook runs; false
    /// before the first Perform.
    bool WouldTakeEvent(const Event& event) const noexcept;
    /// Dry run of the typed SendEvent(value): whether a transition on E whose
    /// guard holds for `value`, or an active state that handles E in place,
    /// would take it now. Guards are called; no hook runs.
    template <class E>
        requires detail::TypedEventValue<E>
    bool WouldTakeEvent(const E& value) const;

private:
    using ManagerStorage = detail::ManagerStorage<Controller, Action>;
    using ManagerConfig = detail::ManagerConfig<Controller, Action>;
    using ManagerEngine = detail::ManagerEngine<Controller, Action>;
    using ManagerBlock = typename ManagerStorage::Block;
    using MachineTable = detail::KindTable<Controller, Action>;
    using StepRecord = detail::StepRecord;
    using StepNode = detail::StepNode;
    using BusyScope = typename ManagerEngine::BusyScope;
    template <class, class, class, class...>
    friend class TransitionBuilder;
    template <class, class, class, class...>
    friend class EventTransitionBuilder;
    template <class, class, class, class, class, class...>
    friend class TypedEventBuilder;
    friend class KeyedTransitionBuilder<Controller, Action>;
    friend class DelegateBuilder<Controller, Action>;
    template <class>
    friend class Crowd;
    template <class, class>
    friend class InputBuffer;
    template <class, class, std::size_t>
    friend class InputSequenceBuffer;
    friend struct detail::TicksAccess;
    friend struct detail::TableAccess;
    std::uint32_t& Ticks() noexcept { return machine_seat.rt.ticks; }

    // What InputBuffer and InputSequenceBuffer ask of the machine (defined
    // in detail/manager_buffers.hpp). `api` names the buffer's call in a refusal.
    /// A buffered request for state T.
    template <class T>
    detail::BufferedRequest BufferRequest(std::string_view api, float timeout_seconds) const;
    /// A buffered request for the state under `key`.
    template <class K>
    detail::BufferedRequest BufferRequestByKey(std::string_view api, K key, float timeout_seconds) const;
    /// A buffered request for state `id`, a state of this machine.
    detail::BufferedRequest BufferRequestOf(std::string_view api, detail::StateIndex id, float timeout_seconds) const;
    /// Whether `request` is met now, trying its change if the machine is not in its state.
    template <class A = Action>
    bool TryBufferedRequest(detail::BufferedRequest& request);
    bool IsActive(detail::StateIndex id) const {
        return ResolvedTable().Active(machine_seat.rt.state, id, MachineStateData());
    }
    StateRef RefOf(detail::StateIndex id) const { return ResolvedTable().Ref(id); }
    void ReportBuffered(detail::StateIndex id, BufferOutcome outcome) const;

    // Perform tests, sets and clears the flags' low byte alone, with plain
    // stores: kStarted, kBusy, kFrozen and kFresh. Every reason for the general
    // path sits above it and is seen through the Seat's step (MachineGeneralStep).
    static_assert((detail::kStarted | detail::kBusy | detail::kFrozen | detail::kFresh) < 0x100 &&
                  (detail::kGeneralReasons & 0xFF) == 0 && (detail::kInitialized & 0xFF) == 0);
    static constexpr unsigned char kFastByte = static_cast<unsigned char>(ManagerEngine::kRunning & 0xFF);
    unsigned char& FastFlags() const noexcept {
        static_assert(std::endian::native == std::endian::little,
                      "tickfsm: StateManager::Perform reads the flags' low byte as the first byte of the word");
        return *reinterpret_cast<unsigned char*>(&machine_seat.rt.flags);
    }
    /// A fast tick's mark: kBusy stored with the flags Perform has just
    /// checked, then those flags stored again. Nothing a tick does changes
    /// that byte otherwise: a transition writes it as it was (EnterMachineTarget),
    /// the general path (MachineGeneralStep) leaves its outcome in the step, and
    /// every call from a hook that would change it is refused.
    struct FastScope {
        unsigned char& flags;
        explicit FastScope(unsigned char& f) noexcept : flags(f) { flags = kFastByte | detail::kBusy; }
        ~FastScope() { flags = kFastByte; }
        FastScope(const FastScope&) = delete;
        FastScope& operator=(const FastScope&) = delete;
    };

    /// Inside one of this machine's hooks or conditions, on either path: kBusy
    /// (see FastScope and BusyScope). A call back into the machine from a
    /// hook or condition fails Perform's check of the flags and takes the
    /// general path, which refuses it here, as every other entry point does.
    bool InsideOwnTick() const noexcept { return ManagerEngine::Busy(machine_seat); }

    std::byte* MachineStateData() const noexcept { return ManagerStorage::Data(machine_seat); }
    /// The machine's block, made again if it was let go (not on the tick path).
    ManagerBlock* OwnBlock() const { return ManagerStorage::BlockOf(machine_seat); }
    /// The block, or null if the machine runs without one.
    ManagerBlock* BlockIfAny() const noexcept { return ManagerStorage::BlockIf(machine_seat); }
    MachineTable* CurrentTable() const noexcept { return ManagerStorage::TableOf(machine_seat); }
    /// The table for this machine's configuration so far, built or found on first need.
    const MachineTable& ResolvedTable() const { return ManagerStorage::Resolved(machine_seat); }
    /// WouldTransition's target `to` (from `from`), followed on through the
    /// pass-through states the next Perform would pass; `pushed` is the leaf
    /// the dry run's last push buried (kNoState if none), where a pop returns.
    detail::StateIndex PassedThrough(const MachineTable& table, detail::StateIndex from, detail::StateIndex to,
                                     detail::StateIndex pushed, const Action& action) const;
    /// Where a pop would return: the leaf buried last, or `none` if nothing is buried.
    detail::StateIndex TopBuriedLeaf(const MachineTable& table, detail::StateIndex none) const;
    /// Close the configuration: the table is resolved, complete and final.
    void CloseConfiguration() { ManagerConfig::Freeze(machine_seat); }
    /// A change outside any tick that the step does not show: the next tick finds the step again.
    void InvalidateStep() noexcept { ManagerEngine::InvalidateStep(machine_seat); }
    detail::TickContext<detail::AnyController, detail::AnyAction> TickContextFor(const Action* action) {
        return ManagerEngine::ContextOf(machine_seat, *bound_controller, action);
    }

    template <class S>
    void AddStatePrivately() {
        ManagerStorage::template AddStatePrivately<S>(machine_seat);
    }
    /// Configure's chain: S's transitions (detail::Edge types) in one step.
    template <bool kInitial, class S, class... Edges>
    void AddChain();
    /// Configure's last step for a constant that nests states: its leaves'
    /// fused steps (detail::FusedTree), registered with the table.
    template <class Fused>
    void AddFusedSteps() {
        if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<Fused>(), &Fused::Replay)) return;
        ManagerStorage::ApplyPrivately(machine_seat, [](MachineTable& table) { Fused::Apply(table); });
    }
    template <class>
    friend struct detail::StaticReplay;
    friend struct detail::StaticReplayAccess;
    template <class K>
    detail::StateIndex KeyedIndex(K key, std::string_view api) const {
        return ManagerConfig::KeyedId(machine_seat, key, api);
    }
    KeyedTransitionBuilder<Controller, Action> KeyedBuilder(detail::StateIndex id) {
        auto& chains = CurrentTable()->meta[id].chains;
        using Erased = detail::ErasedChain<Controller, Action>;
        chains.push_back(detail::ChainPtr<detail::AnyController, detail::AnyAction>(new Erased()));
        CurrentTable()->finalized = false;
        return KeyedTransitionBuilder<Controller, Action>(*this, id, chains.size() - 1);
    }

    /// A tick that cannot take the fast path: the first one, one in a state that
    /// needs the general path, one with a NextState request or an observer.
    [[gnu::cold, gnu::noinline]] void SlowTick(const Action& action) {
        if (detail::MachineSlowTick(machine_seat, detail::kKindCode<Controller, Action>,
                                    detail::EraseController(*bound_controller), detail::EraseAction(action)))
            Perform(action);
    }

    template <class T, class... Args>
    bool MakeChange(detail::Direct how, std::string_view api, Args&&... args);

    // Templates (A is always Action) so that TICKFSM_INSTANTIATE_MACHINE works
    // for an Action without a default constructor: only a use instantiates them.
    template <class A = Action>
    bool MakeChangeTo(detail::StateIndex id, detail::Direct how, std::string_view api, detail::Prepare prepare) {
        return ManagerEngine::template SetStateIndex<A>(machine_seat, *bound_controller, id, how, api, prepare);
    }
    template <class A>
    void ChangeStack(detail::StateIndex id, Cause cause, std::string_view api) {
        ManagerEngine::template ChangeStack<A>(machine_seat, *bound_controller, id, cause, api);
    }
    template <class A = Action>
    void ChangeGlobal(detail::StateIndex id) {
        ManagerEngine::template ChangeGlobal<A>(machine_seat, *bound_controller, id);
    }

    detail::StateIndex CheckedIndex(StateId id, std::string_view api) const {
        const MachineTable& table = ResolvedTable();
        if (id.value >= table.meta.size() || id.value == table.any)
            MachineTable::Fail(detail::MessageText(detail::Message::StateIdOutOfRange, api, id.value, StateCount()));
        return id.value;
    }

    Controller* bound_controller;
    // rt; home: the machine's block, or once it runs without one, its table
    // tagged (ManagerStorage::kTableTag); the current state's step and the
    // table's steps (set when the configuration closes). Its steps find all
    // of it from rt.
    mutable detail::Seat machine_seat{};
};

} // namespace tickfsm

// The definitions of the members declared above, by job.
#include "detail/manager_buffers.hpp"
#include "detail/manager_control.hpp"
#include "detail/manager_keyed.hpp"
#include "detail/manager_queries.hpp"
#include "detail/manager_states.hpp"

// Configure(kTable)'s code for a compile-time constant, compiled only in files
// that include both this header and static_machine.hpp (in either order).
#if defined(TICKFSM_STATIC_MACHINE_HPP)
#include "detail/static_tree.hpp"
#endif
