#pragma once
// How machines and crowds write and read snapshots: the header, the
// configuration's layout, one character's record. Compiled once in
// lib/snapshot.cpp; a StateManager or a Crowd hands over its table's layout
// and its characters' Runtime, requests and data.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "../list.hpp"
#include "../snapshot.hpp"
#include "runtime.hpp"
#include "tree.hpp"

namespace tickfsm::detail {

struct DataItem;

/// What a DataItem is to a snapshot's checks: a state's or an action's
/// object, or one of the machine's own records, whose every field Restore
/// checks before use.
enum class ItemRole : std::uint8_t { Object, Composite, Lane, History, Stack };

/// What a snapshot of one kind of machine holds per character, from its table.
struct SnapshotLayout {
    std::span<const std::string_view> names; // the states, by id
    const DataItem* items = nullptr;         // every per-character copy, in order
    std::size_t item_count = 0;
    std::uint32_t data_size = 0;
    std::uint64_t fingerprint = 0;
    std::span<const TreeNode> tree;       // which state holds which
    std::span<const std::uint8_t> slow;   // per state: 1 if its tick runs on the general path
    std::uint32_t stack_capacity = 0;     // the push stack's N (0: none)
    float dt = 0;                         // the fixed delta time
};

/// What a snapshot says it holds.
enum class SnapshotKind : std::uint16_t {
    Machine = 1,   // a StateManager
    Crowd = 2,     // every character of a Crowd
    Character = 3, // one character of a Crowd
};

/// The fingerprint of a configuration: its character type, states, data
/// layout and `shape` (the table's tree and transitions, hashed by the caller).
std::uint64_t Fingerprint(std::string_view character, const SnapshotLayout& layout, std::uint64_t shape) noexcept;

/// FNV-1a over `bytes`, on from `hash`.
std::uint64_t HashBytes(const void* bytes, std::size_t size, std::uint64_t hash = 14695981039346656037ull) noexcept;

/// A ConfigError (through `fail`) names the first state or action whose data
/// a snapshot cannot keep: neither trivially copyable nor with Save/Load hooks.
void CheckSavable(const SnapshotLayout& layout, void (*fail)(std::string_view));

/// Starts `out` (its memory reused): the header with `count` characters and the layout's names.
void BeginSnapshot(List<std::byte>& out, const SnapshotLayout& layout, SnapshotKind kind, std::uint32_t count);
/// Room for `more` bytes after what `out` holds.
void ReserveMore(List<std::byte>& out, std::size_t more);
/// Appends raw bytes to the payload.
void AppendBytes(List<std::byte>& out, const void* bytes, std::size_t size);
/// Appends one character's record: its Runtime, requests and data.
void WriteCharacter(List<std::byte>& out, const SnapshotLayout& layout, const Runtime& rt, StateIndex next,
                    StateIndex previous, const std::byte* data);
/// Writes the payload's size and checksum into the header.
void EndSnapshot(List<std::byte>& out);

/// Where a snapshot's payload is read from.
struct SnapshotCursor {
    const std::byte* at = nullptr;
    const std::byte* end = nullptr;
};

/// Checks that `bytes` is a snapshot of `kind` with `count` characters (any
/// count if `count` is kAnyCount) of the configuration `layout` describes; a
/// ConfigError (through `fail`) names what differs: the kind, the count, a
/// state, the data. Returns the payload.
inline constexpr std::uint32_t kAnyCount = 0xFFFFFFFF;
SnapshotCursor OpenSnapshot(std::span<const std::byte> bytes, const SnapshotLayout& layout, SnapshotKind kind,
                            std::uint32_t count, void (*fail)(std::string_view));
/// Takes `size` raw bytes from the payload (a ConfigError if it has fewer).
const std::byte* TakeBytes(SnapshotCursor& cursor, std::size_t size, void (*fail)(std::string_view));
/// Checks one character's record (its Runtime and the machine's own records
/// with CheckRuntime and CheckItem, data lengths) and moves past it,
/// changing nothing; `crowd`: a crowd's character, whose flags must send a
/// state that runs on the general path there (kSlow).
void CheckCharacter(SnapshotCursor& cursor, const SnapshotLayout& layout, bool crowd,
                    void (*fail)(std::string_view));
/// Checks a character's Runtime, NextState request and previous state read
/// from a snapshot: state ids in range, flags Save writes, a started
/// character's state a leaf of the machine's own lane (`crowd`: see CheckCharacter).
void CheckRuntime(const SnapshotLayout& layout, const Runtime& rt, StateIndex next, StateIndex previous,
                  bool crowd, void (*fail)(std::string_view));
/// Checks one of the machine's own records read from a snapshot (`bytes`,
/// `item.size` of them, not aligned): a region's Runtime, a history slot, the
/// push stack. A state's or an action's object passes.
void CheckItem(const SnapshotLayout& layout, const DataItem& item, const std::byte* bytes,
               void (*fail)(std::string_view));
/// Reads one character's record, checked before by CheckCharacter: its data
/// is copied or loaded into the objects at `data`. A Load hook that reads
/// more or less than its Save wrote is refused through `fail`.
void ReadCharacter(SnapshotCursor& cursor, const SnapshotLayout& layout, Runtime& rt, StateIndex& next,
                   StateIndex& previous, std::byte* data, void (*fail)(std::string_view));
/// Whether a state id read from a snapshot names a state of `layout` (or none).
inline bool ValidState(const SnapshotLayout& layout, StateIndex id) noexcept {
    return id == kNoState || id < layout.names.size();
}

struct SnapshotAccess {
    static List<std::byte>& Bytes(Snapshot& s) noexcept { return s.bytes; }
    static const List<std::byte>& Bytes(const Snapshot& s) noexcept { return s.bytes; }
    static SnapshotWriter Writer(List<std::byte>& out) noexcept { return SnapshotWriter(out); }
    static SnapshotReader Reader(std::span<const std::byte> from, std::string_view owner,
                                 void (*fail)(std::string_view)) noexcept {
        return SnapshotReader(from, owner, fail);
    }
};

} // namespace tickfsm::detail
