#pragma once
// tickfsm::Snapshot: a machine's or a crowd's whole state as bytes (Save,
// Restore), and the writer and reader a state with data that is not
// trivially copyable uses to save and load itself. What they do is compiled
// once, in lib/snapshot.cpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "list.hpp"
#include "text.hpp"

namespace tickfsm {

namespace detail {
struct SnapshotAccess;
} // namespace detail

/// What StateManager::Save() and Crowd::Save() return: the active states
/// (paths, regions and push stack), ticks, the previous state, a waiting
/// NextState request, the global state, history and every state's and
/// action's data, with a fingerprint of the configuration they came from.
/// Controllers are not in it: they are the game's.
///
/// Bytes() is what to write to a file or send; FromBytes() reads it back. The
/// bytes are versioned, checksummed and in the machine's own byte order: a
/// snapshot is read by the same build of the game on the same kind of machine.
class Snapshot {
public:
    Snapshot() = default;

    /// The snapshot as bytes: a header (version, fingerprint, sizes,
    /// checksum), the state names of its configuration, then the payload.
    std::span<const std::byte> Bytes() const noexcept { return bytes; }

    /// Reads bytes that Bytes() gave into `out` (reusing its memory). Returns
    /// false, leaving `out` as it was and the reason in `error` (if given),
    /// when they are not a snapshot, are truncated or corrupted, or come
    /// from another version of the format. A snapshot read this way is
    /// checked against the machine again by Restore.
    static bool FromBytes(std::span<const std::byte> bytes, Snapshot& out, Text* error = nullptr);

    /// The fingerprint of the configuration it came from (0 if empty).
    std::uint64_t Fingerprint() const noexcept;
    /// How many characters it holds (1 for a StateManager's; 0 if empty).
    std::size_t Characters() const noexcept;
    bool Empty() const noexcept { return bytes.empty(); }

    friend bool operator==(const Snapshot& a, const Snapshot& b) noexcept;

private:
    friend struct detail::SnapshotAccess;
    List<std::byte> bytes;
};

/// Given to a state's `void Save(tickfsm::SnapshotWriter&) const` hook:
/// append what Load will read back, in the same order.
class SnapshotWriter {
public:
    /// Appends `size` bytes.
    void Write(const void* data, std::size_t size);
    /// Appends a value of a trivially copyable type.
    template <class T>
        requires std::is_trivially_copyable_v<T>
    void Write(const T& value) {
        Write(&value, sizeof(T));
    }
    /// Appends a string: its length, then its characters.
    void Write(std::string_view text);

private:
    friend struct detail::SnapshotAccess;
    explicit SnapshotWriter(List<std::byte>& to) noexcept : out(&to) {}
    List<std::byte>* out;
};

/// Given to a state's `void Load(tickfsm::SnapshotReader&)` hook: read back
/// what its Save wrote. Reading past it is a ConfigError naming the state.
class SnapshotReader {
public:
    /// Reads `size` bytes into `data`.
    void Read(void* data, std::size_t size);
    /// Reads a value of a trivially copyable type.
    template <class T>
        requires std::is_trivially_copyable_v<T>
    T Read() {
        T value;
        Read(&value, sizeof(T));
        return value;
    }
    /// Reads a string written by SnapshotWriter::Write(std::string_view).
    Text ReadString();
    /// How many of its bytes are left to read.
    std::size_t Left() const noexcept { return bytes.size() - at; }

private:
    friend struct detail::SnapshotAccess;
    SnapshotReader(std::span<const std::byte> from, std::string_view owner, void (*refuse)(std::string_view)) noexcept
        : bytes(from), name(owner), fail(refuse) {}
    [[noreturn]] void Overrun(std::size_t size) const;
    std::span<const std::byte> bytes;
    std::size_t at = 0;
    std::string_view name;              // the state or action whose Load reads
    void (*fail)(std::string_view);     // the restoring machine's or crowd's refusal, which names it
};

namespace detail {

/// What the snapshot code needs of a state's or an action's data: Save and
/// Load hooks, both or neither.
template <class T>
concept SavesItself = requires(const T& object, T& target, SnapshotWriter& writer, SnapshotReader& reader) {
    object.Save(writer);
    target.Load(reader);
};
template <class T>
concept HasSaveOrLoad = requires(const T& object, SnapshotWriter& writer) { object.Save(writer); } ||
                        requires(T& target, SnapshotReader& reader) { target.Load(reader); };

} // namespace detail
} // namespace tickfsm
