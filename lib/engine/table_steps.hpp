#pragma once
// A table's paths: the step each state ticks with (Finalize, once the
// configuration is complete) and, on the general path, which transition the
// conditions and the gates pick for one state and along an active path.
// Compiled in lib/engine.cpp, for the one table type.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickfsm/detail/table.hpp"
#include "table_parts.hpp"
#include "tickfsm/detail/tree.hpp"

namespace tickfsm::detail {

template <class C, class A>
void Table<C, A>::Finalize() {
    // A state needs the general path if its hooks take the machine handle or
    // it has actions; so does a state that can enter such a state, because
    // the fast path inlines the entered state's hooks.
    std::vector<bool> general(meta.size());
    for (std::size_t s = 0; s < meta.size(); ++s)
        general[s] = meta[s].takes_machine || !meta[s].actions.empty();
    if (code.check_lanes) code.check_lanes(*this);
    uses_machine = false;
    all_fast = true;
    names.clear();
    observed.clear();
    for (std::size_t s = 0; s < meta.size(); ++s) {
        StateMeta<C, A>& m = meta[s];
        names.push_back(m.name);
        if (s == initial) observed_initial = observed.size();
        if (s != any) observed.push_back(m.name);
        std::size_t non_empty = 0;
        m.slow = general[s];
        for (const auto& chain : m.chains) {
            non_empty += chain->count != 0;
            for (std::size_t i = 0; i < chain->count; ++i)
                m.slow = m.slow || general[chain->targets[i].id] || Gated(m, *chain, i);
        }
        // a chain known only at run time, or with pushes, pops or waits, is the general path's
        for (const auto& chain : m.chains) m.slow = m.slow || (chain->count != 0 && !chain->step) || chain->kinds;
        // several chains, history to keep, a tree, any-state transitions
        m.slow = m.slow || non_empty > 1 || keep_previous || nested || any != kNoState || stack_capacity != 0 ||
                 passing;
        uses_machine = uses_machine || general[s];
        all_fast = all_fast && !m.slow;
    }
    composite_bases = nested && !parallel && stack_capacity == 0;
    if (nested && !nested_plan) nested_plan.reset(new NestedPlan());
    if (nested_plan) nested_plan->steppers.assign(nested ? meta.size() : 0, NestedStepper<C, A>{});
    if (plan_nested) plan_nested(*this);
    bare = data_size == 0; // then no state has data and no target a maker: every fast step has a bare form
    machine_words.assign(words.size(), StepWord<C, A>{});
    for (std::size_t s = 0; s < meta.size(); ++s) {
        StateMeta<C, A>& m = meta[s];
        const ChainBase<C, A>* only = nullptr;
        std::size_t non_empty = 0;
        for (const auto& chain : m.chains) {
            chain->offset = m.offset;
            for (std::size_t i = 0; i < chain->count; ++i)
                chain->targets[i].flags = meta[chain->targets[i].id].slow ? kSlow : 0;
            if (chain->count != 0) {
                ++non_empty;
                only = chain.get();
            }
        }
        // A crowd never reads a slow state's entry: kSlow sends its ticks to the general path.
        const Stepper<C, A>* stepper = nullptr;
        if (!m.slow) {
            if (nested) stepper = &nested_plan->steppers[s];
            else if (non_empty == 0) stepper = &m.step_none;
            else stepper = only;
        }
        if (bare) {
            words[kStepHeaderWords + s].bare = stepper ? stepper->bare : nullptr;
        } else {
            words[kStepHeaderWords + s].step = stepper ? stepper->step : nullptr;
        }
        machine_words[kStepHeaderWords + s].machine = stepper ? stepper->machine : &MachineGeneralStep<C, A>;
        selfs[s] = stepper;
    }
    quick_start = !nested && initial < meta.size() && !meta[initial].slow && !meta[initial].has_enter;
    for (const StateMeta<C, A>& m : meta) quick_start = quick_start && !m.init;
    // The header words sit just before the steps (steps[kDtWord], steps[kSelfsWord]).
    constexpr auto kDtAt = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(kStepHeaderWords) + kDtWord);
    constexpr auto kSelfsAt = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(kStepHeaderWords) + kSelfsWord);
    words[kDtAt].dt = dt;
    words[kSelfsAt].selfs = selfs.data();
    machine_words[kDtAt].dt = dt;
    machine_words[kSelfsAt].selfs = selfs.data();
    slow_states.clear();
    for (const StateMeta<C, A>& m : meta) slow_states.push_back(m.slow ? 1 : 0);
    fingerprint = Fingerprint(character, Layout(), Shape());
    finalized = true;
}

template <class C, class A>
bool Table<C, A>::Allowed(StateIndex from, StateIndex to, const C& c, std::byte* data) const {
    if (from != kNoState) {
        const StateMeta<C, A>& leaving = meta[from];
        if (leaving.can_exit && !leaving.can_exit(c, data, leaving.offset, Ref(to))) return false;
    }
    const StateMeta<C, A>& entering = meta[to];
    return !entering.can_enter || entering.can_enter(c, data, entering.offset, Ref(from));
}

template <class C, class A>
bool Table<C, A>::PopAllowed(StateIndex from, const C& c, std::byte* data) const {
    if (stack_capacity == 0 || BuriedCount(data, stack) == 0) return true; // the pop itself is refused
    const StateMeta<C, A>& leaving = meta[from];
    const StateIndex back = BuriedEntries(data, stack)[BuriedCount(data, stack) - 1].leaf;
    return !leaving.can_exit || leaving.can_exit(c, data, leaving.offset, Ref(back));
}

/// A list's probe found condition `index` (see Table::Probe).
template <class C, class A>
void FoundLink(C&, const A&, Runtime&, std::byte*, const NestedLink<C, A>* link, int index) {
    *link->found = index;
}
/// A list's probe found none (see Table::Probe).
template <class C, class A>
void NoneLink(C&, const A&, Runtime&, std::byte*, const NestedLink<C, A>* link) {
    *link->found = -1;
}

template <class C, class A>
Probed<C, A> Table<C, A>::Probe(StateIndex from, const C& c, const A& a, std::uint32_t ticks, std::byte* data,
                                StateIndex leaf, StateIndex active, bool done) const {
    const StateIndex gate = leaf != kNoState ? leaf : from;
    // Each list's probe runs as a row of two links: the list, which reads
    // `ticks` from a Runtime of its own, then one that says none held.
    int found = -1;
    Runtime clock;
    clock.ticks = ticks;
    NestedLink<C, A> row[2];
    row[0].fire = &FoundLink<C, A>;
    row[0].found = &found;
    row[0].slot = kLeafTicks;
    row[0].dt = dt;
    row[1].level = &NoneLink<C, A>;
    row[1].found = &found;
    // The probe takes the controller as a link does; a condition sees it const.
    C& controller = const_cast<C&>(c);
    std::size_t before = 0;
    for (const auto& chain : meta[from].chains) {
        row[0].level = chain->probe;
        row[0].chain = chain.get();
        for (int start = 0;;) {
            row[0].start = static_cast<std::uint32_t>(start);
            chain->probe(controller, a, clock, data, row);
            const int i = found;
            if (i < 0) break;
            const StateIndex to = chain->targets[i].id;
            if (leaf != kNoState && Within(leaf, to)) {
                start = i + 1;
                continue;
            }
            if (chain->kinds && chain->kinds[i] == kKindWait && !done && active != kNoState && active != from) {
                const StateMeta<C, A>& current = meta[active];
                if (current.can_exit && !current.can_exit(c, data, current.offset, Ref(to))) {
                    start = i + 1; // waits: tried again next tick, condition and all
                    continue;
                }
            }
            const bool pop = chain->kinds && chain->kinds[i] == kKindPop;
            if (chain->forced[i] || (pop ? PopAllowed(gate, c, data) : Allowed(gate, to, c, data)))
                return {to, before + static_cast<std::size_t>(i), chain.get(), i};
            start = i + 1;
        }
        before += chain->count;
    }
    return {};
}

template <class C, class A>
Probed<C, A> Table<C, A>::ProbePath(StateIndex leaf, std::uint32_t leaf_ticks, const C& c, const A& a,
                                std::byte* data, bool ahead, bool done, bool with_any) const {
    if (any != kNoState && with_any) // the any-state transitions first, with the current state's time
        if (Probed<C, A> fired = Probe(any, c, a, leaf_ticks, data, leaf); fired.to != kNoState) {
            fired.owner = any;
            return fired;
        }
    if (!nested) {
        Probed<C, A> fired = Probe(leaf, c, a, leaf_ticks, data, kNoState, leaf, done);
        fired.owner = leaf;
        return fired;
    }
    TreeIndex path[kMaxDepth];
    const std::size_t n = ActivePathOf(tree, leaf, path);
    for (std::size_t i = 0; i < n; ++i) {
        const StateIndex s = path[i];
        std::uint32_t ticks = leaf_ticks;
        if (s != leaf) {
            ticks = CompositeTicks(s, leaf_ticks, data); // leaf_ticks is one on already if `ahead`
            if (ahead && !composite_bases) CountTick(ticks);
        }
        Probed<C, A> fired = Probe(s, c, a, ticks, data, kNoState, leaf, done);
        fired.owner = s;
        if (fired.to != kNoState) return fired;
    }
    return {};
}

} // namespace tickfsm::detail
