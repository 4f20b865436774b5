#pragma once
// Parallel regions on the general path: entering and exiting a parallel
// state's regions, a region's lane asking an enclosing lane to make a change
// that leaves it, and the regions' ticks. Compiled only for machines that
// call SetRegions (see FeatureCode); included by general_path.hpp.

#include <cstddef>
#include <cstdint>

#include "general_path.hpp"

namespace tickfsm::detail {

template <class C, class A>
void ExitRegionsFrom(TickContext<C, A>& ctx, StateIndex region) {
    if (region == kNoNode) return;
    ExitRegionsFrom(ctx, ctx.table->tree[region].next_region);
    Runtime& lane = LaneOf(ctx.table->tree[region], ctx.data);
    if (lane.state == kNoState) return; // not entered: its parallel state's entering stopped before it
    {
        LaneScope<C, A> scope(ctx, region);
        ExitUpTo(ctx, lane.state, kNoState);
    }
    lane.state = kNoState;
}

template <class C, class A>
bool EnterRegions(TickContext<C, A>& ctx, StateIndex parallel) {
    const Table<C, A>& table = *ctx.table;
    for (StateIndex r = table.tree[parallel].first_region; r != kNoNode; r = table.tree[r].next_region)
        LaneOf(table.tree[r], ctx.data) = Runtime{};
    for (StateIndex r = table.tree[parallel].first_region; r != kNoNode; r = table.tree[r].next_region) {
        {
            LaneScope<C, A> scope(ctx, r);
            ChangeTo(ctx, r, Cause::Initial, 0, nullptr, Prepare{});
        }
        if (ctx.pending != kNoState) return false;
    }
    return true;
}

template <class C, class A>
LaneMove LaneAccepts(TickContext<C, A>& ctx, StateIndex to, Cause cause, std::size_t condition, const Event* event,
                     const Prepare& prepare) {
    const Table<C, A>& table = *ctx.table;
    const StateIndex here = ctx.rt->state;
    if (cause == Cause::Push || cause == Cause::Pop) {
        if (ctx.lane == kNoState) {
            const StateIndex region = cause == Cause::Push ? RegionOf(table.tree, to) : kNoState;
            if (region == kNoState) return LaneMove::Here;
            table.Fail(Format("Push<{}>() in state {}: {} is in region {} of {}; a region's states are entered with "
                              "their parallel state: push {}",
                              table.NameOf(to), here == kNoState ? std::string_view("the start") : table.NameOf(here),
                              table.NameOf(to), table.NameOf(region), table.NameOf(table.tree[region].owner),
                              table.NameOf(table.tree[region].owner)));
        }
        table.Fail(Format("{} in region {} (state {}): a push buries the whole machine, so only its own states "
                          "push and pop; push from {} or outside it",
                          cause == Cause::Push ? Format("Push<{}>()", table.NameOf(to)) : std::string("Pop()"),
                          table.NameOf(ctx.lane), table.NameOf(here), table.NameOf(table.tree[ctx.lane].owner)));
    }
    const StateIndex region = RegionOf(table.tree, to);
    if (region == ctx.lane) return LaneMove::Here;
    if (ctx.lane != kNoState && LaneEncloses(table.tree, region, ctx.lane)) {
        if (prepare.run && prepare.run != StagedPrepare(ctx).run)
            table.Fail(Format("{} -> {}: a transition that builds its target from arguments cannot leave region {}; "
                              "enter {} without arguments, or from {}'s side",
                              table.NameOf(here), table.NameOf(to), table.NameOf(ctx.lane), table.NameOf(to),
                              table.NameOf(table.tree[ctx.lane].owner)));
        return LaneMove::Outer;
    }
    if ((ctx.lane == kNoState || LaneEncloses(table.tree, ctx.lane, region)) &&
        table.RegionRuns(ctx.main->state, region, ctx.data)) {
        LaneScope<C, A> scope(ctx, region); // the region's own lane makes it, as if it had asked
        ChangeTo(ctx, to, cause, condition, event, prepare);
        return LaneMove::Inner;
    }
    table.Fail(Format("entering {} from {}: {} is in region {} of {}; a region is entered with its parallel state: "
                      "enter {} (each region enters its initial state or history)",
                      table.NameOf(to), here == kNoState ? std::string_view("the start") : table.NameOf(here),
                      table.NameOf(to), table.NameOf(region), table.NameOf(table.tree[region].owner),
                      table.NameOf(table.tree[region].owner)));
}

/// One tick of a region's lane (the context runs it), by the rules of a
/// machine's tick: its transitions, outermost first from the region down;
/// its pass-through states; Perform along its path, outermost first; then
/// its own parallel leaf's regions. Its ticks were counted with the machine's.
/// A change that leaves the region is left in ctx.pending for the enclosing lane.
template <class C, class A>
void LaneTick(TickContext<C, A>& ctx) {
    const Table<C, A>& table = *ctx.table;
    Runtime& rt = *ctx.rt;
    if (rt.state == kNoState) return;
    const Probed<C, A> fired = table.ProbePath(rt.state, rt.ticks, *ctx.controller, *ctx.action, ctx.data, false,
                                               (rt.flags & kDone) != 0, false);
    if (fired.to != kNoState) {
        Fire(ctx, fired);
        if (ctx.pending != kNoState) return;
    }
    if (table.passing) {
        PassThrough(ctx);
        if (ctx.pending != kNoState) return;
    }
    TreeIndex path[kMaxDepth];
    const std::size_t n = ActivePathOf(table.tree, rt.state, path);
    for (std::size_t i = 0; i < n && ctx.pending == kNoState; ++i) RunPerform(ctx, path[i]);
    if (ctx.pending != kNoState) {
        ApplyPending(ctx);
        return;
    }
    TickRegions(ctx);
}

template <class C, class A>
void TickRegions(TickContext<C, A>& ctx) {
    const Table<C, A>& table = *ctx.table;
    const StateIndex leaf = ctx.rt->state;
    for (StateIndex r = table.tree[leaf].first_region; r != kNoNode; r = table.tree[r].next_region) {
        {
            LaneScope<C, A> scope(ctx, r);
            LaneTick(ctx);
        }
        if (ctx.pending != kNoState) {
            ApplyPending(ctx);
            return;
        }
    }
}

} // namespace tickfsm::detail
