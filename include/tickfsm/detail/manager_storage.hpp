#pragma once
// The per-character storage of a StateManager: its block (bookkeeping, then
// the states' data) and the table it runs on, both reached from its Seat.

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>
#include <utility>

#include "../observer.hpp"
#include "../text.hpp"
#include "config.hpp"
#include "runtime.hpp"
#include "table.hpp"

namespace tickfsm::detail {

/// Per-machine bookkeeping, kept out of the machine object so that the object
/// itself is the five words a tick reads (the controller and the Seat).
struct ManagerBlock {
    StepNode* node = nullptr; // position on the shared configuration path; null once private
    std::uint32_t data_count = 0;   // states of the table whose data lives in this block
    std::uint32_t capacity = 0;     // bytes of state data the block holds
    std::uint32_t align = 0;        // alignment the block was allocated with
    float dt = 0;
    Table<AnyController, AnyAction>* table = nullptr; // the machine's table (shared or private); one reference held
    bool stale = false;             // table is for an earlier point of the configuration
    bool shared = false;            // made again after ReleaseBlockIfUnused let it go: the table is shared
    StateIndex next = kNoState;     // a NextState request
    StateIndex previous = kNoState; // the state the last change came from
    StateIndex global = kNoState;   // the global state
    Observer* observer = nullptr;
    // A copy of the name SetObserver was given, which may be a temporary;
    // empty (no allocation) for the default name.
    Text name;

    /// The name the observer hears the machine under.
    std::string_view Name() const noexcept { return name.empty() ? std::string_view("StateManager") : name.view(); }
};

/// What a StateManager's storage does whatever its kind, read from its Seat
/// alone, so that its general step (MachineGeneralStep), which receives the
/// Seat's Runtime and no machine, can read it too. The Seat's home is the
/// machine's block, or, once the machine runs without one, its table tagged
/// with kTableTag. The functions declared here are compiled in lib/engine.cpp.
struct SeatStorage {
    using Block = ManagerBlock;

    // State data lives right after the block's header, so the tick finds it
    // without reading the header.
    static constexpr std::size_t kDataOffset = kSeatDataOffset;
    static constexpr std::uintptr_t kTableTag = 1;
    static_assert(sizeof(Block) <= kDataOffset);

    static Block* BlockIf(const Seat& seat) noexcept {
        return reinterpret_cast<std::uintptr_t>(seat.home) & kTableTag ? nullptr : static_cast<Block*>(seat.home);
    }
    static Table<AnyController, AnyAction>* ErasedTableOf(const Seat& seat) noexcept {
        const auto bits = reinterpret_cast<std::uintptr_t>(seat.home);
        return bits & kTableTag ? reinterpret_cast<Table<AnyController, AnyAction>*>(bits & ~kTableTag)
                                : static_cast<Block*>(seat.home)->table;
    }
    static Block* Home(const Seat& seat) noexcept { return static_cast<Block*>(seat.home); }
    // A machine without a block (see ReleaseBlockIfUnused) has no state data: its data pointer is never read.
    static std::byte* Data(Seat& seat) noexcept { return SeatedData(seat.rt); }

    /// The machine's block, made again if ReleaseBlockIfUnused let it go (not on the tick path).
    static Block* BlockOf(Seat& seat) {
        if (reinterpret_cast<std::uintptr_t>(seat.home) & kTableTag) [[unlikely]]
            Rehome(seat);
        return Home(seat);
    }
    static float Dt(const Seat& seat) noexcept {
        if (const Block* block = BlockIf(seat)) return block->dt;
        return ErasedTableOf(seat)->dt;
    }
    [[gnu::cold]] static void Rehome(Seat& seat);
    /// Once configured, a machine whose table is shared, holds no state data,
    /// and ticks only on the fast path needs no block: the block goes, and
    /// the home pointer holds the table (tagged), so the machine owns no heap.
    static void ReleaseBlockIfUnused(Seat& seat);
    static Block* NewBlock(std::size_t capacity, std::size_t align);
    static void FreeBlock(Block* block) noexcept;
    /// Run on `table` (one reference handed over): its layout extends the
    /// machine's current one, so existing state data moves over and the states
    /// new to it are constructed.
    static void Adopt(Seat& seat, Table<AnyController, AnyAction>* table);
    /// Make the block hold a copy of every data item of `table` (whose first
    /// data_count items are the ones the block holds now).
    static void SyncData(Seat& seat, const Table<AnyController, AnyAction>& table);
    static void ReleaseData(Seat& seat) noexcept;
    /// The table for the machine's configuration so far, built or found in
    /// `registry` (the kind's) on first need.
    static const Table<AnyController, AnyAction>& Resolved(Seat& seat, Registry& registry);
    /// Leave the shared path: the machine gets a private table holding its
    /// configuration so far (a step that holds data is about to be added).
    static void Detach(Seat& seat, Registry& registry);
};

/// A StateManager's storage: SeatStorage, and what takes the kind's types
/// (its registry, its states' constructors).
template <class C, class A>
struct ManagerStorage : SeatStorage {
    // The kind's table; the general step (MachineGeneralStep), compiled for
    // every kind at once, reads it as the table it is.
    using MachineTable = std::conditional_t<kErased<C, A>, Table<AnyController, AnyAction>, KindTable<C, A>>;

    static MachineTable* TableOf(const Seat& seat) noexcept { return static_cast<MachineTable*>(ErasedTableOf(seat)); }

    /// The table for the machine's configuration so far (see SeatStorage::Resolved).
    static const MachineTable& Resolved(Seat& seat) {
        if (const Block* block = BlockIf(seat); block && (!block->table || block->stale)) [[unlikely]]
            SeatStorage::Resolved(seat, RegistryOf<C, A>());
        return *TableOf(seat);
    }

    /// See SeatStorage::Detach.
    static void Detach(Seat& seat) { SeatStorage::Detach(seat, RegistryOf<C, A>()); }

    /// A configuration step on the machine's private table, then its data.
    template <class F>
    static void ApplyPrivately(Seat& seat, F&& apply) {
        apply(*TableOf(seat));
        SyncData(seat, *TableOf(seat)); // retried by the next step or tick if a constructor throws
    }

    /// Adds S to the machine's private table, with its data. Not inlined: one
    /// copy per state, whichever transitions name it.
    template <class S>
    [[gnu::noinline]] static void AddStatePrivately(Seat& seat) {
        MachineTable* table = TableOf(seat);
        const std::size_t before = table->meta.size();
        table->template Register<S>();
        if (table->meta.size() == before) return;
        struct Undo { // a state constructor that throws leaves the table as it was
            MachineTable* table;
            ~Undo() {
                if (table) table->PopLast();
            }
        } undo{table};
        SyncData(seat, *table);
        undo.table = nullptr;
    }

};

} // namespace tickfsm::detail
