#pragma once
// Nested states: which state holds which. A machine's states form a forest;
// the active states are one leaf and its ancestors, so a character keeps only
// its leaf (Runtime::state) and, per composite state, the slot below in its
// data: the composite's ticks and the leaf it last held (history).
//
// A parallel state's regions are lanes: each region is the root of a tree of
// its own (its `parent` is kNoNode; `owner` names the parallel state), with
// its own Runtime in the character's data. Walks along `parent` therefore stay
// in one lane, and every rule of a flat or nested machine applies to a region
// unchanged; the parallel state itself is a leaf of the lane that holds it.
// Everything here works on state indices alone, compiled once in lib/tree.cpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "../text.hpp"
#include "runtime.hpp"

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

/// No per-character slot (a composite's history slot before SetHistory).
inline constexpr std::uint32_t kNoSlot = UINT32_MAX;

/// A state's place in the tree.
struct TreeNode {
    TreeIndex parent = kNoNode;
    TreeIndex initial = kNoNode; // its initial substate; kNoNode for a leaf
    History history = History::None;
    std::uint8_t depth = 0;      // 0 at the top of its lane
    TreeIndex owner = kNoNode;   // a region: the parallel state that holds it
    TreeIndex first_region = kNoNode; // a parallel state: its first region (then each region's next_region)
    TreeIndex next_region = kNoNode;  // a region: the next region of its parallel state, in the order written
    std::uint32_t slot = 0;      // composites: offset of their CompositeSlot in a character's data
    std::uint32_t history_slot = kNoSlot; // composites given SetHistory: offset of their HistorySlot
    std::uint32_t lane = 0;      // a region: offset of its Runtime in a character's data
};

/// Per character and composite state: what the composite needs beyond its state object.
struct CompositeSlot {
    std::uint32_t ticks = 0; // ticks since the composite was entered
};
/// Per character and composite state given SetHistory: kept apart from its
/// CompositeSlot, so that a composite without history costs 4 bytes.
struct HistorySlot {
    TreeIndex last = kNoNode; // the leaf active when it was last exited
};

/// One state buried by a push: the leaf it had and its ticks.
struct Buried {
    std::uint32_t ticks = 0;
    TreeIndex leaf = kNoNode;
    std::uint16_t padding = 0; // written, so that a snapshot's bytes are the same in every run
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
/// The HistorySlot of a composite given SetHistory (node.history_slot != kNoSlot).
inline HistorySlot& HistoryOf(const TreeNode& node, std::byte* data) noexcept {
    return *reinterpret_cast<HistorySlot*>(data + node.history_slot);
}

/// The Runtime of region `region` (a node with an owner) in a character's data.
inline Runtime& LaneOf(const TreeNode& region, std::byte* data) noexcept {
    return *reinterpret_cast<Runtime*>(data + region.lane);
}
inline const Runtime& LaneOf(const TreeNode& region, const std::byte* data) noexcept {
    return *reinterpret_cast<const Runtime*>(data + region.lane);
}

/// Whether `ancestor` is `state` or one of its ancestors within its lane.
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

/// The region (the root of a lane) that holds `state`; kNoNode in the machine's own lane.
TreeIndex RegionOf(std::span<const TreeNode> tree, TreeIndex state) noexcept;

/// Whether lane `outer` (a region, or kNoNode for the machine's own) is lane
/// `inner` or holds it: a change asked for in `inner` may go to `outer`.
bool LaneEncloses(std::span<const TreeNode> tree, TreeIndex outer, TreeIndex inner) noexcept;

/// A transition as the lane check sees it (`from` kNoNode: an any-state one).
struct LaneEdge {
    TreeIndex from;
    TreeIndex to;
};
/// The mistake a ConfigError names, or empty: the first transition that
/// enters a region from outside it (rather than entering its parallel
/// state), or an initial state inside a region (`initial_keyed`: it was
/// set by key, SetInitialState(key), and the message spells the call so).
Text CheckLaneEdges(std::span<const TreeNode> tree, std::span<const std::string_view> names,
                    std::span<const LaneEdge> edges, TreeIndex initial, bool initial_keyed);

/// Whether `state` is active while `leaf` is the machine's own leaf: in its
/// lane's active path, every parallel state above it being active too.
bool IsActive(std::span<const TreeNode> tree, const std::byte* data, TreeIndex leaf, TreeIndex state) noexcept;

/// Whether `outer` is `inner` or holds it, across regions: a parallel state holds its regions.
bool Holds(std::span<const TreeNode> tree, TreeIndex outer, TreeIndex inner) noexcept;

/// Writes the active states, outermost first: `leaf`'s path, then each region
/// of a parallel state in order, depth first; the first `skip` are passed
/// over, and those beyond out.size() are counted, not written. Returns how
/// many states are active.
std::size_t ActiveStatesOf(std::span<const TreeNode> tree, const std::byte* data, TreeIndex leaf,
                           std::span<TreeIndex> out, std::size_t skip = 0) noexcept;

/// "Combat/Attack": the names of the active path, outermost first; a parallel
/// state's regions follow it in braces: "Alive/{Legs/Run, Arms/Aim}".
Text PathText(std::span<const TreeNode> tree, std::span<const std::string_view> names, TreeIndex leaf,
                     const std::byte* data);

/// The CompositeSlot offset a state about to hold substates can share: that
/// of a sibling (another substate of its parent) holding substates already,
/// since one parent's substates are never active together; kNoSlot if none.
std::uint32_t SiblingSlot(std::span<const TreeNode> tree, TreeIndex state) noexcept;

/// Gives each composite that shares its CompositeSlot with an earlier one a
/// slot of its own, placed by `place` (a push stack buries a state with its
/// ancestors' counters, so a sibling entered meanwhile must not reuse them).
/// Returns how many there are; with a null `place`, changes nothing.
std::size_t UnshareSlots(std::span<TreeNode> tree, std::uint32_t (*place)(void*), void* table);

/// Makes `children` the substates of `parent`, the first its initial
/// substate; a ConfigError (through `fail`) names the states if that would
/// make a state its own ancestor, put a state under two parents, give
/// `parent` substates twice, or nest deeper than kMaxDepth (`keyed`: the
/// message spells the call with keys). Nothing changes on an error.
void SetChildren(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex parent,
                 std::span<const TreeIndex> children, std::uint32_t slot, bool keyed, void (*fail)(std::string_view));

/// Makes `regions` the regions of `parallel`, in that order, each with its
/// Runtime at `lanes[i]` in a character's data; a ConfigError (through `fail`)
/// names the states if `parallel` holds substates or regions already, a region
/// holds `parallel`, or a region has a parent or an owner already. Nothing
/// changes on an error.
void SetRegionsOf(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex parallel,
                  std::span<const TreeIndex> regions, std::span<const std::uint32_t> lanes, bool keyed,
                  void (*fail)(std::string_view));

/// A ConfigError (through `fail`): `name`, a pass-through state, would hold
/// substates or regions (`call` the configuration call that found it).
/// A pass-through state is a leaf: its re-tried transitions are its active
/// path's, so marking the composite's initial substate does what was meant.
void RefusePassThroughComposite(std::string_view name, std::string_view call, void (*fail)(std::string_view));

/// Sets the history of `state`, a composite (a ConfigError otherwise).
void SetHistoryOf(std::span<TreeNode> tree, std::span<const std::string_view> names, TreeIndex state, History history,
                  bool keyed, void (*fail)(std::string_view));

} // namespace tickfsm::detail
