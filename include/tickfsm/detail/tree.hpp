#pragma once
// Nested states: which state holds which. A machine's states form a forest;
// the active states are always one leaf and its ancestors, so a character
// keeps only its leaf (Runtime::state) and, per composite state, the slot
// below in its data: the composite's ticks and the leaf it last held (history).
// Everything here works on state indices alone, compiled once in lib/tree.cpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tickfsm {

/// What a composite state re-enters (SetHistory<S>(...)): its initial substate
/// (None), the substate it held last (Shallow), or the whole path it held last (Deep).
enum class History : std::uint8_t { None, Shallow, Deep };

} // namespace tickfsm

namespace tickfsm::detail {

using TreeIndex = std::uint16_t;
inline constexpr TreeIndex kNoNode = 0xFFFF;

/// The deepest nesting a machine accepts: entering walks a path this long on the stack.
inline constexpr std::size_t kMaxDepth = 16;

/// A state's place in the tree.
struct TreeNode {
    TreeIndex parent = kNoNode;
    TreeIndex initial = kNoNode; // its initial substate; kNoNode for a leaf
    History history = History::None;
    std::uint8_t depth = 0;      // 0 at the top level
    std::uint32_t slot = 0;      // composites: offset of their CompositeSlot in a character's data
};

/// Per character and composite state: what the composite needs beyond its state object.
struct CompositeSlot {
    std::uint32_t ticks = 0;  // ticks since the composite was entered
    TreeIndex last = kNoNode; // the leaf active when it was last exited (history)
};

/// One state buried by a push: the leaf it had and its ticks.
struct Buried {
    std::uint32_t ticks = 0;
    TreeIndex leaf = kNoNode;
};
/// Per character, with SetPushCapacity<N>(): the states buried by pushes, the last on top.
template <std::size_t N>
struct PushStack {
    std::uint32_t count = 0;
    Buried entries[N];
};
/// The stack's count and entries, whatever its capacity (every PushStack<N>
/// lays them out alike: the count first, the entries from kBuriedOffset).
inline constexpr std::size_t kBuriedOffset = sizeof(std::uint32_t);
inline std::uint32_t& BuriedCount(std::byte* data, std::uint32_t offset) noexcept {
    return *reinterpret_cast<std::uint32_t*>(data + offset);
}
inline Buried* BuriedEntries(std::byte* data, std::uint32_t offset) noexcept {
    return reinterpret_cast<Buried*>(data + offset + kBuriedOffset);
}

inline CompositeSlot& SlotOf(const TreeNode& node, std::byte* data) noexcept {
    return *reinterpret_cast<CompositeSlot*>(data + node.slot);
}

/// Whether `ancestor` is `state` or one of its ancestors.
inline bool IsWithin(std::span<const TreeNode> tree, TreeIndex state, TreeIndex ancestor) noexcept {
    for (TreeIndex s = state; s != kNoNode; s = tree[s].parent)
        if (s == ancestor) return true;
    return false;
}

/// The deepest state that stays active when the machine goes from `leaf` to
/// `target`: the deepest active state that is a proper ancestor of `target`
/// (kNoNode if none). Every active state below it is exited; every state
/// below it down to `target` is entered.
TreeIndex ChangeBase(std::span<const TreeNode> tree, TreeIndex leaf, TreeIndex target) noexcept;

/// The states to enter, outermost first, to go from below `base` down to
/// `target` and then on to a leaf by each composite's initial substate or
/// history (read from `data`). Returns how many were written to `out`.
std::size_t EntryPath(std::span<const TreeNode> tree, TreeIndex base, TreeIndex target, const std::byte* data,
                      TreeIndex (&out)[kMaxDepth]) noexcept;

/// The active path of `leaf`, outermost first. Returns its length.
std::size_t ActivePathOf(std::span<const TreeNode> tree, TreeIndex leaf, TreeIndex (&out)[kMaxDepth]) noexcept;

/// "Combat/Attack": the names of the active path, outermost first.
std::string PathText(std::span<const TreeNode> tree, std::span<const std::string_view> names, TreeIndex leaf);

/// Makes `children` the substates of `parent`, the first its initial
/// substate; a ConfigError (through `fail`) names the states if that would
/// make a state its own ancestor, put a state under two parents, give
/// `parent` substates twice, or nest deeper than kMaxDepth. Nothing changes
/// on an error.
void SetChildren(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex parent,
                 std::span<const TreeIndex> children, std::uint32_t slot, void (*fail)(std::string_view));

/// Sets the history of `state`, a composite (a ConfigError otherwise).
void SetHistoryOf(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex state, History history,
                  void (*fail)(std::string_view));

} // namespace tickfsm::detail
