// The compiled half of tickfsm's inspector (include/tickfsm/imgui_inspector.hpp):
// the transition history's names, and the drawing: plain data in, Dear ImGui
// calls out. Compiled once, into tickfsm::imgui, so imgui.h stays out of every
// header of tickfsm.

#include "tickfsm/imgui_inspector.hpp"
#include "tickfsm/event.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <utility>

#include <imgui.h>

#include "cause_text.hpp"

namespace tickfsm {

namespace detail {
struct InspectorCache {
    const void* machine = nullptr;
    bool kept = false; // the machine had started: its description cannot change any more
    List<StateInfo> states;
    List<TransitionRule> transitions;
};
} // namespace detail

namespace {
std::size_t HashName(std::string_view name) noexcept { return static_cast<std::size_t>(detail::Fnv1a(name)); }
} // namespace

TransitionHistory::TransitionHistory(std::size_t capacity) : entries(capacity == 0 ? 1 : capacity), slots(64, 0) {}
TransitionHistory::~TransitionHistory() = default;

std::string_view TransitionHistory::Keep(std::string_view name) {
    if (name.empty()) return {};
    const std::size_t mask = slots.size() - 1;
    std::size_t at = HashName(name) & mask;
    for (; slots[at] != 0; at = (at + 1) & mask)
        if (names[slots[at] - 1] == name) return names[slots[at] - 1];
    auto text = std::make_unique<char[]>(name.size());
    std::copy_n(name.data(), name.size(), text.get());
    names.emplace_back(text.get(), name.size());
    texts.push_back(std::move(text));
    slots[at] = static_cast<std::uint32_t>(names.size());
    if (names.size() * 2 > slots.size()) { // at most half full: probes stay short
        std::vector<std::uint32_t> grown(slots.size() * 2, 0);
        for (std::size_t i = 0; i < names.size(); ++i) {
            std::size_t to = HashName(names[i]) & (grown.size() - 1);
            while (grown[to] != 0) to = (to + 1) & (grown.size() - 1);
            grown[to] = static_cast<std::uint32_t>(i + 1);
        }
        slots = std::move(grown);
    }
    return names.back();
}

void TransitionHistory::OnTransition(const TransitionInfo& info) {
    HistoryEntry& entry = entries[next];
    entry.tick = current_tick;
    entry.machine = Keep(info.machine);
    entry.from = Keep(info.from);
    entry.to = Keep(info.to);
    entry.region = Keep(info.region);
    entry.event = info.event ? Keep(info.event->enumerator.empty() ? info.event->name : info.event->enumerator)
                             : std::string_view{};
    entry.cause = info.cause;
    entry.condition = info.condition;
    next = next + 1 == entries.size() ? 0 : next + 1;
    ++total;
}

InspectorState::InspectorState(const TransitionHistory* history) : transition_history(history) {}
InspectorState::~InspectorState() = default;

bool InspectorState::ShouldTick() noexcept {
    if (!paused) return true;
    if (steps == 0) return false;
    --steps;
    return true;
}

std::size_t InspectorState::SelectedCharacter(std::string_view panel) const noexcept {
    for (const auto& [title, pick] : picks)
        if (title == panel) return pick;
    return static_cast<std::size_t>(-1);
}

std::size_t& InspectorState::PickOf(std::string_view panel) {
    for (auto& [title, pick] : picks)
        if (title == panel) return pick;
    return picks.emplace_back(std::string(panel), static_cast<std::size_t>(-1)).second;
}

void InspectorState::ForgetCached(const void* machine) {
    std::erase_if(cache, [&](const auto& entry) { return entry->machine == machine; });
}

bool InspectorState::FindCached(const void* machine, std::span<const StateInfo>& states,
                                std::span<const TransitionRule>& transitions) const {
    for (const auto& entry : cache)
        if (entry->machine == machine && entry->kept) {
            states = entry->states;
            transitions = entry->transitions;
            return true;
        }
    return false;
}

void InspectorState::StoreCached(const void* machine, List<StateInfo> states,
                                 List<TransitionRule> transitions, bool keep,
                                 std::span<const StateInfo>& out_states,
                                 std::span<const TransitionRule>& out_transitions) {
    detail::InspectorCache* slot = nullptr;
    for (const auto& entry : cache)
        if (entry->machine == machine) slot = entry.get();
    if (!slot) slot = cache.emplace_back(std::make_unique<detail::InspectorCache>()).get();
    slot->machine = machine;
    slot->kept = keep;
    slot->states = std::move(states);
    slot->transitions = std::move(transitions);
    out_states = slot->states;
    out_transitions = slot->transitions;
}

namespace {

constexpr ImU32 kActiveRow = IM_COL32((kInspectorActiveRowColor >> 16) & 0xFF, (kInspectorActiveRowColor >> 8) & 0xFF,
                                      kInspectorActiveRowColor & 0xFF, 0xFF);
const ImVec4 kFires(0.35f, 0.95f, 0.45f, 1.0f);
const ImVec4 kQuiet(0.60f, 0.60f, 0.60f, 1.0f);
const ImVec4 kWarn(0.95f, 0.75f, 0.30f, 1.0f);

// ImGui takes C strings; names are string_views into the machine's table.
struct CText {
    char text[160];
    explicit CText(std::string_view s) {
        const std::size_t n = std::min(s.size(), sizeof text - 1);
        std::copy_n(s.data(), n, text);
        text[n] = '\0';
    }
    operator const char*() const { return text; }
};

void ShowText(std::string_view s) { ImGui::TextUnformatted(s.data(), s.data() + s.size()); }
void TextColored(const ImVec4& color, std::string_view s) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ShowText(s);
    ImGui::PopStyleColor();
}

const StateInfo* FindState(std::span<const StateInfo> states, StateId id) {
    if (!id.Valid()) return nullptr;
    if (id.value < states.size() && states[id.value].id == id) return &states[id.value];
    for (const StateInfo& s : states)
        if (s.id == id) return &s;
    return nullptr;
}

std::string_view NameOf(const detail::InspectorView& view, StateId id) {
    const StateInfo* s = FindState(view.states, id);
    return s ? s->name : std::string_view("?");
}

// Where `id` is on `path`, or -1.
std::ptrdiff_t IndexIn(std::span<const StateId> path, StateId id) {
    for (std::size_t i = 0; i < path.size(); ++i)
        if (path[i] == id) return static_cast<std::ptrdiff_t>(i);
    return -1;
}

// How a transition is named in the panel. The one place to change when
// conditions get names of their own.
std::string DescribeRule(const detail::InspectorView& view, const TransitionRule& rule) {
    const std::string_view from = rule.any ? std::string_view("any state") : NameOf(view, rule.from);
    const char* kind = "condition";
    switch (rule.kind) {
    case TransitionKind::Condition: kind = rule.forced ? "forced condition" : "condition"; break;
    case TransitionKind::WhenDone: kind = "when done"; break;
    case TransitionKind::Push: kind = "push"; break;
    case TransitionKind::Pop: kind = "pop"; break;
    case TransitionKind::Event: kind = "event"; break;
    case TransitionKind::Typed: kind = "typed event"; break;
    }
    char line[200];
    if (rule.kind == TransitionKind::Event || rule.kind == TransitionKind::Typed) {
        const std::string_view event = rule.event.enumerator.empty() ? rule.event.name : rule.event.enumerator;
        std::snprintf(line, sizeof line, "%s %.*s of %.*s", kind, static_cast<int>(event.size()), event.data(),
                      static_cast<int>(from.size()), from.data());
    } else {
        std::snprintf(line, sizeof line, "%s %zu of %.*s", kind, rule.order, static_cast<int>(from.size()),
                      from.data());
    }
    return line;
}

bool TriedEachTick(const TransitionRule& rule) {
    return rule.kind == TransitionKind::Condition || rule.kind == TransitionKind::WhenDone ||
           rule.kind == TransitionKind::Push || rule.kind == TransitionKind::Pop;
}

// Rows of the state tree: `parent`'s children, then theirs, depth first.
void DrawStateRows(const detail::InspectorView& view, StateId parent) {
    for (const StateInfo& s : view.states) {
        if (!(s.parent == parent)) continue;
        bool has_children = false;
        for (const StateInfo& c : view.states)
            if (c.parent == s.id) has_children = true;
        const std::ptrdiff_t at = IndexIn(view.active, s.id);
        ImGui::TableNextRow();
        if (at >= 0) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, kActiveRow);
        ImGui::TableSetColumnIndex(0);
        ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_DefaultOpen | ImGuiTreeNodeFlags_SpanFullWidth;
        if (!has_children) flags |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
        const char* mark = at >= 0 ? "* " : "";
        const char* current = s.id == view.current ? " (current)" : "";
        const char* what = s.parallel ? " (parallel)" : (s.region ? " (region)" : "");
        const char* history = s.history == History::Shallow ? " [history]" : (s.history == History::Deep ? " [deep history]" : "");
        const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<std::uintptr_t>(s.id.value) + 1), flags,
                                            "%s%.*s%s%s%s%s", mark, static_cast<int>(s.name.size()), s.name.data(),
                                            current, what, history, s.is_initial ? " [initial]" : "");
        ImGui::TableSetColumnIndex(1);
        if (at >= 0) ImGui::Text("%" PRIu32, view.ticks[static_cast<std::size_t>(at)]);
        ImGui::TableSetColumnIndex(2);
        if (at >= 0) ImGui::Text("%.2f s", static_cast<double>(view.ticks[static_cast<std::size_t>(at)]) * view.dt);
        if (has_children && open) {
            DrawStateRows(view, s.id);
            ImGui::TreePop();
        }
    }
}

// Whether `id` is a region or a state inside one: its transitions are tried
// by the region's own step, which the dry run (WouldTransition) does not run.
bool InRegion(const detail::InspectorView& view, StateId id) {
    for (const StateInfo* at = FindState(view.states, id); at; at = FindState(view.states, at->parent))
        if (at->region) return true;
    return false;
}

// The states the first tick enters, outermost first: the initial state's
// ancestors, itself, then down its initial substates (the machine's own
// states; its regions' are left out, as the dry run leaves them out).
std::vector<StateId> InitialPath(const detail::InspectorView& view) {
    std::vector<StateId> path;
    const StateInfo* initial = nullptr;
    for (const StateInfo& s : view.states)
        if (s.is_initial) initial = &s;
    if (!initial) return path;
    for (const StateInfo* at = initial; at; at = FindState(view.states, at->parent)) path.push_back(at->id);
    std::reverse(path.begin(), path.end());
    for (const StateInfo* at = initial; !at->parallel && path.size() <= view.states.size();) {
        at = FindState(view.states, at->initial);
        if (!at) break;
        path.push_back(at->id);
    }
    return path;
}

void DrawTransitions(const detail::InspectorView& view) {
    // A machine not started has nothing active: its first tick enters the
    // initial path and tries its transitions (as the dry run does).
    std::vector<StateId> initial_path;
    if (!view.started) initial_path = InitialPath(view);
    const std::span<const StateId> path = view.started ? view.active : std::span<const StateId>(initial_path);

    // The order one tick tries them: any-state transitions, then the path's,
    // outermost first, each state's in the order written.
    std::vector<const TransitionRule*> tried;
    for (const TransitionRule& rule : view.transitions)
        if (rule.any) tried.push_back(&rule);
    for (StateId id : path)
        for (const TransitionRule& rule : view.transitions)
            if (!rule.any && rule.from == id) tried.push_back(&rule);

    // The dry run names a target, not a transition: the first transition tried
    // each tick that goes there is the one that fires, unless a later one to
    // the same target does and this one was refused by a gate. A region's
    // transitions are not in the dry run.
    std::ptrdiff_t fires = -1;
    bool ambiguous = false;
    bool regions = false;
    for (const TransitionRule* rule : tried)
        if (!rule->any && InRegion(view, rule->from)) regions = true;
    if (view.next.Valid()) {
        for (std::size_t i = 0; i < tried.size(); ++i) {
            const TransitionRule& rule = *tried[i];
            if (!TriedEachTick(rule) || !(rule.to == view.next)) continue;
            if (!rule.any && InRegion(view, rule.from)) continue;
            if (rule.any && IndexIn(path, rule.to) >= 0) continue; // passed over: its target is active
            if (fires < 0) fires = static_cast<std::ptrdiff_t>(i);
            else ambiguous = true;
        }
        // A pop's target is the state buried last, which Transitions() cannot name.
        for (std::size_t i = 0; fires < 0 && !view.buried.empty() && i < tried.size(); ++i)
            if (tried[i]->kind == TransitionKind::Pop) fires = static_cast<std::ptrdiff_t>(i);
    }

    char enters[96] = ""; // what a machine not started does first
    if (!view.started && !path.empty()) {
        const std::string_view initial = NameOf(view, path.back());
        std::snprintf(enters, sizeof enters, view.next.Valid() ? " enters %.*s, then" : " enters %.*s and",
                      static_cast<int>(initial.size()), initial.data());
    }
    if (view.next.Valid()) {
        char line[300];
        const std::string_view to = NameOf(view, view.next);
        std::snprintf(line, sizeof line, "next tick (dry run with %.*s):%s -> %.*s",
                      static_cast<int>(view.dry_run_input.size()), view.dry_run_input.data(), enters,
                      static_cast<int>(to.size()), to.data());
        TextColored(kFires, line);
        if (fires < 0) TextColored(kWarn, "  by a NextState request or a pop, not by a transition listed");
    } else {
        char line[300];
        std::snprintf(line, sizeof line, "next tick (dry run with %.*s):%s stays",
                      static_cast<int>(view.dry_run_input.size()), view.dry_run_input.data(), enters);
        TextColored(kQuiet, line);
    }
    if (regions) TextColored(kQuiet, "  (the regions' transitions are not in the dry run: their states may change)");

    if (!ImGui::BeginTable("transitions", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp))
        return;
    ImGui::TableSetupColumn(view.started ? "transition, in the order tried" : "transition, in the order the first tick tries",
                            ImGuiTableColumnFlags_WidthStretch, 4.0f);
    ImGui::TableSetupColumn("to", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("now", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < tried.size(); ++i) {
        const TransitionRule& rule = *tried[i];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ShowText(DescribeRule(view, rule));
        ImGui::TableSetColumnIndex(1);
        ShowText(rule.to.Valid() ? NameOf(view, rule.to) : std::string_view(rule.kind == TransitionKind::Pop ? "(buried)" : "-"));
        ImGui::TableSetColumnIndex(2);
        const auto here = static_cast<std::ptrdiff_t>(i);
        if (!TriedEachTick(rule)) TextColored(kQuiet, "on its event");
        else if (!rule.any && InRegion(view, rule.from)) TextColored(kQuiet, "region: not dry-run");
        else if (rule.any && IndexIn(path, rule.to) >= 0) TextColored(kQuiet, "passed over: active");
        else if (here == fires) TextColored(kFires, ambiguous ? "fires (or a later one to the same state)" : "fires");
        else if (fires < 0 || here < fires) TextColored(kQuiet, "false or gated");
        else TextColored(kQuiet, "not tried");
    }
    ImGui::EndTable();
    TextColored(kQuiet, "(the dry run tells where the next tick goes, not each condition's value)");
}

void DrawHistory(const detail::InspectorView& view, const TransitionHistory& history, std::size_t rows) {
    if (!ImGui::BeginTable("history", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("tick", ImGuiTableColumnFlags_WidthStretch, 0.6f);
    ImGui::TableSetupColumn("change", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("cause", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableHeadersRow();
    std::size_t shown = 0;
    for (std::size_t i = 0; i < history.Size() && shown < rows; ++i) {
        const HistoryEntry& entry = history.Recent(i);
        if (entry.machine != view.name) continue;
        ++shown;
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::Text("%" PRIu64, entry.tick);
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%.*s -> %.*s", static_cast<int>(entry.from.size()), entry.from.data(),
                    static_cast<int>(entry.to.size()), entry.to.data());
        ImGui::TableSetColumnIndex(2);
        if (entry.cause == Cause::Condition) ImGui::Text("condition %zu", entry.condition);
        else if (entry.cause == Cause::Event)
            ImGui::Text("event %.*s", static_cast<int>(entry.event.size()), entry.event.data());
        else ImGui::TextUnformatted(detail::CauseName(entry.cause));
    }
    ImGui::EndTable();
    if (shown == 0) TextColored(kQuiet, "no transition of this machine kept yet");
}

void DrawControls(InspectorState& state) {
    if (ImGui::Button(state.Paused() ? "Resume" : "Pause")) state.SetPaused(!state.Paused());
    ImGui::SameLine();
    ImGui::BeginDisabled(!state.Paused());
    if (ImGui::Button("Step")) state.Step();
    ImGui::EndDisabled();
    ImGui::SameLine();
    TextColored(state.Paused() ? kWarn : kQuiet, state.Paused() ? "paused" : "running");
}

// Whether ForceSetState(s.id) enters `s`: a region and the states inside one
// are entered with their parallel state (forcing one is a ConfigError), and
// forcing the global state would make it current as well.
bool Forceable(const detail::InspectorView& view, const StateInfo& s) {
    if (s.name == view.global) return false;
    for (const StateInfo* at = &s; at; at = FindState(view.states, at->parent))
        if (at->region) return false;
    return true;
}

StateId DrawForce(const detail::InspectorView& view) {
    if (!view.can_force) {
        TextColored(kQuiet, "force: the Action has no default constructor");
        return {};
    }
    // Entering a state is refused when a state its entry passes through is
    // buried; which states those are follows each composite's history, so
    // the list is off rather than offering states that would be refused.
    if (!view.buried.empty()) {
        TextColored(kQuiet, "force: off while states are buried under a push (pop first)");
        return {};
    }
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID key = ImGui::GetID("force pick");
    int pick = storage->GetInt(key, -1);
    const StateInfo* picked = pick >= 0 && static_cast<std::size_t>(pick) < view.states.size()
                                  ? &view.states[static_cast<std::size_t>(pick)]
                                  : nullptr;
    if (picked && !Forceable(view, *picked)) picked = nullptr; // the global state may have changed
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
    if (ImGui::BeginCombo("##force", picked ? CText(picked->name) : "pick a state")) {
        for (std::size_t i = 0; i < view.states.size(); ++i)
            if (Forceable(view, view.states[i]) &&
                ImGui::Selectable(CText(view.states[i].name), static_cast<int>(i) == pick)) {
                pick = static_cast<int>(i);
                storage->SetInt(key, pick);
            }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(picked == nullptr);
    const bool force = ImGui::Button("Force state");
    ImGui::EndDisabled();
    return force && picked ? picked->id : StateId{};
}

// Title of a window: ImGui wants a C string.
void BeginPanel(std::string_view name) { ImGui::Begin(CText(name)); }

} // namespace

detail::InspectorRequest DrawInspectorView(const detail::InspectorView& view, InspectorState& state) {
    detail::InspectorRequest request;
    BeginPanel(view.name);
    if (!state.log_path.empty()) {
        ImGui::LogToFile(-1, state.log_path.c_str());
        state.log_path.clear();
    }
    DrawControls(state);
    ImGui::SameLine();
    if (ImGui::SmallButton("Copy")) ImGui::LogToClipboard();

    if (!view.started) {
        TextColored(kWarn, "not started: the first tick enters its initial state");
    } else {
        char line[200];
        const std::string_view current = NameOf(view, view.current);
        std::snprintf(line, sizeof line, "current: %.*s, %" PRIu32 " ticks (%.2f s)", static_cast<int>(current.size()),
                      current.data(), view.ticks.empty() ? 0u : view.ticks.back(),
                      view.ticks.empty() ? 0.0 : static_cast<double>(view.ticks.back()) * view.dt);
        ShowText(line);
    }
    if (!view.global.empty()) {
        char line[160];
        std::snprintf(line, sizeof line, "global state: %.*s", static_cast<int>(view.global.size()), view.global.data());
        ShowText(line);
    }
    if (!view.buried.empty()) { // "buried under pushes: Patrol, Stunned (a pop returns to Stunned)"
        std::string line = "buried under pushes: ";
        for (std::size_t i = 0; i < view.buried.size(); ++i) {
            if (i > 0) line += ", ";
            line += NameOf(view, view.buried[i]);
        }
        line += " (a pop returns to ";
        line += NameOf(view, view.buried.back());
        line += ")";
        ShowText(line);
    }

    if (ImGui::CollapsingHeader("States", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (ImGui::BeginTable("states", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("state", ImGuiTableColumnFlags_WidthStretch, 3.0f);
            ImGui::TableSetupColumn("ticks", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableSetupColumn("time", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableHeadersRow();
            DrawStateRows(view, StateId{});
            ImGui::EndTable();
        }
        request.force = DrawForce(view);
    }
    if (ImGui::CollapsingHeader("Transitions", ImGuiTreeNodeFlags_DefaultOpen)) DrawTransitions(view);
    if (ImGui::CollapsingHeader("History", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (state.transition_history) DrawHistory(view, *state.transition_history, state.history_rows);
        else TextColored(kQuiet, "no history: attach a TransitionHistory (SetObserver) and give it to the InspectorState");
    }
    ImGui::End();
    return request;
}

std::size_t DrawCrowdView(const detail::CrowdView& view, InspectorState& state) {
    std::size_t& selected = state.PickOf(view.name);
    BeginPanel(view.name);
    if (!state.log_path.empty()) {
        ImGui::LogToFile(-1, state.log_path.c_str());
        state.log_path.clear();
    }
    ImGui::Text("%zu characters", view.state_of.size());
    std::size_t not_started = 0;
    for (StateId id : view.state_of)
        if (!id.Valid()) ++not_started;

    if (ImGui::BeginTable("crowd", 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("state", ImGuiTableColumnFlags_WidthStretch, 3.0f);
        ImGui::TableSetupColumn("characters", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableHeadersRow();
        auto group = [&](StateId id, std::string_view name) {
            std::size_t count = 0;
            for (StateId s : view.state_of)
                if (s == id) ++count;
            if (count == 0) return;
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<std::uintptr_t>(id.value) + 1),
                                                ImGuiTreeNodeFlags_SpanFullWidth, "%.*s",
                                                static_cast<int>(name.size()), name.data());
            ImGui::TableSetColumnIndex(1);
            ImGui::Text("%zu", count);
            if (!open) return;
            for (std::size_t i = 0; i < view.state_of.size(); ++i) {
                if (!(view.state_of[i] == id)) continue;
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                char label[48];
                std::snprintf(label, sizeof label, "character %zu", i);
                if (ImGui::Selectable(label, selected == i, ImGuiSelectableFlags_SpanAllColumns))
                    selected = i;
                ImGui::TableSetColumnIndex(1);
                ImGui::Text("%" PRIu32 " ticks", view.ticks_of[i]);
            }
            ImGui::TreePop();
        };
        for (std::size_t id = 0; id < view.names.size(); ++id)
            group(StateId{static_cast<std::uint16_t>(id)}, view.names[id]);
        if (not_started > 0) group(StateId{}, "(not started)");
        ImGui::EndTable();
    }

    if (selected < view.state_of.size()) {
        const std::size_t i = selected;
        const StateId id = view.state_of[i];
        const std::string_view name = id.Valid() && id.value < view.names.size() ? view.names[id.value]
                                                                                 : std::string_view("(not started)");
        ImGui::Separator();
        ImGui::Text("character %zu: %.*s, %" PRIu32 " ticks (%.2f s)", i, static_cast<int>(name.size()), name.data(),
                    view.ticks_of[i], static_cast<double>(view.ticks_of[i]) * view.dt);
        if (ImGui::SmallButton("Unpick")) selected = static_cast<std::size_t>(-1);
    } else {
        TextColored(kQuiet, "open a state and pick a character");
    }
    ImGui::End();
    return selected < view.state_of.size() ? selected : static_cast<std::size_t>(-1);
}

} // namespace tickfsm
