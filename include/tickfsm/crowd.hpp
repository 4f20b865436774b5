#pragma once
// Crowd<Manager>: many characters of one kind on one shared, immutable table.
// Per character: the current state id, its tick count (8 bytes) and the data
// of the states that have data.

#include <cstddef>
#include <cstring>
#include <cstdint>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/format.hpp"
#include "list.hpp"

#include "config_error.hpp"
#include "describe.hpp"
#include "detail/grouped.hpp"
#include "detail/table.hpp"
#include "detail/engine.hpp"
#include "event.hpp"
#include "detail/traits.hpp"
#include "state_manager.hpp"
#include "tick_order.hpp"

namespace tickfsm {

namespace detail {
template <class M>
concept IsStateManager = requires {
    typename M::ControllerType;
    typename M::ActionType;
} && std::is_base_of_v<StateManager<typename M::ControllerType, typename M::ActionType>, M>;

template <class M>
struct CrowdNeedsAStateManager {
    static_assert(kAlwaysFalse<M>, "tickfsm: Crowd<Manager> takes your StateManager subclass (the type in "
                                   "CrowdNeedsAStateManager<...> above), e.g. Crowd<HeroStateManager>");
};

template <class M>
consteval bool CheckCrowdManager() {
    if constexpr (!IsStateManager<M>) {
        (void)sizeof(CrowdNeedsAStateManager<M>);
        return false;
    }
    return true;
}

// A crowd's per-character lists grow here, compiled once in lib/engine.cpp
// rather than in every file that includes the crowd (some compilers
// instantiate a call whose arguments do not depend on the template as soon
// as they read it).
/// Room for `count` characters' Runtimes (twice the old room if that is more).
void ReserveRuntimes(List<Runtime>& runtimes, std::size_t count);
/// `count` characters' Runtimes, the new ones not started.
void ResizeRuntimes(List<Runtime>& runtimes, std::size_t count);
/// `count` characters' state requests, the new ones kNoState.
void ResizeStates(List<StateIndex>& states, std::size_t count);
/// Room for `count` characters' state requests (twice the old room if that is more).
void ReserveStates(List<StateIndex>& states, std::size_t count);
/// Crowd::Remove's swap-and-pop of every per-character list: character i's
/// data items destroyed, the last character's relocated into slot i (`data`
/// holds a character every `stride` bytes); allocates nothing.
void RemoveCharacter(List<Runtime>& runtimes, List<StateIndex>& next_states, List<StateIndex>& previous_states,
                     std::byte* data, std::size_t stride, const List<DataItem>& items, std::size_t i) noexcept;
} // namespace detail

/// Ticks many characters that a `Manager` (a StateManager subclass) would each
/// drive, on the one table that Manager's configuration compiles to. A crowd
/// needs a shareable configuration: captureless lambdas, functions or empty
/// functors as conditions, per-character data reached through the controller.
template <class Manager>
class Crowd {
    static_assert(detail::CheckCrowdManager<Manager>());

public:
    using Controller = typename Manager::ControllerType;
    using Action = typename Manager::ActionType;

    /// `count` characters, none started. `prototype` (and `args`) only serve to
    /// construct one Manager once, whose configuration the crowd takes.
    template <class... Args>
    Crowd(std::size_t count, Controller& prototype, Args&&... args) {
        Manager manager(prototype, std::forward<Args>(args)...);
        Take(manager, count);
    }

    /// `count` characters, none started, of a Manager built from its Controller
    /// alone: a default-constructed Controller serves to construct one Manager
    /// once, whose configuration the crowd takes.
    explicit Crowd(std::size_t count)
        requires std::is_default_constructible_v<Controller> && std::is_constructible_v<Manager, Controller&>
    {
        Controller prototype{};
        Manager manager(prototype);
        Take(manager, count);
    }

private:
    /// The crowd takes `manager`'s configuration and grows to `count` characters.
    void Take(Manager& manager, std::size_t count) {
        const Table& resolved = manager.ResolvedTable();
        if (manager.OwnBlock()->global != detail::kNoState) Fail(detail::CrowdMistake::GlobalState, {});
        if (!manager.OwnBlock()->node)
            Fail(detail::CrowdMistake::PrivateConfiguration, {});
        if (resolved.initial == detail::kNoState)
            Fail(detail::CrowdMistake::NoInitialState, {});
        table = manager.CurrentTable();
        table->Acquire();
        step_words = table->Steps(); // the shared table is final: it never changes
        const std::size_t align = resolved.data_align;
        data_stride = (resolved.data_size + align - 1) / align * align;
        checks = resolved.all_fast ? 0 : 1;
        Grow(count);
    }

public:
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    ~Crowd() {
        Destroy(0, runtimes.size(), state_data);
        Free(state_data);
        Table::Release(table);
    }

    /// One fixed tick of character i, driving `controller` with `action`
    /// (the same rules as StateManager::Perform).
    void Perform(std::size_t i, Controller& controller, const Action& action) {
        CheckIndex(i, "Perform");
        detail::Runtime& rt = runtimes[i];
        if (rt.flags != kRunning || active != kNothing) [[unlikely]]
            return SlowTick(i, controller, action);
        Running running(active, i + 1); // not kBusy in rt.flags: see detail::ScopedValue
        FastStep(i, controller, action);
    }

    /// One tick of every character: controllers[i] with actions[i].
    void TickAll(std::span<Controller> controllers, std::span<const Action> actions) {
        if (controllers.size() != runtimes.size() || actions.size() != runtimes.size())
            Fail(detail::CrowdMistake::TickAllSizes,
                 {.i = runtimes.size(), .a = controllers.size(), .b = actions.size()});
        TickAll(controllers, [&actions](std::size_t i, Controller&) { return actions[i]; });
    }

    /// One tick of every character: `make_action(i, controllers[i])` returns
    /// character i's action (read its input, run its physics: whatever comes
    /// before its machine), then character i ticks, in `order` (index order by
    /// default; TickOrder::ByState groups characters by state). Faster than
    /// calling Perform in your own loop: the crowd's table and arrays stay in
    /// registers. A hook or condition may not tick or reset this crowd while it
    /// runs. A small, trivially copyable `make_action` callable as const may be
    /// called through a const copy; any other is called as the object passed.
    template <class MakeAction>
        requires std::is_invocable_r_v<Action, MakeAction&, std::size_t, Controller&>
    void TickAll(std::span<Controller> controllers, MakeAction&& make_action, TickOrder order = TickOrder::ByIndex) {
        if (order == TickOrder::ByState) return TickByState(controllers, make_action);
        // The common case, kept small so that a call for few characters costs
        // little: every character has started on a table whose states all
        // tick on the fast path and hold no data, so no character can leave
        // it and the loop checks none (see `fast_count`).
        if (controllers.size() == fast_count && active == kNothing) [[likely]] {
            Running running(active, kTickingAll);
            if (controllers.size() <= kInlineTickMax) return TickLoop<false, false, true>(controllers, make_action);
            return TickLoopAligned(controllers, make_action);
        }
        TickAllChecked(controllers, make_action);
    }

    /// Sends `event` to character i from outside a tick (see StateManager::SendEvent).
    bool SendEvent(std::size_t i, Controller& controller, const Event& event, const Action& action) {
        return Deliver(i, controller, action, detail::EventText(event),
                        [&](auto& ctx) { return detail::DeliverEvent(ctx, event); });
    }
    /// The typed SendEvent (see StateManager::SendEvent) for character i.
    template <class E>
        requires detail::TypedEventValue<E>
    bool SendEvent(std::size_t i, Controller& controller, const E& event, const Action& action) {
        return Deliver(i, controller, action, detail::TypeName<E>(), [&](auto& ctx) {
                            return detail::DeliverTyped(ctx, detail::TypeKey<E>(), &event, detail::kTypedEvent<E>);
                        });
    }

    /// Every character's whole state as one value (see Snapshot), restored
    /// with Restore(snapshot). When no state or action keeps data that needs
    /// Save/Load hooks, it is the crowd's own memory copied in bulk.
    Snapshot Save() const {
        Snapshot snapshot;
        SaveInto(snapshot);
        return snapshot;
    }
    /// Save() into `snapshot`, reusing its memory: no allocation once it is large enough.
    void SaveInto(Snapshot& snapshot) const { SaveAll(snapshot); }
    /// Puts every character back as it was when `snapshot` was saved (no
    /// hook runs). A snapshot of another configuration or of a crowd of
    /// another size is a ConfigError naming what differs, and the crowd is
    /// left as it was.
    void Restore(const Snapshot& snapshot) { RestoreAll(snapshot); }

    /// Character i's whole state (see StateManager::Save).
    Snapshot Save(std::size_t i) const {
        Snapshot snapshot;
        SaveInto(i, snapshot);
        return snapshot;
    }
    /// Save(i) into `snapshot`, reusing its memory.
    void SaveInto(std::size_t i, Snapshot& snapshot) const { SaveOne(i, snapshot); }
    /// Puts character i back as it was when `snapshot` (of one character of a
    /// crowd of this configuration) was saved.
    void Restore(std::size_t i, const Snapshot& snapshot) { RestoreOne(i, snapshot); }

    /// Adds one character (not started) and returns its index. Allocates when
    /// the storage is full (then for twice as many): not for the tick.
    std::size_t Add() {
        if (active != kNothing)
            Fail(detail::CrowdMistake::AddWhileTicking, {});
        Grow(runtimes.size() + 1);
        return runtimes.size() - 1;
    }

    /// Removes character i: the last character moves into slot i (as a
    /// vector's swap-and-pop), so only the last character's index changes (it
    /// becomes i). No hook runs (as Reset). Mirror it in the controllers you tick with.
    void Remove(std::size_t i) {
        CheckIndex(i, "Remove");
        if (active == kTickingAll) Fail(detail::CrowdMistake::RemoveInsideTickAll, {.i = i});
        if (active != kNothing) Fail(detail::CrowdMistake::RemoveWhileTicking, {.i = i, .a = active - 1});
        const std::size_t unstarted = (runtimes[i].flags & detail::kStarted) == 0; // one check fewer for TickAll
        detail::RemoveCharacter(runtimes, next_states, previous_states, state_data, data_stride, table->items, i);
        population = runtimes.size();
        Recount(checks - unstarted);
    }

    /// Character i back to the initial state, entered on its next Perform. No
    /// hook runs and its state objects keep their data (Restore(i, snapshot)
    /// of a character not started yet gives fresh data).
    void Reset(std::size_t i) {
        CheckIndex(i, "Reset");
        if (active == kTickingAll)
            FailInsideTickAll("Reset", i, {});
        if (Busy(i))
            Fail(detail::CrowdMistake::ResetWhileTicking, {.i = i});
        if (runtimes[i].flags & detail::kStarted) Recount(checks + 1);
        runtimes[i] = detail::Runtime{detail::kNoState, static_cast<std::uint16_t>(runtimes[i].flags & detail::kInitialized), 0};
        if (!next_states.empty()) next_states[i] = detail::kNoState;
        if (!previous_states.empty()) previous_states[i] = detail::kNoState;
    }

    /// The state character i's last change came from (not Valid() before its
    /// second state). Needs KeepPreviousState() in the Manager's configuration.
    StateRef PreviousState(std::size_t i) const {
        CheckIndex(i, "PreviousState");
        if (!table->keep_previous)
            Fail(detail::CrowdMistake::NoPreviousState, {.i = i});
        return table->Ref(previous_states[i]);
    }

    /// Character i goes back to PreviousState(i) through the gates, or past
    /// them with `force` (see StateManager::RevertToPreviousState); hooks
    /// receive `Action{}`. Returns whether the state changed.
    template <class A = Action>
    bool RevertToPreviousState(std::size_t i, Controller& controller, bool force = false) {
        CheckIndex(i, "RevertToPreviousState");
        if (!table->keep_previous)
            Fail(detail::CrowdMistake::RevertNoPreviousState, {.i = i});
        if (active == kTickingAll)
            FailInsideTickAll("RevertToPreviousState", i, {});
        if (Busy(i))
            Fail(detail::CrowdMistake::RevertWhileTicking, {.i = i});
        const detail::StateIndex previous = previous_states[i];
        if (previous == detail::kNoState) return false;
        const A action{};
        Running running(active, Outermost(i));
        CountStart count(*this, i); // a character not started yet starts in the state it reverts to
        BusyScope busy(runtimes[i]);
        auto ctx = Context(i, controller, action);
        return detail::SetState(ctx, previous, force ? detail::Direct::Force : detail::Direct::Try,
                                detail::Prepare{});
    }

    // In checked builds (TICKFSM_CHECKED), every call taking a character's
    // index refuses one out of range with a ConfigError.
    template <class S>
    bool IsIn(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "IsIn");
        return table->template IsIn<S>(runtimes[i].state, state_data + i * data_stride);
    }
    /// Character i's object of state S.
    template <class S>
    S& State(std::size_t i) {
        CheckIndex(i, "State");
        const detail::StateIndex id = table->Find(detail::TypeKey<S>());
        if (id == detail::kNoState)
            Fail(detail::CrowdMistake::NotAState, {.name = detail::StateName<S>()});
        return detail::StateObject<S>(state_data + i * data_stride, table->meta[id].offset);
    }
    /// False before character i's first tick and after Reset(i).
    bool IsStarted(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "IsStarted");
        return (runtimes[i].flags & detail::kStarted) != 0;
    }
    std::uint32_t TicksInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TicksInState");
        return runtimes[i].state == detail::kNoState ? 0 : runtimes[i].ticks; // 0 before the start
    }
    double TimeInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TimeInState");
        return detail::SecondsOf(TicksInState(i), table->dt);
    }
    /// The ticks S has been active for character i: its current state's, or
    /// a composite's that holds it (which runs on while its substates
    /// change); 0 when S is not active (StateManager::TicksInState<S>()).
    template <class S>
    std::uint32_t TicksInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        static_assert(std::is_class_v<S>, "tickfsm: Crowd::TicksInState<S>(i) and TimeInState<S>(i) ask about a "
                                          "state's class, and S is not a class");
        CheckIndex(i, "TicksInState");
        if (runtimes[i].state == detail::kNoState) return 0;
        const detail::StateIndex id = table->Find(detail::TypeKey<S>());
        if (id == detail::kNoState) return 0;
        return table->TicksOf(runtimes[i].state, runtimes[i].ticks, id, state_data + i * data_stride);
    }
    /// TicksInState<S>(i) in seconds.
    template <class S>
    double TimeInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "TimeInState");
        return detail::SecondsOf(TicksInState<S>(i), table->dt);
    }
    /// Character i's active path as text, outermost first: "Combat/Attack" ("" before its first tick).
    Text ActivePath(std::size_t i) const {
        CheckIndex(i, "ActivePath");
        if (runtimes[i].state == detail::kNoState) return {};
        return table->PathText(runtimes[i].state, state_data + i * data_stride);
    }
    /// How many states pushes keep buried for character i.
    std::size_t BuriedCount(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "BuriedCount");
        if (runtimes[i].state == detail::kNoState) return 0;
        return table->BuriedStates(state_data + i * data_stride, {});
    }
    /// Character i's buried states, as StateManager::BuriedStates: the one
    /// buried first first, as many as fit in `out`; returns how many.
    std::size_t BuriedStates(std::size_t i, std::span<StateId> out) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "BuriedStates");
        if (runtimes[i].state == detail::kNoState) return 0;
        return table->BuriedStates(state_data + i * data_stride, out);
    }
    StateId CurrentState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "CurrentState");
        return StateId{runtimes[i].state};
    }
    std::string_view CurrentStateName(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex(i, "CurrentStateName");
        return table->NameOf(runtimes[i].state);
    }
    std::string_view StateName(StateId id) const noexcept { return table->NameOf(id.value); }
    template <class S>
    StateId IdOf() const noexcept {
        return StateId{table->Find(detail::TypeKey<S>())};
    }
    std::size_t Size() const noexcept { return runtimes.size(); }

    /// The table every character runs on, as one value (see StateManager::Describe()).
    Description Describe() const { return table->Describe(); }
    /// What cannot work as written in that table (see tickfsm::Validate).
    List<Finding> Validate() const { return tickfsm::Validate(Describe()); }
    float FixedDeltaTime() const noexcept { return table->dt; }
    /// Bytes the crowd holds per character: state id and ticks, plus state data.
    std::size_t BytesPerCharacter() const noexcept {
        return sizeof(detail::Runtime) + data_stride + (next_states.empty() ? 0 : sizeof(detail::StateIndex)) +
               (previous_states.empty() ? 0 : sizeof(detail::StateIndex));
    }

private:
    friend struct detail::TicksAccess;
    std::uint32_t& Ticks(std::size_t i) noexcept { return runtimes[i].ticks; }
    using Table = detail::KindTable<Controller, Action>;
    using BusyScope = typename StateManager<Controller, Action>::BusyScope;
    // What runs in the crowd: nothing, TickAll, or i + 1 while character i ticks
    // (Perform) or takes an event (SendEvent), outermost first.
    static constexpr std::size_t kNothing = 0;
    static constexpr std::size_t kTickingAll = static_cast<std::size_t>(-1);
    /// Up to this many characters, TickAll's common case runs its loop inline
    /// in the caller (no call for a small crowd); more run it out of line (see TickLoopAligned).
    static constexpr std::size_t kInlineTickMax = detail::kInlineTickMax;
    /// Characters per block of TickOrder::ByState: 256, fewer for an action of more than 8 bytes.
    static constexpr std::size_t kGroupBlock = detail::GroupBlockFor(sizeof(Action));
    /// States a table may have for TickOrder::ByState to group its characters.
    static constexpr std::size_t kGroupMaxStates = detail::kGroupMaxBuckets - 1;

    /// TickAll in TickOrder::ByState; crowds it cannot group tick by index.
    template <class MakeAction>
    void TickByState(std::span<Controller> controllers, MakeAction& make_action) {
        if (controllers.size() >= detail::kGroupMin && controllers.size() == population && checks == 0 &&
            active == kNothing && table->keys.size() <= kGroupMaxStates) [[likely]]
            return TickGroupedEvery(controllers, make_action);
        TickAll(controllers, make_action);
    }
    /// Sets `active` for a scope and puts back what it was, even if a hook throws.
    using Running = detail::ScopedValue<std::size_t>;
    /// Checked builds: character i exists, or a ConfigError naming the call.
    void CheckIndex([[maybe_unused]] std::size_t i, [[maybe_unused]] const char* api) const {
#if TICKFSM_CHECKED
        if (i >= runtimes.size()) [[unlikely]]
            FailIndex(i, api);
#endif
    }
    /// An event for character i from outside a tick: refused during TickAll
    /// and from inside character i's own hooks and conditions (`what` names the event).
    template <class F>
    bool Deliver(std::size_t i, Controller& controller, const Action& action, std::string_view what, F&& deliver) {
        CheckIndex(i, "SendEvent");
        detail::Runtime& rt = runtimes[i];
        if (active == kTickingAll)
            FailInsideTickAll("SendEvent", i, what);
        if (Busy(i))
            Fail(detail::CrowdMistake::SendEventWhileTicking, {.what = what, .i = i});
        Running running(active, Outermost(i));
        BusyScope busy(rt);
        auto ctx = Context(i, controller, action);
        return deliver(ctx);
    }

    /// Reports `mistake` (its message: lib/messages.cpp), naming this kind.
    [[noreturn, gnu::cold, gnu::noinline]] static void Fail(detail::CrowdMistake mistake, detail::CrowdFacts facts) {
        const Text character = Table::CharacterName();
        facts.character = character;
        facts.manager = detail::TypeName<Manager>();
        detail::FailCrowd(mistake, facts);
    }

    /// A snapshot's refusal (`what`: "Restore(): ..."), named as this crowd's.
    [[noreturn, gnu::cold, gnu::noinline]] static void FailSnapshot(std::string_view what) {
        Fail(detail::CrowdMistake::SnapshotRefused, {.what = what});
    }

    /// `api`(i[, what]) refused during TickAll, from a hook, a condition or make_action.
    [[noreturn, gnu::cold, gnu::noinline]] static void FailInsideTickAll(const char* api, std::size_t i,
                                                                        std::string_view what) {
        Fail(detail::CrowdMistake::CallInsideTickAll, {.name = api, .what = what, .i = i});
    }

    [[noreturn, gnu::cold, gnu::noinline]] void FailIndex(std::size_t i, const char* api) const {
        Fail(detail::CrowdMistake::NoCharacter, {.name = api, .i = i, .a = runtimes.size()});
    }
    /// What `active` becomes while character i ticks: i + 1, unless something runs already.
    std::size_t Outermost(std::size_t i) const noexcept { return active == kNothing ? i + 1 : active; }
    /// Inside a hook or condition of character i: its fast tick, or its general path (kBusy).
    bool Busy(std::size_t i) const noexcept { return active == i + 1 || (runtimes[i].flags & detail::kBusy); }
    // The flags of a character whose next tick can take the fast path.
    static constexpr std::uint16_t kRunning = detail::kStarted | detail::kInitialized;

    /// TickAll's loop over every character, `kChecked` if some may need the general path.
    template <bool kChecked, class MakeAction>
    [[gnu::always_inline]] void TickEvery(std::span<Controller> controllers, MakeAction& make_action) {
        Running running(active, kTickingAll);
        if (data_stride == 0) TickLoop<false, kChecked>(controllers, make_action);
        else TickLoopWithData<kChecked>(controllers, make_action);
    }

    /// TickAll's common case for more than kInlineTickMax characters: the loop
    /// in a function of its own that starts on a 64-byte boundary, so that its
    /// speed does not depend on where the caller's code lands (inlined, the
    /// brawler's loop ran slower in some layouts: docs/performance.md).
    template <class MakeAction>
    [[gnu::noinline, gnu::aligned(64)]] void TickLoopAligned(std::span<Controller> controllers,
                                                             MakeAction& make_action) {
        TickLoop<false, false, true>(controllers, make_action);
    }

    /// TickLoop for a table with state data, out of line: the caller's copy of
    /// TickAll stays small enough to be inlined into the caller's own loop.
    /// Aligned as TickLoopAligned, for the same reason.
    template <bool kChecked, class MakeAction>
    [[gnu::noinline, gnu::aligned(64)]] void TickLoopWithData(std::span<Controller> controllers, MakeAction& make_action) {
        TickLoop<true, kChecked>(controllers, make_action);
    }

    /// TickAll when its common case does not hold: some character may need the
    /// general path, the table has state data, the crowd is empty, or the call is wrong.
    template <class MakeAction>
    [[gnu::noinline]] void TickAllChecked(std::span<Controller> controllers, MakeAction& make_action) {
        if (controllers.size() != runtimes.size())
            Fail(detail::CrowdMistake::TickAllControllers, {.i = runtimes.size(), .a = controllers.size()});
        if (active == kTickingAll)
            Fail(detail::CrowdMistake::TickAllInsideTickAll, {});
        if (active != kNothing)
            Fail(detail::CrowdMistake::TickAllInsideCharacter, {.i = active - 1});
        if (checks == 0) TickEvery<false>(controllers, make_action);
        else TickEvery<true>(controllers, make_action);
    }

    template <bool kHasData, bool kChecked, bool kNonEmpty = false, class MakeAction>
    void TickLoop(std::span<Controller> controllers, MakeAction& make_action) {
        const detail::ErasedWord* const steps = step_words;
        detail::Runtime* const runtime = runtimes.data();
        std::byte* const data = state_data;
        const std::size_t stride = data_stride;
        Controller* const controller = controllers.data();
        const std::size_t count = controllers.size();
        detail::HeldCallable<MakeAction, std::size_t, Controller&> make = make_action;
        if constexpr (kNonEmpty) detail::Assume(count != 0); // the loop's first test goes
        for (std::size_t i = 0; i < count; ++i) {
            const Action action = make(i, controller[i]);
            detail::Runtime& rt = runtime[i];
            if constexpr (kChecked) {
                if (rt.flags != kRunning && !QuickStart(rt)) [[unlikely]] {
                    GeneralTick(i, controller[i], action);
                    continue;
                }
            }
            detail::CallStep<kHasData>(steps, rt.state, controller[i], action, rt, data + i * stride);
        }
    }

    /// TickByState when it groups: out of line, so that the caller's copy of
    /// TickByState stays small for a crowd too small to group.
    template <class MakeAction>
    [[gnu::noinline]] void TickGroupedEvery(std::span<Controller> controllers, MakeAction& make_action) {
        Running running(active, kTickingAll);
        if (data_stride == 0) TickGrouped<false>(controllers, make_action);
        else TickGrouped<true>(controllers, make_action);
    }

    /// TickByState's loop: detail::TickGrouped with the crowd's step call.
    template <bool kHasData, class MakeAction>
    void TickGrouped(std::span<Controller> controllers, MakeAction& make_action) {
        const detail::ErasedWord* const steps = step_words;
        detail::Runtime* const runtime = runtimes.data();
        std::byte* const data = state_data;
        const std::size_t stride = data_stride;
        Controller* const controller = controllers.data();
        detail::TickGrouped<Action, kGroupBlock, false>(
            controllers.size(), table->keys.size(), [&](std::size_t i) { return make_action(i, controller[i]); },
            [runtime](std::size_t i) { return runtime[i].state; },
            [&](std::size_t i, std::uint16_t state, const Action& action) {
                detail::CallStep<kHasData>(steps, state, controller[i], action, runtime[i], data + i * stride);
            });
    }

    detail::TickContext<detail::AnyController, detail::AnyAction> Context(std::size_t i, Controller& controller,
                                                                          const Action& action) {
        detail::TickContext<detail::AnyController, detail::AnyAction> ctx;
        ctx.table = table;
        ctx.rt = &runtimes[i];
        ctx.main = ctx.rt;
        ctx.controller = &detail::EraseController(controller);
        ctx.action = &detail::EraseAction(action);
        ctx.data = state_data + i * data_stride;
        ctx.next = next_states.empty() ? &unused_next : &next_states[i];
        ctx.previous = table->keep_previous ? &previous_states[i] : nullptr;
        return ctx;
    }

    [[gnu::cold, gnu::noinline]] void SlowTick(std::size_t i, Controller& controller, const Action& action) {
        if (active == kTickingAll)
            Fail(detail::CrowdMistake::PerformInsideTickAll, {.i = i});
        if (Busy(i))
            Fail(detail::CrowdMistake::PerformInsideCharacter, {.i = i});
        const bool outermost = active == kNothing; // else the general path marks character i busy
        Running running(active, Outermost(i));
        if (outermost && QuickStart(runtimes[i])) return FastStep(i, controller, action);
        GeneralTick(i, controller, action);
    }

    /// Character i's tick on the fast path.
    [[gnu::always_inline]] void FastStep(std::size_t i, Controller& controller, const Action& action) {
        detail::Runtime& rt = runtimes[i];
        if (data_stride == 0) detail::CallStep<false>(step_words, rt.state, controller, action, rt, nullptr);
        else detail::CallStep<true>(step_words, rt.state, controller, action, rt, state_data + i * data_stride);
    }

    /// A first tick that runs no hook before the initial state's step (see
    /// Table::quick_start) starts here: the character enters the initial state
    /// by writing its Runtime, and its tick takes the fast path. Saves the
    /// general path's start for the common first tick.
    bool QuickStart(detail::Runtime& rt) noexcept {
        if (!table->quick_start || (rt.flags & ~detail::kInitialized) != 0) return false;
        rt = detail::Runtime{table->initial, kRunning, 0};
        Recount(checks - 1);
        return true;
    }

    [[gnu::cold, gnu::noinline]] void GeneralTick(std::size_t i, Controller& controller, const Action& action) {
        CountStart count(*this, i); // this tick may start character i
        BusyScope busy(runtimes[i]);
        auto ctx = Context(i, controller, action);
        detail::GeneralTick(ctx);
    }

    /// For a scope that may start character i: if it did (even if a hook
    /// threw on the way), the count of characters TickAll checks goes down.
    struct CountStart {
        Crowd& crowd;
        std::size_t i;
        bool was_started;
        CountStart(Crowd& c, std::size_t index) noexcept
            : crowd(c), i(index), was_started((c.runtimes[index].flags & detail::kStarted) != 0) {}
        ~CountStart() {
            if (!was_started && (crowd.runtimes[i].flags & detail::kStarted)) crowd.Recount(crowd.checks - 1);
        }
        CountStart(const CountStart&) = delete;
        CountStart& operator=(const CountStart&) = delete;
    };

    // --- snapshots: cold, out of the tick's way ----------------------------------

    // How a crowd's snapshot lays out its characters: in bulk (every array as
    // it is in memory) when every item is kept as bytes, else one record each.
    struct SnapshotHead {
        std::uint8_t bulk;
        std::uint8_t has_next;
        std::uint8_t has_previous;
        std::uint8_t unused = 0;
        std::uint32_t stride;
    };

    void CheckNotTicking(const char* api) const {
        if (active != kNothing)
            Fail(detail::CrowdMistake::CallWhileTicking, {.name = api});
    }
    bool Bulk() const noexcept {
        for (const detail::DataItem& item : table->items)
            if (item.kept != detail::Kept::Bytes) return false;
        return true;
    }
    detail::StateIndex NextOf(std::size_t i) const noexcept { return next_states.empty() ? detail::kNoState : next_states[i]; }
    detail::StateIndex PreviousOf(std::size_t i) const noexcept {
        return previous_states.empty() ? detail::kNoState : previous_states[i];
    }

    // Defined in detail/crowd_snapshot.hpp.
    [[TICKFSM_DETAIL_COLD]] void SaveAll(Snapshot& snapshot) const;
    [[TICKFSM_DETAIL_COLD]] void RestoreAll(const Snapshot& snapshot);
    void ReadOne(detail::SnapshotCursor& cursor, const detail::SnapshotLayout& layout, std::size_t i);
    [[TICKFSM_DETAIL_COLD]] void SaveOne(std::size_t i, Snapshot& snapshot) const;
    [[TICKFSM_DETAIL_COLD]] void RestoreOne(std::size_t i, const Snapshot& snapshot);

    /// `checks` becomes `n`, and TickAll's gate follows.
    void Recount(std::size_t n) noexcept {
        checks = n;
        fast_count = checks == 0 && data_stride == 0 && population != 0 ? population : detail::kNoFastCount;
    }

    std::byte* Allocate(std::size_t count) const {
        if (data_stride == 0 || count == 0) return nullptr;
        // Zeroed, so that padding and bytes no constructor writes are the same in every run's snapshot.
        void* memory = ::operator new(count * data_stride, std::align_val_t{table->data_align});
        std::memset(memory, 0, count * data_stride);
        return static_cast<std::byte*>(memory);
    }
    void Free(std::byte* p) const noexcept {
        if (p) ::operator delete(p, std::align_val_t{table->data_align});
    }
    void Destroy(std::size_t first, std::size_t last, std::byte* data) const noexcept {
        if (!data) return;
        for (std::size_t i = first; i < last; ++i)
            for (const auto& item : table->items) item.destroy(data + i * data_stride + item.offset);
    }

    /// `count` characters, the new ones built from the prototypes (defined
    /// in detail/crowd_storage.hpp). Allocates; not for the tick.
    [[TICKFSM_DETAIL_COLD]] void Grow(std::size_t count);

    Table* table = nullptr;
    const detail::ErasedWord* step_words = nullptr;
    std::byte* state_data = nullptr;
    std::size_t data_stride = 0;
    std::size_t data_room = 0; // the characters state_data has room for
    List<detail::Runtime> runtimes;
    std::size_t population = 0; // runtimes.size(), kept for TickByState's compare and TickAll's gate
    List<detail::StateIndex> next_states; // NextState requests, when a hook can make them
    List<detail::StateIndex> previous_states; // where each character's last change came from (KeepPreviousState only)
    detail::StateIndex unused_next = detail::kNoState;
    std::size_t active = kNothing; // see Running
    // Why TickAll must check each character's flags: one per character not
    // started yet, plus one if some state of the table ticks on the general path.
    std::size_t checks = 0;
    // TickAll's gate: the character count while its common case holds (no
    // checks, no state data, some characters), else kNoFastCount, so that
    // one compare with the span's size decides instead of testing the size,
    // checks and data_stride in turn.
    std::size_t fast_count = detail::kNoFastCount;
};

} // namespace tickfsm

#include "detail/crowd_snapshot.hpp"
#include "detail/crowd_storage.hpp"
