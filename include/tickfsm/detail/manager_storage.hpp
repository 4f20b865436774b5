#pragma once
// The per-character storage of a StateManager: its block (bookkeeping, then
// the states' data) and the table it runs on, both reached from its Seat.

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>
#include <utility>

#include "../observer.hpp"
#include "config.hpp"
#include "runtime.hpp"
#include "table.hpp"

namespace tickfsm::detail {

/// Per-machine bookkeeping, kept out of the machine object so that the object
/// itself is the five words a tick reads (the controller and the Seat).
template <class C, class A>
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
    std::string_view name = "StateManager";
};

/// A StateManager's storage, read from its Seat alone, so that its general
/// step (MachineGeneralStep), which receives the Seat's Runtime and no
/// machine, can read it too. The Seat's home is the machine's block, or, once
/// the machine runs without one, its table tagged with kTableTag.
template <class C, class A>
struct ManagerStorage {
    using Block = ManagerBlock<C, A>;
    // The kind's table; the general step (MachineGeneralStep), compiled for
    // every kind at once, reads it as the table it is.
    using MachineTable = std::conditional_t<kErased<C, A>, Table<AnyController, AnyAction>, KindTable<C, A>>;

    // State data lives right after the block's header, so the tick finds it
    // without reading the header.
    static constexpr std::size_t kDataOffset = kSeatDataOffset;
    static constexpr std::uintptr_t kTableTag = 1;
    static_assert(sizeof(Block) <= kDataOffset);

    static Block* BlockIf(const Seat& seat) noexcept {
        return reinterpret_cast<std::uintptr_t>(seat.home) & kTableTag ? nullptr : static_cast<Block*>(seat.home);
    }
    static MachineTable* TableOf(const Seat& seat) noexcept {
        const auto bits = reinterpret_cast<std::uintptr_t>(seat.home);
        Table<AnyController, AnyAction>* table = bits & kTableTag
                                                     ? reinterpret_cast<Table<AnyController, AnyAction>*>(bits & ~kTableTag)
                                                     : static_cast<Block*>(seat.home)->table;
        return static_cast<MachineTable*>(table);
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
        return TableOf(seat)->dt;
    }
    [[gnu::cold, gnu::noinline]] static void Rehome(Seat& seat) {
        MachineTable* table = TableOf(seat);
        Block* block = NewBlock(0, alignof(Block));
        block->table = table;
        block->dt = table->dt;
        block->shared = true;
        seat.home = block;
    }
    /// Once configured, a machine whose table is shared, holds no state data,
    /// and ticks only on the fast path needs no block: the block goes, and
    /// the home pointer holds the table (tagged), so the machine owns no heap.
    static void ReleaseBlockIfUnused(Seat& seat) {
        Block* block = Home(seat);
        const Table<AnyController, AnyAction>& table = *block->table;
        if (!block->node || !table.items.empty() || !table.all_fast || table.uses_machine || table.keep_previous ||
            block->observer || block->global != kNoState || block->next != kNoState ||
            block->previous != kNoState || block->name != std::string_view("StateManager"))
            return;
        Table<AnyController, AnyAction>* held = block->table;
        FreeBlock(block);
        seat.home = reinterpret_cast<Block*>(reinterpret_cast<std::uintptr_t>(held) | kTableTag);
    }

    static Block* NewBlock(std::size_t capacity, std::size_t align) {
        if (align < alignof(Block)) align = alignof(Block);
        void* memory = ::operator new(kDataOffset + capacity, std::align_val_t{align});
        Block* block = ::new (memory) Block();
        block->capacity = static_cast<std::uint32_t>(capacity);
        block->align = static_cast<std::uint32_t>(align);
        return block;
    }
    static void FreeBlock(Block* block) noexcept {
        if (!block) return;
        const std::size_t align = block->align;
        block->~Block();
        ::operator delete(static_cast<void*>(block), std::align_val_t{align});
    }

    /// The table for the machine's configuration so far, built or found on first need.
    static const MachineTable& Resolved(Seat& seat) {
        if (const Block* block = BlockIf(seat); block && (!block->table || block->stale)) [[unlikely]]
            Resolve(seat);
        return *TableOf(seat);
    }
    [[gnu::cold, gnu::noinline]] static void Resolve(Seat& seat) {
        Adopt(seat, SharedTableAt<C, A>(BlockOf(seat)->node));
    }

    /// Leave the shared path: the machine gets a private table holding its
    /// configuration so far (a step that holds data is about to be added).
    static void Detach(Seat& seat) {
        if (!BlockOf(seat)->node) return;
        MachineTable* table = PrivateTableOf<C, A>(BlockOf(seat)->node);
        Adopt(seat, table);
        BlockOf(seat)->node = nullptr;
    }

    /// Run on `table` (one reference handed over): its layout extends the
    /// machine's current one, so existing state data moves over and the states
    /// new to it are constructed.
    static void Adopt(Seat& seat, MachineTable* table) {
        struct Owner { // releases `table` if SyncData throws, else the old table
            Table<AnyController, AnyAction>* held;
            ~Owner() { Table<AnyController, AnyAction>::Release(held); }
        } owner{table};
        SyncData(seat, *table);
        std::swap(owner.held, BlockOf(seat)->table);
        BlockOf(seat)->stale = false;
    }

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

    /// Make the block hold a copy of every data item of `table` (whose first
    /// data_count items are the ones the block holds now).
    static void SyncData(Seat& seat, const MachineTable& table) {
        const auto& items = table.items;
        const std::size_t count = items.size();
        Block* old = BlockOf(seat);
        if (count == old->data_count) return;
        Block* grown = NewBlock(table.data_size, table.data_align);
        grown->table = old->table;
        grown->node = old->node;
        grown->dt = old->dt;
        grown->stale = old->stale;
        grown->next = old->next;
        grown->previous = old->previous;
        grown->global = old->global;
        grown->observer = old->observer;
        grown->name = old->name;
        std::byte* to = reinterpret_cast<std::byte*>(grown) + kDataOffset;
        struct Undo { // destroy what was built if a constructor throws
            const MachineTable& table;
            Block* block;
            std::byte* data;
            std::size_t first, built;
            ~Undo() {
                if (!block) return;
                for (std::size_t i = first; i < built; ++i) table.items[i].destroy(data + table.items[i].offset);
                FreeBlock(block);
            }
        } undo{table, grown, to, old->data_count, old->data_count};
        for (std::size_t i = old->data_count; i < count; ++i, ++undo.built)
            items[i].construct(to + items[i].offset, items[i].prototype.get());
        for (std::size_t i = 0; i < old->data_count; ++i)
            items[i].relocate(to + items[i].offset, Data(seat) + items[i].offset);
        undo.block = nullptr;
        FreeBlock(old);
        seat.home = grown;
        grown->data_count = static_cast<std::uint32_t>(count);
    }

    static void ReleaseData(Seat& seat) noexcept {
        Block* block = BlockIf(seat);
        if (!block || !block->table) return;
        for (std::size_t i = 0; i < block->data_count; ++i)
            block->table->items[i].destroy(Data(seat) + block->table->items[i].offset);
        block->data_count = 0;
    }
};

} // namespace tickfsm::detail
