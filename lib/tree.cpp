// Nested states by index: the walks of detail/tree.hpp, compiled once.

#include "format_text.hpp"
#include <tickfsm/detail/tree.hpp>
#include <tickfsm/static_machine.hpp> // StaticPathText

namespace tickfsm::detail {

TreeIndex ChangeBase(std::span<const TreeNode> tree, TreeIndex leaf, TreeIndex target) noexcept {
    for (TreeIndex a = tree[target].parent; a != kNoNode; a = tree[a].parent)
        if (leaf != kNoNode && IsWithin(tree, leaf, a)) return a;
    return kNoNode;
}

std::size_t EntryPath(std::span<const TreeNode> tree, TreeIndex base, TreeIndex target, const std::byte* data,
                      TreeIndex (&out)[kMaxDepth]) noexcept {
    std::size_t n = 0;
    for (TreeIndex s = target; s != base && s != kNoNode; s = tree[s].parent) out[n++] = s;
    for (std::size_t i = 0; i < n / 2; ++i) {
        const TreeIndex t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    // On to a leaf: each composite's history, else its initial substate.
    for (TreeIndex s = target; tree[s].initial != kNoNode && n < kMaxDepth;) {
        const TreeNode& node = tree[s];
        const TreeIndex last = node.history != History::None && node.history_slot != kNoSlot
                                   ? reinterpret_cast<const HistorySlot*>(data + node.history_slot)->last
                                   : kNoNode;
        const bool remembered = last != kNoNode && IsWithin(tree, last, s);
        if (remembered && node.history == History::Deep) {
            const std::size_t from = n;
            for (TreeIndex d = last; d != s; d = tree[d].parent) out[n++] = d;
            for (std::size_t i = 0; i < (n - from) / 2; ++i) {
                const TreeIndex t = out[from + i];
                out[from + i] = out[n - 1 - i];
                out[n - 1 - i] = t;
            }
            break;
        }
        TreeIndex next = node.initial;
        if (remembered)
            for (TreeIndex d = last; d != s; d = tree[d].parent) next = d; // the child of s on the way to last
        out[n++] = next;
        s = next;
    }
    return n;
}

std::size_t ActivePathOf(std::span<const TreeNode> tree, TreeIndex leaf, TreeIndex (&out)[kMaxDepth]) noexcept {
    std::size_t n = 0;
    for (TreeIndex s = leaf; s != kNoNode && n < kMaxDepth; s = tree[s].parent) out[n++] = s;
    for (std::size_t i = 0; i < n / 2; ++i) {
        const TreeIndex t = out[i];
        out[i] = out[n - 1 - i];
        out[n - 1 - i] = t;
    }
    return n;
}

TreeIndex RegionOf(std::span<const TreeNode> tree, TreeIndex state) noexcept {
    TreeIndex s = state;
    while (tree[s].parent != kNoNode) s = tree[s].parent;
    return tree[s].owner == kNoNode ? kNoNode : s;
}

bool LaneEncloses(std::span<const TreeNode> tree, TreeIndex outer, TreeIndex inner) noexcept {
    for (TreeIndex r = inner;; r = RegionOf(tree, tree[r].owner)) {
        if (r == outer) return true;
        if (r == kNoNode) return false;
    }
}

Text CheckLaneEdges(std::span<const TreeNode> tree, std::span<const std::string_view> names,
                    std::span<const LaneEdge> edges, TreeIndex initial, bool initial_keyed) {
    if (initial != kNoNode && RegionOf(tree, initial) != kNoNode) {
        const TreeIndex region = RegionOf(tree, initial);
        return Format("{}: {} is in region {} of {}; a machine starts outside its regions: start in {} (each region "
                      "enters its own initial state)",
                      initial_keyed ? Format("SetInitialState({})", names[initial])
                                    : Format("SetInitialState<{}>()", names[initial]),
                      names[initial], names[region], names[tree[region].owner], names[tree[region].owner]);
    }
    for (const LaneEdge& edge : edges) {
        const TreeIndex from_lane = edge.from == kNoNode ? kNoNode : RegionOf(tree, edge.from);
        const TreeIndex to_lane = RegionOf(tree, edge.to);
        if (LaneEncloses(tree, to_lane, from_lane)) continue;
        const std::string_view from = edge.from == kNoNode ? std::string_view("FromAny()") : names[edge.from];
        return Format("{} -> {}: {} is in region {} of {}, and {} is not; a transition from outside a region cannot "
                      "enter its middle: go to {} (each region enters its initial state or history), or start the "
                      "transition inside {}",
                      from, names[edge.to], names[edge.to], names[to_lane], names[tree[to_lane].owner], from,
                      names[tree[to_lane].owner], names[to_lane]);
    }
    return {};
}

bool IsActive(std::span<const TreeNode> tree, const std::byte* data, TreeIndex leaf, TreeIndex state) noexcept {
    if (state == kNoNode) return false;
    const TreeIndex region = RegionOf(tree, state);
    if (region == kNoNode) return leaf != kNoNode && IsWithin(tree, leaf, state);
    if (!IsActive(tree, data, leaf, tree[region].owner)) return false;
    const TreeIndex lane_leaf = LaneOf(tree[region], data).state;
    return lane_leaf != kNoNode && IsWithin(tree, lane_leaf, state);
}

bool Holds(std::span<const TreeNode> tree, TreeIndex outer, TreeIndex inner) noexcept {
    for (TreeIndex s = inner; s != kNoNode; s = tree[s].parent != kNoNode ? tree[s].parent : tree[s].owner)
        if (s == outer) return true;
    return false;
}

static void CollectActive(std::span<const TreeNode> tree, const std::byte* data, TreeIndex leaf,
                          std::span<TreeIndex> out, std::size_t skip, std::size_t& n) noexcept {
    TreeIndex path[kMaxDepth];
    const std::size_t length = ActivePathOf(tree, leaf, path);
    for (std::size_t i = 0; i < length; ++i, ++n)
        if (n >= skip && n - skip < out.size()) out[n - skip] = path[i];
    for (TreeIndex r = tree[leaf].first_region; r != kNoNode; r = tree[r].next_region)
        if (const TreeIndex lane_leaf = LaneOf(tree[r], data).state; lane_leaf != kNoNode)
            CollectActive(tree, data, lane_leaf, out, skip, n);
}

std::size_t ActiveStatesOf(std::span<const TreeNode> tree, const std::byte* data, TreeIndex leaf,
                           std::span<TreeIndex> out, std::size_t skip) noexcept {
    std::size_t n = 0;
    if (leaf != kNoNode) CollectActive(tree, data, leaf, out, skip, n);
    return n;
}

static void AppendPath(std::span<const TreeNode> tree, std::span<const std::string_view> names, TreeIndex leaf,
                       const std::byte* data, std::string& text) {
    TreeIndex path[kMaxDepth];
    const std::size_t n = ActivePathOf(tree, leaf, path);
    for (std::size_t i = 0; i < n; ++i) {
        if (i) text += '/';
        text += names[path[i]];
    }
    if (tree[leaf].first_region == kNoNode) return;
    text += "/{";
    bool first = true;
    for (TreeIndex r = tree[leaf].first_region; r != kNoNode; r = tree[r].next_region) {
        const TreeIndex lane_leaf = LaneOf(tree[r], data).state;
        if (lane_leaf == kNoNode) continue;
        if (!first) text += ", ";
        first = false;
        AppendPath(tree, names, lane_leaf, data, text);
    }
    text += '}';
}

Text PathText(std::span<const TreeNode> tree, std::span<const std::string_view> names, TreeIndex leaf,
                     const std::byte* data) {
    std::string text;
    if (leaf != kNoNode) AppendPath(tree, names, leaf, data, text);
    return text;
}

Text StaticPathText(std::span<const StateIndex> parents, std::span<const std::string_view> names,
                           StateIndex leaf) {
    std::string_view path[kMaxDepth];
    std::size_t depth = 0;
    for (std::size_t at = leaf; at < parents.size() && depth < kMaxDepth; at = parents[at]) path[depth++] = names[at];
    std::string text;
    while (depth > 0) {
        text += path[--depth];
        if (depth > 0) text += '/';
    }
    return text;
}

namespace {
/// A tree call as the user wrote it: `SetSubstates<P, A, B>()`, or with keys `SetSubstates(P, {A, B})`.
std::string CallText(std::string_view api, std::string_view parent, const std::string& list, bool keyed) {
    return keyed ? Format("{}({}, {{{}}})", api, parent, list) : Format("{}<{}, {}>()", api, parent, list);
}
} // namespace

std::uint32_t SiblingSlot(std::span<const TreeNode> tree, TreeIndex state) noexcept {
    const TreeIndex parent = tree[state].parent;
    if (parent == kNoNode) return kNoSlot;
    for (std::size_t s = 0; s < tree.size(); ++s)
        if (s != state && tree[s].parent == parent && tree[s].initial != kNoNode) return tree[s].slot;
    return kNoSlot;
}

std::size_t UnshareSlots(std::span<TreeNode> tree, std::uint32_t (*place)(void*), void* table) {
    std::size_t placed = 0;
    for (std::size_t s = 0; s < tree.size(); ++s) {
        if (tree[s].initial == kNoNode) continue;
        for (std::size_t e = 0; e < s; ++e)
            if (tree[e].initial != kNoNode && tree[e].slot == tree[s].slot) {
                if (place) tree[s].slot = place(table);
                ++placed;
                break;
            }
    }
    return placed;
}

void SetChildren(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex parent,
                 std::span<const TreeIndex> children, std::uint32_t slot, bool keyed, void (*fail)(std::string_view)) {
    auto list = [&] {
        std::string text;
        for (const TreeIndex c : children) {
            if (!text.empty()) text += ", ";
            text += names[c];
        }
        return text;
    };
    const std::string_view p = names[parent];
    const std::string call = CallText("SetSubstates", p, list(), keyed);
    if (tree[parent].first_region != kNoNode)
        fail(Format("{}: {} holds regions (SetRegions); a state holds either substates or "
                    "regions: put the substates in one of its regions",
                    call, p));
    if (tree[parent].initial != kNoNode)
        fail(Format("{}: {} holds substates already (its initial substate is {}); give a state "
                    "all its substates in one SetSubstates",
                    call, p, names[tree[parent].initial]));
    for (std::size_t i = 0; i < children.size(); ++i) {
        const TreeIndex c = children[i];
        for (std::size_t j = 0; j < i; ++j)
            if (children[j] == c)
                fail(Format("{}: {} is listed twice", call, names[c]));
        if (Holds(tree, c, parent))
            fail(Format("{}: {} would be its own ancestor ({} is {} or holds it)", call,
                        names[c], names[c], p));
        if (tree[c].parent != kNoNode)
            fail(Format("{}: {} is a substate of {} already; a state has one parent", call,
                        names[c], names[tree[c].parent]));
        if (tree[c].owner != kNoNode)
            fail(Format("{}: {} is a region of {} already; a state has one parent", call,
                        names[c], names[tree[c].owner]));
    }
    // The deepest leaf below each child, once moved under parent, must stay within kMaxDepth.
    std::size_t below = 0;
    for (std::size_t s = 0; s < tree.size(); ++s) {
        std::size_t height = 0;
        for (TreeIndex a = static_cast<TreeIndex>(s); a != kNoNode; a = tree[a].parent, ++height)
            for (const TreeIndex c : children)
                if (a == c && height + 1 > below) below = height + 1;
    }
    if (tree[parent].depth + 1 + below > kMaxDepth)
        fail(Format("{}: states would nest more than {} deep", call, kMaxDepth));
    tree[parent].initial = children.front();
    tree[parent].slot = slot;
    for (const TreeIndex c : children) tree[c].parent = parent;
    // Depths follow from the parents.
    for (std::size_t s = 0; s < tree.size(); ++s) {
        std::uint8_t depth = 0;
        for (TreeIndex a = tree[s].parent; a != kNoNode; a = tree[a].parent) ++depth;
        tree[s].depth = depth;
    }
}

void RefusePassThroughComposite(std::string_view name, std::string_view call, void (*fail)(std::string_view)) {
    fail(Format("{}: {} is a pass-through state (SetPassThrough) and would hold substates or regions; a "
                "pass-through state is a leaf: mark the substate it enters pass-through instead (its transitions "
                "are tried with its parents')",
                call, name));
}

void SetRegionsOf(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex parallel,
                  std::span<const TreeIndex> regions, std::span<const std::uint32_t> lanes, bool keyed,
                  void (*fail)(std::string_view)) {
    auto list = [&] {
        std::string text;
        for (const TreeIndex r : regions) {
            if (!text.empty()) text += ", ";
            text += names[r];
        }
        return text;
    };
    const std::string_view p = names[parallel];
    const std::string call = CallText("SetRegions", p, list(), keyed);
    if (tree[parallel].first_region != kNoNode)
        fail(Format("{}: {} holds regions already (its first is {}); give a state all its regions "
                    "in one SetRegions",
                    call, p, names[tree[parallel].first_region]));
    if (tree[parallel].initial != kNoNode)
        fail(Format("{}: {} holds substates (its initial substate is {}); a state holds either "
                    "substates or regions: make those substates one region",
                    call, p, names[tree[parallel].initial]));
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const TreeIndex r = regions[i];
        for (std::size_t j = 0; j < i; ++j)
            if (regions[j] == r) fail(Format("{}: {} is listed twice", call, names[r]));
        if (Holds(tree, r, parallel))
            fail(Format("{}: {} would be its own ancestor ({} is {} or holds it)", call,
                        names[r], names[r], p));
        if (tree[r].parent != kNoNode)
            fail(Format("{}: {} is a substate of {} already; a region is a state of its own, with "
                        "no parent but its parallel state",
                        call, names[r], names[tree[r].parent]));
        if (tree[r].owner != kNoNode)
            fail(Format("{}: {} is a region of {} already; a state has one parent", call,
                        names[r], names[tree[r].owner]));
    }
    tree[parallel].first_region = regions.front();
    for (std::size_t i = 0; i < regions.size(); ++i) {
        TreeNode& node = tree[regions[i]];
        node.owner = parallel;
        node.lane = lanes[i];
        node.next_region = i + 1 < regions.size() ? regions[i + 1] : kNoNode;
    }
}

void SetHistoryOf(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex state, History history,
                  bool keyed, void (*fail)(std::string_view)) {
    if (tree[state].initial == kNoNode)
        fail(Format(keyed ? "SetHistory({}): {} has no substates; give it substates first (SetSubstates({}, {{...}}))"
                          : "SetHistory<{}>(): {} has no substates; give it substates first (SetSubstates<{}, ...>())",
                    names[state], names[state], names[state]));
    tree[state].history = history;
}

} // namespace tickfsm::detail
