// Snapshots: the header, the layout of a configuration, one character's
// record, and the checks that refuse a snapshot of another configuration or
// bytes that are not one. Compiled once; see detail/snapshot_io.hpp.

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include <tickfsm/config_error.hpp>
#include "format_text.hpp"
#include <tickfsm/detail/snapshot_io.hpp>
#include <tickfsm/detail/table.hpp>

namespace tickfsm {

namespace {

// The header, in the machine's byte order:
//   0 magic "TFSM"   4 version   6 kind   8 fingerprint   16 characters
//   20 layout bytes  24 payload bytes   28 fixed_dt (float)   32 checksum of the rest
// then the layout (data bytes per character, the state count, each state's
// name as a 16-bit length and its characters), then the payload.
constexpr std::uint32_t kMagic = 0x4D534654; // "TFSM" read as a little-endian word
constexpr std::uint16_t kVersion = 3;
constexpr std::size_t kHeaderSize = 40;
constexpr std::size_t kKindAt = 6, kFingerprintAt = 8, kCountAt = 16, kLayoutAt = 20, kPayloadAt = 24,
                      kDtAt = 28, kChecksumAt = 32;

template <class T>
T Get(const std::byte* at) noexcept {
    T value;
    std::memcpy(&value, at, sizeof(T));
    return value;
}
template <class T>
void Put(List<std::byte>& out, T value) {
    const auto* bytes = reinterpret_cast<const std::byte*>(&value);
    out.insert(out.end(), bytes, bytes + sizeof(T));
}
template <class T>
void PutAt(List<std::byte>& out, std::size_t at, T value) noexcept {
    std::memcpy(out.data() + at, &value, sizeof(T));
}

// A checksum over 32 bytes at a time in four independent lanes, so that a
// crowd's snapshot is sealed at close to the speed of copying it; it finds
// corruption, not attacks.
std::uint64_t Checksum(const std::byte* bytes, std::size_t size) noexcept {
    constexpr std::uint64_t kPrime = 0x100000001B3ull;
    std::uint64_t lane[4] = {0x9E3779B97F4A7C15ull ^ size, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                             0x27D4EB2F165667C5ull};
    std::size_t i = 0;
    for (; i + 32 <= size; i += 32)
        for (std::size_t k = 0; k < 4; ++k) lane[k] = (lane[k] ^ Get<std::uint64_t>(bytes + i + 8 * k)) * kPrime;
    std::uint64_t hash = lane[0] ^ (lane[1] << 1) ^ (lane[2] << 2) ^ (lane[3] << 3);
    for (; i < size; ++i) hash = (hash ^ static_cast<std::uint64_t>(bytes[i])) * kPrime;
    return hash ^ (hash >> 29);
}

// The seal of a whole snapshot: the checksum of everything but itself.
std::uint64_t Seal(const std::byte* base, std::size_t size) noexcept {
    return detail::HashBytes(base, kChecksumAt, Checksum(base + kHeaderSize, size - kHeaderSize));
}

// Whether a layout's `size` bytes at `at` are well formed: the two counts,
// then as many names as the second says, ending exactly at its end.
bool LayoutWellFormed(const std::byte* at, std::size_t size) noexcept {
    if (size < 8) return false;
    const std::uint32_t states = Get<std::uint32_t>(at + 4);
    std::size_t used = 8;
    for (std::uint32_t i = 0; i < states; ++i) {
        if (size - used < 2) return false;
        const std::size_t length = Get<std::uint16_t>(at + used);
        used += 2;
        if (size - used < length) return false;
        used += length;
    }
    return used == size;
}

// A tick rate as a message shows it, to two decimals.
double Hz(float dt) noexcept { return std::round(100.0 / static_cast<double>(dt)) / 100.0; }

std::string_view KindName(std::uint16_t kind) noexcept {
    switch (kind) {
    case 1: return "a StateManager";
    case 2: return "a whole Crowd";
    case 3: return "one character of a Crowd";
    default: return "an unknown kind";
    }
}

} // namespace

bool operator==(const Snapshot& a, const Snapshot& b) noexcept { return a.bytes == b.bytes; }

void SnapshotWriter::Write(const void* data, std::size_t size) {
    const auto* from = static_cast<const std::byte*>(data);
    out->insert(out->end(), from, from + size);
}

void SnapshotWriter::Write(std::string_view text) {
    const auto size = static_cast<std::uint32_t>(text.size());
    Write(size);
    Write(text.data(), text.size());
}

void SnapshotReader::Read(void* data, std::size_t size) {
    if (size > bytes.size() - at) Overrun(size);
    std::memcpy(data, bytes.data() + at, size);
    at += size;
}

Text SnapshotReader::ReadString() {
    const auto size = Read<std::uint32_t>();
    if (size > bytes.size() - at) Overrun(size);
    Text text(std::string_view(reinterpret_cast<const char*>(bytes.data() + at), size));
    at += size;
    return text;
}

void SnapshotReader::Overrun(std::size_t size) const {
    fail(detail::Format("Restore(): the Load of {} reads {} bytes more than its Save wrote ({} left); read what "
                        "Save wrote, in the same order",
                        name, size, bytes.size() - at));
    std::abort(); // fail throws or aborts
}

std::uint64_t Snapshot::Fingerprint() const noexcept {
    return bytes.size() < kHeaderSize ? 0 : Get<std::uint64_t>(bytes.data() + kFingerprintAt);
}

std::size_t Snapshot::Characters() const noexcept {
    return bytes.size() < kHeaderSize ? 0 : Get<std::uint32_t>(bytes.data() + kCountAt);
}

bool Snapshot::FromBytes(std::span<const std::byte> from, Snapshot& out, Text* error) {
    auto refuse = [&](std::string_view why) {
        if (error) *error = Text(why);
        return false;
    };
    if (from.size() < kHeaderSize || Get<std::uint32_t>(from.data()) != kMagic)
        return refuse("tickfsm: Snapshot::FromBytes: these bytes are not a tickfsm snapshot");
    const auto version = Get<std::uint16_t>(from.data() + 4);
    if (version != kVersion)
        return refuse(detail::Format("tickfsm: Snapshot::FromBytes: the snapshot is of format version {}; this "
                                     "build reads version {}",
                                     version, kVersion));
    const std::size_t layout = Get<std::uint32_t>(from.data() + kLayoutAt);
    const std::size_t payload = Get<std::uint32_t>(from.data() + kPayloadAt);
    if (from.size() != kHeaderSize + layout + payload)
        return refuse(detail::Format("tickfsm: Snapshot::FromBytes: the snapshot is {} bytes long and says {}: it "
                                     "was cut short or run on",
                                     from.size(), kHeaderSize + layout + payload));
    if (Seal(from.data(), from.size()) != Get<std::uint64_t>(from.data() + kChecksumAt))
        return refuse("tickfsm: Snapshot::FromBytes: the snapshot's checksum does not match: its bytes were changed");
    if (!LayoutWellFormed(from.data() + kHeaderSize, layout))
        return refuse("tickfsm: Snapshot::FromBytes: the snapshot's list of states is not well formed: these bytes "
                      "were not written by Save()");
    out.bytes.assign(from.begin(), from.end());
    return true;
}

namespace detail {

std::uint64_t HashBytes(const void* bytes, std::size_t size, std::uint64_t hash) noexcept {
    const auto* p = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ p[i]) * 0x100000001B3ull;
    return hash;
}

std::uint64_t Fingerprint(std::string_view character, const SnapshotLayout& layout, std::uint64_t shape) noexcept {
    std::uint64_t hash = HashBytes(character.data(), character.size());
    hash = HashBytes(&layout.data_size, sizeof(layout.data_size), hash);
    for (std::string_view name : layout.names) {
        hash = HashBytes(name.data(), name.size(), hash);
        hash = HashBytes("/", 1, hash);
    }
    for (std::size_t i = 0; i < layout.item_count; ++i) {
        const DataItem& item = layout.items[i];
        const std::uint32_t facts[] = {item.offset, item.size, static_cast<std::uint32_t>(item.kept)};
        hash = HashBytes(facts, sizeof(facts), hash);
        hash = HashBytes(item.type.data(), item.type.size(), hash);
    }
    return HashBytes(&shape, sizeof(shape), hash);
}

void CheckSavable(const SnapshotLayout& layout, void (*fail)(std::string_view)) {
    for (std::size_t i = 0; i < layout.item_count; ++i)
        if (layout.items[i].kept == Kept::No)
            fail(Format("Save(): {} holds data that is not trivially copyable and has no snapshot hooks; give it "
                        "void Save(tickfsm::SnapshotWriter&) const and void Load(tickfsm::SnapshotReader&)",
                        layout.items[i].type));
}

void BeginSnapshot(List<std::byte>& out, const SnapshotLayout& layout, SnapshotKind kind,
                   std::uint32_t count) {
    out.clear();
    out.resize(kHeaderSize);
    PutAt(out, 0, kMagic);
    PutAt(out, 4, kVersion);
    PutAt(out, kKindAt, static_cast<std::uint16_t>(kind));
    PutAt(out, kFingerprintAt, layout.fingerprint);
    PutAt(out, kCountAt, count);
    PutAt(out, kDtAt, layout.dt);
    Put(out, layout.data_size);
    Put(out, static_cast<std::uint32_t>(layout.names.size()));
    for (std::string_view name : layout.names) {
        Put(out, static_cast<std::uint16_t>(name.size()));
        AppendBytes(out, name.data(), name.size());
    }
    PutAt(out, kLayoutAt, static_cast<std::uint32_t>(out.size() - kHeaderSize));
}

void ReserveMore(List<std::byte>& out, std::size_t more) { out.reserve(out.size() + more); }

void AppendBytes(List<std::byte>& out, const void* bytes, std::size_t size) {
    const auto* from = static_cast<const std::byte*>(bytes);
    out.insert(out.end(), from, from + size);
}

void WriteCharacter(List<std::byte>& out, const SnapshotLayout& layout, const Runtime& rt, StateIndex next,
                    StateIndex previous, const std::byte* data) {
    Put(out, rt.state);
    Put(out, rt.flags);
    Put(out, rt.ticks);
    Put(out, next);
    Put(out, previous);
    for (std::size_t i = 0; i < layout.item_count; ++i) {
        const DataItem& item = layout.items[i];
        if (item.kept == Kept::Bytes) {
            AppendBytes(out, data + item.offset, item.size);
            continue;
        }
        const std::size_t length_at = out.size();
        Put(out, std::uint32_t{0});
        SnapshotWriter writer = SnapshotAccess::Writer(out);
        item.save(data + item.offset, writer);
        PutAt(out, length_at, static_cast<std::uint32_t>(out.size() - length_at - sizeof(std::uint32_t)));
    }
}

void EndSnapshot(List<std::byte>& out) {
    const std::size_t layout = Get<std::uint32_t>(out.data() + kLayoutAt);
    PutAt(out, kPayloadAt, static_cast<std::uint32_t>(out.size() - kHeaderSize - layout));
    PutAt(out, kChecksumAt, Seal(out.data(), out.size()));
}

SnapshotCursor OpenSnapshot(std::span<const std::byte> bytes, const SnapshotLayout& layout, SnapshotKind kind,
                            std::uint32_t count, void (*fail)(std::string_view)) {
    if (bytes.size() < kHeaderSize) fail("Restore(): the snapshot is empty; Save() or Snapshot::FromBytes() fills one");
    const std::byte* base = bytes.data();
    const auto saved_kind = Get<std::uint16_t>(base + kKindAt);
    if (saved_kind != static_cast<std::uint16_t>(kind))
        fail(Format("Restore(): the snapshot is of {}, and this is {}", KindName(saved_kind),
                    KindName(static_cast<std::uint16_t>(kind))));
    const auto saved_dt = Get<float>(base + kDtAt);
    if (saved_dt != layout.dt)
        fail(Format("Restore(): the snapshot was saved by a machine ticking at {} Hz and this one ticks at {} Hz "
                    "(fixed_dt): every time in state would change; restore it into a machine of the same fixed_dt",
                    Hz(saved_dt), Hz(layout.dt)));
    const auto saved_count = Get<std::uint32_t>(base + kCountAt);
    if (count != kAnyCount && saved_count != count) {
        if (kind != SnapshotKind::Crowd)
            fail(Format("Restore(): the snapshot holds {} characters where {} holds 1", saved_count,
                        KindName(saved_kind)));
        fail(Format("Restore(): the snapshot holds {} characters and this crowd {}; make a crowd of {} first",
                    saved_count, count, saved_count));
    }
    const std::size_t layout_size = Get<std::uint32_t>(base + kLayoutAt);
    if (layout_size > bytes.size() - kHeaderSize || !LayoutWellFormed(base + kHeaderSize, layout_size))
        fail("Restore(): the snapshot's list of states is not well formed: its bytes were not written by Save()");
    // What differs, named: a state, the data, or else the transitions and tree.
    const std::byte* at = base + kHeaderSize;
    const auto data_size = Get<std::uint32_t>(at);
    const auto states = Get<std::uint32_t>(at + 4);
    at += 8;
    const std::size_t shared = states < layout.names.size() ? states : layout.names.size();
    for (std::size_t i = 0; i < shared; ++i) {
        const auto length = Get<std::uint16_t>(at);
        const std::string_view name(reinterpret_cast<const char*>(at + 2), length);
        at += 2 + length;
        if (name != layout.names[i])
            fail(Format("Restore(): state {} is {} in the snapshot and {} here: a state was added, removed or "
                        "reordered since it was saved",
                        i, name, layout.names[i]));
    }
    if (states != layout.names.size())
        fail(Format("Restore(): the snapshot's machine has {} states and this one {}", states, layout.names.size()));
    if (data_size != layout.data_size)
        fail(Format("Restore(): the states' data differs: {} bytes per character in the snapshot, {} here (a "
                    "state's or an action's class changed, or the configuration's SetPushCapacity<N>(), "
                    "SetHistory, SetRegions or SetSubstates); a snapshot restores only into the configuration "
                    "that saved it",
                    data_size, layout.data_size));
    if (Get<std::uint64_t>(base + kFingerprintAt) != layout.fingerprint)
        fail("Restore(): the snapshot comes from another configuration of this machine: its transitions, nesting, "
             "push stack or data layout differ; a snapshot restores only into the configuration that saved it: "
             "discard it, or save it again from a machine configured as this one");
    return {base + kHeaderSize + layout_size, base + bytes.size()};
}

const std::byte* TakeBytes(SnapshotCursor& cursor, std::size_t size, void (*fail)(std::string_view)) {
    if (static_cast<std::size_t>(cursor.end - cursor.at) < size)
        fail("Restore(): the snapshot ends in the middle of a character");
    const std::byte* at = cursor.at;
    cursor.at += size;
    return at;
}

namespace {
constexpr std::size_t kRecordHead = 2 + 2 + 4 + 2 + 2;
}

namespace {

// What a snapshot may hold of a character's flags or a region's: the rest
// follow from the configuration, the observer or the tick.
constexpr std::uint16_t kSnapshotFlags = kStarted | kNextPending | kInitialized | kGlobal | kGlobalWaiting | kDone | kSlow;

// A state id read from a snapshot, as a message names it.
std::string StateText(const SnapshotLayout& layout, StateIndex id) {
    if (id == kNoState) return "none";
    if (id < layout.names.size()) return std::string(layout.names[id]);
    return Format("{}", id);
}

[[noreturn]] void Forged(std::string_view what, std::string_view value, void (*fail)(std::string_view)) {
    fail(Format("Restore(): the snapshot's {} ({}) is not one Save() writes for this machine: its bytes were "
                "forged or damaged after the checksum was made; discard the snapshot",
                what, value));
    std::abort(); // fail throws
}
[[noreturn]] void Forged(const SnapshotLayout& layout, std::string_view what, StateIndex id,
                         void (*fail)(std::string_view)) {
    Forged(what, StateText(layout, id), fail);
}

bool IsLeaf(const SnapshotLayout& layout, StateIndex id) noexcept {
    return id < layout.tree.size() && layout.tree[id].initial == kNoNode;
}

// Whether `id` is a leaf of the lane rooted at `region` (kNoNode: the machine's own lane).
bool LeafOfLane(const SnapshotLayout& layout, StateIndex id, TreeIndex region) noexcept {
    return IsLeaf(layout, id) && RegionOf(layout.tree, id) == region;
}

} // namespace

void CheckRuntime(const SnapshotLayout& layout, const Runtime& rt, StateIndex next, StateIndex previous,
                  bool crowd, void (*fail)(std::string_view)) {
    for (const StateIndex named : {rt.state, next, previous})
        if (!ValidState(layout, named))
            fail(Format("Restore(): the snapshot names state {} of a machine of {} states", named,
                        layout.names.size()));
    if ((rt.flags & ~kSnapshotFlags) != 0)
        Forged("flags of the current state " + StateText(layout, rt.state), Format("{}", rt.flags), fail);
    if ((rt.flags & kNextPending) && next == kNoState) Forged(layout, "NextState request", next, fail);
    if (rt.flags & kStarted) {
        if (!LeafOfLane(layout, rt.state, kNoNode)) Forged(layout, "current state", rt.state, fail);
        if (crowd && !(rt.flags & kSlow) && rt.state < layout.slow.size() && layout.slow[rt.state])
            Forged("flags of the current state " + StateText(layout, rt.state), Format("{}", rt.flags), fail);
    } else if (rt.state != kNoState) {
        Forged(layout, "current state of a machine not started", rt.state, fail);
    }
}

void CheckItem(const SnapshotLayout& layout, const DataItem& item, const std::byte* bytes,
               void (*fail)(std::string_view)) {
    switch (item.role) {
    case ItemRole::Object:
    case ItemRole::Composite:
        return;
    case ItemRole::Lane: {
        const auto lane = Get<Runtime>(bytes);
        const std::string region = StateText(layout, item.node);
        if ((lane.flags & ~kSnapshotFlags) != 0) Forged("flags of region " + region, Format("{}", lane.flags), fail);
        if (lane.state != kNoState && !LeafOfLane(layout, lane.state, item.node))
            Forged("state of region " + region, StateText(layout, lane.state), fail);
        if (lane.state == kNoState && (lane.flags & kStarted)) Forged("state of region " + region, "none", fail);
        return;
    }
    case ItemRole::History: {
        const auto last = Get<HistorySlot>(bytes).last;
        if (last != kNoNode && (!IsLeaf(layout, last) || !IsWithin(layout.tree, last, item.node)))
            Forged("history of " + StateText(layout, item.node), StateText(layout, last), fail);
        return;
    }
    case ItemRole::Stack: {
        const auto count = Get<std::uint32_t>(bytes);
        if (count > layout.stack_capacity)
            Forged("push stack's count of buried states", Format("{} of {}", count, layout.stack_capacity), fail);
        for (std::uint32_t i = 0; i < count; ++i) {
            const auto buried = Get<Buried>(bytes + kBuriedOffset + i * sizeof(Buried));
            if (!LeafOfLane(layout, buried.leaf, kNoNode)) Forged(layout, "buried state", buried.leaf, fail);
        }
        return;
    }
    }
}

void CheckCharacter(SnapshotCursor& cursor, const SnapshotLayout& layout, bool crowd,
                    void (*fail)(std::string_view)) {
    const std::byte* head = TakeBytes(cursor, kRecordHead, fail);
    Runtime rt;
    rt.state = Get<StateIndex>(head);
    rt.flags = Get<std::uint16_t>(head + 2);
    CheckRuntime(layout, rt, Get<StateIndex>(head + 8), Get<StateIndex>(head + 10), crowd, fail);
    for (std::size_t i = 0; i < layout.item_count; ++i) {
        const DataItem& item = layout.items[i];
        if (item.kept == Kept::Bytes) {
            CheckItem(layout, item, TakeBytes(cursor, item.size, fail), fail);
        } else {
            const auto length = Get<std::uint32_t>(TakeBytes(cursor, sizeof(std::uint32_t), fail));
            TakeBytes(cursor, length, fail);
        }
    }
}

void ReadCharacter(SnapshotCursor& cursor, const SnapshotLayout& layout, Runtime& rt, StateIndex& next,
                   StateIndex& previous, std::byte* data, void (*fail)(std::string_view)) {
    const std::byte* head = cursor.at;
    rt.state = Get<StateIndex>(head);
    rt.flags = Get<std::uint16_t>(head + 2);
    rt.ticks = Get<std::uint32_t>(head + 4);
    next = Get<StateIndex>(head + 8);
    previous = Get<StateIndex>(head + 10);
    cursor.at += kRecordHead;
    for (std::size_t i = 0; i < layout.item_count; ++i) {
        const DataItem& item = layout.items[i];
        if (item.kept == Kept::Bytes) {
            std::memcpy(data + item.offset, cursor.at, item.size);
            cursor.at += item.size;
            continue;
        }
        const auto length = Get<std::uint32_t>(cursor.at);
        cursor.at += sizeof(std::uint32_t);
        SnapshotReader reader = SnapshotAccess::Reader(std::span<const std::byte>(cursor.at, length), item.type, fail);
        item.load(data + item.offset, reader);
        if (reader.Left() != 0)
            fail(Format("Restore(): the Load of {} reads {} bytes fewer than its Save wrote; read what Save "
                        "wrote, in the same order",
                        item.type, reader.Left()));
        cursor.at += length;
    }
}

} // namespace detail
} // namespace tickfsm
