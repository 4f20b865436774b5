#pragma once
// The nested fast path (see NestedStepper in table.hpp): which leaves take it,
// planned when the table is finalized, and their steps. A step counts, tries
// the active path's conditions and performs; a transition it finds follows
// its NestedMove, planned with the steppers from the tree walks the general
// path (general_path.hpp) takes, or is made by the general path itself.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "general_path.hpp"
#include "table_parts.hpp"

namespace tickfsm::detail {

/// The last NestedLink of a leaf: the tick is over.
template <class C, class A>
void EndLink(C&, const A&, Runtime&, std::byte*, const NestedLink<C, A>*) {}

template <bool kMachine, class C, class A>
void NestedFire(const Table<C, A>& table, C& c, const A& a, Runtime& rt, std::byte* data,
                const NestedChain<C, A>& level, int index);

/// A transition of a crowd character's NestedLink holds.
template <class C, class A>
void CrowdLinkFire(C& c, const A& a, Runtime& rt, std::byte* data, const NestedLink<C, A>* link, int index) {
    NestedFire<false>(*link->self->table, c, a, rt, data, link->self->chains[link->number], index);
}

/// A StateManager's Seat step once its machine is in the state it is in:
/// the leaf's own, or the general step.
template <class C, class A>
void FollowLeaf(Runtime& rt) noexcept {
    const MachineStepFn<C, A> step =
        rt.flags & kGeneralReasons ? &MachineGeneralStep<C, A> : SeatedSteps<C, A>(rt)[rt.state].machine;
    SeatOf(rt).step = reinterpret_cast<void (*)()>(step);
}

/// A transition of a StateManager's NestedLink holds.
template <class C, class A>
void MachineLinkFire(C& c, const A& a, Runtime& rt, std::byte* data, const NestedLink<C, A>* link, int index) {
    NestedFire<true>(*link->self->table, c, a, rt, data, link->self->chains[link->number], index);
}

/// The nested fast path: in a nested machine without regions, any-state
/// transitions, pass-through states, a push stack, KeepPreviousState or
/// hooks that take the machine handle, a leaf ticks on it (its `slow`
/// cleared, its step a NestedStep) when no transition of its active path
/// is gated, pushes, pops or waits. Such a tick only counts, tries conditions and performs,
/// exactly as GeneralTick would; a transition that fires follows its
/// NestedMove (PlanMove), or goes to the general path, which may enter a
/// leaf of either kind.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void Table<C, A>::PlanNested() {
    if (!nested_plan) return; // no tree: nothing takes the nested fast path
    NestedPlan& plan = *nested_plan;
    plan.slots.clear();
    plan.chains.clear();
    plan.links.clear();
    plan.moves.clear();
    plan.move_steps.clear();
    plan.move_slots.clear();
    plan.offsets.clear();
    if (!nested || parallel || any != kNoState || passing || stack_capacity != 0 || keep_previous ||
        uses_machine || !composite_bases)
        return;
    std::vector<bool> level_fast(meta.size());
    for (std::size_t s = 0; s < meta.size(); ++s) {
        const StateMeta<C, A>& m = meta[s];
        bool fast = true;
        for (const auto& chain : m.chains) {
            fast = fast && !chain->kinds;
            for (std::size_t i = 0; i < chain->count; ++i)
                fast = fast && !Gated(m, *chain, i);
        }
        level_fast[s] = fast;
    }
    struct Planned {
        StateIndex leaf;
        std::size_t slots, chains, offsets; // where its ranges start
    };
    std::vector<Planned> planned;
    for (std::size_t s = 0; s < meta.size(); ++s) {
        if (tree[s].initial != kNoNode || tree[s].first_region != kNoNode) continue; // leaves only
        TreeIndex path[kMaxDepth];
        const std::size_t n = ActivePathOf(tree, static_cast<TreeIndex>(s), path);
        bool fast = true;
        for (std::size_t i = 0; i < n; ++i) fast = fast && level_fast[path[i]];
        if (!fast) continue;
        planned.push_back({static_cast<StateIndex>(s), plan.slots.size(), plan.chains.size(), plan.offsets.size()});
        for (std::size_t i = 0; i < n; ++i) {
            const StateMeta<C, A>& m = meta[path[i]];
            plan.offsets.push_back(m.offset);
            const bool leaf = path[i] == s;
            if (!leaf) plan.slots.push_back(tree[path[i]].slot);
            std::uint32_t before = 0;
            for (const auto& chain : m.chains) {
                if (chain->count != 0)
                    plan.chains.push_back({chain.get(), leaf ? kLeafTicks : tree[path[i]].slot, before});
                before += static_cast<std::uint32_t>(chain->count);
            }
        }
        meta[s].slow = false;
    }
    // The ranges are taken once the arrays stop growing.
    planned.push_back({kNoState, plan.slots.size(), plan.chains.size(), plan.offsets.size()});
    for (std::size_t p = 0; p + 1 < planned.size(); ++p) {
        const Planned& at = planned[p];
        const Planned& next = planned[p + 1];
        NestedStepper<C, A>& stepper = plan.steppers[at.leaf];
        stepper.step = &NestedStep<C, A>;
        stepper.machine = &NestedMachineStep<C, A>;
        stepper.table = this;
        stepper.slots = std::span<const std::uint32_t>(plan.slots).subspan(at.slots, next.slots - at.slots);
        stepper.chains =
            std::span<const NestedChain<C, A>>(plan.chains).subspan(at.chains, next.chains - at.chains);
        stepper.offsets =
            std::span<const std::uint32_t>(plan.offsets).subspan(at.offsets, next.offsets - at.offsets);
    }
    // Every transition of a planned leaf's path, as it fires from that leaf.
    std::vector<std::size_t> first_move(planned.size());
    for (std::size_t p = 0; p + 1 < planned.size(); ++p) {
        first_move[p] = plan.moves.size();
        for (std::size_t i = planned[p].chains; i < planned[p + 1].chains; ++i) {
            NestedChain<C, A>& level = plan.chains[i];
            level.moves = static_cast<std::uint32_t>(plan.moves.size());
            for (std::size_t e = 0; e < level.chain->count; ++e)
                plan.moves.push_back(PlanMove(planned[p].leaf, *level.chain, e));
        }
    }
    first_move.back() = plan.moves.size();
    // The steps compiled from a constant, if every one still fits its leaf:
    // each takes the constant's tree for granted (the states it exits and
    // enters), so one leaf that changed since leaves them all unused.
    const bool fused = std::all_of(plan.fused.begin(), plan.fused.end(), [&](const FusedLeaf& leaf) {
        const StateIndex id = Find(leaf.path[leaf.depth - 1]);
        return id != kNoState && FusedFits(leaf, id);
    });
    // Each leaf's links (see NestedLink), for a crowd then for a StateManager.
    std::vector<std::size_t> first_link(planned.size());
    for (std::size_t p = 0; p + 1 < planned.size(); ++p) {
        first_link[p] = plan.links.size();
        const NestedStepper<C, A>& self = plan.steppers[planned[p].leaf];
        TreeIndex path[kMaxDepth];
        const std::size_t n = ActivePathOf(tree, static_cast<TreeIndex>(planned[p].leaf), path);
        for (const bool machine : {false, true}) {
            for (std::size_t i = planned[p].chains; i < planned[p + 1].chains; ++i) {
                const NestedChain<C, A>& level = plan.chains[i];
                NestedLink<C, A> link;
                link.fire = machine ? &MachineLinkFire<C, A> : &CrowdLinkFire<C, A>;
                link.chain = level.chain;
                link.self = &self;
                link.slot = level.slot;
                link.number = static_cast<std::uint32_t>(i - planned[p].chains);
                link.dt = dt;
                link.level = level.chain->probe;
                plan.links.push_back(link);
            }
            const StateMeta<C, A>* last = nullptr; // the last state that performs ends the row
            for (std::size_t i = 0; i < n; ++i)
                if (const StateMeta<C, A>& m = meta[path[i]]; m.perform_link) {
                    NestedLink<C, A> link;
                    link.level = m.perform_link;
                    link.offset = m.offset;
                    plan.links.push_back(link);
                    last = &m;
                }
            if (last) {
                plan.links.back().level = last->perform_last;
            } else {
                NestedLink<C, A> end;
                end.level = &EndLink<C, A>;
                plan.links.push_back(end);
            }
        }
    }
    for (std::size_t p = 0; p + 1 < planned.size(); ++p) {
        NestedStepper<C, A>& stepper = plan.steppers[planned[p].leaf];
        // Two rows of the same length, each a link per list, then the Performs'.
        const std::size_t both = (p + 2 < planned.size() ? first_link[p + 1] : plan.links.size()) - first_link[p];
        stepper.links = plan.links.data() + first_link[p];
        stepper.machine_links = stepper.links + both / 2;
        stepper.perform_links = stepper.machine_links + (planned[p + 1].chains - planned[p].chains);
        stepper.moves = std::span<const NestedMove>(plan.moves).subspan(first_move[p], first_move[p + 1] - first_move[p]);
        stepper.move_steps = plan.move_steps.data();
        if (!fused) continue;
        for (const FusedLeaf& leaf : plan.fused)
            if (leaf.path[leaf.depth - 1] == meta[planned[p].leaf].key) {
                stepper.step = leaf.step;
                stepper.machine = leaf.machine;
            }
    }
}

/// Whether state `leaf` is still what `fused` was compiled for (see
/// FusedLeaf): a leaf, on the same path of states, each with the same
/// transitions.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] bool Table<C, A>::FusedFits(const FusedLeaf& fused, StateIndex leaf) const {
    if (tree[leaf].initial != kNoNode || tree[leaf].first_region != kNoNode) return false;
    TreeIndex path[kMaxDepth];
    const std::size_t n = ActivePathOf(tree, static_cast<TreeIndex>(leaf), path);
    if (n != fused.depth) return false;
    for (std::size_t i = 0; i < n; ++i) {
        const StateMeta<C, A>& m = meta[path[i]];
        if (m.key != fused.path[i]) return false;
        std::size_t non_empty = 0;
        bool same = true;
        for (const auto& chain : m.chains) {
            if (chain->count == 0) continue;
            ++non_empty;
            same = same && chain->type == fused.chains[i];
        }
        if (fused.chains[i] ? non_empty != 1 || !same : non_empty != 0) return false;
    }
    return true;
}

/// What transition `index` of `chain` does when it fires from `leaf` (see
/// NestedMove): ChangeTo's exits and enters, written down once. A move whose
/// way down reads a history, whose target is rebuilt from arguments, or
/// whose entered leaf ticks on the general path is left to the general path.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] NestedMove Table<C, A>::PlanMove(StateIndex leaf, const ChainBase<C, A>& chain,
                                                         std::size_t index) {
    NestedMove move;
    const TreeIndex to = chain.targets[index].id;
    if (chain.prepare) return move;
    for (TreeIndex s = to; tree[s].initial != kNoNode; s = tree[s].initial)
        if (tree[s].history != History::None) return move;
    const TreeIndex base = ChangeBase(tree, leaf, to);
    TreeIndex path[kMaxDepth];
    const std::size_t n = EntryPath(tree, base, to, nullptr, path); // no history read: checked above
    const StateIndex entered = path[n - 1];
    NestedPlan& plan = *nested_plan;
    if (!plan.steppers[entered].step) return move;
    // A move calls the hooks without the machine handle (none has one here: see PlanNested).
    for (TreeIndex s = leaf; s != base; s = tree[s].parent)
        if (meta[s].has_exit && !meta[s].plain_exit) return move;
    for (std::size_t i = 0; i < n; ++i)
        if (meta[path[i]].has_enter && !meta[path[i]].plain_enter) return move;
    move.exits = static_cast<std::uint32_t>(plan.move_steps.size());
    for (TreeIndex s = leaf; s != base; s = tree[s].parent)
        plan.move_steps.push_back(
            {meta[s].plain_exit, meta[s].offset, tree[s].history_slot, s});
    move.enters = static_cast<std::uint32_t>(plan.move_steps.size());
    for (std::size_t i = 0; i < n; ++i) {
        const StateMeta<C, A>& m = meta[path[i]];
        plan.move_steps.push_back({m.plain_enter, m.offset,
                                     tree[path[i]].initial != kNoNode ? tree[path[i]].slot : kNoSlot, path[i]});
    }
    move.end = static_cast<std::uint32_t>(plan.move_steps.size());
    // The same change as NestedFire makes it, taken from the lists above:
    // only the steps that do something. The composites that stay active keep
    // their time (composite_bases); those left need nothing, since a
    // composite's counter is read only while it is active and is reset when
    // it is entered again.
    move.slots = static_cast<std::uint32_t>(plan.move_slots.size());
    for (TreeIndex s = base; s != kNoNode; s = tree[s].parent) plan.move_slots.push_back(tree[s].slot);
    move.kept = static_cast<std::uint16_t>(plan.move_slots.size() - move.slots);
    move.hooked_exits = move.end;
    for (std::uint32_t i = move.exits; i < move.enters; ++i)
        if (const NestedMoveStep<C, A> exit = plan.move_steps[i]; exit.hook || exit.slot != kNoSlot)
            plan.move_steps.push_back(exit);
    move.hooked_enters = static_cast<std::uint32_t>(plan.move_steps.size());
    for (std::uint32_t i = move.enters; i < move.end; ++i) {
        const NestedMoveStep<C, A> enter = plan.move_steps[i]; // a copy: the vector grows
        if (enter.slot != kNoSlot) plan.move_slots.push_back(enter.slot);
        if (enter.hook) plan.move_steps.push_back({enter.hook, enter.offset, kNoSlot, enter.state});
    }
    move.hooked_end = static_cast<std::uint32_t>(plan.move_steps.size());
    move.reset = static_cast<std::uint16_t>(plan.move_slots.size() - move.slots - move.kept);
    move.leaf = entered;
    return move;
}

/// The Performs of leaf `leaf` on the nested fast path, outermost first.
template <class C, class A>
[[gnu::always_inline]] inline void PerformPath(const NestedStepper<C, A>& leaf, C& c, const A& a, Runtime& rt,
                                               std::byte* data) {
    leaf.perform_links->level(c, a, rt, data, leaf.perform_links);
}

/// NestedFire for a transition without a NestedMove: made and the tick
/// finished on the general path. No hook of the machine takes the machine
/// handle (see Table::PlanNested), so none can reach what the context leaves
/// out: a NextState request, the previous state, an observer, a global state.
template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void NestedFireGeneral(const Table<C, A>& table, C& c, const A& a, Runtime& rt,
                                                std::byte* data, const NestedChain<C, A>& level, int index) {
    const ChainBase<C, A>& chain = *level.chain;
    StateIndex next = kNoState;
    TickContext<C, A> ctx;
    ctx.table = &table;
    ctx.rt = &rt;
    ctx.main = &rt;
    ctx.controller = &c;
    ctx.action = &a;
    ctx.data = data;
    ctx.next = &next;
    Probed<C, A> fired;
    fired.to = chain.targets[index].id;
    fired.condition = level.before + static_cast<std::size_t>(index);
    fired.chain = &chain;
    fired.index = index;
    Fire(ctx, fired);
    // A leaf of the nested fast path performs its path from its own list:
    // FinishTick would find the same Performs (no pass-through, global state
    // or regions here, and no hook that could ask for a change).
    if (const NestedStepper<C, A>& entered = table.nested_plan->steppers[rt.state]; entered.step) {
        PerformPath(entered, c, a, rt, data);
        return;
    }
    FinishTick(ctx);
}

/// A transition found by a NestedStep fires: made by its NestedMove (by
/// ChangeTo's rules, planned: the exits, each composite left remembering the
/// leaf if it keeps history, then the enters, each state current while its
/// hook runs), then the leaf entered performs; or made by NestedFireGeneral.
/// A state without a hook has no step: no hook can see it pass (hooks here
/// take no machine handle), and the composites' counters are set apart, in
/// the order that leaves them as ChangeTo would if a hook throws. With
/// kMachine (a StateManager's), the Seat's step then follows the leaf entered.
template <bool kMachine, class C, class A>
void NestedFire(const Table<C, A>& table, C& c, const A& a, Runtime& rt, std::byte* data,
                const NestedChain<C, A>& level, int index) {
    const NestedPlan& plan = *table.nested_plan;
    const NestedMove& move = plan.moves[level.moves + static_cast<std::uint32_t>(index)];
    if (move.leaf == kNoState) {
        if constexpr (kMachine) SeatOf(rt).step = reinterpret_cast<void (*)()>(&MachineGeneralStep<C, A>);
        NestedFireGeneral(table, c, a, rt, data, level, index);
        if constexpr (kMachine) FollowLeaf<C, A>(rt);
        return;
    }
    // A hook that throws may leave the machine in a composite state, which
    // only the general step serves.
    if constexpr (kMachine)
        if (move.hooked_exits != move.hooked_end)
            SeatOf(rt).step = reinterpret_cast<void (*)()>(&MachineGeneralStep<C, A>);
    const NestedMoveStep<C, A>* const steps = plan.move_steps.data();
    const StateIndex from = rt.state;
    for (std::uint32_t i = move.hooked_exits; i < move.hooked_enters; ++i) {
        if (steps[i].slot != kNoSlot) reinterpret_cast<HistorySlot*>(data + steps[i].slot)->last = from;
        if (steps[i].hook) steps[i].hook(c, a, data, steps[i].offset);
    }
    const std::uint32_t* const slots = plan.move_slots.data() + move.slots;
    for (std::uint32_t i = 0; i < move.kept; ++i) {
        std::uint32_t& ticks = reinterpret_cast<CompositeSlot*>(data + slots[i])->ticks;
        ticks = SumTicks(ticks, rt.ticks);
    }
    rt.ticks = 0;
    rt.flags = static_cast<std::uint16_t>(rt.flags & ~(kSlow | kFresh | kDone));
    for (std::uint32_t i = move.kept; i < move.kept + move.reset; ++i)
        reinterpret_cast<CompositeSlot*>(data + slots[i])->ticks = 0;
    {
        SlowIfThrown guard{rt};
        for (std::uint32_t i = move.hooked_enters; i < move.hooked_end; ++i) {
            rt.state = steps[i].state;
            steps[i].hook(c, a, data, steps[i].offset);
        }
        guard.entered = true;
    }
    rt.state = move.leaf;
    if constexpr (kMachine) FollowLeaf<C, A>(rt);
    PerformPath(plan.steppers[move.leaf], c, a, rt, data);
}

/// A crowd character's step on the nested fast path (see NestedStepper):
/// GeneralTick's rules for a started machine with no request waiting, one
/// NestedLink after the other.
template <class C, class A>
void NestedStep(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt, std::byte* data) {
    const NestedLink<C, A>* const links = SelfOf<NestedStepper<C, A>>(steps, rt.state).links;
    CountTickInPlace(rt.ticks); // a composite's time follows (composite_bases)
    links->level(c, a, rt, data, links);
}

/// A StateManager's step on the nested fast path: after a transition, the
/// Seat's step follows the leaf entered (MachineLinkFire).
template <class C, class A>
void NestedMachineStep(C& c, const A& a, Runtime& rt) {
    const NestedLink<C, A>* const links = SelfOf<NestedStepper<C, A>>(SeatedSteps<C, A>(rt), rt.state).machine_links;
    CountTickInPlace(rt.ticks);
    links->level(c, a, rt, SeatedData(rt), links);
}

} // namespace tickfsm::detail
