// tickfsm/testing.hpp's compiled part: recording paths, comparing them,
// matching changes to transitions, and the printed tables, with fmt.

#include <tickfsm/testing.hpp>

#include <algorithm>
#include <iterator>

#include <tickfsm/detail/format.hpp>

#include "fmt_text.hpp"

#include "cause_text.hpp"

namespace tickfsm::testing {

namespace {

constexpr std::size_t kTop = static_cast<std::size_t>(-1);

void SetNames(std::span<const StateInfo> states, std::vector<std::string>& names, std::vector<std::size_t>& parents) {
    names.clear();
    parents.clear();
    for (const StateInfo& state : states) {
        const std::size_t id = state.id.value;
        if (id >= names.size()) {
            names.resize(id + 1);
            parents.resize(id + 1, kTop);
        }
        names[id] = std::string(state.name);
        parents[id] = state.parent.Valid() ? state.parent.value : kTop;
    }
}

std::size_t IdOf(const std::vector<std::string>& names, std::string_view name) {
    const auto found = std::find(names.begin(), names.end(), name);
    return found == names.end() ? kTop : static_cast<std::size_t>(found - names.begin());
}

/// `leaf` and the states holding it, outermost first.
std::vector<std::size_t> ActivePath(const std::vector<std::size_t>& parents, std::size_t leaf) {
    std::vector<std::size_t> path;
    for (std::size_t at = leaf; at != kTop && at < parents.size() && path.size() <= parents.size(); at = parents[at])
        path.insert(path.begin(), at);
    return path;
}

bool Holds(const std::vector<std::size_t>& parents, std::size_t outer, std::size_t inner) {
    for (std::size_t at = inner, steps = 0; at != kTop && at < parents.size() && steps <= parents.size();
         at = parents[at], ++steps)
        if (at == outer) return true;
    return false;
}

/// Whether the region named `region` is the one named `outer` or one nested
/// in it (in a parallel state that `outer` holds).
bool InRegion(const std::vector<std::string>& names, const std::vector<std::size_t>& parents, std::string_view outer,
              std::string_view region) {
    if (region.empty()) return false;
    if (region == outer) return true;
    const std::size_t outer_id = IdOf(names, outer);
    return outer_id != kTop && Holds(parents, outer_id, IdOf(names, region));
}

std::string TicksText(std::uint64_t ticks) { return ticks == kAnyTicks ? std::string("any") : fmt::format("{}", ticks); }

std::string WhatText(const TransitionRule& rule) {
    switch (rule.kind) {
    case TransitionKind::Condition:
        return rule.forced ? fmt::format("condition {} (forced)", rule.order) : fmt::format("condition {}", rule.order);
    case TransitionKind::WhenDone: return fmt::format("when done, condition {}", rule.order);
    case TransitionKind::Push: return fmt::format("push, condition {}", rule.order);
    case TransitionKind::Pop: return fmt::format("pop, condition {}", rule.order);
    case TransitionKind::Event: return fmt::format("event {}", detail::EventText(rule.event));
    case TransitionKind::Typed: return fmt::format("event {}", detail::EventText(rule.event));
    }
    return {};
}

} // namespace

// --- paths ---------------------------------------------------------------------------

void PathRecorder::AddStates(std::span<const StateInfo> states) { SetNames(states, names, parents); }

void PathRecorder::OnTransition(const TransitionInfo& info) {
    // A change of the machine's own state leaves every region; a region's
    // change, that region's state and the regions nested in it (the observer
    // is not told of regions' exits).
    std::erase_if(open, [&](std::size_t i) {
        Visit& v = visits[i];
        if (!info.region.empty() && !InRegion(names, parents, info.region, v.region)) return false;
        v.ticks = current_tick >= v.entered ? current_tick - v.entered : 0;
        v.open = false;
        return true;
    });
    Visit visit;
    visit.region = std::string(info.region);
    visit.state = std::string(info.to);
    visit.cause = detail::CauseText(info);
    visit.entered = current_tick;
    visit.open = true;
    const std::size_t id = IdOf(names, info.to);
    if (id == kTop) {
        visit.path = visit.state;
    } else {
        for (const std::size_t s : ActivePath(parents, id)) {
            if (!visit.path.empty()) visit.path.push_back('/');
            visit.path += names[s];
        }
    }
    open.push_back(visits.size());
    visits.push_back(std::move(visit));
}

std::vector<Visit> PathRecorder::Path() const {
    std::vector<Visit> path = visits;
    for (const std::size_t i : open)
        path[i].ticks = current_tick >= path[i].entered ? current_tick - path[i].entered : 0;
    return path;
}

std::string PathText(std::span<const Visit> path) {
    std::size_t width = 5;
    for (const Visit& v : path) width = std::max(width, v.path.size());
    std::string out;
    for (const Visit& v : path)
        fmt::format_to(std::back_inserter(out), "  {:<{}} {:>6} ticks  (tick {}, {}{})\n", v.path, width, v.ticks,
                       v.entered, v.cause, v.open ? ", current" : "");
    return out;
}

PathCheck ComparePath(std::span<const Visit> got, std::span<const ExpectedVisit> expected) {
    auto same_state = [](const Visit& v, std::string_view state) { return v.state == state || v.path == state; };
    std::size_t first = kTop;
    std::string why;
    for (std::size_t i = 0; i < std::max(got.size(), expected.size()) && first == kTop; ++i) {
        if (i >= got.size()) {
            first = i;
            why = fmt::format("expected {} visits, got {}", expected.size(), got.size());
        } else if (i >= expected.size()) {
            first = i;
            why = fmt::format("expected {} visits, got {}: {} was not expected", expected.size(), got.size(),
                              got[i].path);
        } else if (!same_state(got[i], expected[i].state)) {
            first = i;
            why = fmt::format("expected {}, got {}", expected[i].state, got[i].path);
        } else if (expected[i].ticks != kAnyTicks && expected[i].ticks != got[i].ticks) {
            first = i;
            why = fmt::format("{} lasted {} ticks, expected {}", got[i].path, got[i].ticks, expected[i].ticks);
        }
    }
    PathCheck check;
    check.ok = first == kTop;
    if (check.ok) return check;
    std::size_t width = 8;
    for (const ExpectedVisit& e : expected) width = std::max(width, e.state.size());
    std::size_t got_width = 3;
    for (const Visit& v : got) got_width = std::max(got_width, v.path.size());
    std::string& out = check.message;
    fmt::format_to(std::back_inserter(out), "the path differs at visit {}: {}\n", first + 1, why);
    fmt::format_to(std::back_inserter(out), "     #  {:<{}} {:>6}    {:<{}} {:>6}\n", "expected", width, "ticks",
                   "got", got_width, "ticks");
    for (std::size_t i = 0; i < std::max(got.size(), expected.size()); ++i) {
        const std::string e_state = i < expected.size() ? std::string(expected[i].state) : std::string("-");
        const std::string e_ticks = i < expected.size() ? TicksText(expected[i].ticks) : std::string();
        const std::string g_state = i < got.size() ? got[i].path : std::string("-");
        const std::string g_ticks = i < got.size() ? fmt::format("{}", got[i].ticks) : std::string();
        const std::string note =
            i < got.size() ? fmt::format("  (tick {}, {}{})", got[i].entered, got[i].cause, got[i].open ? ", current" : "")
                           : std::string();
        fmt::format_to(std::back_inserter(out), "  {} {:>2}  {:<{}} {:>6}    {:<{}} {:>6}{}\n", i == first ? '>' : ' ',
                       i + 1, e_state, width, e_ticks, g_state, got_width, g_ticks, note);
    }
    return check;
}

// --- coverage --------------------------------------------------------------------------

void TransitionCoverage::AddMachine(std::string_view machine, std::span<const StateInfo> states,
                                    std::span<const TransitionRule> transitions) {
    Tracked tracked;
    tracked.name = std::string(machine);
    SetNames(states, tracked.names, tracked.parents);
    tracked.first = rows.size();
    for (const TransitionRule& rule : transitions) {
        CoverageRow row;
        row.machine = tracked.name;
        row.rule = rule;
        row.from = rule.any ? std::string("(any)")
                   : rule.from.value < tracked.names.size() ? tracked.names[rule.from.value]
                                                            : std::string("?");
        if (rule.kind == TransitionKind::Pop) row.to = "(buried)";
        else if (!rule.to.Valid()) row.to = "(in place)";
        else row.to = rule.to.value < tracked.names.size() ? tracked.names[rule.to.value] : std::string("?");
        row.what = WhatText(rule);
        rows.push_back(std::move(row));
    }
    tracked.count = rows.size() - tracked.first;
    machines.push_back(std::move(tracked));
}

void TransitionCoverage::OnTransition(const TransitionInfo& info) {
    auto note_unmatched = [&] {
        unmatched.push_back(fmt::format("{}: {} -> {} ({})", info.machine, info.from, info.to, detail::CauseText(info)));
    };
    const bool outside = info.cause == Cause::Initial || info.cause == Cause::Direct || info.cause == Cause::Request;
    const auto tracked = std::find_if(machines.begin(), machines.end(),
                                      [&](const Tracked& t) { return t.name == info.machine; });
    const std::size_t to = tracked == machines.end() ? kTop : IdOf(tracked->names, info.to);
    // What the regions' current states are after this change: a change of the
    // machine's own state leaves every region, a region's change the regions
    // nested in it.
    const auto update_regions = [&] {
        if (info.region.empty()) {
            tracked->regions.clear();
            return;
        }
        std::erase_if(tracked->regions, [&](const auto& r) {
            return r.first != info.region && InRegion(tracked->names, tracked->parents, info.region, r.first);
        });
        const auto lane = std::find_if(tracked->regions.begin(), tracked->regions.end(),
                                       [&](const auto& r) { return r.first == info.region; });
        if (lane == tracked->regions.end()) tracked->regions.emplace_back(std::string(info.region), to);
        else lane->second = to;
    };
    if (outside) {
        if (to != kTop) update_regions();
        ++other_changes;
        return;
    }
    // A pop back to a parallel state is heard as the pop, then as each of its
    // regions' states resuming (cause Pop, the region named): part of the pop.
    if (info.cause == Cause::Pop && !info.region.empty()) {
        if (to != kTop) update_regions();
        return;
    }
    if (to == kTop) return note_unmatched();
    const std::size_t from = IdOf(tracked->names, info.from);
    if (from == kTop) return note_unmatched();

    // A push or pop asked for by code or a hook is no transition of the table.
    if ((info.cause == Cause::Push || info.cause == Cause::Pop) && info.condition == TransitionInfo::kNoCondition) {
        update_regions();
        ++other_changes;
        return;
    }
    // Whether `state` was active before the change: an any-state transition
    // into an active state is passed over (docs/nested_states.md).
    const auto active = [&](std::size_t state) {
        if (Holds(tracked->parents, state, from)) return true;
        for (const auto& region : tracked->regions)
            if (Holds(tracked->parents, state, region.second)) return true;
        return false;
    };
    auto fits = [&](const TransitionRule& rule) {
        if (rule.any && rule.to.Valid() && active(rule.to.value)) return false;
        const bool reaches = rule.to.Valid() && Holds(tracked->parents, rule.to.value, to);
        switch (info.cause) {
        case Cause::Condition:
            return (rule.kind == TransitionKind::Condition || rule.kind == TransitionKind::WhenDone) &&
                   rule.order == info.condition && reaches;
        case Cause::Push: return rule.kind == TransitionKind::Push && rule.order == info.condition && reaches;
        case Cause::Pop: return rule.kind == TransitionKind::Pop && rule.order == info.condition;
        case Cause::Event:
            return (rule.kind == TransitionKind::Event || rule.kind == TransitionKind::Typed) && info.event &&
                   rule.event == *info.event && reaches;
        default: return false;
        }
    };
    // The owners in the order the machine tries them: conditions from the
    // any-state ones and the outermost state in; events from the any-state
    // ones, then from the leaf out.
    // A change of the machine's own state may be a region's transition
    // leaving its parallel state: the regions' states come last.
    std::vector<std::size_t> path = ActivePath(tracked->parents, from);
    std::vector<std::size_t> owners;
    if (info.cause == Cause::Event) { // the any-state ones first, then from the leaf out
        owners.push_back(kTop);
        owners.insert(owners.end(), path.rbegin(), path.rend());
    } else {
        owners.push_back(kTop);
        owners.insert(owners.end(), path.begin(), path.end());
    }
    for (const auto& [region, leaf] : tracked->regions)
        if (region != info.region)
            for (const std::size_t s : ActivePath(tracked->parents, leaf))
                if (std::find(owners.begin(), owners.end(), s) == owners.end()) owners.push_back(s);
    for (const std::size_t owner : owners)
        for (std::size_t r = tracked->first; r < tracked->first + tracked->count; ++r) {
            const TransitionRule& rule = rows[r].rule;
            const bool owned = owner == kTop ? rule.any : !rule.any && rule.from.value == owner;
            if (owned && fits(rule)) {
                ++rows[r].fired;
                return update_regions();
            }
        }
    update_regions();
    note_unmatched();
}

std::vector<CoverageRow> TransitionCoverage::NeverFired() const {
    std::vector<CoverageRow> never;
    for (const CoverageRow& row : rows)
        if (row.fired == 0 && (row.rule.to.Valid() || row.rule.kind == TransitionKind::Pop)) never.push_back(row);
    return never;
}

std::size_t TransitionCoverage::FiredCount() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(rows.begin(), rows.end(), [](const CoverageRow& row) { return row.fired > 0; }));
}

void TransitionCoverage::Clear() noexcept {
    for (CoverageRow& row : rows) row.fired = 0;
    unmatched.clear();
    other_changes = 0;
}

std::string TransitionCoverage::Table() const {
    std::size_t w_machine = 7, w_from = 4, w_to = 2, w_what = 4;
    for (const CoverageRow& row : rows) {
        w_machine = std::max(w_machine, row.machine.size());
        w_from = std::max(w_from, row.from.size());
        w_to = std::max(w_to, row.to.size());
        w_what = std::max(w_what, row.what.size());
    }
    std::string out;
    auto line = [&](std::string_view machine, std::string_view from, std::string_view to, std::string_view what,
                    std::string_view fired) {
        fmt::format_to(std::back_inserter(out), "  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:>5}\n", machine, w_machine, from,
                       w_from, to, w_to, what, w_what, fired);
    };
    line("machine", "from", "to", "what", "fired");
    std::size_t in_place = 0;
    for (const CoverageRow& row : rows) {
        if (!row.rule.to.Valid() && row.rule.kind != TransitionKind::Pop) { // heard by no observer
            ++in_place;
            line(row.machine, row.from, row.to, row.what, "-");
            continue;
        }
        line(row.machine, row.from, row.to, row.what, row.fired > 0 ? fmt::format("{}", row.fired) : "NEVER");
    }
    const std::vector<CoverageRow> never = NeverFired();
    fmt::format_to(std::back_inserter(out), "{} of {} transitions fired", FiredCount(), rows.size() - in_place);
    if (in_place > 0) fmt::format_to(std::back_inserter(out), " ({} typed events handled in place not counted)", in_place);
    fmt::format_to(std::back_inserter(out),
                   "; changes outside the table (initial, direct, request, pushes and pops asked for): {}\n",
                   other_changes);
    if (!never.empty()) {
        out += "never fired:\n";
        for (const CoverageRow& row : never)
            fmt::format_to(std::back_inserter(out), "  {}: {} -> {} ({})\n", row.machine, row.from, row.to, row.what);
    }
    if (!unmatched.empty()) {
        out += "changes no transition fits:\n";
        for (const std::string& u : unmatched) fmt::format_to(std::back_inserter(out), "  {}\n", u);
    }
    return out;
}

} // namespace tickfsm::testing
