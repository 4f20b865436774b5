#pragma once
// How a StateManager drives the engine (tick.hpp): the context a tick on the
// general path runs with, the step its Seat holds, the changes made from
// outside a tick, and its snapshots. All of it works from the Seat and the
// controller, as the general step (MachineGeneralStep) receives no machine.

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "../snapshot.hpp"
#include "format.hpp"
#include "manager_config.hpp"
#include "manager_storage.hpp"
#include "runtime.hpp"
#include "snapshot_io.hpp"
#include "table.hpp"
#include "engine.hpp"

namespace tickfsm::detail {

template <class C, class A>
struct ManagerEngine {
    using Storage = ManagerStorage<C, A>;
    using MachineTable = KindTable<C, A>;

    // The flags of a machine whose next tick can take the fast path.
    static constexpr std::uint16_t kRunning = kMachineFast;
    // What a snapshot keeps of a machine's flags: the rest follow from its
    // configuration (kSlow, kFrozen), its observer or the tick (kBusy, kFresh).
    static constexpr std::uint16_t kSavedFlags =
        kStarted | kNextPending | kInitialized | kGlobal | kGlobalWaiting | kDone | kSlow;

    /// Marks the machine busy (kBusy) for a scope: its hooks and conditions
    /// run inside it, and a call back into the machine from them is refused.
    struct BusyScope {
        Runtime& rt;
        explicit BusyScope(Runtime& r) noexcept : rt(r) { rt.flags = static_cast<std::uint16_t>(rt.flags | kBusy); }
        ~BusyScope() { rt.flags = static_cast<std::uint16_t>(rt.flags & ~kBusy); }
        BusyScope(const BusyScope&) = delete;
        BusyScope& operator=(const BusyScope&) = delete;
    };

    /// Inside one of the machine's hooks or conditions, on either path (kBusy).
    static bool Busy(const Seat& seat) noexcept { return (seat.rt.flags & kBusy) != 0; }
    /// The current state's name, or empty before the first Perform.
    /// The state an error inside a hook names: the current one, or, while the
    /// machine initializes, the state whose OnStateInit runs (Initialize
    /// walks the states with the ticks as its index).
    static std::string_view CurrentName(const Seat& seat) noexcept {
        const auto& table = *Storage::TableOf(seat);
        if (seat.rt.state != kNoState) return table.NameOf(seat.rt.state);
        if (!(seat.rt.flags & kInitialized) && seat.rt.ticks < table.meta.size())
            return table.NameOf(static_cast<StateIndex>(seat.rt.ticks));
        return "none: the machine has not started";
    }

    static TickContext<AnyController, AnyAction> ContextOf(Seat& seat, C& controller, const A* action) {
        TickContext<AnyController, AnyAction> ctx;
        ctx.table = Storage::TableOf(seat);
        ctx.rt = &seat.rt;
        ctx.main = ctx.rt;
        ctx.controller = &EraseController(controller);
        ctx.action = action ? &EraseAction(*action) : nullptr;
        ctx.data = SeatedData(seat.rt);
        // A machine without a block never needs one here (see ReleaseBlockIfUnused):
        // no NextState, no previous state, no global state, no observer.
        if (typename Storage::Block* block = Storage::BlockIf(seat)) {
            ctx.next = &block->next;
            ctx.previous = ctx.table->keep_previous ? &block->previous : nullptr;
            ctx.global = block->global;
            ctx.observer = block->observer;
            ctx.name = block->Name();
        } else {
            ctx.name = "StateManager";
        }
        return ctx;
    }

    /// The Seat's step for the machine's state and flags, once it has started:
    /// the state's step, or the general step if the state or the machine needs
    /// the general path (kGeneralReasons); kFresh says it is up to date.
    static void RefreshStep(Seat& seat) noexcept {
        Runtime& rt = seat.rt;
        if ((rt.flags & (kStarted | kFrozen)) != (kStarted | kFrozen)) return;
        const MachineStepFn<AnyController, AnyAction> step =
            rt.flags & kGeneralReasons ? &MachineGeneralStep<AnyController, AnyAction>
                                       : SeatedSteps<AnyController, AnyAction>(rt)[rt.state].machine;
        seat.step = reinterpret_cast<void (*)()>(step);
        rt.flags = static_cast<std::uint16_t>(rt.flags | kFresh);
    }
    /// A change outside any tick that the step does not show: the next tick
    /// finds the step again (RefreshStep).
    static void InvalidateStep(Seat& seat) noexcept {
        seat.rt.flags = static_cast<std::uint16_t>(seat.rt.flags & ~kFresh);
    }

    /// A tick on the general path, called as the Seat's step from inside
    /// Perform's mark (kBusy is set); it leaves the step for the next tick,
    /// which is itself until RefreshStep finds another (so that a hook that
    /// throws leaves it in place).
    static void GeneralStep(C& controller, const A& action, Runtime& rt) {
        Seat& seat = SeatOf(rt);
        auto ctx = ContextOf(seat, controller, &action);
        GeneralTick(ctx);
        RefreshStep(seat);
    }

    /// A first tick that runs no hook before the initial state's step (see
    /// Table::quick_start), on a machine with no observer, global state or
    /// NextState request, starts here: the machine enters the initial state
    /// by writing its Runtime, and its tick takes the fast path, skipping the
    /// general path's start.
    static bool QuickStart(Seat& seat) noexcept {
        const auto& table = *Storage::TableOf(seat);
        if (!table.quick_start || (seat.rt.flags & ~(kFrozen | kInitialized)) != 0) return false;
        seat.rt = Runtime{table.initial, static_cast<std::uint16_t>(kRunning & ~kFresh), 0};
        RefreshStep(seat);
        return true;
    }

    // The changes from outside a tick hand `Action{}` to the hooks: templates
    // (Act is always A), so that an explicit instantiation of a machine whose
    // Action has no default constructor does not instantiate them.

    /// A direct change (TrySetState and the like) from outside a tick.
    template <class Act = A>
    static bool SetStateIndex(Seat& seat, C& controller, StateIndex id, Direct how, std::string_view api,
                              Prepare prepare) {
        static_assert(std::is_default_constructible_v<Act>,
                      "tickfsm: TrySetState/TryResetState/ForceSetState/RevertToPreviousState from outside a tick "
                      "hand Action{} to the hooks; give the Action a default constructor, or change state from a "
                      "hook's Machine handle");
        if (Busy(seat))
            MachineTable::Fail(
                MessageText(Message::ChangeInsideHookTo, api, Storage::TableOf(seat)->NameOf(id), CurrentName(seat)));
        if (!(seat.rt.flags & kStarted)) ManagerConfig<C, A>::Freeze(seat);
        const Act action{};
        BusyScope busy(seat.rt);
        auto ctx = ContextOf(seat, controller, &action);
        return SetState(ctx, id, how, prepare);
    }

    /// A push or a pop from outside a tick.
    template <class Act = A>
    static void ChangeStack(Seat& seat, C& controller, StateIndex id, Cause cause, std::string_view api) {
        static_assert(std::is_default_constructible_v<Act>,
                      "tickfsm: Push/Pop from outside a tick hand Action{} to the hooks; give the Action a default "
                      "constructor, or push and pop from a hook's Machine handle");
        if (Busy(seat)) MachineTable::Fail(MessageText(Message::ChangeInsideHook, api, CurrentName(seat)));
        if (!(seat.rt.flags & kStarted)) ManagerConfig<C, A>::Freeze(seat);
        const Act action{};
        BusyScope busy(seat.rt);
        auto ctx = ContextOf(seat, controller, &action);
        StackChange(ctx, id, cause);
    }

    /// Exits the old global state (if entered) and enters `id` (none: kNoState).
    template <class Act = A>
    static void ChangeGlobal(Seat& seat, C& controller, StateIndex id) {
        static_assert(std::is_default_constructible_v<Act>,
                      "tickfsm: SetGlobalState/ClearGlobalState hand Action{} to the global state's hooks; give the "
                      "Action a default constructor");
        if (Busy(seat))
            MachineTable::Fail(id == kNoState ? MessageText(Message::GlobalClearInsideHook, CurrentName(seat))
                                              : MessageText(Message::GlobalSetInsideHook,
                                                            Storage::TableOf(seat)->NameOf(id), CurrentName(seat)));
        if (const auto* held = Storage::BlockIf(seat); id == kNoState && (!held || held->global == kNoState))
            return; // nothing to clear (a machine whose block was released has no global state)
        ManagerConfig<C, A>::Freeze(seat);
        const Act action{};
        BusyScope busy(seat.rt);
        auto ctx = ContextOf(seat, controller, &action);
        if (id != kNoState) CheckGlobal(ctx, id);
        typename Storage::Block* block = Storage::BlockOf(seat);
        // A global state waiting for the machine to start was never entered: it is not exited.
        if (block->global != kNoState && !(seat.rt.flags & kGlobalWaiting)) ExitGlobal(ctx);
        block->global = id;
        const auto kept = static_cast<std::uint16_t>(seat.rt.flags & ~(kGlobal | kGlobalWaiting));
        seat.rt.flags = kept;
        InvalidateStep(seat);
        if (id == kNoState) return;
        ctx.global = id;
        if (!(seat.rt.flags & kStarted)) {
            // Its enter hook sees the machine's first state: it is entered when the machine starts.
            seat.rt.flags = static_cast<std::uint16_t>(seat.rt.flags | kGlobal | kGlobalWaiting);
            return;
        }
        seat.rt.flags = static_cast<std::uint16_t>(seat.rt.flags | kGlobal);
        EnterGlobal(ctx);
    }

    /// Save's and Restore's start: refused from inside a hook (`api` names the
    /// call, `verb` what to do instead); like the first Perform, a snapshot
    /// closes the configuration. The machine's resolved table.
    static const MachineTable& SnapshotTable(Seat& seat, const char* api, const char* verb) {
        if (Busy(seat)) MachineTable::Fail(MessageText(Message::CallInsideHook, api, CurrentName(seat), verb));
        if (!(seat.rt.flags & kFrozen)) ManagerConfig<C, A>::Freeze(seat);
        return Storage::Resolved(seat);
    }

    [[TICKFSM_DETAIL_COLD]] static void Save(Seat& seat, Snapshot& snapshot) {
        const MachineTable& table = SnapshotTable(seat, "Save", "save");
        const SnapshotLayout layout = table.Layout();
        CheckSavable(layout, &MachineTable::Fail);
        if (!table.items.empty()) Storage::SyncData(seat, table);
        const typename Storage::Block* block = Storage::BlockIf(seat);
        const StateIndex none = kNoState;
        List<std::byte>& out = SnapshotAccess::Bytes(snapshot);
        BeginSnapshot(out, layout, SnapshotKind::Machine, 1);
        const std::uint16_t head[] = {block ? block->global : none, 0};
        AppendBytes(out, head, sizeof(head));
        Runtime rt = seat.rt;
        rt.flags = static_cast<std::uint16_t>(rt.flags & kSavedFlags);
        WriteCharacter(out, layout, rt, block ? block->next : none, block ? block->previous : none,
                       table.items.empty() ? nullptr : Storage::Data(seat));
        EndSnapshot(out);
    }

    [[TICKFSM_DETAIL_COLD]] static void Restore(Seat& seat, const Snapshot& snapshot) {
        const MachineTable& table = SnapshotTable(seat, "Restore", "restore");
        const SnapshotLayout layout = table.Layout();
        // Everything is checked before anything changes.
        SnapshotCursor cursor =
            OpenSnapshot(SnapshotAccess::Bytes(snapshot), layout, SnapshotKind::Machine, 1, &MachineTable::Fail);
        std::uint16_t head[2];
        std::memcpy(head, TakeBytes(cursor, sizeof(head), &MachineTable::Fail), sizeof(head));
        if (!ValidState(layout, head[0]))
            MachineTable::Fail(MessageText(Message::RestoreGlobalOutOfRange, head[0], layout.names.size()));
        SnapshotCursor check = cursor;
        CheckCharacter(check, layout, false, &MachineTable::Fail);
        if (!table.items.empty()) Storage::SyncData(seat, table);
        Runtime rt;
        StateIndex next = kNoState, previous = kNoState;
        ReadCharacter(cursor, layout, rt, next, previous, table.items.empty() ? nullptr : Storage::Data(seat),
                      &MachineTable::Fail);
        if (Storage::BlockIf(seat) || next != kNoState || previous != kNoState || head[0] != kNoState) {
            typename Storage::Block* block = Storage::BlockOf(seat);
            block->next = next;
            block->previous = previous;
            block->global = head[0];
        }
        seat.rt.state = rt.state;
        seat.rt.ticks = rt.ticks;
        seat.rt.flags = static_cast<std::uint16_t>((seat.rt.flags & ~kSavedFlags) | (rt.flags & kSavedFlags));
        InvalidateStep(seat);
    }
};

/// A StateManager's tick on the general path, called as its Seat's step.
template <class C, class A>
void MachineGeneralStep(C& c, const A& a, Runtime& rt) {
    ManagerEngine<C, A>::GeneralStep(c, a, rt);
}

// Compiled once in the library (lib/engine.cpp), with the rest of the general path.
extern template void MachineGeneralStep<AnyController, AnyAction>(AnyController&, const AnyAction&, Runtime&);

/// A StateManager's tick that cannot take the fast path (see
/// StateManager::Perform), compiled once in the library: refuses a tick that
/// starts inside another, closes the configuration before the first tick,
/// and runs the tick on the general path unless the machine can now take the
/// fast path. Returns true when the tick is still to run, on the fast path.
bool MachineSlowTick(Seat& seat, const KindCode& kind, AnyController& c, const AnyAction& a);

} // namespace tickfsm::detail
