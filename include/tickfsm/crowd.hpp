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
#include <vector>

#include "detail/format.hpp"

#include "config_error.hpp"
#include "describe.hpp"
#include "detail/grouped.hpp"
#include "detail/table.hpp"
#include "detail/tick.hpp"
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
        const Table& table = manager.Resolved_();
        if (!manager.Blk_()->node)
            Table::Fail(detail::Format("Crowd<{}>: its configuration is private to one machine: a condition that "
                                    "holds data (a capturing lambda or a functor with members), an action built "
                                    "with arguments, or keyed or delegate states; a crowd shares one table between "
                                    "all its characters, so use captureless lambdas, functions or empty functors, "
                                    "Do<X>() without arguments and states named by type, and reach per-character "
                                    "data through the controller",
                                    detail::TypeName<Manager>()));
        if (table.initial == detail::kNoState)
            Table::Fail(detail::Format("Crowd<{}>: its configuration has no initial state; call SetInitialState<S>() in "
                                    "its constructor",
                                    detail::TypeName<Manager>()));
        table_ = manager.Tab_();
        table_->Acquire();
        steps_ = table_->Steps(); // the shared table is final: it never changes
        const std::size_t align = table.data_align;
        stride_ = (table.data_size + align - 1) / align * align;
        checks_ = table.all_fast ? 0 : 1;
        Grow(count);
    }

public:
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    ~Crowd() {
        Destroy(0, runtime_.size(), data_);
        Free(data_);
        Table::Release(table_);
    }

    /// One fixed tick of character i, driving `controller` with `action`
    /// (the same rules as StateManager::Perform).
    void Perform(std::size_t i, Controller& controller, const Action& action) {
        CheckIndex_(i, "Perform");
        detail::Runtime& rt = runtime_[i];
        if (rt.flags != kRunning || running_ != kNothing) [[unlikely]]
            return SlowTick(i, controller, action);
        Running running(running_, i + 1); // not kBusy in rt.flags: see detail::ScopedValue
        FastStep(i, controller, action);
    }

    /// One tick of every character: controllers[i] with actions[i].
    void TickAll(std::span<Controller> controllers, std::span<const Action> actions) {
        if (controllers.size() != runtime_.size() || actions.size() != runtime_.size())
            Table::Fail(detail::Format("Crowd::TickAll: {} controllers and {} actions for {} characters",
                                    controllers.size(), actions.size(), runtime_.size()));
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
        // it and the loop checks none (see fast_count_).
        if (controllers.size() == fast_count_ && running_ == kNothing) [[likely]] {
            Running running(running_, kTickingAll);
            if (controllers.size() <= kInlineTickMax) return TickLoop<false, false, true>(controllers, make_action);
            return TickLoopAligned(controllers, make_action);
        }
        TickAllChecked(controllers, make_action);
    }

    /// Sends `event` to character i from outside a tick (see StateManager::SendEvent).
    bool SendEvent(std::size_t i, Controller& controller, const Event& event, const Action& action) {
        return Deliver_(i, controller, action, detail::EventText(event),
                        "take a tickfsm::Machine<Controller, Action>& as the hook's last parameter instead",
                        [&](auto& ctx) { return detail::DeliverEvent(ctx, event); });
    }
    /// The typed SendEvent (see StateManager::SendEvent) for character i.
    template <class E>
        requires detail::TypedEventValue<E>
    bool SendEvent(std::size_t i, Controller& controller, const E& event, const Action& action) {
        return Deliver_(i, controller, action, detail::TypeName<E>(), "send typed events from outside the tick",
                        [&](auto& ctx) {
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
    void SaveInto(Snapshot& snapshot) const { SaveAll_(snapshot); }
    /// Puts every character back as it was when `snapshot` was saved (no
    /// hook runs). A snapshot of another configuration or of a crowd of
    /// another size is a ConfigError naming what differs, and the crowd is
    /// left as it was.
    void Restore(const Snapshot& snapshot) { RestoreAll_(snapshot); }

    /// Character i's whole state (see StateManager::Save).
    Snapshot Save(std::size_t i) const {
        Snapshot snapshot;
        SaveInto(i, snapshot);
        return snapshot;
    }
    /// Save(i) into `snapshot`, reusing its memory.
    void SaveInto(std::size_t i, Snapshot& snapshot) const { SaveOne_(i, snapshot); }
    /// Puts character i back as it was when `snapshot` (of one character of a
    /// crowd of this configuration) was saved.
    void Restore(std::size_t i, const Snapshot& snapshot) { RestoreOne_(i, snapshot); }

    /// Adds one character (not started) and returns its index. Allocates: not for the tick.
    std::size_t Add() {
        if (running_ != kNothing)
            Table::Fail("Crowd::Add called from inside a hook or condition (it would move the characters that are "
                        "ticking); add between ticks");
        Grow(runtime_.size() + 1);
        return runtime_.size() - 1;
    }

    /// Character i back to the initial state, entered on its next Perform.
    void Reset(std::size_t i) {
        CheckIndex_(i, "Reset");
        if (running_ == kTickingAll || Busy(i))
            Table::Fail(detail::Format("Crowd::Reset({}) called from inside a hook or condition", i));
        if (runtime_[i].flags & detail::kStarted) Recount(checks_ + 1);
        runtime_[i] = detail::Runtime{detail::kNoState, static_cast<std::uint16_t>(runtime_[i].flags & detail::kInitialized), 0};
        if (!next_.empty()) next_[i] = detail::kNoState;
        if (!previous_.empty()) previous_[i] = detail::kNoState;
    }

    /// The state character i's last change came from (not Valid() before its
    /// second state). Needs KeepPreviousState() in the Manager's configuration.
    StateRef PreviousState(std::size_t i) const {
        CheckIndex_(i, "PreviousState");
        if (!table_->keep_previous)
            Table::Fail(detail::Format("Crowd<{}>::PreviousState({}) needs KeepPreviousState() in the configuration",
                                    detail::TypeName<Manager>(), i));
        return table_->Ref(previous_[i]);
    }

    /// Character i goes back to PreviousState(i) through the gates, or past
    /// them with `force` (see StateManager::RevertToPreviousState); hooks
    /// receive `Action{}`. Returns whether the state changed.
    template <class A = Action>
    bool RevertToPreviousState(std::size_t i, Controller& controller, bool force = false) {
        CheckIndex_(i, "RevertToPreviousState");
        if (!table_->keep_previous)
            Table::Fail(detail::Format("Crowd<{}>::RevertToPreviousState({}) needs KeepPreviousState() in the "
                                    "configuration",
                                    detail::TypeName<Manager>(), i));
        if (running_ == kTickingAll || Busy(i))
            Table::Fail(detail::Format("Crowd::RevertToPreviousState({}) called from inside a hook or condition; take "
                                    "a tickfsm::Machine<Controller, Action>& as the hook's last parameter instead",
                                    i));
        const detail::StateIndex previous = previous_[i];
        if (previous == detail::kNoState) return false;
        const A action{};
        Running running(running_, Outermost(i));
        CountStart count(*this, i); // a character not started yet starts in the state it reverts to
        BusyScope busy(runtime_[i]);
        auto ctx = Context(i, controller, action);
        return detail::SetState(ctx, previous, force ? detail::Direct::Force : detail::Direct::Try,
                                detail::Prepare{});
    }

    // In checked builds (TICKFSM_CHECKED), every call taking a character's
    // index refuses one out of range with a ConfigError.
    template <class S>
    bool IsIn(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex_(i, "IsIn");
        return table_->template IsIn<S>(runtime_[i].state, data_ + i * stride_);
    }
    /// Character i's object of state S.
    template <class S>
    S& State(std::size_t i) {
        CheckIndex_(i, "State");
        const detail::StateIndex id = table_->Find(detail::TypeKey<S>());
        if (id == detail::kNoState)
            Table::Fail(detail::Format("Crowd::State<{}>(): {} is not a state of {}", detail::StateName<S>(),
                                    detail::StateName<S>(), detail::TypeName<Manager>()));
        return detail::StateObject<S>(data_ + i * stride_, table_->meta[id].offset);
    }
    /// False before character i's first tick and after Reset(i).
    bool IsStarted(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex_(i, "IsStarted");
        return (runtime_[i].flags & detail::kStarted) != 0;
    }
    std::uint32_t TicksInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex_(i, "TicksInState");
        return runtime_[i].ticks;
    }
    double TimeInState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex_(i, "TimeInState");
        return detail::SecondsOf(runtime_[i].ticks, table_->dt);
    }
    StateId CurrentState(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex_(i, "CurrentState");
        return StateId{runtime_[i].state};
    }
    std::string_view CurrentStateName(std::size_t i) const noexcept(!TICKFSM_CHECKED) {
        CheckIndex_(i, "CurrentStateName");
        return table_->NameOf(runtime_[i].state);
    }
    std::string_view StateName(StateId id) const noexcept { return table_->NameOf(id.value); }
    template <class S>
    StateId IdOf() const noexcept {
        return StateId{table_->Find(detail::TypeKey<S>())};
    }
    std::size_t Size() const noexcept { return runtime_.size(); }

    /// The table every character runs on, as one value (see StateManager::Describe()).
    Description Describe() const { return table_->Describe(); }
    /// What cannot work as written in that table (see tickfsm::Validate).
    std::vector<Finding> Validate() const { return tickfsm::Validate(Describe()); }
    float FixedDeltaTime() const noexcept { return table_->dt; }
    /// Bytes the crowd holds per character: state id and ticks, plus state data.
    std::size_t BytesPerCharacter() const noexcept {
        return sizeof(detail::Runtime) + stride_ + (next_.empty() ? 0 : sizeof(detail::StateIndex)) +
               (previous_.empty() ? 0 : sizeof(detail::StateIndex));
    }

private:
    friend struct detail::TicksAccess;
    std::uint32_t& Ticks_(std::size_t i) noexcept { return runtime_[i].ticks; }
    using Table = detail::Table<Controller, Action>;
    using BusyScope = typename StateManager<Controller, Action>::BusyScope_;
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
        if (controllers.size() >= detail::kGroupMin && controllers.size() == size_ && checks_ == 0 &&
            running_ == kNothing && table_->keys.size() <= kGroupMaxStates) [[likely]]
            return TickGroupedEvery(controllers, make_action);
        TickAll(controllers, make_action);
    }
    /// Sets running_ for a scope and puts back what it was, even if a hook throws.
    using Running = detail::ScopedValue<std::size_t>;
    /// Checked builds: character i exists, or a ConfigError naming the call.
    void CheckIndex_([[maybe_unused]] std::size_t i, [[maybe_unused]] const char* api) const {
#if TICKFSM_CHECKED
        if (i >= runtime_.size()) [[unlikely]]
            FailIndex_(i, api);
#endif
    }
    /// An event for character i from outside a tick: refused from inside a
    /// hook or condition (`what` names the event, `fix` the way out).
    template <class F>
    bool Deliver_(std::size_t i, Controller& controller, const Action& action, std::string_view what,
                  std::string_view fix, F&& deliver) {
        CheckIndex_(i, "SendEvent");
        detail::Runtime& rt = runtime_[i];
        if (running_ == kTickingAll || Busy(i))
            Table::Fail(detail::Format("Crowd::SendEvent({}, {}) called from inside a hook or condition; {}", i, what,
                                    fix));
        Running running(running_, Outermost(i));
        BusyScope busy(rt);
        auto ctx = Context(i, controller, action);
        return deliver(ctx);
    }

    [[noreturn, gnu::cold, gnu::noinline]] void FailIndex_(std::size_t i, const char* api) const {
        Table::Fail(detail::Format("Crowd<{}>::{}({}): no character {}: the crowd has {} characters",
                                detail::TypeName<Manager>(), api, i, i, runtime_.size()));
    }
    /// What running_ becomes while character i ticks: i + 1, unless something runs already.
    std::size_t Outermost(std::size_t i) const noexcept { return running_ == kNothing ? i + 1 : running_; }
    /// Inside a hook or condition of character i: its fast tick, or its general path (kBusy).
    bool Busy(std::size_t i) const noexcept { return running_ == i + 1 || (runtime_[i].flags & detail::kBusy); }
    // The flags of a character whose next tick can take the fast path.
    static constexpr std::uint16_t kRunning = detail::kStarted | detail::kInitialized;

    /// TickAll's loop over every character, `kChecked` if some may need the general path.
    template <bool kChecked, class MakeAction>
    [[gnu::always_inline]] void TickEvery(std::span<Controller> controllers, MakeAction& make_action) {
        Running running(running_, kTickingAll);
        if (stride_ == 0) TickLoop<false, kChecked>(controllers, make_action);
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
        if (controllers.size() != runtime_.size())
            Table::Fail(detail::Format("Crowd::TickAll: {} controllers for {} characters", controllers.size(),
                                    runtime_.size()));
        if (running_ == kTickingAll)
            Table::Fail("Crowd::TickAll called from inside a hook or condition of the same crowd");
        if (running_ != kNothing)
            Table::Fail(detail::Format("Crowd::TickAll called from inside a hook or condition of character {} of the "
                                    "same crowd",
                                    running_ - 1));
        if (checks_ == 0) TickEvery<false>(controllers, make_action);
        else TickEvery<true>(controllers, make_action);
    }

    template <bool kHasData, bool kChecked, bool kNonEmpty = false, class MakeAction>
    void TickLoop(std::span<Controller> controllers, MakeAction& make_action) {
        const detail::StepWord<Controller, Action>* const steps = steps_;
        detail::Runtime* const runtime = runtime_.data();
        std::byte* const data = data_;
        const std::size_t stride = stride_;
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
        Running running(running_, kTickingAll);
        if (stride_ == 0) TickGrouped<false>(controllers, make_action);
        else TickGrouped<true>(controllers, make_action);
    }

    /// TickByState's loop: detail::TickGrouped with the crowd's step call.
    template <bool kHasData, class MakeAction>
    void TickGrouped(std::span<Controller> controllers, MakeAction& make_action) {
        const detail::StepWord<Controller, Action>* const steps = steps_;
        detail::Runtime* const runtime = runtime_.data();
        std::byte* const data = data_;
        const std::size_t stride = stride_;
        Controller* const controller = controllers.data();
        detail::TickGrouped<Action, kGroupBlock, false>(
            controllers.size(), table_->keys.size(), [&](std::size_t i) { return make_action(i, controller[i]); },
            [runtime](std::size_t i) { return runtime[i].state; },
            [&](std::size_t i, std::uint16_t state, const Action& action) {
                detail::CallStep<kHasData>(steps, state, controller[i], action, runtime[i], data + i * stride);
            });
    }

    detail::TickContext<Controller, Action> Context(std::size_t i, Controller& controller, const Action& action) {
        detail::TickContext<Controller, Action> ctx;
        ctx.table = table_;
        ctx.rt = &runtime_[i];
        ctx.main = ctx.rt;
        ctx.controller = &controller;
        ctx.action = &action;
        ctx.data = data_ + i * stride_;
        ctx.next = next_.empty() ? &unused_next_ : &next_[i];
        ctx.previous = table_->keep_previous ? &previous_[i] : nullptr;
        return ctx;
    }

    [[gnu::cold, gnu::noinline]] void SlowTick(std::size_t i, Controller& controller, const Action& action) {
        if (running_ == kTickingAll)
            Table::Fail(detail::Format("Crowd::Perform({}) called from inside a hook or condition during TickAll of "
                                    "the same crowd",
                                    i));
        if (Busy(i))
            Table::Fail(detail::Format("Crowd::Perform({}) called from inside a hook or condition of that character", i));
        const bool outermost = running_ == kNothing; // else the general path marks character i busy
        Running running(running_, Outermost(i));
        if (outermost && QuickStart(runtime_[i])) return FastStep(i, controller, action);
        GeneralTick(i, controller, action);
    }

    /// Character i's tick on the fast path.
    [[gnu::always_inline]] void FastStep(std::size_t i, Controller& controller, const Action& action) {
        detail::Runtime& rt = runtime_[i];
        if (stride_ == 0) detail::CallStep<false>(steps_, rt.state, controller, action, rt, nullptr);
        else detail::CallStep<true>(steps_, rt.state, controller, action, rt, data_ + i * stride_);
    }

    /// A first tick that runs no hook before the initial state's step (see
    /// Table::quick_start) starts here: the character enters the initial state
    /// by writing its Runtime, and its tick takes the fast path. Saves the
    /// general path's start for the common first tick.
    bool QuickStart(detail::Runtime& rt) noexcept {
        if (!table_->quick_start || (rt.flags & ~detail::kInitialized) != 0) return false;
        rt = detail::Runtime{table_->initial, kRunning, 0};
        Recount(checks_ - 1);
        return true;
    }

    [[gnu::cold, gnu::noinline]] void GeneralTick(std::size_t i, Controller& controller, const Action& action) {
        CountStart count(*this, i); // this tick may start character i
        BusyScope busy(runtime_[i]);
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
            : crowd(c), i(index), was_started((c.runtime_[index].flags & detail::kStarted) != 0) {}
        ~CountStart() {
            if (!was_started && (crowd.runtime_[i].flags & detail::kStarted)) crowd.Recount(crowd.checks_ - 1);
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

    void CheckNotTicking_(const char* api) const {
        if (running_ != kNothing)
            Table::Fail(detail::Format("Crowd::{} called from inside a hook or condition; call it between ticks", api));
    }
    bool Bulk_() const noexcept {
        for (const detail::DataItem& item : table_->items)
            if (item.kept != detail::Kept::Bytes) return false;
        return true;
    }
    detail::StateIndex NextOf_(std::size_t i) const noexcept { return next_.empty() ? detail::kNoState : next_[i]; }
    detail::StateIndex PreviousOf_(std::size_t i) const noexcept {
        return previous_.empty() ? detail::kNoState : previous_[i];
    }

    [[TICKFSM_DETAIL_COLD]] void SaveAll_(Snapshot& snapshot) const {
        CheckNotTicking_("Save");
        const detail::SnapshotLayout layout = table_->Layout();
        detail::CheckSavable(layout, &Table::Fail);
        std::vector<std::byte>& out = detail::SnapshotAccess::Bytes(snapshot);
        const std::size_t count = runtime_.size();
        detail::BeginSnapshot(out, layout, detail::SnapshotKind::Crowd, static_cast<std::uint32_t>(count));
        const SnapshotHead head{Bulk_(), !next_.empty(), !previous_.empty(), 0, static_cast<std::uint32_t>(stride_)};
        detail::AppendBytes(out, &head, sizeof(head));
        if (head.bulk) {
            out.reserve(out.size() + count * (sizeof(detail::Runtime) + stride_ + 4));
            detail::AppendBytes(out, runtime_.data(), count * sizeof(detail::Runtime));
            if (head.has_next) detail::AppendBytes(out, next_.data(), count * sizeof(detail::StateIndex));
            if (head.has_previous) detail::AppendBytes(out, previous_.data(), count * sizeof(detail::StateIndex));
            if (stride_ != 0) detail::AppendBytes(out, data_, count * stride_);
        } else {
            for (std::size_t i = 0; i < count; ++i)
                detail::WriteCharacter(out, layout, runtime_[i], NextOf_(i), PreviousOf_(i), data_ + i * stride_);
        }
        detail::EndSnapshot(out);
    }

    [[TICKFSM_DETAIL_COLD]] void RestoreAll_(const Snapshot& snapshot) {
        CheckNotTicking_("Restore");
        const detail::SnapshotLayout layout = table_->Layout();
        const std::size_t count = runtime_.size();
        detail::SnapshotCursor cursor =
            detail::OpenSnapshot(detail::SnapshotAccess::Bytes(snapshot), layout, detail::SnapshotKind::Crowd,
                                 static_cast<std::uint32_t>(count), &Table::Fail);
        SnapshotHead head;
        std::memcpy(&head, detail::TakeBytes(cursor, sizeof(head), &Table::Fail), sizeof(head));
        if (head.bulk != Bulk_() || head.has_next != !next_.empty() || head.has_previous != !previous_.empty() ||
            head.stride != stride_)
            Table::Fail("Restore(): the snapshot's crowd keeps its characters in another layout");
        // Everything is checked before anything changes.
        std::size_t unstarted = 0;
        if (head.bulk) {
            const std::size_t ids = count * ((head.has_next ? 1 : 0) + (head.has_previous ? 1 : 0));
            const std::byte* runtimes = detail::TakeBytes(cursor, count * sizeof(detail::Runtime), &Table::Fail);
            const std::byte* requests = detail::TakeBytes(cursor, ids * sizeof(detail::StateIndex), &Table::Fail);
            const std::byte* data = detail::TakeBytes(cursor, count * stride_, &Table::Fail);
            // One pass checks every state id and counts the characters not started.
            const std::size_t states = layout.names.size();
            std::size_t bad = 0;
            unstarted = 0;
            for (std::size_t i = 0; i < count; ++i) {
                detail::Runtime rt;
                std::memcpy(&rt, runtimes + i * sizeof(rt), sizeof(rt));
                bad += rt.state >= states && rt.state != detail::kNoState;
                unstarted += (rt.flags & detail::kStarted) == 0;
            }
            for (std::size_t i = 0; i < ids; ++i) {
                detail::StateIndex id;
                std::memcpy(&id, requests + i * sizeof(id), sizeof(id));
                bad += id >= states && id != detail::kNoState;
            }
            if (bad != 0) Table::Fail("Restore(): the snapshot names a state out of range");
            if (count != 0) std::memcpy(runtime_.data(), runtimes, count * sizeof(detail::Runtime));
            if (head.has_next && count != 0) std::memcpy(next_.data(), requests, count * sizeof(detail::StateIndex));
            if (head.has_previous && count != 0)
                std::memcpy(previous_.data(), requests + (head.has_next ? count * sizeof(detail::StateIndex) : 0),
                            count * sizeof(detail::StateIndex));
            if (stride_ != 0 && count != 0) std::memcpy(data_, data, count * stride_);
        } else {
            detail::SnapshotCursor check = cursor;
            for (std::size_t i = 0; i < count; ++i) detail::CheckCharacter(check, layout, &Table::Fail);
            for (std::size_t i = 0; i < count; ++i) ReadOne_(cursor, layout, i);
            unstarted = 0;
            for (const detail::Runtime& rt : runtime_) unstarted += !(rt.flags & detail::kStarted);
        }
        Recount((table_->all_fast ? 0 : 1) + unstarted);
    }

    void ReadOne_(detail::SnapshotCursor& cursor, const detail::SnapshotLayout& layout, std::size_t i) {
        detail::StateIndex next = detail::kNoState, previous = detail::kNoState;
        detail::ReadCharacter(cursor, layout, runtime_[i], next, previous, data_ + i * stride_);
        if (!next_.empty()) next_[i] = next;
        if (!previous_.empty()) previous_[i] = previous;
    }

    [[TICKFSM_DETAIL_COLD]] void SaveOne_(std::size_t i, Snapshot& snapshot) const {
        CheckIndex_(i, "Save");
        CheckNotTicking_("Save");
        const detail::SnapshotLayout layout = table_->Layout();
        detail::CheckSavable(layout, &Table::Fail);
        std::vector<std::byte>& out = detail::SnapshotAccess::Bytes(snapshot);
        detail::BeginSnapshot(out, layout, detail::SnapshotKind::Character, 1);
        detail::WriteCharacter(out, layout, runtime_[i], NextOf_(i), PreviousOf_(i), data_ + i * stride_);
        detail::EndSnapshot(out);
    }

    [[TICKFSM_DETAIL_COLD]] void RestoreOne_(std::size_t i, const Snapshot& snapshot) {
        CheckIndex_(i, "Restore");
        CheckNotTicking_("Restore");
        const detail::SnapshotLayout layout = table_->Layout();
        detail::SnapshotCursor cursor = detail::OpenSnapshot(detail::SnapshotAccess::Bytes(snapshot), layout,
                                                             detail::SnapshotKind::Character, 1, &Table::Fail);
        detail::SnapshotCursor check = cursor;
        detail::CheckCharacter(check, layout, &Table::Fail);
        const bool was_started = runtime_[i].flags & detail::kStarted;
        ReadOne_(cursor, layout, i);
        const bool started = runtime_[i].flags & detail::kStarted;
        if (was_started != started) Recount(started ? checks_ - 1 : checks_ + 1);
    }

    /// checks_ becomes `checks`, and TickAll's gate follows.
    void Recount(std::size_t checks) noexcept {
        checks_ = checks;
        fast_count_ = checks_ == 0 && stride_ == 0 && size_ != 0 ? size_ : detail::kNoFastCount;
    }

    std::byte* Allocate(std::size_t count) const {
        if (stride_ == 0 || count == 0) return nullptr;
        return static_cast<std::byte*>(::operator new(count * stride_, std::align_val_t{table_->data_align}));
    }
    void Free(std::byte* p) const noexcept {
        if (p) ::operator delete(p, std::align_val_t{table_->data_align});
    }
    void Destroy(std::size_t first, std::size_t last, std::byte* data) const noexcept {
        if (!data) return;
        for (std::size_t i = first; i < last; ++i)
            for (const auto& item : table_->items) item.destroy(data + i * stride_ + item.offset);
    }

    void Grow(std::size_t count) {
        const std::size_t old = runtime_.size();
        runtime_.reserve(count);
        std::byte* grown = Allocate(count);
        if (grown) {
            struct Undo { // a state constructor that throws leaves the crowd as it was
                const Crowd& crowd;
                std::byte* data;
                std::size_t first, built;
                ~Undo() {
                    if (!data) return;
                    crowd.Destroy(first, built, data);
                    crowd.Free(data);
                }
            } undo{*this, grown, old, old};
            for (std::size_t i = old; i < count; ++i, ++undo.built)
                for (const auto& item : table_->items)
                    item.construct(grown + i * stride_ + item.offset, item.prototype.get());
            for (std::size_t i = 0; i < old; ++i)
                for (const auto& item : table_->items)
                    item.relocate(grown + i * stride_ + item.offset, data_ + i * stride_ + item.offset);
            undo.data = nullptr;
            Free(data_);
            data_ = grown;
        }
        runtime_.resize(count);
        size_ = count;
        Recount(checks_ + (count - old));
        if (table_->uses_machine) next_.resize(count, detail::kNoState);
        if (table_->keep_previous) previous_.resize(count, detail::kNoState);
    }

    Table* table_ = nullptr;
    const detail::StepWord<Controller, Action>* steps_ = nullptr;
    std::byte* data_ = nullptr;
    std::size_t stride_ = 0;
    std::vector<detail::Runtime> runtime_;
    std::size_t size_ = 0; // runtime_.size(), kept for TickByState's compare and TickAll's gate
    std::vector<detail::StateIndex> next_; // NextState requests, when a hook can make them
    std::vector<detail::StateIndex> previous_; // where each character's last change came from (KeepPreviousState only)
    detail::StateIndex unused_next_ = detail::kNoState;
    std::size_t running_ = kNothing; // see Running
    // Why TickAll must check each character's flags: one per character not
    // started yet, plus one if some state of the table ticks on the general path.
    std::size_t checks_ = 0;
    // TickAll's gate: the character count while its common case holds (no
    // checks_, no state data, some characters), else kNoFastCount, so that
    // one compare with the span's size decides instead of testing the size,
    // checks_ and stride_ in turn.
    std::size_t fast_count_ = detail::kNoFastCount;
};

} // namespace tickfsm
