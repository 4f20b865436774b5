// What every kind of machine shares, compiled here once: the table and the
// general path (defined in lib/engine/, instantiated for
// AnyController/AnyAction, declared extern in detail/engine.hpp), the
// configuration steps, the per-machine storage and the crowd's growing lists
// that take no type of the kind's. A file that uses machines compiles only
// its own kinds' typed code (hooks, conditions, steps, configuration calls).
#include <cstring>
#include <utility>

#include "tickfsm/crowd.hpp" // ReserveRuntimes, ResizeRuntimes, ResizeStates, RemoveCharacter
#include "tickfsm/detail/config.hpp"
#include "tickfsm/detail/engine.hpp"
#include "tickfsm/detail/manager_engine.hpp"
#include "tickfsm/detail/manager_storage.hpp"

#include "owned_parts.hpp"
#include "engine/general_path.hpp"
#include "engine/table_parts.hpp"
#include "engine/table_describe.hpp"
#include "engine/table_steps.hpp"

namespace tickfsm::detail {

TICKFSM_DETAIL_ENGINE_TEMPLATES(template);

namespace {

/// The call that gave `state` its transitions, as messages name it:
/// "From<Walk>()", or "FromAny()" for the any-state pseudo-state.
std::string FromCall(std::string_view state) {
    return state == Any::Name ? std::string(Any::Name) : Format("From<{}>()", state);
}

} // namespace

void AppendTarget(List<Target>& targets, List<std::uint8_t>& forced, Target to, bool skip_gates) {
    targets.push_back(to);
    forced.push_back(skip_gates ? 1 : 0);
}

namespace {
// Room for `count` in `list`: full, it grows to at least twice its room.
template <class T>
void ReserveGrowing(List<T>& list, std::size_t count) {
    if (count > list.capacity()) list.reserve(count > 2 * list.capacity() ? count : 2 * list.capacity());
}
} // namespace
void ReserveRuntimes(List<Runtime>& runtimes, std::size_t count) { ReserveGrowing(runtimes, count); }
void ResizeRuntimes(List<Runtime>& runtimes, std::size_t count) { runtimes.resize(count); }
void ResizeStates(List<StateIndex>& states, std::size_t count) { states.resize(count, kNoState); }
void ReserveStates(List<StateIndex>& states, std::size_t count) { ReserveGrowing(states, count); }
// noexcept: a state whose move constructor throws ends the program here rather
// than leave a character half moved, whose objects the crowd would destroy twice.
void RemoveCharacter(List<Runtime>& runtimes, List<StateIndex>& next_states, List<StateIndex>& previous_states,
                     std::byte* data, std::size_t stride, const List<DataItem>& items, std::size_t i) noexcept {
    const std::size_t last = runtimes.size() - 1;
    if (data) {
        std::byte* const slot = data + i * stride;
        for (const DataItem& item : items) item.destroy(slot + item.offset);
        if (i != last) {
            // Zeroed as Grow's new block is, so that the bytes no constructor
            // writes are the same as in a crowd that never removed anyone.
            std::memset(slot, 0, stride);
            std::byte* const moved = data + last * stride;
            for (const DataItem& item : items) item.relocate(slot + item.offset, moved + item.offset);
        }
    }
    if (i != last) {
        runtimes[i] = runtimes[last];
        if (!next_states.empty()) next_states[i] = next_states[last];
        if (!previous_states.empty()) previous_states[i] = previous_states[last];
    }
    runtimes.pop_back();
    if (!next_states.empty()) next_states.pop_back();
    if (!previous_states.empty()) previous_states.pop_back();
}
// The general path's own steps, instantiated explicitly as the entry points
// are: an implicit instantiation with one caller here would be inlined into
// it (the change path's functions would grow), so each step stays a function
// of its own whatever calls it.
template void FinishTick<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);
template void Start<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);
template void MarkStarted<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);
template void ApplyPending<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);
template void EnterWaitingGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);
template void ChangeTo<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Cause, std::size_t,
                                                 const Event*, Prepare);
template bool EnterDownTo<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, StateIndex,
                                                    StateIndex, Cause, std::size_t, const Event*);
template void ExitUpTo<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, StateIndex);
template void RunPerform<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);
template void Fire<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&,
                                             const Probed<AnyController, AnyAction>&);
template Prepare StagedPrepare<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&) noexcept;
template void CountAbove<AnyController, AnyAction>(const Table<AnyController, AnyAction>&, std::byte*, StateIndex);
template void NestedStep<AnyController, AnyAction>(const ErasedWord*, AnyController&, const AnyAction&, Runtime&,
                                                   std::byte*);
template void NestedMachineStep<AnyController, AnyAction>(AnyController&, const AnyAction&, Runtime&);
template void MachineGeneralStep<AnyController, AnyAction>(AnyController&, const AnyAction&, Runtime&);

// --- the configuration steps that take no type of the kind's (config.hpp) ---

std::size_t AppendChain(ErasedTable& table, StateIndex id, ChainBase<AnyController, AnyAction>* fresh) {
    ChainPtr<AnyController, AnyAction> owned(fresh);
    auto& chains = table.meta[id].chains;
    chains.push_back(std::move(owned));
    return chains.size() - 1;
}

void CheckChainToExtend(const ErasedTable& table, const void* from_key, std::size_t chain, const void* expected,
                        std::string_view (*from_name)() noexcept, std::string_view (*to_name)() noexcept) {
    const StateIndex from = table.Find(from_key);
    if (from == kNoState || chain >= table.meta[from].chains.size() ||
        table.meta[from].chains[chain]->type != expected) [[unlikely]]
        table.Fail(Format("{}.To<{}>(): this builder was used already; chain each To<...>() on the "
                          "builder the previous To returned",
                          FromCall(from_name()), to_name()));
}

ChainPtr<AnyController, AnyAction>& ChainToExtend(ErasedTable& table, const void* from_key, std::size_t chain,
                                                   const void* expected, std::string_view (*from_name)() noexcept,
                                                   std::string_view (*to_name)() noexcept) {
    CheckChainToExtend(table, from_key, chain, expected, from_name, to_name);
    return table.meta[table.Find(from_key)].chains[chain];
}

void CheckStackFor(const ErasedTable& table, std::string_view (*from_name)() noexcept, std::uint8_t kind) {
    if (table.stack_capacity == 0)
        table.Fail(Format("{}.{}(): this machine has no push stack; call SetPushCapacity<N>() before "
                          "configuring pushes and pops",
                          FromCall(from_name()), kind == kKindPush ? "Push" : "Pop"));
}

void ReplaceChain(ErasedTable& table, StateIndex from, std::size_t chain, ChainBase<AnyController, AnyAction>* fresh,
                  bool always) {
    ChainPtr<AnyController, AnyAction> owned(fresh);
    table.meta[from].chains[chain] = std::move(owned);
    if (always) table.NoteAlways(from, chain, fresh->count - 1);
    table.finalized = false;
}


// --- a StateManager's configuration steps, whatever its kind (manager_config.hpp) ---

namespace {

[[noreturn]] void FailKind(const KindCode& kind, std::string_view what) {
    ReportConfigError(KindMessage(kind.name(), what));
}

} // namespace

void FailFrozen(std::string_view what, const KindCode& kind) {
    FailKind(kind, Format("{}: the transition table is frozen once the machine starts (its first Perform, or a call "
                          "that starts it or closes its configuration: a direct change, a push, SetGlobalState, "
                          "Save, Restore); configure every state and transition first (usually in the constructor)",
                          what));
}

StepNode* Advance(Seat& seat, const StepRecord& step, Registry& registry) {
    StepNode* next = registry.Child(SeatStorage::BlockOf(seat)->node, step);
    SeatStorage::BlockOf(seat)->node = next;
    SeatStorage::BlockOf(seat)->stale = SeatStorage::ErasedTableOf(seat) != nullptr;
    return next;
}

StepNode* BeginChain(Seat& seat, const ChainCall& call, const KindCode& kind) {
    if (seat.rt.flags & kFrozen) [[unlikely]]
        FailFrozen(call.initial ? Format("SetInitialState<{}>()", call.state()) : FromCall(call.state()), kind);
    const StepNode* node = SeatStorage::BlockOf(seat)->node;
    if (!node) return nullptr;
    if (call.initial && !node->initial.empty())
        FailKind(kind, Format("SetInitialState<{}>(): the initial state is already {}; a machine has one initial "
                              "state (use From<{}>() to add transitions from {})",
                              call.state(), node->initial, call.state(), call.state()));
    StepRecord step;
    step.key = call.step_key;
    step.replay = call.replay;
    step.starts_chain_of = call.state_key;
    if (call.initial) step.initial = call.state();
    return Advance(seat, step, kind.registry());
}

const void* BeginEdge(Seat& seat, const void* token, std::size_t chain, const EdgeCall& call, void (*function)(),
                      const KindCode& kind) {
    if (seat.rt.flags & kFrozen) [[unlikely]]
        FailFrozen(Format("{}.{}<{}>()", FromCall(call.from()), call.api, call.to()), kind);
    if (call.stack && SeatStorage::Resolved(seat, kind.registry()).stack_capacity == 0)
        FailKind(kind, Format("{}.{}(): this machine has no push stack; call SetPushCapacity<N>() before "
                              "configuring pushes and pops",
                              FromCall(call.from()), call.api));
    if (call.replay && SeatStorage::BlockOf(seat)->node && token == SeatStorage::BlockOf(seat)->node) {
        StepRecord step;
        step.key = call.new_chain;
        step.function = function;
        step.chain = chain;
        step.replay = call.replay;
        return Advance(seat, step, kind.registry());
    }
    CheckChainToExtend(SeatStorage::Resolved(seat, kind.registry()), call.from_key, chain, call.old_chain, call.from,
                       call.to);
    SeatStorage::Detach(seat, kind.registry());
    return nullptr;
}

void Freeze(Seat& seat, const KindCode& kind) {
    const ErasedTable& table = SeatStorage::Resolved(seat, kind.registry());
    if (table.initial == kNoState)
        FailKind(kind, Format("no initial state: give the machine one with {} while configuring, before its first "
                              "Perform (or a Save or Restore, which close the configuration too)",
                              table.keyed ? "SetInitialState<S>() or, for a keyed state, SetInitialState(key)"
                                          : "SetInitialState<S>()"));
    if (!table.finalized) SeatStorage::ErasedTableOf(seat)->Finalize(); // a private table: it changes no more
    seat.steps = table.MachineSteps();
    seat.rt.flags = static_cast<std::uint16_t>(seat.rt.flags | kFrozen);
    if (SeatStorage::BlockIf(seat)) SeatStorage::ReleaseBlockIfUnused(seat);
}

template void DeleteInLibrary::operator()(NestedPlan*) const noexcept;
template void DeleteInLibrary::operator()(EdgeNotes*) const noexcept;
template void DeleteInLibrary::operator()(KeyedStates*) const noexcept;

// --- the steps a compile-time machine's constant compiles per leaf (nested_plan.hpp) ---

void AddFusedLeaf(ErasedTable& table, const FusedLeaf& leaf) {
    if (!table.nested_plan) table.nested_plan.reset(new NestedPlan());
    table.finalized = false;
    for (FusedLeaf& known : table.nested_plan->fused)
        if (known.path[known.depth - 1] == leaf.path[leaf.depth - 1]) {
            known = leaf;
            return;
        }
    table.nested_plan->fused.push_back(leaf);
}

std::size_t FusedLeafCount(const ErasedTable& table) noexcept {
    if (!table.nested_plan) return 0;
    std::size_t count = 0;
    for (const NestedStepper<AnyController, AnyAction>& stepper : table.nested_plan->steppers)
        for (const FusedLeaf& leaf : table.nested_plan->fused)
            count += stepper.machine != nullptr && stepper.machine == leaf.machine;
    return count;
}

void FusedFire(const ErasedWord* steps, AnyController& c, const AnyAction& a, Runtime& rt, std::byte* data,
               std::uint32_t chain, int index) {
    const auto& self = SelfOf<NestedStepper<AnyController, AnyAction>>(steps, rt.state);
    NestedFire<false>(*self.table, c, a, rt, data, self.chains[chain], index);
}

void FusedFireMachine(AnyController& c, const AnyAction& a, Runtime& rt, std::uint32_t chain, int index) {
    const auto& self =
        SelfOf<NestedStepper<AnyController, AnyAction>>(SeatedSteps<AnyController, AnyAction>(rt), rt.state);
    NestedFire<true>(*self.table, c, a, rt, SeatedData(rt), self.chains[chain], index);
}

// --- a StateManager's tick off the fast path, whatever its kind (manager_engine.hpp) ---

bool MachineSlowTick(Seat& seat, const KindCode& kind, AnyController& c, const AnyAction& a) {
    using Engine = ManagerEngine<AnyController, AnyAction>;
    if (Engine::Busy(seat))
        FailKind(kind, Format("Perform() called from inside a hook or condition of this machine (state {}); a tick "
                              "cannot start inside another tick",
                              Engine::CurrentName(seat)));
    if (!(seat.rt.flags & kStarted)) {
        Freeze(seat, kind);
        if (Engine::QuickStart(seat)) return true;
    }
    if ((seat.rt.flags & ~kGeneralReasons) == (Engine::kRunning & ~kFresh)) {
        // A change outside the fast path cleared kFresh: find the step, which
        // takes the general path itself if the machine has a reason to.
        Engine::RefreshStep(seat);
        return true;
    }
    {
        Engine::BusyScope busy(seat.rt);
        auto ctx = Engine::ContextOf(seat, c, &a);
        GeneralTick(ctx);
    }
    Engine::RefreshStep(seat);
    return false;
}

// --- a StateManager's storage, whatever its kind (manager_storage.hpp) ---

const ErasedTable& SeatStorage::Resolved(Seat& seat, Registry& registry) {
    if (const Block* block = BlockIf(seat); block && (!block->table || block->stale))
        Adopt(seat, TableFrom(registry.TableAt(BlockOf(seat)->node)));
    return *ErasedTableOf(seat);
}

void SeatStorage::Detach(Seat& seat, Registry& registry) {
    if (!BlockOf(seat)->node) return;
    Adopt(seat, TableFrom(registry.Build(BlockOf(seat)->node)));
    BlockOf(seat)->node = nullptr;
}

void SeatStorage::Rehome(Seat& seat) {
    Table<AnyController, AnyAction>* table = ErasedTableOf(seat);
    Block* block = NewBlock(0, alignof(Block));
    block->table = table;
    block->dt = table->dt;
    block->shared = true;
    seat.home = block;
}

void SeatStorage::ReleaseBlockIfUnused(Seat& seat) {
    Block* block = Home(seat);
    const Table<AnyController, AnyAction>& table = *block->table;
    if (!block->node || !table.items.empty() || !table.all_fast || table.uses_machine || table.keep_previous ||
        block->observer || block->global != kNoState || block->next != kNoState ||
        block->previous != kNoState || !block->name.empty())
        return;
    Table<AnyController, AnyAction>* held = block->table;
    FreeBlock(block);
    seat.home = reinterpret_cast<Block*>(reinterpret_cast<std::uintptr_t>(held) | kTableTag);
}

SeatStorage::Block* SeatStorage::NewBlock(std::size_t capacity, std::size_t align) {
    if (align < alignof(Block)) align = alignof(Block);
    void* memory = ::operator new(kDataOffset + capacity, std::align_val_t{align});
    Block* block = ::new (memory) Block();
    // Zeroed, so that padding and bytes no constructor writes are the same in every run's snapshot.
    std::memset(static_cast<std::byte*>(memory) + kDataOffset, 0, capacity);
    block->capacity = static_cast<std::uint32_t>(capacity);
    block->align = static_cast<std::uint32_t>(align);
    return block;
}

void SeatStorage::FreeBlock(Block* block) noexcept {
    if (!block) return;
    const std::size_t align = block->align;
    block->~Block();
    ::operator delete(static_cast<void*>(block), std::align_val_t{align});
}

void SeatStorage::Adopt(Seat& seat, Table<AnyController, AnyAction>* table) {
    struct Owner { // releases `table` if SyncData throws, else the old table
        Table<AnyController, AnyAction>* held;
        ~Owner() { Table<AnyController, AnyAction>::Release(held); }
    } owner{table};
    SyncData(seat, *table);
    std::swap(owner.held, BlockOf(seat)->table);
    BlockOf(seat)->stale = false;
}

void SeatStorage::SyncData(Seat& seat, const Table<AnyController, AnyAction>& table) {
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
    std::byte* to = reinterpret_cast<std::byte*>(grown) + kDataOffset;
    struct Undo { // destroy what was built if a constructor throws
        const Table<AnyController, AnyAction>& table;
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
    grown->name = std::move(old->name); // once nothing can throw: a failed growth leaves the old block whole
    FreeBlock(old);
    seat.home = grown;
    grown->data_count = static_cast<std::uint32_t>(count);
}

void SeatStorage::ReleaseData(Seat& seat) noexcept {
    Block* block = BlockIf(seat);
    if (!block || !block->table) return;
    for (std::size_t i = 0; i < block->data_count; ++i)
        block->table->items[i].destroy(Data(seat) + block->table->items[i].offset);
    block->data_count = 0;
}

} // namespace tickfsm::detail
