#pragma once
// The push stack (seed 002's bury and unbury): a push pauses the active path
// and buries it, a pop resumes the state buried last. Part of the general
// path; included by general_path.hpp.

#include <cstddef>
#include <cstdint>

#include "general_path.hpp"

namespace tickfsm::detail {

template <class C, class A>
void CheckNotBuried(TickContext<C, A>& ctx, StateIndex base, StateIndex to) {
    const Table<C, A>& table = *ctx.table;
    if (table.stack_capacity == 0) return;
    const std::uint32_t count = BuriedCount(ctx.data, table.stack);
    if (count == 0) return;
    const Buried* entries = BuriedEntries(ctx.data, table.stack);
    TreeIndex path[kMaxDepth];
    std::size_t entering = 1;
    path[0] = to;
    if (table.nested) entering = EntryPath(table.tree, base, to, ctx.data, path);
    for (std::size_t e = 0; e < entering; ++e)
        for (std::uint32_t i = 0; i < count; ++i)
            if (table.Within(entries[i].leaf, path[e]))
                table.Fail(Format("entering {}: it is buried by a push (under {}); pop back to it instead of "
                                  "entering it again",
                                  table.NameOf(path[e]), table.NameOf(ctx.rt->state)));
}

/// Pauses the active path of `leaf` in the lane that runs, innermost first:
/// a parallel leaf's regions (each in its lane) before it. A paused state
/// cannot ask for a change.
template <class C, class A>
void PauseLane(TickContext<C, A>& ctx, StateIndex leaf) {
    const Table<C, A>& table = *ctx.table;
    table.AnyEnteredRegion(leaf, ctx.data, [&](StateIndex r, StateIndex lane_leaf) {
        LaneScope<C, A> scope(ctx, r);
        PauseLane(ctx, lane_leaf);
        return false;
    });
    Leaving<C, A> leaving(ctx);
    for (StateIndex s = leaf; s != kNoState; s = table.tree[s].parent)
        if (const StateMeta<C, A>& m = table.meta[s]; m.pause) m.pause(ctx, m.offset);
}

/// Resumes the active path of `leaf` in the lane that runs, outermost first,
/// and then a parallel leaf's regions, each in its lane; a change a resume
/// hook asks for is made in its lane. Returns false when a change is asked
/// for that this lane cannot make or that the caller must make (in ctx.pending).
template <class C, class A>
bool ResumeLane(TickContext<C, A>& ctx, StateIndex leaf) {
    const Table<C, A>& table = *ctx.table;
    TreeIndex path[kMaxDepth];
    const std::size_t n = ActivePathOf(table.tree, leaf, path);
    for (std::size_t i = 0; i < n && ctx.pending == kNoState; ++i)
        if (const StateMeta<C, A>& m = table.meta[path[i]]; m.resume) m.resume(ctx, m.offset);
    if (ctx.pending != kNoState) return false;
    return !table.AnyEnteredRegion(leaf, ctx.data, [&](StateIndex r, StateIndex lane_leaf) {
        {
            LaneScope<C, A> scope(ctx, r);
            if (!ResumeLane(ctx, lane_leaf))
                ChangeTo(ctx, ctx.pending, ctx.pending_cause, PendingCondition(ctx), ctx.pending_event,
                         StagedPrepare(ctx));
        }
        return ctx.pending != kNoState; // a change this region handed out stops the resume
    });
}

/// Tells the observer that each region of a parallel `leaf` a pop brings
/// back is current again (a pop with no `from`, the region named), in
/// region order, each before the regions nested in it.
template <class C, class A>
void ReportResumedRegions(TickContext<C, A>& ctx, StateIndex leaf) {
    const Table<C, A>& table = *ctx.table;
    table.AnyEnteredRegion(leaf, ctx.data, [&](StateIndex r, StateIndex lane_leaf) {
        TransitionInfo info;
        info.machine = ctx.name;
        info.to = table.NameOf(lane_leaf);
        info.target = info.to;
        info.cause = Cause::Pop;
        info.condition = TransitionInfo::kNoCondition;
        info.region = table.NameOf(r);
        ctx.observer->OnTransition(info);
        ctx.observer->OnStateEntered(ctx.name, info.to);
        ReportResumedRegions(ctx, lane_leaf);
        return false;
    });
}

template <class C, class A>
void PushLayer(TickContext<C, A>& ctx, StateIndex to) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    const StateIndex from = rt.state;
    if (table.stack_capacity == 0) table.Fail(NoPushStack(table.NameOf(to)));
    if (from == kNoState)
        table.Fail(Format("Push<{}>() before the machine started: there is no state to bury", table.NameOf(to)));
    std::uint32_t& count = BuriedCount(ctx.data, table.stack);
    if (count == table.stack_capacity)
        table.Fail(Format("Push<{}>() in state {}: the push stack is full ({} buried, SetPushCapacity<{}>())",
                          table.NameOf(to), table.NameOf(from), count, table.stack_capacity));
    if (table.Within(from, to) || table.Within(to, from))
        table.Fail(Format("Push<{}>() in state {}: {} is active; push a state outside the active path",
                          table.NameOf(to), table.NameOf(from), table.NameOf(to)));
    if (table.nested) {
        // A push buries the whole active path and enters the target's whole
        // path: the two may share no state.
        if (const StateIndex a = ChangeBase(table.tree, from, to); a != kNoState)
            table.Fail(Format("Push<{}>() in state {}: {}, which holds {}, is active, and a push buries the whole "
                              "active path, then enters {} with the states that hold it; push a state outside {}, or "
                              "change to {} instead",
                              table.NameOf(to), table.NameOf(from), table.NameOf(a), table.NameOf(to), table.NameOf(to),
                              table.NameOf(a), table.NameOf(to)));
        // From a composite's or a parallel state's enter hook, the path below
        // it is not entered yet: there is no whole path to bury and resume.
        const TreeNode& node = table.tree[from];
        if (node.initial != kNoNode ||
            (node.first_region != kNoNode && LaneOf(table.tree[node.first_region], ctx.data).state == kNoState))
            table.Fail(Format("Push<{}>() in state {}: {} holds substates or regions that are not entered yet (a "
                              "push asked for by its enter hook); push from the enter hook of the state it enters, "
                              "or from its Perform",
                              table.NameOf(to), table.NameOf(from), table.NameOf(from)));
    }
    CheckNotBuried(ctx, kNoState, to);
    PauseLane(ctx, from);
    BuriedEntries(ctx.data, table.stack)[count] = Buried{rt.ticks, from};
    ++count;
}

/// Pops the top state; `condition` is the Pop transition's (reported to the
/// observer), or TransitionInfo::kNoCondition for a pop asked for.
template <class C, class A>
bool PopLayer(TickContext<C, A>& ctx, std::size_t condition) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    const StateIndex from = rt.state;
    if (table.stack_capacity == 0 || BuriedCount(ctx.data, table.stack) == 0)
        table.Fail(NothingBuried(table.NameOf(from)));
    ExitUpTo(ctx, from, kNoState);
    if (ctx.previous) *ctx.previous = from;
    std::uint32_t& count = BuriedCount(ctx.data, table.stack);
    const Buried top = BuriedEntries(ctx.data, table.stack)[count - 1];
    --count;
    rt.state = top.leaf;
    rt.ticks = top.ticks;
    rt.flags = static_cast<std::uint16_t>((rt.flags & ~(kSlow | kFresh | kDone)) |
                                          (table.meta[top.leaf].slow ? kSlow : 0));
    if (ctx.observer) {
        TransitionInfo info;
        info.machine = ctx.name;
        info.from = table.NameOf(from);
        info.to = table.NameOf(top.leaf);
        info.cause = Cause::Pop;
        info.condition = condition;
        info.target = info.to;
        ctx.observer->OnTransition(info);
        ctx.observer->OnStateEntered(ctx.name, info.to);
        ReportResumedRegions(ctx, top.leaf);
    }
    ctx.pending = kNoState;
    return ResumeLane(ctx, top.leaf);
}

} // namespace tickfsm::detail
