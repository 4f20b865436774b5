// Nested states by index: the walks of detail/tree.hpp, compiled once.

#include <tickfsm/detail/format.hpp>
#include <tickfsm/detail/tree.hpp>

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
        const TreeIndex last = reinterpret_cast<const CompositeSlot*>(data + node.slot)->last;
        const bool remembered = node.history != History::None && last != kNoNode && IsWithin(tree, last, s);
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

std::string PathText(std::span<const TreeNode> tree, std::span<const std::string_view> names, TreeIndex leaf) {
    if (leaf == kNoNode) return {};
    TreeIndex path[kMaxDepth];
    const std::size_t n = ActivePathOf(tree, leaf, path);
    std::string text;
    for (std::size_t i = 0; i < n; ++i) {
        if (i) text += '/';
        text += names[path[i]];
    }
    return text;
}

void SetChildren(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex parent,
                 std::span<const TreeIndex> children, std::uint32_t slot, void (*fail)(std::string_view)) {
    auto list = [&] {
        std::string text;
        for (const TreeIndex c : children) {
            if (!text.empty()) text += ", ";
            text += names[c];
        }
        return text;
    };
    const std::string_view p = names[parent];
    if (tree[parent].initial != kNoNode)
        fail(Format("SetSubstates<{}, {}>(): {} holds substates already (its initial substate is {}); give a state "
                    "all its substates in one SetSubstates",
                    p, list(), p, names[tree[parent].initial]));
    for (std::size_t i = 0; i < children.size(); ++i) {
        const TreeIndex c = children[i];
        for (std::size_t j = 0; j < i; ++j)
            if (children[j] == c)
                fail(Format("SetSubstates<{}, {}>(): {} is listed twice", p, list(), names[c]));
        if (IsWithin(tree, parent, c))
            fail(Format("SetSubstates<{}, {}>(): {} would be its own ancestor ({} is {} or holds it)", p, list(),
                        names[c], names[c], p));
        if (tree[c].parent != kNoNode)
            fail(Format("SetSubstates<{}, {}>(): {} is a substate of {} already; a state has one parent", p, list(),
                        names[c], names[tree[c].parent]));
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
        fail(Format("SetSubstates<{}, {}>(): states would nest more than {} deep", p, list(), kMaxDepth));
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

void SetHistoryOf(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex state, History history,
                  void (*fail)(std::string_view)) {
    if (tree[state].initial == kNoNode)
        fail(Format("SetHistory<{}>(): {} has no substates; give it substates first (SetSubstates<{}, ...>())",
                    names[state], names[state], names[state]));
    tree[state].history = history;
}

} // namespace tickfsm::detail
