#pragma once
// The general tick path: the rules of a tick, a change, a start and an event
// for a character whose current state needs more than the fast step (see
// tick.hpp, which declares the entry points). Compiled once, in
// lib/engine.cpp, for AnyController/AnyAction.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "../format_text.hpp"
#include "tickfsm/detail/tick.hpp"
#include "tickfsm/detail/tree.hpp"
#include "tickfsm/observer.hpp"

namespace tickfsm::detail {

/// Chained changes (an entered state sending an event, which enters a state
/// that sends one, ...) beyond this many in one go are a configuration loop.
inline constexpr int kMaxChangesInARow = 64;

/// Marks the context as inside an exit hook, where asking for a change is refused.
template <class C, class A>
struct Leaving {
    TickContext<C, A>& ctx;
    explicit Leaving(TickContext<C, A>& c) noexcept : ctx(c) { ctx.in_exit = true; }
    ~Leaving() { ctx.in_exit = false; } // cleared even if a hook throws
    Leaving(const Leaving&) = delete;
    Leaving& operator=(const Leaving&) = delete;
};

/// Names the state whose hook or actions run, for the Machine handle's
/// own-time queries (Machine::TicksInState), until the hook returns.
template <class C, class A>
struct HookOf {
    TickContext<C, A>& ctx;
    StateIndex outer;
    HookOf(TickContext<C, A>& c, StateIndex state) noexcept : ctx(c), outer(c.hook) { ctx.hook = state; }
    ~HookOf() { ctx.hook = outer; }
    HookOf(const HookOf&) = delete;
    HookOf& operator=(const HookOf&) = delete;
};

/// State `state`'s exit hook, then its actions'.
template <class C, class A>
void RunExit(TickContext<C, A>& ctx, StateIndex state) {
    Leaving<C, A> leaving(ctx);
    HookOf<C, A> hook(ctx, state);
    const StateMeta<C, A>& meta = ctx.table->meta[state];
    meta.exit(ctx, meta.offset);
    for (const ActionSlot<C, A>& action : meta.actions) action.exit(ctx, action.offset);
}

/// State `state`'s enter hook, then its actions' in order, stopping at the
/// first that asks for a change.
template <class C, class A>
void RunEnter(TickContext<C, A>& ctx, StateIndex state) {
    HookOf<C, A> hook(ctx, state);
    const StateMeta<C, A>& meta = ctx.table->meta[state];
    meta.enter(ctx, meta.offset);
    if (ctx.pending != kNoState) return;
    for (const ActionSlot<C, A>& action : meta.actions) {
        action.enter(ctx, action.offset);
        if (ctx.pending != kNoState) return;
    }
}

/// The Prepare that builds the state object of the pending change from the
/// arguments a hook staged for it (none if it staged none).
template <class C, class A>
Prepare StagedPrepare(TickContext<C, A>& ctx) noexcept {
    if (ctx.staged.Empty()) return {};
    return {[](const void* staged, std::byte* object) { static_cast<Staged*>(const_cast<void*>(staged))->Build(object); },
            &ctx.staged};
}

/// Runs region `region`'s lane for a scope: the context's Runtime is the
/// region's, and what the machine keeps for its own lane alone (the previous
/// state) is out of reach.
template <class C, class A>
struct LaneScope {
    TickContext<C, A>& ctx;
    Runtime* rt;
    StateIndex lane;
    StateIndex* previous;
    LaneScope(TickContext<C, A>& c, StateIndex region) noexcept
        : ctx(c), rt(c.rt), lane(c.lane), previous(c.previous) {
        ctx.rt = &LaneOf(ctx.table->tree[region], ctx.data);
        ctx.lane = region;
        ctx.previous = nullptr;
    }
    ~LaneScope() {
        ctx.rt = rt;
        ctx.lane = lane;
        ctx.previous = previous;
    }
    LaneScope(const LaneScope&) = delete;
    LaneScope& operator=(const LaneScope&) = delete;
};

/// Exits the active states from `from` up to, not including, `base`,
/// innermost first; each composite exited remembers its leaf (history); a
/// parallel state's regions are exited (the last first) before it.
template <class C, class A>
void ExitUpTo(TickContext<C, A>& ctx, StateIndex from, StateIndex base) {
    const Table<C, A>& table = *ctx.table;
    if (from == kNoState) return;
    for (StateIndex s = from; s != base; s = table.tree[s].parent) {
        if (table.tree[s].history_slot != kNoSlot && table.tree[from].initial == kNoNode)
            HistoryOf(table.tree[s], ctx.data).last = from; // a leaf: a composite is current only mid-change
        if (table.tree[s].first_region != kNoNode) table.code.exit_regions(ctx, table.tree[s].first_region);
        RunExit(ctx, s);
    }
}

/// The refusal of a Pop() with no state buried (no push stack, or an empty one).
inline std::string NothingBuried(std::string_view from) {
    return Format("Pop() in state {}: no state is buried; Pop() returns to the state a Push<T>() buried", from);
}

/// The refusal of a Push<T>() on a machine without a push stack.
inline std::string NoPushStack(std::string_view to) {
    return Format("Push<{}>(): this machine has no push stack; add SetPushCapacity<N>() to its configuration", to);
}

/// The `condition` a change asked for by code or a hook reports: none for a
/// push or pop (no transition of the table made it), else 0.
inline std::size_t AskedCondition(Cause cause) noexcept {
    return cause == Cause::Push || cause == Cause::Pop ? TransitionInfo::kNoCondition : 0;
}

/// The `condition` the change in ctx.pending reports: a region's condition
/// transition handed out to the enclosing lane keeps its index.
template <class C, class A>
std::size_t PendingCondition(const TickContext<C, A>& ctx) noexcept {
    return ctx.pending_cause == Cause::Condition ? ctx.pending_condition : AskedCondition(ctx.pending_cause);
}

/// The refusal of a change into the global state, which performs beside
/// the current state and cannot also be it.
template <class C, class A>
void RefuseGlobal(const TickContext<C, A>& ctx, StateIndex to) {
    if (to == ctx.global && to != kNoState)
        ctx.table->Fail(Format("entering {} from {}: it is this machine's global state (SetGlobalState), which "
                               "performs beside the current state and cannot also be current; give the global "
                               "job its own state class, or ClearGlobalState() first",
                               ctx.table->NameOf(to), ctx.table->NameOf(ctx.rt->state)));
}

// The push stack's resume (push_stack.hpp).
template <class C, class A>
bool ResumeLane(TickContext<C, A>& ctx, StateIndex leaf);

template <class C, class A>
void ChangeTo(TickContext<C, A>& ctx, StateIndex to, Cause cause, std::size_t condition, const Event* event,
              Prepare prepare = {});

/// Enters from below `base` down to `to` and on to a leaf (see ChangeTo),
/// and on into every region of a parallel leaf.
/// Returns true when no entered state asked for another change.
template <class C, class A>
bool EnterDownTo(TickContext<C, A>& ctx, StateIndex from, StateIndex base, StateIndex to, Cause cause,
                 std::size_t condition, const Event* event) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    TreeIndex path[kMaxDepth];
    std::size_t entering = 1;
    path[0] = to;
    if (table.nested) entering = EntryPath(table.tree, base, to, ctx.data, path);
    const StateIndex leaf = path[entering - 1];
    table.RebaseComposites(from, rt.ticks, ctx.data);
    rt.state = path[0];
    rt.ticks = 0;
    rt.flags = static_cast<std::uint16_t>((rt.flags & ~(kSlow | kFresh | kDone)) | (table.meta[leaf].slow ? kSlow : 0));
    if (ctx.observer) {
        TransitionInfo info;
        info.machine = ctx.name;
        info.from = table.NameOf(from);
        info.to = table.NameOf(leaf);
        info.cause = cause;
        info.condition = condition;
        info.event = event;
        info.target = table.NameOf(to);
        if (ctx.owner != kNoState) info.owner = ctx.owner == table.any ? "FromAny()" : table.NameOf(ctx.owner);
        if (ctx.lane != kNoState) info.region = table.NameOf(ctx.lane);
        ctx.observer->OnTransition(info);
        ctx.observer->OnStateEntered(ctx.name, info.to);
    }
    ctx.pending = kNoState;
    // Each state is current while it is entered: a change it asks for
    // leaves from there, and the states below it are not entered.
    SlowIfThrown guard{rt, entering == 1}; // one state entered: a throw leaves a leaf current
    for (std::size_t i = 0; i < entering; ++i) {
        rt.state = path[i];
        if (table.tree[path[i]].initial != kNoNode) SlotOf(table.tree[path[i]], ctx.data).ticks = 0;
        RunEnter(ctx, path[i]);
        if (ctx.pending != kNoState) break;
        if (ctx.deliver && path[i] == ctx.receiver) { // a typed event's payload, right after the enter hooks
            const auto deliver = ctx.deliver;
            ctx.deliver = nullptr;
            deliver(*ctx.controller, ctx.data, table.meta[path[i]].offset, ctx.payload);
        }
    }
    guard.entered = true;
    if (ctx.pending == kNoState && table.tree[leaf].first_region != kNoNode && rt.state == leaf)
        return table.code.enter_regions(ctx, leaf);
    return ctx.pending == kNoState;
}

/// Leave the current state (if any) for `to`, then follow any change the
/// entered state asks for at once. Nested: every active state that is not a
/// proper ancestor of `to` is exited, innermost first (each composite
/// remembering its leaf for history); then every state from there down to
/// `to` is entered, outermost first, and on down to a leaf by each composite's
/// history or initial substate. A flat machine exits its state and enters `to`.
template <class C, class A>
void ChangeTo(TickContext<C, A>& ctx, StateIndex to, Cause cause, std::size_t condition, const Event* event,
              Prepare prepare) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    struct Clear { // a typed event's payload is for this change only (or for the lane it is handed to)
        TickContext<C, A>& ctx;
        bool keep = false;
        ~Clear() {
            if (keep) return; // handed to the enclosing lane with its change
            ctx.deliver = nullptr;
            ctx.owner = kNoState; // a transition's owner names its own change only
        }
    } clear{ctx};
    for (int changes = 0;; ++changes) {
        if (changes == kMaxChangesInARow)
            table.Fail(Format("more than {} state changes in a row without a tick (last: {} -> {}); an entered "
                                   "state keeps sending the machine on: check its events and enter hooks",
                                   kMaxChangesInARow, table.NameOf(rt.state), table.NameOf(to)));
        RefuseGlobal(ctx, to);
        const LaneMove lane =
            table.parallel ? table.code.lane_accepts(ctx, to, cause, condition, event, prepare) : LaneMove::Here;
        if (lane == LaneMove::Outer) { // the lane that holds `to` makes it
            ctx.pending = to;
            ctx.pending_cause = cause;
            ctx.pending_condition = static_cast<std::uint32_t>(condition);
            ctx.pending_event = event;
            clear.keep = true;
            return;
        }
        const StateIndex from = rt.state;
        if (lane == LaneMove::Inner) {
            if (ctx.pending == kNoState) return; // else a change the region handed out, made from here
        } else if (cause == Cause::Pop) {
            if (!table.code.pop) table.Fail(NothingBuried(table.NameOf(from)));
            if (table.code.pop(ctx, condition)) return;
        } else {
            StateIndex base = kNoState;
            if (cause == Cause::Push) {
                if (!table.code.push) table.Fail(NoPushStack(table.NameOf(to)));
                table.code.push(ctx, to);
            } else {
                base = table.nested && from != kNoState ? ChangeBase(table.tree, from, to) : kNoState;
                if (table.code.check_buried) table.code.check_buried(ctx, base, to);
                ExitUpTo(ctx, from, base);
            }
            if (ctx.previous && from != kNoState) *ctx.previous = from;
            if (prepare.run) {
                prepare.run(prepare.context, ctx.data + table.meta[to].offset);
                prepare = {};
            }
            if (EnterDownTo(ctx, from, base, to, cause, condition, event)) return;
        }
        to = ctx.pending;
        cause = ctx.pending_cause;
        event = ctx.pending_event;
        condition = PendingCondition(ctx);
        prepare = StagedPrepare(ctx);
        ctx.owner = kNoState;
    }
}

/// Applies the change the hook that just returned asked for.
template <class C, class A>
void ApplyPending(TickContext<C, A>& ctx) {
    ChangeTo(ctx, ctx.pending, ctx.pending_cause, PendingCondition(ctx), ctx.pending_event,
             StagedPrepare(ctx));
}

template <class C, class A>
void EnterGlobal(TickContext<C, A>& ctx) {
    ctx.pending = kNoState;
    ctx.running = ctx.global;
    RunEnter(ctx, ctx.global);
    ctx.running = kNoState;
    if (ctx.pending != kNoState) ApplyPending(ctx);
}

template <class C, class A>
void ExitGlobal(TickContext<C, A>& ctx) {
    ctx.running = ctx.global;
    RunExit(ctx, ctx.global);
    ctx.running = kNoState;
}

template <class C, class A>
void CheckGlobal(TickContext<C, A>& ctx, StateIndex id) {
    const Table<C, A>& table = *ctx.table;
    const std::string_view name = table.NameOf(id);
    const auto refuse = [&](std::string_view why) {
        table.Fail(Format("SetGlobalState<{}>(): {} is {}; a global state performs beside the current state and "
                          "cannot also be current: give the global job its own state class",
                          name, name, why));
    };
    if (id == table.initial) refuse("the initial state");
    if ((ctx.rt->flags & kStarted) && ctx.rt->state == id) refuse("the current state");
    if (table.stack_capacity != 0 && (ctx.rt->flags & kStarted)) {
        const Buried* entries = BuriedEntries(ctx.data, table.stack);
        for (std::uint32_t i = 0; i < BuriedCount(ctx.data, table.stack); ++i)
            if (entries[i].leaf == id) refuse("buried by a push");
    }
    for (const TransitionRule& rule : table.DescribeTransitions()) {
        const std::string_view from = rule.any ? std::string_view("FromAny()") : table.NameOf(rule.from.value);
        if (rule.to.value == id) refuse(Format("the target of a transition from {}", from));
        if (!rule.any && rule.from.value == id)
            table.Fail(Format("SetGlobalState<{}>(): {} has transitions of its own (to {}), which a global state "
                              "never tries; its hooks change the machine through their Machine& instead",
                              name, name, table.NameOf(rule.to.value)));
    }
}

/// A global state set before the machine started is entered once the
/// machine's first state is.
template <class C, class A>
void EnterWaitingGlobal(TickContext<C, A>& ctx) {
    Runtime& rt = *ctx.rt;
    if (!(rt.flags & kGlobalWaiting)) return;
    rt.flags = static_cast<std::uint16_t>(rt.flags & ~kGlobalWaiting);
    EnterGlobal(ctx);
}

template <class C, class A>
void Initialize(TickContext<C, A>& ctx) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    if (rt.flags & kInitialized) return;
    for (; rt.ticks < table.meta.size(); ++rt.ticks) {
        const StateMeta<C, A>& meta = table.meta[rt.ticks];
        if (meta.init) meta.init(*ctx.controller, ctx.data, meta.offset);
    }
    rt.ticks = 0;
    rt.flags = static_cast<std::uint16_t>(rt.flags | kInitialized);
    if (ctx.observer) ctx.observer->OnInitialized(ctx.name, table.observed, table.observed_initial);
}

/// Marks a machine started, in no state yet with 0 ticks (initializing it if
/// not done yet): what precedes its first change, to the initial state or to a
/// state asked for directly.
template <class C, class A>
void MarkStarted(TickContext<C, A>& ctx) {
    Runtime& rt = *ctx.rt;
    Initialize(ctx);
    const Table<C, A>& table = *ctx.table;
    if (table.stack_capacity != 0) BuriedCount(ctx.data, table.stack) = 0; // a fresh start buries nothing
    for (const TreeNode& node : table.tree) {
        if (node.initial != kNoNode) SlotOf(node, ctx.data) = CompositeSlot{};
        if (node.history_slot != kNoSlot) HistoryOf(node, ctx.data) = HistorySlot{}; // nor remembers any history
        if (node.owner != kNoNode) LaneOf(node, ctx.data) = Runtime{};         // nor has a region entered
    }
    rt.state = kNoState;
    rt.ticks = 0;
    rt.flags = static_cast<std::uint16_t>(rt.flags | kStarted);
}

/// First start: initialize if not done yet, then enter the initial state with 0 ticks.
template <class C, class A>
void Start(TickContext<C, A>& ctx) {
    MarkStarted(ctx);
    ChangeTo(ctx, ctx.table->initial, Cause::Initial, 0, nullptr);
    EnterWaitingGlobal(ctx);
}

/// State `state`'s Perform, then its actions' updates in order, stopping at
/// the first hook that asks for a change.
template <class C, class A>
void RunPerform(TickContext<C, A>& ctx, StateIndex state) {
    HookOf<C, A> hook(ctx, state);
    const StateMeta<C, A>& meta = ctx.table->meta[state];
    meta.perform(ctx, meta.offset);
    if (ctx.pending != kNoState) return;
    for (const ActionSlot<C, A>& action : meta.actions) {
        action.update(ctx, action.offset);
        if (ctx.pending != kNoState) return;
    }
}

/// Takes the transition `fired` that a probe found.
template <class C, class A>
void Fire(TickContext<C, A>& ctx, const Probed<C, A>& fired) {
    // A transition that takes arguments builds its target between the exit and the enter.
    struct Build {
        const Probed<C, A>* fired;
        TickContext<C, A>* ctx;
    } build{&fired, &ctx};
    Prepare prepare;
    if (fired.chain->prepare) {
        prepare.run = [](const void* context, std::byte*) {
            const Build& b = *static_cast<const Build*>(context);
            b.fired->chain->prepare(*b.fired->chain, b.fired->index, *b.ctx->controller, *b.ctx->action,
                                    b.ctx->data);
        };
        prepare.context = &build;
    }
    Cause cause = Cause::Condition;
    if (fired.chain->kinds) {
        const std::uint8_t kind = fired.chain->kinds[fired.index];
        if (kind == kKindPush) cause = Cause::Push;
        else if (kind == kKindPop) cause = Cause::Pop;
    }
    ctx.owner = fired.owner;
    ChangeTo(ctx, fired.to, cause, fired.condition, nullptr, prepare);
}

template <class C, class A>
void PassThrough(TickContext<C, A>& ctx) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    StateIndex passed[kMaxDepth];
    std::size_t count = 0;
    while (table.meta[rt.state].pass_through) {
        for (std::size_t i = 0; i < count; ++i) {
            if (passed[i] != rt.state) continue;
            std::string chain;
            for (std::size_t j = i; j < count; ++j) chain += std::string(table.NameOf(passed[j])) + " -> ";
            table.Fail(Format("pass-through loop: {}{}; a pass-through state's transitions are tried again at once, "
                              "so one of them must lead out of the loop",
                              chain, table.NameOf(rt.state)));
        }
        if (count == kMaxDepth)
            table.Fail(Format("more than {} pass-through states in a row in one tick (last: {})", kMaxDepth,
                              table.NameOf(rt.state)));
        passed[count++] = rt.state;
        const Probed<C, A> fired = table.ProbePath(rt.state, rt.ticks, *ctx.controller, *ctx.action, ctx.data, false,
                                                   (rt.flags & kDone) != 0, ctx.lane == kNoState);
        if (fired.to == kNoState) return;
        Fire(ctx, fired);
        if (ctx.pending != kNoState) return; // the change leaves this region: its enclosing lane makes it
    }
}

/// One more tick for every active state above `leaf` in its lane (its
/// composites) and, for a parallel leaf, in each region's lane.
template <class C, class A>
void CountAbove(const Table<C, A>& table, std::byte* data, StateIndex leaf) {
    if (!table.composite_bases) // else a composite's time follows its leaf's
        for (StateIndex s = table.tree[leaf].parent; s != kNoState; s = table.tree[s].parent)
            CountTick(SlotOf(table.tree[s], data).ticks);
    for (StateIndex r = table.tree[leaf].first_region; r != kNoNode; r = table.tree[r].next_region) {
        Runtime& lane = LaneOf(table.tree[r], data);
        if (lane.state == kNoState) continue;
        CountTick(lane.ticks);
        CountAbove(table, data, lane.state);
    }
}

template <class C, class A>
void FinishTick(TickContext<C, A>& ctx);

template <class C, class A>
void GeneralTick(TickContext<C, A>& ctx) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    const bool starting = !(rt.flags & kStarted);
    if (starting) Start(ctx);
    CountTick(rt.ticks);
    if (table.nested) CountAbove(table, ctx.data, rt.state); // every active composite and region counts the tick too
    if (starting && (rt.flags & kNextPending)) {
        // A request from the initial state's enter hooks waits for the next
        // Perform, as one from a state entered by a transition does: the
        // initial state performs once first. Being asked, it stands for this
        // tick's transition, so no condition is tried.
    } else if (rt.flags & kNextPending) {
        rt.flags = static_cast<std::uint16_t>(rt.flags & ~kNextPending);
        const StateIndex to = *ctx.next;
        *ctx.next = kNoState;
        ChangeTo(ctx, to, Cause::Request, 0, nullptr);
    } else {
        const Probed<C, A> fired = table.ProbePath(rt.state, rt.ticks, *ctx.controller, *ctx.action, ctx.data, false, (rt.flags & kDone) != 0);
        if (fired.to != kNoState) Fire(ctx, fired);
    }
    FinishTick(ctx);
}

/// The rest of a tick once its transition, if any, has been made: pass-through
/// states, the global state's Perform, the active path's, then the regions'.
template <class C, class A>
void FinishTick(TickContext<C, A>& ctx) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    if (table.passing) table.code.pass_through(ctx);
    ctx.pending = kNoState;
    if (ctx.global != kNoState) { // the global state performs first, beside the current one
        ctx.running = ctx.global;
        RunPerform(ctx, ctx.global);
        ctx.running = kNoState;
        if (ctx.pending != kNoState) return ApplyPending(ctx);
    }
    if (table.nested) { // the active path performs, outermost first
        TreeIndex path[kMaxDepth];
        const std::size_t n = ActivePathOf(table.tree, rt.state, path);
        for (std::size_t i = 0; i < n && ctx.pending == kNoState; ++i) RunPerform(ctx, path[i]);
    } else {
        RunPerform(ctx, rt.state);
    }
    if (ctx.pending != kNoState) return ApplyPending(ctx);
    if (table.parallel) table.code.tick_regions(ctx); // then each region of a parallel leaf, in order
}

template <class C, class A>
bool SetState(TickContext<C, A>& ctx, StateIndex to, Direct how, Prepare prepare) {
    RefuseGlobal(ctx, to); // before a machine not started is marked started
    if (!DirectAllowed(ctx, to, how)) return false;
    if (!(ctx.rt->flags & kStarted)) MarkStarted(ctx);
    ChangeTo(ctx, to, Cause::Direct, 0, nullptr, prepare);
    EnterWaitingGlobal(ctx);
    return true;
}

template <class C, class A>
void StackChange(TickContext<C, A>& ctx, StateIndex to, Cause cause) {
    if (!(ctx.rt->flags & kStarted))
        ctx.table->Fail(cause == Cause::Push ? "Push<T>() before the first Perform: there is no state to bury"
                                             : "Pop() before the first Perform: no state is buried");
    ChangeTo(ctx, to, cause, TransitionInfo::kNoCondition, nullptr);
}

/// Hands an event sent from outside a tick to the regions of the lane's
/// parallel leaf, each in order, `deliver` running in each region's lane.
/// Returns 1 if some region took it, 0 if none did, and -1 if one took it
/// with a change that left its region, made here (or handed on out).
template <class C, class A, class F>
int DeliverToRegions(TickContext<C, A>& ctx, F&& deliver) {
    const Table<C, A>& table = *ctx.table;
    bool taken = false;
    for (StateIndex r = table.tree[ctx.rt->state].first_region; r != kNoNode; r = table.tree[r].next_region) {
        {
            LaneScope<C, A> scope(ctx, r);
            taken = deliver() || taken;
        }
        if (ctx.pending != kNoState) {
            ChangeTo(ctx, ctx.pending, ctx.pending_cause, PendingCondition(ctx), ctx.pending_event);
            return -1;
        }
    }
    return taken ? 1 : 0;
}

/// An event sent from outside a tick, in the lane that runs: a parallel
/// leaf's regions first, each in order (a region that has no transition for
/// it leaves it to the next); if none took it, from the leaf outward in this
/// lane. Returns whether a state took it. A change that leaves a region is
/// made in the lane that holds its target.
template <class C, class A>
bool DeliverEventInLane(TickContext<C, A>& ctx, const Event& event) {
    const Table<C, A>& table = *ctx.table;
    const StateIndex leaf = ctx.rt->state;
    if (leaf == kNoState) return false;
    if (DeliverToRegions(ctx, [&] { return DeliverEventInLane(ctx, event); }) != 0) return true;
    const EventEdge* edge = table.FindEventOutward(leaf, event);
    if (!edge) return false;
    ChangeTo(ctx, edge->to, Cause::Event, 0, &edge->event);
    return true;
}

/// Takes typed transition `edge` (a change: its target set): the target
/// receives `payload` right after its enter hooks.
template <class C, class A>
void TakeTyped(TickContext<C, A>& ctx, const TypedEdge<C>& edge, const void* payload) {
    ctx.deliver = edge.deliver;
    ctx.payload = payload;
    ctx.receiver = edge.to;
    ChangeTo(ctx, edge.to, Cause::Event, 0, &edge.event);
}

/// A typed event's delivery in the lane that runs, by DeliverEventInLane's rules.
template <class C, class A>
bool DeliverTypedInLane(TickContext<C, A>& ctx, const void* type, const void* payload) {
    const Table<C, A>& table = *ctx.table;
    const StateIndex leaf = ctx.rt->state;
    if (leaf == kNoState) return false;
    if (DeliverToRegions(ctx, [&] { return DeliverTypedInLane(ctx, type, payload); }) != 0) return true;
    StateIndex holder = kNoState;
    const TypedEdge<C>* edge = table.FindTypedOutward(leaf, type, *ctx.controller, payload, holder);
    if (!edge) return false;
    if (edge->to == kNoState) { // handled in place
        if (edge->deliver) edge->deliver(*ctx.controller, ctx.data, table.meta[holder].offset, payload);
        return true;
    }
    TakeTyped(ctx, *edge, payload);
    return true;
}

template <class C, class A>
bool DeliverTyped(TickContext<C, A>& ctx, const void* type, const void* payload, const Event& as) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    if (rt.flags & kStarted)
        if (const TypedEdge<C>* any = table.FindAnyTyped(rt.state, type, *ctx.controller, payload, ctx.data)) {
            TakeTyped(ctx, *any, payload);
            return true;
        }
    if (table.parallel) {
        const bool taken = rt.flags & kStarted && DeliverTypedInLane(ctx, type, payload);
        if (!taken && ctx.observer) ctx.observer->OnUnhandledEvent(ctx.name, table.NameOf(rt.state), as);
        return taken;
    }
    StateIndex holder = kNoState;
    const TypedEdge<C>* edge =
        rt.flags & kStarted ? table.FindTypedOutward(rt.state, type, *ctx.controller, payload, holder) : nullptr;
    if (edge && edge->to == kNoState) { // handled in place
        if (edge->deliver) edge->deliver(*ctx.controller, ctx.data, table.meta[holder].offset, payload);
        return true;
    }
    if (edge) {
        TakeTyped(ctx, *edge, payload);
        return true;
    }
    if (ctx.observer) ctx.observer->OnUnhandledEvent(ctx.name, table.NameOf(rt.state), as);
    return false;
}

template <class C, class A>
bool DeliverEvent(TickContext<C, A>& ctx, const Event& event) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    if (!(rt.flags & kStarted)) {
        if (ctx.observer) ctx.observer->OnUnhandledEvent(ctx.name, {}, event);
        return false;
    }
    if (const EventEdge* any = table.FindAnyEvent(rt.state, event, ctx.data)) {
        ChangeTo(ctx, any->to, Cause::Event, 0, &any->event);
        return true;
    }
    if (table.parallel) {
        const bool taken = DeliverEventInLane(ctx, event);
        if (!taken && ctx.observer) ctx.observer->OnUnhandledEvent(ctx.name, table.NameOf(rt.state), event);
        return taken;
    }
    const EventEdge* edge = table.FindEventOutward(rt.state, event);
    if (!edge) {
        if (ctx.observer) ctx.observer->OnUnhandledEvent(ctx.name, table.NameOf(rt.state), event);
        return false;
    }
    ChangeTo(ctx, edge->to, Cause::Event, 0, &edge->event);
    return true;
}

} // namespace tickfsm::detail

#include "push_stack.hpp"
#include "regions.hpp"
#include "nested_step.hpp"
