#pragma once
// StateManager<Controller, Action>: the fluent, fixed-tick state machine of
// tickfsm. Subclass it per character, configure transitions in the
// constructor, call Perform once per fixed tick.

#include <cstddef>
#include <cstring>
#include <cstdint>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "detail/owned.hpp"
#include "detail/format.hpp"

#include "builders.hpp"
#include "config_error.hpp"
#include "detail/config.hpp"
#include "detail/table.hpp"
#include "detail/tick.hpp"
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

    /// Refers to `controller` (does not own it); ticks are `fixed_dt` seconds long.
    explicit StateManager(Controller& controller, float fixed_dt = 1.0f / 60.0f) : controller_(&controller) {
        if (!detail::PositiveFinite(fixed_dt))
            Table_::Fail(detail::Format("fixed_dt must be finite and positive, got {}", fixed_dt));
        SetHome_(NewBlock_(0, alignof(Block_)));
        Blk_()->node = detail::Registry<Controller, Action>::Get().Root(fixed_dt);
        Blk_()->dt = fixed_dt;
    }

    // A machine is bound to its controller and its conditions may capture `this`:
    // copying or moving one would leave those pointing at the old object.
    StateManager(const StateManager&) = delete;
    StateManager& operator=(const StateManager&) = delete;

    ~StateManager() {
        ReleaseData_();
        Table_* table = Tab_();
        if (Block_* block = BlockIf_()) FreeBlock_(block);
        Table_::Release(table);
    }

    /// Declares the state the machine starts in (entered on the first Perform)
    /// and returns the builder of its transitions.
    template <class S>
    TransitionBuilder<Controller, Action, S> SetInitialState() {
        static_assert(detail::CheckState<S, Controller, Action>());
        CheckConfigurable_([] { return detail::Format("SetInitialState<{}>()", detail::StateName<S>()); });
        if (Blk_()->node) {
            if (!Blk_()->node->initial.empty())
                Table_::Fail(detail::Format("SetInitialState<{}>(): the initial state is already {}; a machine has one "
                                        "initial state (use From<{}>() to add transitions from {})",
                                        detail::StateName<S>(), Blk_()->node->initial, detail::StateName<S>(),
                                        detail::StateName<S>()));
            Record_ step;
            step.key = detail::TypeKey<detail::InitStep<S>>();
            step.replay = &detail::ReplayInit<Controller, Action, S>;
            step.starts_chain_of = detail::TypeKey<S>();
            step.initial = detail::StateName<S>();
            Node_* node = Step_(step);
            return TransitionBuilder<Controller, Action, S>(*this, node->chain_index, node);
        }
        if (Tab_()->initial != detail::kNoState) detail::ApplyInit<Controller, Action, S>(*Tab_()); // reports
        AddStatePrivately_<S>();
        return TransitionBuilder<Controller, Action, S>(*this, detail::ApplyInit<Controller, Action, S>(*Tab_()),
                                                        nullptr);
    }

    /// Returns the builder of transitions from S; several calls for one S append in order.
    template <class S>
    TransitionBuilder<Controller, Action, S> From() {
        static_assert(detail::CheckState<S, Controller, Action>());
        CheckConfigurable_([] { return detail::Format("From<{}>()", detail::StateName<S>()); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::FromStep<S>>();
            step.replay = &detail::ReplayFrom<Controller, Action, S>;
            step.starts_chain_of = detail::TypeKey<S>();
            Node_* node = Step_(step);
            return TransitionBuilder<Controller, Action, S>(*this, node->chain_index, node);
        }
        AddStatePrivately_<S>();
        return TransitionBuilder<Controller, Action, S>(*this, detail::ApplyNewChain<Controller, Action, S>(*Tab_()),
                                                        nullptr);
    }

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
    /// `SetInitialState<S>()` and each `From<S>()` with its `To<T>(condition)`
    /// calls, in order. One constant can then drive a StaticCrowd and this
    /// machine, with its observer and trace. More configuration may follow
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
        if (FastFlags_() != kFastByte_) [[unlikely]]
            return SlowTick_(action);
        FastScope_ busy(FastFlags_());
        reinterpret_cast<detail::MachineStepFn<Controller, Action>>(seat_.step)(*controller_, action, seat_.rt);
    }

    /// Changes to T now if the gates agree (the current state's CanExitState
    /// told T, T's CanEnterState told the current state): exit, enter, ticks
    /// reset. No change if already in T. `args`, if any, build a fresh T before
    /// it is entered. A machine not started yet starts in T. Hooks receive
    /// `Action{}`. From inside a hook, use the hook's tickfsm::Machine parameter.
    template <class T, class... Args>
    bool TrySetState(Args&&... args) {
        return SetState_<T>(detail::Direct::Try, "TrySetState", std::forward<Args>(args)...);
    }
    /// Like TrySetState, but re-enters T if it is the current state.
    template <class T, class... Args>
    bool TryResetState(Args&&... args) {
        return SetState_<T>(detail::Direct::TryReset, "TryResetState", std::forward<Args>(args)...);
    }
    /// Changes to T now, skipping the gates (re-enters T if it is the current state).
    template <class T, class... Args>
    void ForceSetState(Args&&... args) {
        SetState_<T>(detail::Direct::Force, "ForceSetState", std::forward<Args>(args)...);
    }

    /// Configuration: remember, on every change, the state it came from, for
    /// PreviousState and RevertToPreviousState (seed 004). The machine's ticks
    /// then take the general path.
    void KeepPreviousState() {
        CheckConfigurable_([] { return std::string("KeepPreviousState()"); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::KeepPreviousStep>();
            step.replay = &detail::ReplayKeepPrevious<Controller, Action>;
            Step_(step);
            return;
        }
        Tab_()->keep_previous = true;
        Tab_()->finalized = false;
    }

    /// The state the last change came from (not Valid() before the second state).
    /// Needs KeepPreviousState() in the configuration.
    StateRef PreviousState() const {
        const Table_& table = Resolved_();
        if (!table.keep_previous)
            Table_::Fail("PreviousState() needs KeepPreviousState() in the machine's configuration");
        const Block_* block = BlockIf_();
        return table.Ref(block ? block->previous : detail::kNoState);
    }

    /// Goes back to PreviousState() through the gates (TrySetState), or past
    /// them with `force`. Returns whether the state changed; with no previous
    /// state it does nothing and returns false.
    template <class A = Action> // a template so that explicit instantiation does not require Action{}
    bool RevertToPreviousState(bool force = false) {
        const detail::StateIndex previous = PreviousState().Id().value;
        if (previous == detail::kNoState) return false;
        return SetStateIndex_<A>(previous, force ? detail::Direct::Force : detail::Direct::Try,
                                 "RevertToPreviousState", detail::Prepare{});
    }

    /// Sets the global state (seed 004): its Perform runs every tick, before the
    /// current state's, beside whatever state is current. The old global state
    /// (if any) is exited, G entered, both with `Action{}`. Ticks with a global
    /// state take the general path.
    template <class G>
    void SetGlobalState() {
        const detail::StateIndex id = Resolved_().Find(detail::TypeKey<G>());
        if (id == detail::kNoState)
            Table_::Fail(detail::Format("SetGlobalState<{}>(): {} is not a state of this machine; configure it (e.g. "
                                    "From<{}>()) first",
                                    detail::StateName<G>(), detail::StateName<G>(), detail::StateName<G>()));
        if (const detail::TreeNode& node = Tab_()->tree[id]; node.parent != detail::kNoNode ||
                                                             node.initial != detail::kNoNode ||
                                                             node.owner != detail::kNoNode ||
                                                             node.first_region != detail::kNoNode)
            Table_::Fail(detail::Format("SetGlobalState<{}>(): {} is a nested state (it has a parent, substates or regions); a "
                                    "global state performs beside the active path and cannot be part of it",
                                    detail::StateName<G>(), detail::StateName<G>()));
        ChangeGlobal_(id);
    }
    /// Exits the global state, if any; ticks go back to the fast path.
    template <class A = Action> // a template so that explicit instantiation does not require Action{}
    void ClearGlobalState() {
        ChangeGlobal_<A>(detail::kNoState);
    }
    /// The global state's name, or empty.
    std::string_view GlobalStateName() const {
        const Table_& table = Resolved_();
        const Block_* block = BlockIf_();
        return table.NameOf(block ? block->global : detail::kNoState);
    }

    /// Initializes the machine now rather than on the first Perform: closes the
    /// configuration, runs every state's OnStateInit in order and tells the
    /// observer (seed 002's InitFSM). The initial state is still entered by the
    /// first Perform. Calling it again does nothing.
    void Initialize() {
        if (Busy_())
            Table_::Fail("Initialize() called from inside a hook or condition of this machine");
        if (seat_.rt.flags & detail::kInitialized) return;
        Freeze_();
        BusyScope_ busy(seat_.rt); // an OnStateInit cannot tick, change or reset the machine it initializes
        auto ctx = Context_(nullptr);
        detail::Initialize(ctx);
    }

    /// Sends `event` from outside a tick: if the current state has a transition
    /// on it, the machine changes state now (exit, enter, ticks reset) and this
    /// returns true; otherwise nothing changes, the observer hears of it, and
    /// this returns false. `action` is what the exit and enter hooks receive.
    /// From inside a hook, use the hook's tickfsm::Machine parameter instead.
    bool SendEvent(const Event& event, const Action& action) {
        if (Busy_())
            Table_::Fail(detail::Format("SendEvent({}) called on the machine from inside one of its hooks or conditions "
                                    "(state {}); take a tickfsm::Machine<Controller, Action>& as the hook's last "
                                    "parameter and call SendEvent on it",
                                    detail::EventText(event), CurrentStateName()));
        if (!Tab_()) Resolved_(); // not started: only the observer hears of it
        BusyScope_ busy(seat_.rt);
        auto ctx = Context_(&action);
        return detail::DeliverEvent(ctx, event);
    }

    /// SendEvent with a default-constructed Action for the hooks.
    bool SendEvent(const Event& event)
        requires std::is_default_constructible_v<Action>
    {
        return SendEvent(event, Action{});
    }

    /// Sends a typed event, a value of class E (`SendEvent(Hit{.damage = 30})`),
    /// from outside a tick: from the current state outward, the first state
    /// with a transition on E whose guard holds takes it now, its target
    /// receiving the payload in `OnEvent(Controller&, const E&)`; or a state
    /// that handles E in place receives it. Returns false (and the observer
    /// hears of it, as of an unhandled event) when no state takes it.
    template <class E>
        requires detail::TypedEventValue<E>
    bool SendEvent(const E& event, const Action& action) {
        if (Busy_())
            Table_::Fail(detail::Format("SendEvent({}) called on the machine from inside one of its hooks or "
                                    "conditions (state {}); send typed events from outside the tick",
                                    detail::TypeName<E>(), CurrentStateName()));
        if (!Tab_()) Resolved_();
        BusyScope_ busy(seat_.rt);
        auto ctx = Context_(&action);
        return detail::DeliverTyped(ctx, detail::TypeKey<E>(), &event, detail::kTypedEvent<E>);
    }
    /// The typed SendEvent with a default-constructed Action for the hooks.
    template <class E>
        requires detail::TypedEventValue<E> && std::is_default_constructible_v<Action>
    bool SendEvent(const E& event) {
        return SendEvent(event, Action{});
    }

    /// Attaches `observer` (or detaches, with nullptr), which hears what this
    /// machine does under `name` (which must outlive the machine; a literal
    /// does). A machine without an observer pays nothing for the feature; with
    /// one, every tick takes the general path.
    void SetObserver(Observer* observer, std::string_view name = {}) {
        if (Busy_())
            Table_::Fail(detail::Format("SetObserver() called from inside a hook or condition of this machine (state "
                                    "{}); attach or detach the observer between ticks",
                                    CurrentStateName()));
        Blk_()->observer = observer;
        Blk_()->name = name.empty() ? std::string_view("StateManager") : name;
        seat_.rt.flags = static_cast<std::uint16_t>(observer ? seat_.rt.flags | detail::kObserved
                                                        : seat_.rt.flags & ~detail::kObserved);
        Invalidate_();
    }

    /// Back to the initial state, entered on the next Perform. No hook runs now:
    /// the current state's exit is not called and state objects keep their data.
    void Reset() {
        if (Busy_())
            Table_::Fail(detail::Format("Reset() called from inside a hook or condition of this machine (state {}); "
                                    "reset from outside the tick",
                                    CurrentStateName()));
        seat_.rt.state = detail::kNoState;
        if (seat_.rt.flags & detail::kInitialized) seat_.rt.ticks = 0; // else it counts the states initialized
        seat_.rt.flags =
            static_cast<std::uint16_t>(seat_.rt.flags & (kFrozen_ | detail::kObserved | detail::kInitialized |
                                                         detail::kGlobal | detail::kGlobalWaiting));
        if (Block_* block = BlockIf_()) {
            block->next = detail::kNoState;
            block->previous = detail::kNoState;
        }
    }

    /// True when S is the current state, or holds it (nested states); false
    /// before the first Perform.
    template <class S>
    bool IsIn() const noexcept {
        // Not started: there may be no table yet.
        return seat_.rt.state != detail::kNoState && Tab_()->template IsIn<S>(seat_.rt.state, Data_());
    }

    /// This machine's one object of state S (added as a state if not configured yet).
    template <class S>
    S& State() {
        static_assert(detail::CheckState<S, Controller, Action>());
        detail::StateIndex id = Resolved_().Find(detail::TypeKey<S>());
        if (id == detail::kNoState) {
            CheckConfigurable_(
                [] { return detail::Format("State<{}>() of a state never configured", detail::StateName<S>()); });
            if (Blk_()->node) {
                Record_ step;
                step.key = detail::TypeKey<detail::AddStep<S>>();
                step.replay = &detail::ReplayAdd<Controller, Action, S>;
                Step_(step);
            } else {
                AddStatePrivately_<S>();
            }
            id = Resolved_().Find(detail::TypeKey<S>());
        }
        return detail::StateObject<S>(Data_(), Tab_()->meta[id].offset);
    }

    // --- nested states ------------------------------------------------------

    /// Configuration: Parent holds Initial and Others as its substates, Initial
    /// first entered. While a substate is active its parent is too: the
    /// parent's transitions are tried before the substate's, and it performs
    /// before it. Entering Parent enters Initial (or Parent's history, see
    /// SetHistory). A substate may hold substates in turn. Nested machines tick
    /// on the general path and get a private table. A state listed twice,
    /// under two parents or as its own ancestor is a ConfigError.
    template <class Parent, class Initial, class... Others>
    void SetSubstates() {
        static_assert(detail::CheckState<Parent, Controller, Action>() && detail::CheckState<Initial, Controller, Action>() &&
                      (... && detail::CheckState<Others, Controller, Action>()));
        static_assert(!std::is_same_v<Parent, Initial> && (... && !std::is_same_v<Parent, Others>),
                      "tickfsm: SetSubstates<Parent, Substates...>(): a state cannot be its own substate; list "
                      "Parent's children after it");
        CheckConfigurable_([] {
            return detail::Format("SetSubstates<{}, {}, ...>()", detail::StateName<Parent>(), detail::StateName<Initial>());
        });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::SubstatesStep<Parent, Initial, Others...>>();
            step.replay = &detail::ReplaySubstates<Controller, Action, Parent, Initial, Others...>;
            CheckedStep_(step);
            return;
        }
        AddStatePrivately_<Parent>();
        AddStatePrivately_<Initial>();
        (AddStatePrivately_<Others>(), ...);
        ApplyPrivately_([](Table_& table) { detail::ApplySubstates<Controller, Action, Parent, Initial, Others...>(table); });
    }

    /// Configuration: Parallel holds Regions, all active at once while it is
    /// (e.g. a character's legs and arms). Each region is a state of its own,
    /// usually holding substates, with its own active path and time: entering
    /// Parallel enters every region in order, each down to its initial state
    /// (or history); each tick runs Parallel's path, then each region's
    /// transitions and Perform in order; an event sent to the machine reaches
    /// every region. A region's transitions stay in it or leave Parallel; a
    /// transition from outside cannot enter a region's middle (ConfigError).
    template <class Parallel, class... Regions>
    void SetRegions() {
        static_assert(sizeof...(Regions) >= 1,
                      "tickfsm: SetRegions<Parallel, Regions...>(): list at least one region after the parallel state");
        static_assert(detail::CheckState<Parallel, Controller, Action>() &&
                      (... && detail::CheckState<Regions, Controller, Action>()));
        static_assert((... && !std::is_same_v<Parallel, Regions>),
                      "tickfsm: SetRegions<Parallel, Regions...>(): a state cannot be its own region; list Parallel's "
                      "regions after it");
        CheckConfigurable_([] { return detail::Format("SetRegions<{}, ...>()", detail::StateName<Parallel>()); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::RegionsStep<Parallel, Regions...>>();
            step.replay = &detail::ReplayRegions<Controller, Action, Parallel, Regions...>;
            CheckedStep_(step);
            return;
        }
        AddStatePrivately_<Parallel>();
        (AddStatePrivately_<Regions>(), ...);
        ApplyPrivately_([](Table_& table) { detail::ApplyRegions<Controller, Action, Parallel, Regions...>(table); });
    }

    /// Configuration: what composite state S re-enters when it is entered again
    /// (History::None: its initial substate; Shallow: the substate it held when
    /// it was last left; Deep: the whole path it held). Set it after
    /// SetSubstates<S, ...>(); on a state without substates it is a ConfigError.
    template <class S>
    void SetHistory(History history) {
        CheckConfigurable_([] { return detail::Format("SetHistory<{}>()", detail::StateName<S>()); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::HistoryStep<S>>();
            step.chain = static_cast<std::size_t>(history);
            step.replay = &detail::ReplayHistory<Controller, Action, S>;
            CheckedStep_(step);
            return;
        }
        AddStatePrivately_<S>();
        detail::ApplyHistory<Controller, Action, S>(*Tab_(), history);
    }

    /// Configuration: S is a pass-through state: on a tick that enters it, its
    /// transitions (the whole active path's, any-state ones first) are tried
    /// again at once, with its time 0, so it can route the machine on in the
    /// same tick; it performs only if none holds. A tick that passes through
    /// one state twice is a loop, a ConfigError naming the states. The
    /// machine then ticks on the general path.
    template <class S>
    void SetPassThrough() {
        static_assert(detail::CheckState<S, Controller, Action>());
        CheckConfigurable_([] { return detail::Format("SetPassThrough<{}>()", detail::StateName<S>()); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::PassThroughStep<S>>();
            step.replay = &detail::ReplayPassThrough<Controller, Action, S>;
            Step_(step);
            return;
        }
        AddStatePrivately_<S>();
        detail::ApplyPassThrough<Controller, Action, S>(*Tab_());
    }

    // --- push and pop (seed 002's bury and unbury) ----------------------------

    /// Configuration: each character can bury up to N states under pushes
    /// (its stack lives in the machine's data: no allocation when pushing).
    /// Pushes and pops need it; setting it twice is a ConfigError. A machine
    /// with a push stack ticks on the general path.
    template <std::size_t N>
    void SetPushCapacity() {
        static_assert(N > 0 && N < 0x10000, "tickfsm: SetPushCapacity<N>(): N is the number of states a push can "
                                            "bury, between 1 and 65535");
        CheckConfigurable_([] { return detail::Format("SetPushCapacity<{}>()", N); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::PushCapacityStep<N>>();
            step.replay = &detail::ReplayPushCapacity<Controller, Action, N>;
            CheckedStep_(step);
            return;
        }
        ApplyPrivately_([](Table_& table) { detail::ApplyPushCapacity<Controller, Action, N>(table); });
    }

    /// Buries the current state (its active path, paused innermost first by
    /// OnStatePause: not exited, its object and time kept) and enters T on
    /// top, now. A full stack, T already active or buried, or a machine not
    /// started are ConfigErrors. Hooks receive `Action{}`; from a hook, use its
    /// tickfsm::Machine parameter. As a transition: `From<S>().Push<T>(cond)`.
    template <class T, class A = Action>
    void Push() {
        const detail::StateIndex id = Resolved_().Find(detail::TypeKey<T>());
        if (id == detail::kNoState)
            Table_::Fail(detail::Format("Push<{}>(): {} is not a state of this machine", detail::StateName<T>(),
                                    detail::StateName<T>()));
        StackChange_<A>(id, Cause::Push, "Push");
    }
    /// Exits the top state's active path (innermost first) and makes the state
    /// buried last current again, with its time, its path resumed outermost
    /// first by OnStateResume. Popping with nothing buried is a ConfigError.
    /// As a transition: `From<S>().Pop(cond)`.
    template <class A = Action>
    void Pop() {
        StackChange_<A>(seat_.rt.state, Cause::Pop, "Pop");
    }
    /// How many states pushes keep buried now.
    std::size_t BuriedCount() const {
        const Table_& table = Resolved_();
        if (table.stack_capacity == 0 || !IsStarted()) return 0;
        return detail::BuriedCount(Data_(), table.stack);
    }

    /// The seconds S has been active: the current state's TimeInState(), or a
    /// composite's that holds it (which runs on while its substates change);
    /// 0 when S is not active.
    template <class S>
    double TimeInState() const {
        return detail::SecondsOf(TicksInState<S>(), Dt_());
    }
    /// The ticks S has been active (see TimeInState<S>()).
    template <class S>
    std::uint32_t TicksInState() const {
        const Table_& table = Resolved_();
        const detail::StateIndex id = table.Find(detail::TypeKey<S>());
        if (id == detail::kNoState || seat_.rt.state == detail::kNoState) return 0;
        return table.TicksOf(seat_.rt.state, seat_.rt.ticks, id, Data_());
    }

    /// The active path as text, outermost first: "Combat/Attack" ("" before the first Perform).
    std::string ActivePath() const { return Resolved_().PathText(seat_.rt.state, Data_()); }

    /// Writes the active states to `out`, outermost first (the current state
    /// last), as many as fit; returns how many states are active.
    std::size_t ActiveStates(std::span<StateId> out) const {
        const Table_& table = Resolved_();
        if (seat_.rt.state == detail::kNoState) return 0;
        detail::TreeIndex path[detail::kMaxDepth];
        if (!table.parallel) {
            const std::size_t n = detail::ActivePathOf(table.tree, seat_.rt.state, path);
            for (std::size_t i = 0; i < n && i < out.size(); ++i) out[i] = StateId{path[i]};
            return n;
        }
        std::size_t total = 0; // the path, then each region's, a stack buffer at a time
        for (std::size_t at = 0; at == 0 || (at < total && at < out.size()); at += detail::kMaxDepth) {
            total = detail::ActiveStatesOf(table.tree, Data_(), seat_.rt.state, path, at);
            for (std::size_t i = at; i < total && i < out.size() && i < at + detail::kMaxDepth; ++i)
                out[i] = StateId{path[i - at]};
        }
        return total;
    }

    /// Every state of the machine by id: name, parent, initial substate,
    /// history, pass-through, and which one the machine starts in.
    std::vector<StateInfo> States() const { return Resolved_().DescribeStates(); }
    /// Every transition: the any-state ones first, then each state's in the
    /// order they are tried (conditions, then events, then typed events).
    std::vector<TransitionRule> Transitions() const { return Resolved_().DescribeTransitions(); }
    /// The whole table as one value: States(), Transitions(), the declared
    /// events, the push capacity, the global state now, titled with the
    /// observer's name if one was given. Its names stay valid while the machine lives.
    Description Describe() const {
        Description d = Resolved_().Describe();
        if (const Block_* block = BlockIf_()) {
            d.global = StateId{block->global};
            if (block->observer) d.name = std::string(block->name);
        }
        return d;
    }
    /// What cannot work as written in this machine's table (tickfsm::Validate(Describe())).
    std::vector<Finding> Validate() const { return tickfsm::Validate(Describe()); }

    /// Configuration: S is meant to be a state the machine never leaves (a
    /// death, an end screen): Validate() does not report its lack of a way out.
    template <class S>
    void SetTerminal() {
        static_assert(detail::CheckState<S, Controller, Action>());
        CheckConfigurable_([] { return detail::Format("SetTerminal<{}>()", detail::StateName<S>()); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::TerminalStep<S>>();
            step.replay = &detail::ReplayTerminal<Controller, Action, S>;
            Step_(step);
            return;
        }
        AddStatePrivately_<S>();
        detail::ApplyTerminal<Controller, Action, S>(*Tab_());
    }
    /// Configuration: `event` is one this machine expects to be sent;
    /// Validate() reports a declared event that no state has a transition on.
    /// Sending works the same whether or not it is declared.
    void DeclareEvent(const Event& event) {
        CheckConfigurable_([&] { return detail::Format("DeclareEvent({})", detail::EventText(event)); });
        if (Blk_()->node) {
            Record_ step;
            step.key = detail::TypeKey<detail::DeclareEventStep>();
            step.replay = &detail::ReplayDeclareEvent<Controller, Action>;
            step.event = event;
            Step_(step);
            return;
        }
        detail::ApplyDeclareEvent(*Tab_(), event);
    }
    /// DeclareEvent for typed event E (a class sent as a value).
    template <class E>
        requires detail::TypedEventValue<E>
    void DeclareEvent() {
        DeclareEvent(detail::TypedEvent<E>());
    }

    /// The state that holds state `id`; not Valid() for a top-level state.
    StateId ParentOf(StateId id) const {
        const Table_& table = Resolved_();
        if (id.value >= table.tree.size()) return StateId{};
        const detail::TreeNode& node = table.tree[id.value];
        return StateId{node.parent != detail::kNoNode ? node.parent : node.owner};
    }

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
    void SaveInto(Snapshot& snapshot) const { SaveInto_(snapshot); }
    /// Puts the machine back exactly as it was when `snapshot` was saved: no
    /// hook runs, and the next Perform with the same input and controller
    /// does what it did then. A snapshot of another configuration (another
    /// kind of character, a state added or reordered, other data) is a
    /// ConfigError naming what differs, and the machine is left as it was.
    void Restore(const Snapshot& snapshot) { Restore_(snapshot); }

    // --- keyed states (seed 003's StateMachine<TKey, TState>) -------------------

    /// Registers an object of class S under `key` (a value of your enum, or an
    /// integer), built from `args` (each character gets a copy) or
    /// default-constructed. Two keys may hold two objects of one class. A key
    /// registered twice is a ConfigError. Keyed machines get a private table.
    template <class S, class K, class... Args>
        requires StateKey<K>
    void AddState(K key, Args&&... args) {
        static_assert(detail::CheckState<S, Controller, Action>());
        CheckConfigurable_([&] { return detail::Format("AddState<{}>({})", detail::StateName<S>(), KeyText_(key)); });
        Detach_();
        if (Tab_()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)) != detail::kNoState)
            Table_::Fail(detail::Format("AddState<{}>({}): the key {} is already registered (state {})",
                                    detail::StateName<S>(), KeyText_(key), KeyText_(key),
                                    Tab_()->NameOf(Tab_()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)))));
        detail::Shared<const S> prototype;
        if constexpr (sizeof...(Args) > 0) prototype = detail::MakeShared<const S>(std::forward<Args>(args)...);
        AddKeyed_<S, (sizeof...(Args) > 0)>(key, std::move(prototype));
    }

    /// Registers a state made of lambdas under `key`; give its hooks on the returned builder.
    template <class K>
        requires StateKey<K>
    DelegateBuilder<Controller, Action> AddDelegateState(K key) {
        CheckConfigurable_([&] { return detail::Format("AddDelegateState({})", KeyText_(key)); });
        Detach_();
        if (Tab_()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)) != detail::kNoState)
            Table_::Fail(detail::Format("AddDelegateState({}): the key {} is already registered", KeyText_(key),
                                    KeyText_(key)));
        auto hooks = detail::MakeShared<detail::DelegateHooks<Controller, Action>>();
        auto prototype = detail::MakeShared<const detail::DelegateState<Controller, Action>>(
            detail::DelegateState<Controller, Action>{hooks});
        AddKeyed_<detail::DelegateState<Controller, Action>, true>(key, std::move(prototype));
        return DelegateBuilder<Controller, Action>(std::move(hooks));
    }

    /// Registers a state made of lambdas under the type tag `Tag` (IsIn<Tag>(),
    /// TrySetState<Tag>() and From<Tag>() then name it).
    template <class Tag>
    DelegateBuilder<Controller, Action> AddDelegateState() {
        CheckConfigurable_([] { return detail::Format("AddDelegateState<{}>()", detail::TypeName<Tag>()); });
        if (Resolved_().Find(detail::TypeKey<Tag>()) != detail::kNoState)
            Table_::Fail(detail::Format("AddDelegateState<{}>(): {} is already a state of this machine",
                                    detail::TypeName<Tag>(), detail::TypeName<Tag>()));
        Detach_();
        auto hooks = detail::MakeShared<detail::DelegateHooks<Controller, Action>>();
        auto prototype = detail::MakeShared<const detail::DelegateState<Controller, Action>>(
            detail::DelegateState<Controller, Action>{hooks});
        ApplyPrivately_([&](Table_& table) {
            table.template Add<detail::DelegateState<Controller, Action>, true>(detail::TypeKey<Tag>(),
                                                                                detail::TypeName<Tag>(), prototype);
        });
        return DelegateBuilder<Controller, Action>(std::move(hooks));
    }

    /// The keyed state the machine starts in; returns the builder of its transitions.
    template <class K>
        requires StateKey<K>
    KeyedTransitionBuilder<Controller, Action> SetInitialState(K key) {
        CheckConfigurable_([&] { return detail::Format("SetInitialState({})", KeyText_(key)); });
        const detail::StateIndex id = KeyedId_(key, "SetInitialState"); // a keyed state: the table is private
        if (Resolved_().initial != detail::kNoState)
            Table_::Fail(detail::Format("SetInitialState({}): the initial state is already {}; a machine has one "
                                    "initial state",
                                    KeyText_(key), Tab_()->NameOf(Tab_()->initial)));
        Detach_();
        Tab_()->initial = id;
        return KeyedBuilder_(id);
    }

    /// Returns the builder of transitions from the keyed state `key`.
    template <class K>
        requires StateKey<K>
    KeyedTransitionBuilder<Controller, Action> From(K key) {
        CheckConfigurable_([&] { return detail::Format("From({})", KeyText_(key)); });
        const detail::StateIndex id = KeyedId_(key, "From"); // refused before the machine leaves the shared path
        Detach_();
        return KeyedBuilder_(id);
    }

    /// SetTerminal for the keyed state `key` (registered already).
    template <class K>
        requires StateKey<K>
    void SetTerminal(K key) {
        CheckConfigurable_([&] { return detail::Format("SetTerminal({})", KeyText_(key)); });
        const detail::StateIndex id = KeyedId_(key, "SetTerminal");
        for (const detail::StateIndex t : Tab_()->terminal)
            if (t == id) return;
        Tab_()->terminal.push_back(id);
    }
    /// TrySetState for a keyed state.
    template <class K>
        requires StateKey<K>
    bool TrySetState(K key) {
        return SetStateIndex_(KeyedId_(key, "TrySetState"), detail::Direct::Try, "TrySetState", detail::Prepare{});
    }
    /// TryResetState for a keyed state.
    template <class K>
        requires StateKey<K>
    bool TryResetState(K key) {
        return SetStateIndex_(KeyedId_(key, "TryResetState"), detail::Direct::TryReset, "TryResetState",
                              detail::Prepare{});
    }
    /// ForceSetState for a keyed state.
    template <class K>
        requires StateKey<K>
    void ForceSetState(K key) {
        SetStateIndex_(KeyedId_(key, "ForceSetState"), detail::Direct::Force, "ForceSetState", detail::Prepare{});
    }
    /// ForceSetState for the state `id` (from IdOf, States() or ActiveStates):
    /// what a tool that only knows ids (an inspector's button) calls. An id
    /// that is not a state of this machine is a ConfigError.
    template <class A = Action> // a template so that explicit instantiation does not require Action{}
    void ForceSetState(StateId id) {
        SetStateIndex_<A>(CheckedId_(id, "ForceSetState"), detail::Direct::Force, "ForceSetState", detail::Prepare{});
    }
    /// TicksInState<S>() for the state `id`: the current state's ticks, or a
    /// composite's that holds it; 0 when the state is not active.
    std::uint32_t TicksInState(StateId id) const {
        const Table_& table = Resolved_();
        if (id.value >= table.tree.size() || seat_.rt.state == detail::kNoState) return 0;
        return table.TicksOf(seat_.rt.state, seat_.rt.ticks, id.value, Data_());
    }
    /// True when the keyed state `key` is current.
    template <class K>
        requires StateKey<K>
    bool IsIn(K key) const noexcept {
        if (seat_.rt.state == detail::kNoState) return false;
        const auto& meta = Tab_()->meta[seat_.rt.state];
        return meta.key_type == detail::TypeKey<K>() && meta.key_value == static_cast<std::uint64_t>(key);
    }
    /// The current state's key; a ConfigError if the current state has no key of type K.
    template <class K>
        requires StateKey<K>
    K CurrentKey() const {
        if (seat_.rt.state == detail::kNoState || Tab_()->meta[seat_.rt.state].key_type != detail::TypeKey<K>())
            Table_::Fail(detail::Format("CurrentKey<{}>(): the current state ({}) has no key of that type",
                                    detail::TypeName<K>(), CurrentStateName().empty() ? "none" : CurrentStateName()));
        return static_cast<K>(Tab_()->meta[seat_.rt.state].key_value);
    }
    /// Character data of the keyed state `key` (of class S).
    template <class S, class K>
        requires StateKey<K>
    S& State(K key) {
        const detail::StateIndex id = KeyedId_(key, "State");
        Resolved_();
        return detail::StateObject<S>(Data_(), Tab_()->meta[id].offset);
    }

    /// Seconds in the current state: TicksInState() * fixed_dt in double, with no drift.
    double TimeInState() const noexcept { return detail::SecondsOf(seat_.rt.ticks, Dt_()); }
    /// Ticks counted in the current state (0 on the tick it was entered).
    std::uint32_t TicksInState() const noexcept { return seat_.rt.ticks; }
    /// The current state's `Name`, or its class name; empty before the first Perform.
    std::string_view CurrentStateName() const noexcept {
        return seat_.rt.state == detail::kNoState ? std::string_view{} : Tab_()->NameOf(seat_.rt.state);
    }
    /// The current state's id (not Valid() before the first Perform).
    StateId CurrentState() const noexcept { return StateId{seat_.rt.state}; }
    /// Name of any state of this machine.
    std::string_view StateName(StateId id) const { return Resolved_().NameOf(id.value); }
    /// Id of S in this machine (not Valid() if S is not one of its states).
    template <class S>
    StateId IdOf() const {
        return StateId{Resolved_().Find(detail::TypeKey<S>())};
    }
    /// Number of states configured.
    std::size_t StateCount() const {
        const Table_& table = Resolved_();
        return table.meta.size() - (table.any != detail::kNoState ? 1 : 0); // Any is not a state
    }
    /// The fixed tick length in seconds.
    float FixedDeltaTime() const noexcept { return Dt_(); }
    /// False before the first Perform and after Reset.
    bool IsStarted() const noexcept { return (seat_.rt.flags & detail::kStarted) != 0; }
    /// True when this machine runs on a table shared with every machine configured
    /// the same way (all its conditions are captureless lambdas, functions or empty functors).
    bool SharesTable() const {
        Resolved_();
        const Block_* block = BlockIf_();
        return !block || block->node || block->shared;
    }

    Controller& GetController() noexcept { return *controller_; }
    const Controller& GetController() const noexcept { return *controller_; }

    /// Dry run: the state the next Perform would move to, or nullopt, without
    /// calling any hook. Before the first Perform it tries the initial state's
    /// transitions as if it had just been entered.
    std::optional<StateId> WouldTransition(const Action& action) const {
        if (Busy_())
            Table_::Fail(detail::Format("WouldTransition() called from inside a hook or condition of this machine "
                                    "(state {}); ask between ticks",
                                    CurrentStateName()));
        const Table_& table = Resolved_();
        if (seat_.rt.flags & detail::kNextPending) return StateId{BlockIf_()->next}; // applied before any condition
        detail::StateIndex from = seat_.rt.state;
        std::uint32_t ticks = seat_.rt.ticks;
        if (!IsStarted()) {
            if (table.initial == detail::kNoState) return std::nullopt;
            from = table.InitialLeaf(table.initial);
            ticks = 0;
        }
        detail::CountTick(ticks); // the time the next tick's conditions will see
        // The conditions run marked busy: one that calls back into the machine
        // (an event, a change, a tick) is refused, so a dry run changes nothing.
        BusyScope_ busy(seat_.rt);
        const auto fired =
            table.ProbePath(from, ticks, *controller_, action, Data_(), true, (seat_.rt.flags & detail::kDone) != 0);
        detail::StateIndex to = fired.to;
        if (to == detail::kNoState) return std::nullopt;
        if (fired.chain->kinds && fired.chain->kinds[fired.index] == detail::kKindPop) { // back to the buried state
            const std::size_t buried = BuriedCount();
            if (buried == 0) return std::nullopt;
            to = detail::BuriedEntries(Data_(), table.stack)[buried - 1].leaf;
        }
        return StateId{to};
    }

private:
    using Table_ = detail::Table<Controller, Action>;
    using Record_ = detail::StepRecord<Controller, Action>;
    using Node_ = detail::StepNode<Controller, Action>;
    template <class, class, class, class...>
    friend class TransitionBuilder;
    template <class>
    friend class Crowd;
    template <class, class>
    friend class InputBuffer;
    template <class, class, std::size_t>
    friend class InputSequenceBuffer;
    friend struct detail::TicksAccess;
    std::uint32_t& Ticks_() noexcept { return seat_.rt.ticks; }

    /// A buffered request for the state whose type key is `key`.
    detail::BufferedRequest Request_(const void* key, float timeout_seconds,
                                     detail::StateIndex known = detail::kNoState) const {
        const Table_& table = Resolved_();
        const detail::StateIndex id = known != detail::kNoState ? known : table.Find(key);
        if (id == detail::kNoState)
            Table_::Fail("InputBuffer::Buffer<T>(): T is not a state of this machine");
        if (!detail::PositiveFinite(timeout_seconds))
            Table_::Fail(detail::Format("InputBuffer::Buffer<{}>(): the time-out must be finite and positive, got {}",
                                    table.NameOf(id), timeout_seconds));
        return {id, detail::TicksFor(timeout_seconds, table.dt)};
    }
    template <class K>
    detail::BufferedRequest RequestKey_(K key, float timeout_seconds) const {
        const detail::StateIndex id = KeyedId_(key, "InputBuffer::Buffer");
        return Request_(Resolved_().keys[id], timeout_seconds, id);
    }
    template <class A = Action>
    bool TryRequest_(detail::StateIndex id) {
        return SetStateIndex_<A>(id, detail::Direct::Try, "InputBuffer", detail::Prepare{});
    }
    StateRef Ref_(detail::StateIndex id) const { return Resolved_().Ref(id); }
    void ReportBuffered_(detail::StateIndex id, BufferOutcome outcome) const {
        if (const Block_* block = BlockIf_(); block && block->observer)
            block->observer->OnBufferedRequest(block->name, Tab_()->NameOf(id), outcome);
    }

    static constexpr std::uint16_t kFrozen_ = detail::kFrozen;
    // The flags of a machine whose next tick can take the fast path.
    static constexpr std::uint16_t kRunning_ = detail::kMachineFast;
    // State data lives right after the block's header, so the tick finds it
    // without reading the header.
    static constexpr std::size_t kDataOffset_ = detail::kSeatDataOffset;
    static constexpr std::uintptr_t kTableTag_ = 1;

    /// Per-machine bookkeeping, kept out of the machine object so that the object
    /// itself is the five words a tick reads (the controller and the Seat).
    struct Block_ {
        Node_* node = nullptr;        // position on the shared configuration path; null once private
        std::uint32_t data_count = 0; // states of the table whose data lives in this block
        std::uint32_t capacity = 0;   // bytes of state data the block holds
        std::uint32_t align = 0;      // alignment the block was allocated with
        float dt = 0;
        Table_* table = nullptr;      // the machine's table (shared or private); one reference held
        bool stale = false;           // table is for an earlier point of the configuration
        bool shared = false;          // made again after Freeze_ let it go: the table is shared
        detail::StateIndex next = detail::kNoState;     // a NextState request
        detail::StateIndex previous = detail::kNoState; // the state the last change came from
        detail::StateIndex global = detail::kNoState;   // the global state
        Observer* observer = nullptr;
        std::string_view name = "StateManager";
    };
    static_assert(sizeof(Block_) <= kDataOffset_);

    // Perform tests, sets and clears the flags' low byte alone, with plain
    // stores: kStarted, kBusy, kFrozen and kFresh. Every reason for the general
    // path sits above it and is seen through the Seat's step (MachineGeneralStep).
    static_assert((detail::kStarted | detail::kBusy | detail::kFrozen | detail::kFresh) < 0x100 &&
                  (detail::kGeneralReasons & 0xFF) == 0 && (detail::kInitialized & 0xFF) == 0);
    static constexpr unsigned char kFastByte_ = static_cast<unsigned char>(kRunning_ & 0xFF);
    unsigned char& FastFlags_() const noexcept {
        static_assert(std::endian::native == std::endian::little,
                      "tickfsm: StateManager::Perform reads the flags' low byte as the first byte of the word");
        return *reinterpret_cast<unsigned char*>(&seat_.rt.flags);
    }
    /// A fast tick's mark: kBusy stored with the flags Perform has just
    /// checked, then those flags stored again. Nothing a tick does changes
    /// that byte otherwise: a transition writes it as it was (EnterMachineTarget),
    /// the general path (MachineGeneralStep) leaves its outcome in the step, and
    /// every call from a hook that would change it is refused.
    struct FastScope_ {
        unsigned char& flags;
        explicit FastScope_(unsigned char& f) noexcept : flags(f) { flags = kFastByte_ | detail::kBusy; }
        ~FastScope_() { flags = kFastByte_; }
        FastScope_(const FastScope_&) = delete;
        FastScope_& operator=(const FastScope_&) = delete;
    };
    struct BusyScope_ {
        detail::Runtime& rt;
        explicit BusyScope_(detail::Runtime& r) noexcept : rt(r) {
            rt.flags = static_cast<std::uint16_t>(rt.flags | detail::kBusy);
        }
        ~BusyScope_() { rt.flags = static_cast<std::uint16_t>(rt.flags & ~detail::kBusy); }
        BusyScope_(const BusyScope_&) = delete;
        BusyScope_& operator=(const BusyScope_&) = delete;
    };

    /// Inside one of this machine's hooks or conditions, on either path: kBusy
    /// (see FastScope_ and BusyScope_). A call back into the machine from a
    /// hook or condition fails Perform's check of the flags and takes the
    /// general path, which refuses it here, as every other entry point does.
    bool Busy_() const noexcept {
        return (seat_.rt.flags & detail::kBusy) != 0;
    }

    // A machine without a block (see Freeze_) has no state data: its data pointer is never read.
    std::byte* Data_() const noexcept { return detail::SeatedData(seat_.rt); }

    // What follows reads a machine's block and table from its Seat alone, so
    // that its general step (MachineGeneralStep), which receives the Seat's
    // Runtime and no machine, can read them too.
    static Block_* BlockIfOf_(const detail::Seat& seat) noexcept {
        return reinterpret_cast<std::uintptr_t>(seat.home) & kTableTag_ ? nullptr : static_cast<Block_*>(seat.home);
    }
    static Table_* TableOf_(const detail::Seat& seat) noexcept {
        const auto bits = reinterpret_cast<std::uintptr_t>(seat.home);
        return bits & kTableTag_ ? reinterpret_cast<Table_*>(bits & ~kTableTag_) : static_cast<Block_*>(seat.home)->table;
    }

    Block_* Home_() const noexcept { return static_cast<Block_*>(seat_.home); }
    void SetHome_(Block_* home) const noexcept { seat_.home = home; }

    /// The machine's block, made again if Freeze_ let it go (not on the tick path).
    Block_* Blk_() const {
        if (reinterpret_cast<std::uintptr_t>(Home_()) & kTableTag_) [[unlikely]]
            Rehome_();
        return Home_();
    }
    /// The block, or null if the machine runs without one.
    Block_* BlockIf_() const noexcept { return BlockIfOf_(seat_); }
    Table_* Tab_() const noexcept { return TableOf_(seat_); }
    float Dt_() const noexcept {
        if (const Block_* block = BlockIf_()) return block->dt;
        return Tab_()->dt;
    }
    [[gnu::cold, gnu::noinline]] void Rehome_() const {
        Table_* table = Tab_();
        Block_* block = NewBlock_(0, alignof(Block_));
        block->table = table;
        block->dt = table->dt;
        block->shared = true;
        SetHome_(block);
    }
    /// Once configured, a machine whose table is shared, holds no state data,
    /// and ticks only on the fast path needs no block: the block goes, and
    /// the home pointer holds the table (tagged), so the machine owns no heap.
    void ReleaseBlockIfUnused_() {
        Block_* block = Home_();
        const Table_& table = *block->table;
        if (!block->node || !table.items.empty() || !table.all_fast || table.uses_machine || table.keep_previous ||
            block->observer || block->global != detail::kNoState || block->next != detail::kNoState ||
            block->previous != detail::kNoState || block->name != std::string_view("StateManager"))
            return;
        Table_* held = block->table;
        FreeBlock_(block);
        SetHome_(reinterpret_cast<Block_*>(reinterpret_cast<std::uintptr_t>(held) | kTableTag_));
    }

    static Block_* NewBlock_(std::size_t capacity, std::size_t align) {
        if (align < alignof(Block_)) align = alignof(Block_);
        void* memory = ::operator new(kDataOffset_ + capacity, std::align_val_t{align});
        Block_* block = ::new (memory) Block_();
        block->capacity = static_cast<std::uint32_t>(capacity);
        block->align = static_cast<std::uint32_t>(align);
        return block;
    }
    static void FreeBlock_(Block_* block) noexcept {
        if (!block) return;
        const std::size_t align = block->align;
        block->~Block_();
        ::operator delete(static_cast<void*>(block), std::align_val_t{align});
    }

    template <class, class, class, class...>
    friend class EventTransitionBuilder;
    template <class, class, class, class, class, class...>
    friend class TypedEventBuilder;
    friend class KeyedTransitionBuilder<Controller, Action>;

    using NameFn_ = std::string_view (*)() noexcept;
    /// CheckConfigurable_ for `From<S>().To<T>()`: no formatting code per transition.
    void CheckConfigurableEdge_(NameFn_ from, const char* api, NameFn_ to) const {
        if (seat_.rt.flags & kFrozen_) [[unlikely]]
            FailFrozenEdge_(from, api, to);
    }
    [[noreturn, gnu::cold, gnu::noinline]] static void FailFrozenEdge_(NameFn_ from, const char* api, NameFn_ to) {
        FailFrozen_(detail::Format("From<{}>().{}<{}>()", from(), api, to()));
    }
    [[noreturn, gnu::cold, gnu::noinline]] static void FailFrozen_(std::string_view what) {
        Table_::Fail(detail::Format("{}: the transition table is frozen after the first Perform; configure every state "
                                 "and transition before the machine ticks (usually in the constructor)",
                                 what));
    }

    /// A push or pop transition needs the push stack, set before it: refused at the call.
    void CheckPushStack_(NameFn_ from, const char* api) const {
        if (Resolved_().stack_capacity == 0)
            Table_::Fail(detail::Format("From<{}>().{}(): this machine has no push stack; call SetPushCapacity<N>() "
                                    "before configuring pushes and pops",
                                    from(), api));
    }

    template <class What>
    void CheckConfigurable_(What&& what) const {
        if (seat_.rt.flags & kFrozen_) [[unlikely]]
            FailFrozen_(what());
    }

    template <class K>
    static std::string KeyText_(K key) {
        return detail::KeyText(key);
    }

    /// Refuses a builder whose chain was extended already (a builder used
    /// twice), before its To changes anything.
    void CheckChain_(const void* from_key, std::size_t chain, const void* expected, NameFn_ from, NameFn_ to) const {
        detail::CheckChainToExtend(Resolved_(), from_key, chain, expected, from, to);
    }

    template <class K>
    detail::StateIndex KeyedId_(K key, std::string_view api) const {
        const detail::StateIndex id = Resolved_().FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key));
        if (id == detail::kNoState)
            Table_::Fail(detail::Format("{}({}): no state is registered under that key (AddState<S>(key) first)", api,
                                    KeyText_(key)));
        return id;
    }

    template <class S, bool kFromPrototype, class K>
    void AddKeyed_(K key, detail::Shared<const S> prototype) {
        std::string_view name;
        detail::Owned<const std::string> owned;
        if constexpr (std::is_enum_v<K>) name = detail::EnumName(key);
        if (name.empty()) {
            owned = detail::MakeOwned<const std::string>(KeyText_(key));
            name = *owned;
        }
        ApplyPrivately_([&](Table_& table) {
            const detail::StateIndex id = table.template Add<S, kFromPrototype>(nullptr, name, std::move(prototype));
            table.SetKey(id, detail::TypeKey<K>(), static_cast<std::uint64_t>(key));
            table.meta[id].owned_name = std::move(owned);
        });
    }

    KeyedTransitionBuilder<Controller, Action> KeyedBuilder_(detail::StateIndex id) {
        auto& chains = Tab_()->meta[id].chains;
        chains.push_back(detail::ChainPtr<Controller, Action>(new detail::ErasedChain<Controller, Action>()));
        Tab_()->finalized = false;
        return KeyedTransitionBuilder<Controller, Action>(*this, id, chains.size() - 1);
    }

    template <class K, class F>
    void AddKeyedEdge_(detail::StateIndex from, std::size_t chain, K key, F&& condition, bool forced,
                       std::string_view name = {}) {
        CheckConfigurable_([&] { return detail::Format("From({}).To({})", Tab_()->NameOf(from), KeyText_(key)); });
        const detail::StateIndex to = KeyedId_(key, "To");
        auto& erased = static_cast<detail::ErasedChain<Controller, Action>&>(*Tab_()->meta[from].chains[chain]);
        erased.Add(std::forward<F>(condition), detail::Target{to, 0, Tab_()->meta[to].offset}, forced);
        const std::size_t edge = erased.count - 1;
        if constexpr (std::is_same_v<std::decay_t<F>, detail::Always>) Tab_()->Note(from, chain, edge).always = true;
        if (!name.empty()) detail::ApplyConditionName(*Tab_(), from, chain, edge, name);
        Tab_()->finalized = false;
    }

    template <class K>
    void AddKeyedEvent_(detail::StateIndex from, const Event& event, K key) {
        CheckConfigurable_([&] { return detail::Format("From({}).On({}).To({})", Tab_()->NameOf(from), detail::EventText(event), KeyText_(key)); });
        const detail::StateIndex to = KeyedId_(key, "On");
        if (const detail::EventEdge* existing = Tab_()->FindEvent(from, event))
            Table_::Fail(detail::Format("From({}).On({}).To({}): state {} already has a transition on event {} (to {})",
                                    Tab_()->NameOf(from), detail::EventText(event), KeyText_(key), Tab_()->NameOf(from),
                                    detail::EventText(event), Tab_()->NameOf(existing->to)));
        Tab_()->meta[from].events.push_back(detail::EventEdge{event, to});
        Tab_()->finalized = false;
    }

    template <class X, class... Args>
    void AddKeyedAction_(detail::StateIndex from, Args&&... args) {
        CheckConfigurable_([&] { return detail::Format("From({}).Do<{}>()", Tab_()->NameOf(from), detail::TypeName<X>()); });
        auto prototype = detail::MakeShared<const X>(std::forward<Args>(args)...);
        ApplyPrivately_([&](Table_& table) { detail::ApplyDoAt<Controller, Action, X>(table, from, std::move(prototype)); });
    }

    /// A To step on the shared path, if the machine is on it at `token` (the
    /// builder's position): the new position, else null. Not a template, so
    /// each transition costs little code.
    const void* StepTo_(const void* token, const void* key, void (*function)(), std::size_t chain,
                        typename Record_::Replay replay) {
        if (!Blk_()->node || token != Blk_()->node) return nullptr;
        Record_ step;
        step.key = key;
        step.function = function;
        step.chain = chain;
        step.replay = replay;
        return Step_(step);
    }

    /// A shareable step whose mistakes must show at the call: the table after
    /// it is built (and published for every later machine) before this
    /// machine moves on, so that a ConfigError leaves it where it was.
    void CheckedStep_(const Record_& step) {
        auto& registry = detail::Registry<Controller, Action>::Get();
        Node_* next = registry.Child(Blk_()->node, step);
        Table_* table = registry.Published(next);
        if (!table) table = registry.Publish(next, registry.Build(next));
        Table_::Release(table);
        Blk_()->node = next;
        Blk_()->stale = Tab_() != nullptr;
    }

    /// A shareable step: move along the registry's path.
    Node_* Step_(const Record_& step) {
        Node_* next = detail::Registry<Controller, Action>::Get().Child(Blk_()->node, step);
        Blk_()->node = next;
        Blk_()->stale = Tab_() != nullptr;
        return next;
    }

    /// The table for this machine's configuration so far, built or found on first need.
    const Table_& Resolved_() const {
        if (const Block_* block = BlockIf_(); block && (!block->table || block->stale)) [[unlikely]]
            Resolve_();
        return *Tab_();
    }

    [[gnu::cold, gnu::noinline]] void Resolve_() const {
        auto& registry = detail::Registry<Controller, Action>::Get();
        Node_* node = Blk_()->node;
        Table_* table = registry.Published(node);
        if (!table) table = registry.Publish(node, registry.Build(node));
        Adopt_(table);
    }

    /// Leave the shared path: this machine gets a private table holding its
    /// configuration so far (a step that holds data is about to be added).
    void Detach_() {
        if (!Blk_()->node) return;
        Table_* table = detail::Registry<Controller, Action>::Get().Build(Blk_()->node);
        Adopt_(table);
        Blk_()->node = nullptr;
    }

    /// Run on `table` (one reference handed over): its layout extends this
    /// machine's current one, so existing state data moves over and the states
    /// new to it are constructed.
    void Adopt_(Table_* table) const {
        struct Owner { // releases `table` if SyncData_ throws, else the old table
            Table_* held;
            ~Owner() { Table_::Release(held); }
        } owner{table};
        SyncData_(*table);
        std::swap(owner.held, Blk_()->table);
        Blk_()->stale = false;
    }

    /// A configuration step on this machine's private table, then its data.
    template <class F>
    void ApplyPrivately_(F&& apply) {
        apply(*Tab_());
        SyncData_(*Tab_()); // retried by the next step or tick if a constructor throws
    }

    /// In a shared configuration, refuse a second transition from S on `event` now.
    template <class S, class T>
    void CheckNoEventOnPath_(const Event& event) const {
        for (const Node_* n = Blk_()->node; n && n->parent; n = n->parent)
            if (n->step.event_state == detail::TypeKey<S>() && n->step.event == event)
                Table_::Fail(detail::Format("From<{}>().On({}).To<{}>(): state {} already has a transition on event "
                                        "{}; a state has one transition per event",
                                        detail::StateName<S>(), detail::EventText(event), detail::StateName<T>(),
                                        detail::StateName<S>(), detail::EventText(event)));
    }

    template <class S>
    [[gnu::noinline]] void AddStatePrivately_() { // one copy per state, not one per transition
        const std::size_t before = Tab_()->meta.size();
        Tab_()->template Register<S>();
        if (Tab_()->meta.size() == before) return;
        struct Undo { // a state constructor that throws leaves the table as it was
            Table_* table;
            ~Undo() {
                if (table) table->PopLast();
            }
        } undo{Tab_()};
        SyncData_(*Tab_());
        undo.table = nullptr;
    }

    /// Make the block hold a copy of every data item of `table` (whose first
    /// data_count items are the ones the block holds now).
    void SyncData_(const Table_& table) const {
        const auto& items = table.items;
        const std::size_t count = items.size();
        if (count == Blk_()->data_count) return;
        Block_* grown = NewBlock_(table.data_size, table.data_align);
        grown->table = Home_()->table;
        grown->node = Blk_()->node;
        grown->dt = Blk_()->dt;
        grown->stale = Blk_()->stale;
        grown->next = Blk_()->next;
        grown->previous = Blk_()->previous;
        grown->global = Blk_()->global;
        grown->observer = Blk_()->observer;
        grown->name = Blk_()->name;
        std::byte* to = reinterpret_cast<std::byte*>(grown) + kDataOffset_;
        struct Undo { // destroy what was built if a constructor throws
            const Table_& table;
            Block_* block;
            std::byte* data;
            std::size_t first, built;
            ~Undo() {
                if (!block) return;
                for (std::size_t i = first; i < built; ++i) table.items[i].destroy(data + table.items[i].offset);
                FreeBlock_(block);
            }
        } undo{table, grown, to, Blk_()->data_count, Blk_()->data_count};
        for (std::size_t i = Blk_()->data_count; i < count; ++i, ++undo.built)
            items[i].construct(to + items[i].offset, items[i].prototype.get());
        for (std::size_t i = 0; i < Blk_()->data_count; ++i)
            items[i].relocate(to + items[i].offset, Data_() + items[i].offset);
        undo.block = nullptr;
        FreeBlock_(Home_());
        SetHome_(grown);
        Blk_()->data_count = static_cast<std::uint32_t>(count);
    }

    void ReleaseData_() noexcept {
        Block_* block = BlockIf_();
        if (!block || !block->table) return;
        for (std::size_t i = 0; i < block->data_count; ++i)
            block->table->items[i].destroy(Data_() + block->table->items[i].offset);
        block->data_count = 0;
    }

    detail::TickContext<Controller, Action> Context_(const Action* action) {
        return ContextOf_(seat_, *controller_, action);
    }
    static detail::TickContext<Controller, Action> ContextOf_(detail::Seat& seat, Controller& controller,
                                                              const Action* action) {
        detail::TickContext<Controller, Action> ctx;
        ctx.table = TableOf_(seat);
        ctx.rt = &seat.rt;
        ctx.main = ctx.rt;
        ctx.controller = &controller;
        ctx.action = action;
        ctx.data = detail::SeatedData(seat.rt);
        // A machine without a block never needs one here (see ReleaseBlockIfUnused_):
        // no NextState, no previous state, no global state, no observer.
        if (Block_* block = BlockIfOf_(seat)) {
            ctx.next = &block->next;
            ctx.previous = ctx.table->keep_previous ? &block->previous : nullptr;
            ctx.global = block->global;
            ctx.observer = block->observer;
            ctx.name = block->name;
        } else {
            ctx.name = "StateManager";
        }
        return ctx;
    }

    /// A tick that cannot take the fast path: the first one, one in a state that
    /// needs the general path, one with a NextState request or an observer.
    [[gnu::cold, gnu::noinline]] void SlowTick_(const Action& action) {
        if (Busy_())
            Table_::Fail(detail::Format("Perform() called from inside a hook or condition of this machine (state {}); "
                                    "a tick cannot start inside another tick",
                                    CurrentStateName()));
        if (!(seat_.rt.flags & detail::kStarted)) {
            Freeze_();
            if (QuickStart_()) return Perform(action);
        }
        if ((seat_.rt.flags & ~detail::kGeneralReasons) == (kRunning_ & ~detail::kFresh)) {
            // A change outside the fast path cleared kFresh: find the step, which
            // takes the general path itself if the machine has a reason to.
            Refresh_(seat_);
            return Perform(action);
        }
        {
            BusyScope_ busy(seat_.rt);
            auto ctx = Context_(&action);
            detail::GeneralTick(ctx);
        }
        Refresh_(seat_);
    }

    /// The Seat's step for the machine's state and flags, once it has started:
    /// the state's step, or the general step if the state or the machine needs
    /// the general path (kGeneralReasons); kFresh says it is up to date.
    static void Refresh_(detail::Seat& seat) noexcept {
        detail::Runtime& rt = seat.rt;
        if ((rt.flags & (detail::kStarted | kFrozen_)) != (detail::kStarted | kFrozen_)) return;
        const detail::MachineStepFn<Controller, Action> step =
            rt.flags & detail::kGeneralReasons ? &detail::MachineGeneralStep<Controller, Action>
                                               : detail::SeatedSteps<Controller, Action>(rt)[rt.state].machine;
        seat.step = reinterpret_cast<void (*)()>(step);
        rt.flags = static_cast<std::uint16_t>(rt.flags | detail::kFresh);
    }
    /// A change outside any tick that the step does not show: the next tick
    /// finds the step again (Refresh_).
    void Invalidate_() noexcept { seat_.rt.flags = static_cast<std::uint16_t>(seat_.rt.flags & ~detail::kFresh); }

    // What a snapshot keeps of a machine's flags: the rest follow from its
    // configuration (kSlow, kFrozen), its observer or the tick (kBusy, kFresh).
    static constexpr std::uint16_t kSavedFlags_ = detail::kStarted | detail::kNextPending | detail::kInitialized |
                                                  detail::kGlobal | detail::kGlobalWaiting | detail::kDone |
                                                  detail::kSlow;

    [[TICKFSM_DETAIL_COLD]] void SaveInto_(Snapshot& snapshot) const {
        if (Busy_())
            Table_::Fail(detail::Format("Save() called from inside a hook or condition of this machine (state {}); "
                                        "save between ticks",
                                        CurrentStateName()));
        // Like the first Perform, a snapshot closes the configuration.
        if (!(seat_.rt.flags & kFrozen_)) const_cast<StateManager*>(this)->Freeze_();
        const Table_& table = Resolved_();
        const detail::SnapshotLayout layout = table.Layout();
        detail::CheckSavable(layout, &Table_::Fail);
        if (!table.items.empty()) SyncData_(table);
        const Block_* block = BlockIf_();
        const detail::StateIndex none = detail::kNoState;
        std::vector<std::byte>& out = detail::SnapshotAccess::Bytes(snapshot);
        detail::BeginSnapshot(out, layout, detail::SnapshotKind::Machine, 1);
        const std::uint16_t head[] = {block ? block->global : none, 0};
        detail::AppendBytes(out, head, sizeof(head));
        detail::Runtime rt = seat_.rt;
        rt.flags = static_cast<std::uint16_t>(rt.flags & kSavedFlags_);
        detail::WriteCharacter(out, layout, rt, block ? block->next : none, block ? block->previous : none,
                               table.items.empty() ? nullptr : Data_());
        detail::EndSnapshot(out);
    }

    [[TICKFSM_DETAIL_COLD]] void Restore_(const Snapshot& snapshot) {
        if (Busy_())
            Table_::Fail(detail::Format("Restore() called from inside a hook or condition of this machine (state "
                                        "{}); restore between ticks",
                                        CurrentStateName()));
        if (!(seat_.rt.flags & kFrozen_)) Freeze_();
        const Table_& table = Resolved_();
        const detail::SnapshotLayout layout = table.Layout();
        // Everything is checked before anything changes.
        detail::SnapshotCursor cursor = detail::OpenSnapshot(detail::SnapshotAccess::Bytes(snapshot), layout,
                                                             detail::SnapshotKind::Machine, 1, &Table_::Fail);
        std::uint16_t head[2];
        std::memcpy(head, detail::TakeBytes(cursor, sizeof(head), &Table_::Fail), sizeof(head));
        if (!detail::ValidState(layout, head[0]))
            Table_::Fail(detail::Format("Restore(): the snapshot's global state is state {} of {}", head[0],
                                        layout.names.size()));
        detail::SnapshotCursor check = cursor;
        detail::CheckCharacter(check, layout, &Table_::Fail);
        if (!table.items.empty()) SyncData_(table);
        detail::Runtime rt;
        detail::StateIndex next = detail::kNoState, previous = detail::kNoState;
        detail::ReadCharacter(cursor, layout, rt, next, previous, table.items.empty() ? nullptr : Data_());
        if (BlockIf_() || next != detail::kNoState || previous != detail::kNoState || head[0] != detail::kNoState) {
            Block_* block = Blk_();
            block->next = next;
            block->previous = previous;
            block->global = head[0];
        }
        seat_.rt.state = rt.state;
        seat_.rt.ticks = rt.ticks;
        seat_.rt.flags = static_cast<std::uint16_t>((seat_.rt.flags & ~kSavedFlags_) | (rt.flags & kSavedFlags_));
        Invalidate_();
    }

    /// MachineGeneralStep: a tick on the general path, called as the Seat's
    /// step from inside Perform's mark (kBusy is set); it leaves the step for
    /// the next tick, which is itself until Refresh_ finds another (so that a
    /// hook that throws leaves it in place).
    static void GeneralStep_(Controller& controller, const Action& action, detail::Runtime& rt) {
        detail::Seat& seat = detail::SeatOf(rt);
        auto ctx = ContextOf_(seat, controller, &action);
        detail::GeneralTick(ctx);
        Refresh_(seat);
    }
    template <class C, class A>
    friend void detail::MachineGeneralStep(C&, const A&, detail::Runtime&);

    /// A first tick that runs no hook before the initial state's step (see
    /// Table::quick_start), on a machine with no observer, global state or
    /// NextState request, starts here: the machine enters the initial state
    /// by writing its Runtime, and its tick takes the fast path. Saves the
    /// general path's start for the common first tick.
    bool QuickStart_() noexcept {
        const Table_& table = *Tab_();
        if (!table.quick_start || (seat_.rt.flags & ~(kFrozen_ | detail::kInitialized)) != 0) return false;
        seat_.rt = detail::Runtime{table.initial, static_cast<std::uint16_t>(kRunning_ & ~detail::kFresh), 0};
        Refresh_(seat_);
        return true;
    }

    template <class T, class... Args>
    bool SetState_(detail::Direct how, std::string_view api, Args&&... args) {
        if (!(seat_.rt.flags & detail::kStarted) && !Busy_()) Freeze_();
        const detail::StateIndex id = Resolved_().Find(detail::TypeKey<T>());
        if (id == detail::kNoState)
            Table_::Fail(detail::Format("{}<{}>(): {} is not a state of this machine", api, detail::StateName<T>(),
                                    detail::StateName<T>()));
        if constexpr (sizeof...(Args) > 0) {
            auto rebuild = [&](std::byte* object) { detail::RebuildState<T>(object, std::forward<Args>(args)...); };
            detail::Prepare prepare;
            prepare.run = [](const void* context, std::byte* object) {
                (*static_cast<const decltype(rebuild)*>(context))(object);
            };
            prepare.context = &rebuild;
            return SetStateIndex_(id, how, api, prepare);
        } else {
            return SetStateIndex_(id, how, api, detail::Prepare{});
        }
    }

    // Templates (A is always Action) so that TICKFSM_INSTANTIATE_MACHINE works
    // for an Action without a default constructor: only a use instantiates them.
    template <class A = Action>
    bool SetStateIndex_(detail::StateIndex id, detail::Direct how, std::string_view api, detail::Prepare prepare) {
        static_assert(std::is_default_constructible_v<A>,
                      "tickfsm: TrySetState/TryResetState/ForceSetState/RevertToPreviousState from outside a tick "
                      "hand Action{} to the hooks; give the Action a default constructor, or change state from a "
                      "hook's Machine handle");
        if (Busy_())
            Table_::Fail(detail::Format("{}({}) called on the machine from inside one of its hooks or conditions "
                                    "(state {}); take a tickfsm::Machine<Controller, Action>& as the hook's last "
                                    "parameter and call it there",
                                    api, Tab_()->NameOf(id), CurrentStateName()));
        if (!(seat_.rt.flags & detail::kStarted)) Freeze_();
        const A action{};
        BusyScope_ busy(seat_.rt);
        auto ctx = Context_(&action);
        return detail::SetState(ctx, id, how, prepare);
    }

    detail::StateIndex CheckedId_(StateId id, std::string_view api) const {
        const Table_& table = Resolved_();
        if (id.value >= table.meta.size() || id.value == table.any)
            Table_::Fail(detail::Format("{}(StateId {}): not a state of this machine, which has {} states", api,
                                    id.value, StateCount()));
        return id.value;
    }

    template <class A>
    void StackChange_(detail::StateIndex id, Cause cause, std::string_view api) {
        static_assert(std::is_default_constructible_v<A>,
                      "tickfsm: Push/Pop from outside a tick hand Action{} to the hooks; give the Action a default "
                      "constructor, or push and pop from a hook's Machine handle");
        if (Busy_())
            Table_::Fail(detail::Format("{}() called on the machine from inside one of its hooks or conditions "
                                    "(state {}); take a tickfsm::Machine<Controller, Action>& as the hook's last "
                                    "parameter and call it there",
                                    api, CurrentStateName()));
        if (!(seat_.rt.flags & detail::kStarted)) Freeze_();
        const A action{};
        BusyScope_ busy(seat_.rt);
        auto ctx = Context_(&action);
        detail::StackChange(ctx, id, cause);
    }

    template <class A = Action>
    void ChangeGlobal_(detail::StateIndex id) {
        static_assert(std::is_default_constructible_v<A>,
                      "tickfsm: SetGlobalState/ClearGlobalState hand Action{} to the global state's hooks; give the "
                      "Action a default constructor");
        if (Busy_())
            Table_::Fail("SetGlobalState/ClearGlobalState called from inside a hook or condition of this machine");
        Freeze_();
        const A action{};
        BusyScope_ busy(seat_.rt);
        auto ctx = Context_(&action);
        Block_* block = Blk_();
        // A global state waiting for the machine to start was never entered: it is not exited.
        if (block->global != detail::kNoState && !(seat_.rt.flags & detail::kGlobalWaiting)) detail::ExitGlobal(ctx);
        block->global = id;
        const auto kept = static_cast<std::uint16_t>(seat_.rt.flags & ~(detail::kGlobal | detail::kGlobalWaiting));
        seat_.rt.flags = kept;
        Invalidate_();
        if (id == detail::kNoState) return;
        ctx.global = id;
        if (!(seat_.rt.flags & detail::kStarted)) {
            // Its enter hook sees the machine's first state: it is entered when the machine starts.
            seat_.rt.flags = static_cast<std::uint16_t>(seat_.rt.flags | detail::kGlobal | detail::kGlobalWaiting);
            return;
        }
        seat_.rt.flags = static_cast<std::uint16_t>(seat_.rt.flags | detail::kGlobal);
        detail::EnterGlobal(ctx);
    }

    /// Close the configuration: the table is resolved, complete and final.
    void Freeze_() {
        const Table_& table = Resolved_();
        if (table.initial == detail::kNoState)
            Table_::Fail("Perform() called before SetInitialState<S>(): give the machine an initial state while "
                        "configuring");
        if (!table.finalized) Tab_()->Finalize(); // a private table: it changes no more
        seat_.steps = table.MachineSteps();
        seat_.rt.flags = static_cast<std::uint16_t>(seat_.rt.flags | kFrozen_);
        if (BlockIf_()) ReleaseBlockIfUnused_();
    }

    Controller* controller_;
    // rt; home: the machine's block, or once it runs without one, its table
    // tagged with kTableTag_; the current state's step and the table's steps
    // (set when the configuration closes). Its steps find all of it from rt.
    mutable detail::Seat seat_{};
};

namespace detail {
template <class C, class A>
void MachineGeneralStep(C& c, const A& a, Runtime& rt) {
    StateManager<C, A>::GeneralStep_(c, a, rt);
}
} // namespace detail

} // namespace tickfsm
