#pragma once
// A table as data: its description (Describe, States, Transitions), which
// the pictures, the validation and the inspector read; the hash of its shape
// a snapshot carries; the check of its regions' edges. Never on the tick path.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickfsm/detail/table.hpp"
#include "table_parts.hpp"

namespace tickfsm::detail {

template <class C, class A>
List<StateInfo> Table<C, A>::DescribeStates() const {
    List<StateInfo> list;
    for (std::size_t s = 0; s < meta.size(); ++s) {
        if (s == any) continue;
        StateInfo info;
        info.id = StateId{static_cast<StateIndex>(s)};
        info.name = meta[s].name;
        info.parent = StateId{tree[s].parent != kNoNode ? tree[s].parent : tree[s].owner};
        info.initial = StateId{tree[s].initial};
        info.history = tree[s].history;
        info.pass_through = meta[s].pass_through;
        info.parallel = tree[s].first_region != kNoNode;
        info.region = tree[s].owner != kNoNode;
        info.is_initial = s == initial;
        for (const StateIndex t : terminal) info.terminal = info.terminal || t == s;
        info.keyed = meta[s].key_type != nullptr;
        info.on_enter = meta[s].has_enter;
        info.can_enter = meta[s].can_enter != nullptr;
        info.can_exit = meta[s].can_exit != nullptr;
        info.actions = meta[s].actions.size();
        list.push_back(info);
    }
    return list;
}

template <class C, class A>
List<TransitionRule> Table<C, A>::DescribeTransitions() const {
    List<TransitionRule> list;
    auto add_state = [&](std::size_t s) {
        const bool is_any = s == any;
        const StateId from = is_any ? StateId{} : StateId{static_cast<StateIndex>(s)};
        std::size_t order = 0;
        for (std::size_t c = 0; c < meta[s].chains.size(); ++c)
            for (std::size_t i = 0; i < meta[s].chains[c]->count; ++i) {
                const auto& chain = meta[s].chains[c];
                TransitionRule rule;
                if (const EdgeNote* note = FindNote(static_cast<StateIndex>(s), c, i)) {
                    rule.always = note->always;
                    rule.condition = note->name;
                }
                rule.from = from;
                rule.to = StateId{chain->targets[i].id};
                rule.order = order++;
                rule.forced = chain->forced[i] != 0;
                rule.any = is_any;
                const std::uint8_t kind = chain->kinds ? chain->kinds[i] : kKindChange;
                if (kind == kKindWait) rule.kind = TransitionKind::WhenDone;
                if (kind == kKindPush) rule.kind = TransitionKind::Push;
                if (kind == kKindPop) {
                    rule.kind = TransitionKind::Pop;
                    rule.to = StateId{};
                }
                list.push_back(rule);
            }
        auto add_event = [&](StateIndex to, TransitionKind kind, const Event& event, std::size_t at,
                             bool always) {
            TransitionRule rule;
            rule.always = always;
            rule.from = from;
            rule.to = StateId{to};
            rule.kind = kind;
            rule.order = at;
            rule.any = is_any;
            rule.event = event;
            list.push_back(rule);
        };
        for (std::size_t i = 0; i < meta[s].events.size(); ++i)
            add_event(meta[s].events[i].to, TransitionKind::Event, meta[s].events[i].event, i, false);
        for (std::size_t i = 0; i < meta[s].typed.size(); ++i) // no guard: taken whatever the payload
            add_event(meta[s].typed[i].to, TransitionKind::Typed, meta[s].typed[i].event, i,
                      meta[s].typed[i].guard == nullptr);
    };
    if (any != kNoState) add_state(any);
    for (std::size_t s = 0; s < meta.size(); ++s)
        if (s != any) add_state(s);
    return list;
}

template <class C, class A>
Description Table<C, A>::Describe() const {
    Description d;
    d.states = DescribeStates();
    d.transitions = DescribeTransitions();
    d.events = declared;
    d.push_capacity = stack_capacity;
    return d;
}

template <class C, class A>
[[TICKFSM_DETAIL_COLD]] std::uint64_t Table<C, A>::Shape() const {
    std::uint64_t hash = HashBytes(tree.data(), tree.size() * sizeof(TreeNode));
    const std::uint32_t facts[] = {stack_capacity, any, keep_previous, initial};
    hash = HashBytes(facts, sizeof(facts), hash);
    for (const StateMeta<C, A>& m : meta) {
        for (const auto& chain : m.chains)
            for (std::size_t i = 0; i < chain->count; ++i) {
                const std::uint32_t edge[] = {chain->targets[i].id, chain->kinds ? chain->kinds[i] : 0u,
                                              chain->forced[i]};
                hash = HashBytes(edge, sizeof(edge), hash);
            }
        for (const EventEdge& edge : m.events) hash = HashBytes(&edge.event.key, sizeof(edge.event.key), hash);
        const std::size_t typed = m.typed.size();
        hash = HashBytes(&typed, sizeof(typed), hash);
    }
    return hash;
}

template <class C, class A>
[[TICKFSM_DETAIL_COLD]] void Table<C, A>::CheckLanes() const {
    std::vector<LaneEdge> edges;
    for (std::size_t s = 0; s < meta.size(); ++s) {
        const TreeIndex from = s == any ? kNoNode : static_cast<TreeIndex>(s);
        for (const auto& chain : meta[s].chains)
            for (std::size_t i = 0; i < chain->count; ++i)
                if (chain->targets[i].id != kNoState && !(chain->kinds && chain->kinds[i] == kKindPop))
                    edges.push_back({from, chain->targets[i].id});
        for (const EventEdge& edge : meta[s].events) edges.push_back({from, edge.to});
        for (const TypedEdge<C>& edge : meta[s].typed)
            if (edge.to != kNoState) edges.push_back({from, edge.to});
    }
    const bool initial_keyed = initial != kNoState && meta[initial].key_type != nullptr;
    if (const Text mistake = CheckLaneEdges(tree, StateNames(), edges, initial, initial_keyed); !mistake.empty())
        Fail(mistake);
}

} // namespace tickfsm::detail
