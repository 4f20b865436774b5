// Pictures (DOT, Mermaid) and checks (Validate) of a machine's Description.
// Everything here reads the Description alone: a part a machine gains is
// drawn and checked here once the Description carries it.

#include <tickfsm/describe.hpp>

#include <tickfsm/detail/format.hpp>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fmt_text.hpp"
#include <fmt/ranges.h>

namespace tickfsm {

namespace {

/// The Description's states by id, with their children.
class Index {
public:
    explicit Index(const Description& d) : machine(d) {
        std::size_t size = 0;
        for (const StateInfo& s : d.states) size = std::max<std::size_t>(size, s.id.value + 1u);
        positions.assign(size, -1);
        children.resize(size);
        for (std::size_t i = 0; i < d.states.size(); ++i) positions[d.states[i].id.value] = static_cast<int>(i);
        for (const StateInfo& s : d.states)
            if (const StateInfo* parent = Get(s.parent)) {
                // the initial substate first, the others in id order
                auto& list = children[parent->id.value];
                if (parent->initial == s.id) list.insert(list.begin(), s.id);
                else list.push_back(s.id);
            }
    }

    const StateInfo* Get(StateId id) const noexcept {
        if (!id.Valid() || id.value >= positions.size() || positions[id.value] < 0) return nullptr;
        return &machine.states[static_cast<std::size_t>(positions[id.value])];
    }
    std::string_view Name(StateId id) const noexcept {
        const StateInfo* s = Get(id);
        return s ? s->name : std::string_view("?");
    }
    const std::vector<StateId>& Children(StateId id) const {
        static const std::vector<StateId> none;
        return id.value < children.size() ? children[id.value] : none;
    }
    bool Composite(StateId id) const { return !Children(id).empty(); }
    /// Whether `state` is `leaf` or one of its ancestors.
    bool Within(StateId leaf, StateId state) const noexcept {
        for (const StateInfo* s = Get(leaf); s; s = Get(s->parent))
            if (s->id == state) return true;
        return false;
    }
    /// The states from the outermost down to `state`.
    std::vector<StateId> PathTo(StateId state) const {
        std::vector<StateId> path;
        for (const StateInfo* s = Get(state); s && path.size() <= machine.states.size(); s = Get(s->parent))
            path.push_back(s->id);
        std::reverse(path.begin(), path.end());
        return path;
    }
    /// Whether `a` and `b` can be active at once: one holds the other, or they
    /// are in different regions of a parallel state.
    bool Together(StateId a, StateId b) const {
        if (Within(a, b) || Within(b, a)) return true;
        const std::vector<StateId> pa = PathTo(a), pb = PathTo(b);
        std::size_t common = 0;
        while (common < pa.size() && common < pb.size() && pa[common] == pb[common]) ++common;
        const StateInfo* inner = common > 0 ? Get(pa[common - 1]) : nullptr;
        return inner && inner->parallel;
    }
    std::size_t Leaves(StateId id) const {
        if (!Composite(id)) return 1;
        std::size_t n = 0;
        for (const StateId child : Children(id)) n += Leaves(child);
        return n;
    }

private:
    const Description& machine;
    std::vector<int> positions;
    std::vector<std::vector<StateId>> children;
};

bool ChangesOnCondition(TransitionKind kind) noexcept {
    return kind == TransitionKind::Condition || kind == TransitionKind::WhenDone || kind == TransitionKind::Push ||
           kind == TransitionKind::Pop;
}

std::string_view HistoryText(History h) noexcept {
    switch (h) {
    case History::Shallow: return "shallow";
    case History::Deep: return "deep";
    case History::None: break;
    }
    return "none";
}

/// An edge's label: "0. can jump", "condition 1", "push 0. stunned", "on Jump", with " (forced)".
std::string EdgeLabel(const TransitionRule& rule) {
    std::string label;
    if (rule.kind == TransitionKind::Event || rule.kind == TransitionKind::Typed) {
        label = fmt::format("on {}", detail::EventText(rule.event));
        if (rule.kind == TransitionKind::Typed && rule.order != 0) label += fmt::format(" ({})", rule.order);
        if (rule.kind == TransitionKind::Typed && !rule.to.Valid()) label += " (handled)";
        return label;
    }
    if (rule.kind == TransitionKind::Push) label = "push ";
    if (rule.kind == TransitionKind::Pop) label = "pop ";
    if (!rule.condition.empty()) label += fmt::format("{}. {}", rule.order, rule.condition);
    else if (rule.always) label += fmt::format("{}. always", rule.order);
    else label += fmt::format("condition {}", rule.order);
    if (rule.kind == TransitionKind::WhenDone) label += " when done";
    if (rule.forced) label += " (forced)";
    return label;
}

std::string StateLabel(const Description& d, const Index& index, const StateInfo& s) {
    std::string label(s.name);
    if (index.Composite(s.id) && s.history != History::None)
        label += fmt::format(" ({} history)", HistoryText(s.history));
    if (s.parallel) label += " (parallel)";
    if (s.region) label += " (region)";
    if (s.pass_through) label += " (pass-through)";
    if (s.id == d.global) label += " (global)";
    return label;
}

// --- DOT ---------------------------------------------------------------------------

std::string DotQuoted(std::string_view text) {
    std::string out = "\"";
    for (const char ch : text) {
        if (ch == '"' || ch == '\\') out.push_back('\\');
        if (ch == '\n') {
            out += "\\n";
            continue;
        }
        out.push_back(ch);
    }
    out.push_back('"');
    return out;
}

class DotWriter {
public:
    DotWriter(std::string& text, const Description& d, std::size_t number) : out(text), machine(d), index(d) {
        prefix = fmt::format("m{}", number);
    }

    void Body(int depth) {
        const std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
        const StateInfo* initial = nullptr;
        for (const StateInfo& s : machine.states) {
            if (s.is_initial) initial = &s;
            if (!s.parent.Valid()) State(s, depth);
        }
        if (initial) {
            out += fmt::format("{}{}start [shape=point, width=0.15, label=\"\"];\n", pad, prefix);
            out += fmt::format("{}{}start -> {}{};\n", pad, prefix, Node(initial->id), Head(initial->id));
        }
        bool any = false, pop = false;
        for (const TransitionRule& rule : machine.transitions) {
            any = any || rule.any;
            pop = pop || rule.kind == TransitionKind::Pop;
        }
        if (any) out += fmt::format("{}{}any [label=\"any state\", shape=octagon];\n", pad, prefix);
        if (pop)
            out += fmt::format("{}{}pop [label=\"the state buried last\", shape=box, style=\"rounded,dotted\"];\n",
                               pad, prefix);
        for (const TransitionRule& rule : machine.transitions) Edge(rule, pad);
    }

private:
    std::string Node(StateId id) const { return fmt::format("{}s{}", prefix, id.value); }
    std::string Cluster(StateId id) const { return fmt::format("cluster_{}s{}", prefix, id.value); }
    /// The attribute that ends an edge at a composite's border.
    std::string Head(StateId id) const {
        return index.Composite(id) ? fmt::format(" [lhead={}]", Cluster(id)) : std::string();
    }

    void State(const StateInfo& s, int depth) {
        const std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
        const std::string label = StateLabel(machine, index, s);
        if (!index.Composite(s.id)) {
            std::string attributes = "label=" + DotQuoted(label);
            if (s.terminal) attributes += ", peripheries=2";
            if (s.id == machine.global || s.region) attributes += ", style=\"rounded,dashed\"";
            out += fmt::format("{}{} [{}];\n", pad, Node(s.id), attributes);
            return;
        }
        // A composite is a cluster holding a point: its children's initial
        // arrow starts there, and edges to or from the composite end there.
        out += fmt::format("{}subgraph {} {{\n", pad, Cluster(s.id));
        out += fmt::format("{}  label={};\n{}  style={};\n", pad, DotQuoted(label), pad,
                           s.region ? "\"rounded,dashed\"" : "rounded");
        if (s.terminal) out += fmt::format("{}  peripheries=2;\n", pad);
        out += fmt::format("{}  {} [shape=point, width=0.1, label=\"\"];\n", pad, Node(s.id));
        for (const StateId child : index.Children(s.id))
            if (const StateInfo* c = index.Get(child)) State(*c, depth + 1);
        if (s.initial.Valid())
            out += fmt::format("{}  {} -> {}{};\n", pad, Node(s.id), Node(s.initial), Head(s.initial));
        out += fmt::format("{}}}\n", pad);
    }

    void Edge(const TransitionRule& rule, const std::string& pad) {
        const std::string from = rule.any ? prefix + "any" : Node(rule.from);
        std::string to;
        if (rule.kind == TransitionKind::Pop) to = prefix + "pop";
        else if (rule.to.Valid()) to = Node(rule.to);
        else to = from; // a typed event handled in place
        std::vector<std::string> attributes{"label=" + DotQuoted(EdgeLabel(rule))};
        std::string style;
        if (rule.forced) style = "dashed";
        if (rule.kind == TransitionKind::Push || rule.kind == TransitionKind::Pop)
            style = style.empty() ? "bold" : style + ",bold";
        if (rule.kind == TransitionKind::Typed && !rule.to.Valid()) style = "dotted";
        if (!style.empty()) attributes.push_back(fmt::format("style={}", DotQuoted(style)));
        if (rule.kind == TransitionKind::Push) attributes.push_back("arrowhead=veevee");
        // Clipped at a cluster's border only when the other end is outside it:
        // Graphviz ignores it otherwise, with a warning.
        if (!rule.any && index.Composite(rule.from) && to != from && !index.Within(rule.to, rule.from))
            attributes.push_back("ltail=" + Cluster(rule.from));
        if (rule.to.Valid() && rule.kind != TransitionKind::Pop && index.Composite(rule.to) && to != from &&
            !index.Within(rule.from, rule.to))
            attributes.push_back("lhead=" + Cluster(rule.to));
        out += fmt::format("{}{} -> {} [{}];\n", pad, from, to, fmt::join(attributes, ", "));
    }

    std::string& out;
    const Description& machine;
    Index index;
    std::string prefix;
};

// --- Mermaid -------------------------------------------------------------------------

/// Mermaid text: no quotes in names, no colons or semicolons in labels.
std::string MermaidText(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        if (ch == '"') out.push_back('\'');
        else if (ch == ':') out.push_back('.');
        else if (ch == ';') out.push_back(',');
        else if (ch == '\n') out.push_back(' ');
        // Mermaid's entity codes: a label's HTML is sanitized (a template's
        // "<Heavy>" would vanish) and "%%" starts a comment.
        else if (ch == '<') out += "#lt;";
        else if (ch == '>') out += "#gt;";
        else if (ch == '#') out += "#35;";
        else if (ch == '%') out += "#37;";
        else out.push_back(ch);
    }
    return out;
}

class MermaidWriter {
public:
    MermaidWriter(std::string& text, const Description& d, std::size_t number) : out(text), machine(d), index(d) {
        prefix = fmt::format("m{}", number);
    }

    void Body(int depth) {
        const std::string pad(static_cast<std::size_t>(depth) * 4, ' ');
        bool any = false, pop = false;
        for (const TransitionRule& rule : machine.transitions) {
            any = any || rule.any;
            pop = pop || rule.kind == TransitionKind::Pop;
        }
        if (any) out += fmt::format("{}state \"any state\" as {}any\n", pad, prefix);
        if (pop) out += fmt::format("{}state \"the state buried last\" as {}pop\n", pad, prefix);
        for (const StateInfo& s : machine.states)
            if (!s.parent.Valid()) State(s, depth);
        for (const StateInfo& s : machine.states)
            if (s.is_initial) out += fmt::format("{}[*] --> {}\n", pad, Node(s.id));
        Edges(StateId{}, pad);
    }

private:
    std::string Node(StateId id) const { return fmt::format("{}s{}", prefix, id.value); }

    /// The innermost composite that holds both ends of `rule` (not Valid(): none):
    /// Mermaid wants a transition written inside the state that holds its ends.
    StateId Scope(const TransitionRule& rule) const {
        if (rule.any || rule.kind == TransitionKind::Pop || !rule.to.Valid()) return StateId{};
        for (const StateInfo* a = index.Get(rule.from); a && (a = index.Get(a->parent));)
            if (a->id != rule.to && index.Within(rule.to, a->id)) return a->id;
        return StateId{};
    }

    /// The transitions written in `scope`, and the terminal marks of its
    /// states; with `section`, a region of parallel `scope`, only those within it.
    void Edges(StateId scope, const std::string& pad, StateId section = StateId{}) {
        for (const TransitionRule& rule : machine.transitions) {
            if (Scope(rule) != scope || (section.Valid() && !index.Within(rule.from, section))) continue;
            const std::string from = rule.any ? prefix + "any" : Node(rule.from);
            std::string to = from;
            if (rule.kind == TransitionKind::Pop) to = prefix + "pop";
            else if (rule.to.Valid()) to = Node(rule.to);
            out += fmt::format("{}{} --> {} : {}\n", pad, from, to, MermaidText(EdgeLabel(rule)));
        }
        for (const StateInfo& s : machine.states)
            if (s.terminal && s.parent == scope && (!section.Valid() || s.id == section))
                out += fmt::format("{}{} --> [*]\n", pad, Node(s.id));
    }

    void State(const StateInfo& s, int depth) {
        const std::string pad(static_cast<std::size_t>(depth) * 4, ' ');
        out += fmt::format("{}state \"{}\" as {}\n", pad, MermaidText(StateLabel(machine, index, s)), Node(s.id));
        if (!index.Composite(s.id)) return;
        out += fmt::format("{}state {} {{\n", pad, Node(s.id));
        bool first = true;
        for (const StateId child : index.Children(s.id))
            if (const StateInfo* c = index.Get(child)) {
                if (s.parallel && !first) out += fmt::format("{}    --\n", pad); // Mermaid's concurrent regions
                first = false;
                State(*c, depth + 1);
                // Mermaid puts what follows a `--` in the next region's section:
                // a region's transitions are written in its own.
                if (s.parallel) Edges(s.id, pad + "    ", child);
            }
        if (s.initial.Valid()) out += fmt::format("{}    [*] --> {}\n", pad, Node(s.initial));
        if (!s.parallel) Edges(s.id, pad + "    ");
        out += fmt::format("{}}}\n", pad);
    }

    std::string& out;
    const Description& machine;
    Index index;
    std::string prefix;
};

// --- Validate --------------------------------------------------------------------------

class Checker {
public:
    explicit Checker(const Description& d) : machine(d), index(d) {}

    List<Finding> Run() {
        Reach();
        for (const StateInfo& s : machine.states) {
            Unreachable(s);
            NoWayOut(s);
            NeverTried(s);
            Rules(s);
        }
        Events();
        std::stable_sort(findings.begin(), findings.end(),
                         [](const Finding& a, const Finding& b) { return a.kind < b.kind; });
        return std::move(findings);
    }

private:
    void Add(FindingKind kind, List<StateId> states, std::string message) {
        Finding f;
        f.kind = kind;
        for (const StateId id : states) f.names.push_back(index.Name(id));
        f.states = std::move(states);
        f.message = std::move(message);
        findings.push_back(std::move(f));
    }

    bool Reached(StateId id) const { return !has_initial || (id.value < reached.size() && reached[id.value]); }

    void Mark(StateId id, std::vector<StateId>& queue) {
        if (id.value >= reached.size() || reached[id.value]) return;
        reached[id.value] = true;
        queue.push_back(id);
    }

    /// Marks `state` and what entering it enters: every region of a parallel
    /// state, else its initial substate, and so on down.
    void EnterDown(StateId state, std::vector<StateId>& queue) {
        const StateInfo* s = index.Get(state);
        if (!s) return;
        Mark(s->id, queue);
        if (s->parallel) {
            for (const StateId region : index.Children(s->id)) EnterDown(region, queue);
        } else if (s->initial.Valid()) {
            EnterDown(s->initial, queue);
        }
    }

    /// Marks every state a machine entering `target` enters: `target` down,
    /// its ancestors, and the other regions of a parallel ancestor.
    void Enter(StateId target, std::vector<StateId>& queue) {
        const StateInfo* t = index.Get(target);
        if (!t) return;
        EnterDown(target, queue);
        StateId below = target;
        for (const StateInfo* a = index.Get(t->parent); a; a = index.Get(a->parent)) {
            Mark(a->id, queue);
            if (a->parallel)
                for (const StateId region : index.Children(a->id))
                    if (region != below) EnterDown(region, queue);
            below = a->id;
        }
    }

    void Reach() {
        std::size_t size = 0;
        for (const StateInfo& s : machine.states) size = std::max<std::size_t>(size, s.id.value + 1u);
        reached.assign(size, false);
        std::vector<StateId> queue;
        for (const StateInfo& s : machine.states)
            if (s.is_initial) {
                has_initial = true;
                initial = s.id;
                Enter(s.id, queue);
            }
        if (!has_initial) return;
        if (machine.global.Valid()) Enter(machine.global, queue);
        for (const TransitionRule& rule : machine.transitions)
            if (rule.any && rule.to.Valid() && rule.kind != TransitionKind::Pop) Enter(rule.to, queue);
        while (!queue.empty()) {
            const StateId s = queue.back();
            queue.pop_back();
            if (s == machine.global) continue; // it performs beside the current state; its transitions never fire
            for (const TransitionRule& rule : machine.transitions)
                if (!rule.any && rule.from == s && rule.to.Valid() && rule.kind != TransitionKind::Pop)
                    Enter(rule.to, queue);
        }
    }

    void Unreachable(const StateInfo& s) {
        if (Reached(s.id)) return;
        // a substate of an unreachable state is said to be with it
        if (const StateInfo* parent = index.Get(s.parent); parent && !Reached(parent->id)) return;
        Add(FindingKind::Unreachable, {s.id, initial},
            fmt::format("state {} is unreachable: no transition leads to it{} from the initial state {}", s.name,
                        index.Composite(s.id) ? " (nor to its substates)" : "", index.Name(initial)));
    }

    /// Whether entering `target` makes `state` active again: `target` is
    /// `state` or inside it, or holds it and each composite on the way down
    /// enters the next state towards it (its initial substate; a parallel
    /// state enters every region). Where a history leads is not followed: a
    /// composite with one is taken as leading elsewhere.
    bool Reenters(StateId target, StateId state) const {
        if (index.Within(target, state)) return true;
        if (!index.Within(state, target)) return false;
        const std::vector<StateId> path = index.PathTo(state);
        bool entered = false;
        for (std::size_t i = 0; i + 1 < path.size(); ++i) {
            entered = entered || path[i] == target;
            if (!entered) continue;
            const StateInfo* s = index.Get(path[i]);
            if (!s || s->history != History::None) return false;
            if (!s->parallel && s->initial != path[i + 1]) return false;
        }
        return true;
    }

    /// Whether `rule`, taken while `state` is active, leaves it: the change
    /// exits, on the active path it is taken on, every state that is not a
    /// proper ancestor of its target (docs/nested_states.md), and `state` is
    /// among them and not entered again.
    bool Leaves(const TransitionRule& rule, StateId state) const {
        // That path: `from`'s, on down to `state` when `from` holds it (the
        // machine's own, down to `state`, for an any-state transition).
        const StateId start = rule.any || index.Within(state, rule.from) ? state : rule.from;
        StateId exited;
        for (const StateId s : index.PathTo(start))
            if (s == rule.to || !index.Within(rule.to, s)) {
                exited = s;
                break;
            }
        return exited.Valid() && index.Within(state, exited) && !Reenters(rule.to, state);
    }

    /// The first transition that takes the machine out of `state` (a leaf, or
    /// a composite as a whole), or null: one of a state active with it (itself,
    /// a state holding it or held by it, a state of another region beside it)
    /// or of any state, that leaves it, or a push or pop.
    const TransitionRule* WayOut(StateId state) const {
        for (const TransitionRule& rule : machine.transitions) {
            if (rule.kind == TransitionKind::Typed && !rule.to.Valid()) continue; // handled in place
            if (!rule.any && (rule.from == machine.global || !index.Together(rule.from, state))) continue;
            // an any-state transition into an active state is passed over
            if (rule.any && rule.kind != TransitionKind::Pop && index.Within(state, rule.to)) continue;
            if (rule.kind == TransitionKind::Pop || rule.kind == TransitionKind::Push) return &rule;
            if (Leaves(rule, state)) return &rule;
        }
        return nullptr;
    }

    void NoWayOut(const StateInfo& s) {
        if (index.Composite(s.id) || s.id == machine.global || !Reached(s.id)) return;
        for (const StateInfo* a = &s; a; a = index.Get(a->parent))
            if (a->terminal) return; // meant never to be left, nor its substates
        if (WayOut(s.id)) return;
        bool in_region = false;
        for (const StateInfo* a = index.Get(s.parent); a; a = index.Get(a->parent)) in_region = in_region || a->region;
        // A keyed state is marked by its key; its name stands in for the key, as in the keyed calls' messages.
        Add(FindingKind::NoWayOut, {s.id},
            fmt::format("state {} has no way out: no transition of its own, of a state holding it{} or of any "
                        "state leaves it; if the machine is meant to stay there, say so with {}",
                        s.name, in_region ? ", of a state in another region beside it" : "",
                        s.keyed ? fmt::format("SetTerminal({})", s.name) : fmt::format("SetTerminal<{}>()", s.name)));
    }

    /// Whether `rule` fires on every tick its state is tried: no condition, no wait, no gate that can refuse.
    bool AlwaysFires(const TransitionRule& rule) const {
        if (!rule.always || rule.any || !ChangesOnCondition(rule.kind) || rule.kind == TransitionKind::WhenDone)
            return false;
        if (rule.forced) return true;
        const StateInfo* from = index.Get(rule.from);
        const StateInfo* to = index.Get(rule.to);
        return !(from && from->can_exit) && !(to && to->can_enter);
    }

    void NeverTried(const StateInfo& s) {
        // A transition of s, or of a state holding s, that always fires first.
        const TransitionRule* first = nullptr;
        for (const StateInfo* a = index.Get(s.parent); a && !first; a = index.Get(a->parent))
            for (const TransitionRule& rule : machine.transitions)
                if (!rule.any && rule.from == a->id && AlwaysFires(rule)) {
                    first = &rule;
                    break;
                }
        const bool parents = first != nullptr;
        const TransitionRule* first_typed = nullptr;
        for (const TransitionRule& rule : machine.transitions) {
            if (rule.any || rule.from != s.id) continue;
            if (rule.kind == TransitionKind::Typed) {
                const TransitionRule* earlier = nullptr;
                for (const TransitionRule* t = first_typed; t && t != &rule; ++t)
                    if (t->from == s.id && t->kind == TransitionKind::Typed && t->always && t->event == rule.event) {
                        earlier = t;
                        break;
                    }
                if (!first_typed) first_typed = &rule;
                if (earlier)
                    Add(FindingKind::NeverTried, {s.id, Target(rule)},
                        fmt::format("{}'s transition {} on {} (to {}) is never tried: its transition {} on the same "
                                    "event has no guard and is tried first",
                                    s.name, rule.order, detail::EventText(rule.event), TargetName(rule),
                                    earlier->order));
                continue;
            }
            if (!ChangesOnCondition(rule.kind)) continue;
            if (first) {
                if (parents)
                    Add(FindingKind::NeverTried, {s.id, first->from},
                        fmt::format("{}'s {} is never tried: {}, which holds it, always takes its {} first", s.name,
                                    RuleText(rule), index.Name(first->from), RuleText(*first)));
                else
                    Add(FindingKind::NeverTried, {s.id, Target(rule)},
                        fmt::format("{}'s {} is never tried: its {} has no condition and no gate to refuse it, and "
                                    "is tried first",
                                    s.name, RuleText(rule), RuleText(*first)));
                continue;
            }
            if (AlwaysFires(rule)) first = &rule;
        }
    }

    /// "transition 1 to Jump (can jump)", "push 0 to Stunned", "pop 2".
    std::string RuleText(const TransitionRule& rule) const {
        std::string text;
        switch (rule.kind) {
        case TransitionKind::Push: text = fmt::format("push {} to {}", rule.order, TargetName(rule)); break;
        case TransitionKind::Pop: text = fmt::format("pop {}", rule.order); break;
        case TransitionKind::WhenDone:
            text = fmt::format("transition {} to {} (when done)", rule.order, TargetName(rule));
            break;
        default: text = fmt::format("transition {} to {}", rule.order, TargetName(rule)); break;
        }
        if (!rule.condition.empty()) text += fmt::format(" ({})", rule.condition);
        return text;
    }
    StateId Target(const TransitionRule& rule) const { return rule.to.Valid() ? rule.to : rule.from; }
    std::string TargetName(const TransitionRule& rule) const {
        if (rule.kind == TransitionKind::Pop) return "the state buried last";
        return std::string(index.Name(Target(rule)));
    }

    void Rules(const StateInfo& s) {
        if (index.Composite(s.id) && s.history != History::None) {
            const bool single = s.history == History::Shallow ? index.Children(s.id).size() == 1
                                                               : index.Leaves(s.id) == 1;
            if (single)
                Add(FindingKind::RuleCannotApply, {s.id},
                    fmt::format("state {}'s {} history cannot apply: it holds one {}, which it always re-enters",
                                s.name, HistoryText(s.history),
                                s.history == History::Shallow ? "substate" : "path of substates"));
        }
        if (s.parallel && index.Children(s.id).size() == 1)
            Add(FindingKind::RuleCannotApply, {s.id, index.Children(s.id)[0]},
                fmt::format("state {} holds one region, {}: nothing runs beside it, so it is a plain substate",
                            s.name, index.Name(index.Children(s.id)[0])));
        if (s.pass_through) {
            bool routes = false;
            for (const TransitionRule& rule : machine.transitions)
                routes = routes || (ChangesOnCondition(rule.kind) && (rule.any || index.Within(s.id, rule.from)));
            if (!routes)
                Add(FindingKind::RuleCannotApply, {s.id},
                    fmt::format("state {} is a pass-through state, but no condition transition (its own, of a "
                                "state holding it or of any state) can route the machine on from it",
                                s.name));
        }
        if (s.terminal)
            if (const TransitionRule* out = WayOut(s.id))
                Add(FindingKind::RuleCannotApply, {s.id},
                    fmt::format("state {} is marked terminal, but the machine can leave it: {}{}", s.name,
                                out->any ? "the any-state " : "", ConditionText(machine, *out)));
    }

    void Events() {
        for (const Event& e : machine.events) {
            bool handled = false;
            for (const TransitionRule& rule : machine.transitions)
                handled = handled || ((rule.kind == TransitionKind::Event || rule.kind == TransitionKind::Typed) &&
                                      rule.event == e);
            if (!handled)
                Add(FindingKind::EventNotHandled, {},
                    fmt::format("event {} is declared, but no state has a transition on it: sending it does nothing",
                                detail::EventText(e)));
        }
    }

    const Description& machine;
    Index index;
    std::vector<bool> reached;
    bool has_initial = false;
    StateId initial;
    List<Finding> findings;
};

} // namespace

Text ConditionText(const Description& machine, const TransitionRule& rule) {
    if (rule.kind == TransitionKind::Event || rule.kind == TransitionKind::Typed)
        return fmt::format("event {}", detail::EventText(rule.event));
    if (!rule.condition.empty()) return rule.condition;
    std::string_view from = "any state";
    if (!rule.any) {
        from = "?";
        for (const StateInfo& s : machine.states)
            if (s.id == rule.from) from = s.name;
    }
    return fmt::format("condition {} of {}", rule.order, from);
}

Text WriteDot(const Description& machine) { return WriteDot(std::span<const Description>(&machine, 1)); }

Text WriteDot(std::span<const Description> machines) {
    std::string out = "digraph tickfsm {\n";
    out += "  compound=true;\n  rankdir=LR;\n  fontname=\"Helvetica\";\n";
    out += "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n";
    out += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
    if (machines.size() == 1) {
        if (!machines[0].name.empty())
            out += fmt::format("  label={};\n  labelloc=t;\n", DotQuoted(machines[0].name));
        DotWriter(out, machines[0], 0).Body(1);
    } else {
        for (std::size_t i = 0; i < machines.size(); ++i) {
            out += fmt::format("  subgraph cluster_m{} {{\n", i);
            out += fmt::format("    label={};\n    style=bold;\n",
                               DotQuoted(machines[i].name.empty() ? fmt::format("machine {}", i) : std::string(machines[i].name)));
            DotWriter(out, machines[i], i).Body(2);
            out += "  }\n";
        }
    }
    out += "}\n";
    return out;
}

Text WriteMermaid(const Description& machine) {
    std::string out;
    if (!machine.name.empty()) out += fmt::format("---\ntitle: {}\n---\n", MermaidText(machine.name));
    out += "stateDiagram-v2\n    direction LR\n";
    MermaidWriter(out, machine, 0).Body(1);
    return out;
}

Text WriteMermaid(std::span<const Description> machines) {
    if (machines.size() == 1) return WriteMermaid(machines[0]);
    std::string out = "stateDiagram-v2\n    direction LR\n";
    for (std::size_t i = 0; i < machines.size(); ++i) {
        const std::string name = machines[i].name.empty() ? fmt::format("machine {}", i) : std::string(machines[i].name);
        out += fmt::format("    state \"{}\" as m{}\n    state m{} {{\n", MermaidText(name), i, i);
        MermaidWriter(out, machines[i], i).Body(2);
        out += "    }\n";
    }
    return out;
}

std::string_view FindingKindName(FindingKind kind) noexcept {
    switch (kind) {
    case FindingKind::Unreachable: return "unreachable";
    case FindingKind::NoWayOut: return "no way out";
    case FindingKind::NeverTried: return "never tried";
    case FindingKind::EventNotHandled: return "event not handled";
    case FindingKind::RuleCannotApply: return "rule cannot apply";
    }
    return "?";
}

List<Finding> Validate(const Description& machine) { return Checker(machine).Run(); }

} // namespace tickfsm
