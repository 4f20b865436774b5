#pragma once
// The nested fast path's plan, as a table keeps it (Table::PlanNested in
// lib/engine/nested_step.hpp writes it when the table is finalized): per
// leaf, the counters, transitions and Performs of its active path; per
// transition of that path, the states it exits and enters.

#include <cstdint>
#include <span>

#include "chain.hpp"
#include "runtime.hpp"
#include "tree.hpp"

namespace tickfsm::detail {

/// On the nested fast path: the transitions of one state of the active path,
/// and where its ticks are kept (a composite's slot, or kLeafTicks: the Runtime's).
template <class C, class A>
struct NestedChain {
    const ChainBase<C, A>* chain = nullptr;
    std::uint32_t slot = 0;
    std::uint32_t before = 0; // the transitions of the state's earlier lists (a condition's number counts them)
    std::uint32_t moves = 0;  // where its transitions' NestedMoves start in NestedPlan::moves
};

/// On the nested fast path: one state a planned move exits or enters.
template <class C, class A>
struct NestedMoveStep {
    PlainHookFn<C, A> hook = nullptr; // its OnStateExit (or OnStateEnter); null if it has none
    std::uint32_t offset = 0;     // its object's offset
    std::uint32_t slot = kNoSlot; // exit: its HistorySlot, if it keeps history; enter: a composite's CompositeSlot
    StateIndex state = kNoState;
};
/// On the nested fast path: what a transition of a leaf's active path does
/// when it fires from that leaf, planned once the table is finalized: the
/// states it exits (innermost first) and enters (outermost first), which
/// depend only on the leaf and the target while no composite on the way down
/// keeps history. Ranges of NestedPlan::move_steps and NestedPlan::move_slots.
///
/// Two forms of the same change: every state exited and entered, in order
/// (for a FusedLeaf's step, which calls each state's hooks by its type), and
/// only what NestedFire must do (the hooks there are, the history kept, the
/// composites' counters), so that a change through states without hooks
/// costs no step for them.
struct NestedMove {
    std::uint32_t exits = 0;  // [exits, enters): the states exited
    std::uint32_t enters = 0; // [enters, end): the states entered
    std::uint32_t end = 0;
    std::uint32_t hooked_exits = 0;  // [hooked_exits, hooked_enters): the states exited with a hook or history
    std::uint32_t hooked_enters = 0; // [hooked_enters, hooked_end): the states entered with a hook
    std::uint32_t hooked_end = 0;
    std::uint32_t slots = 0;       // in move_slots: first the `kept` composites staying active, then the `reset` entered
    std::uint16_t kept = 0;
    std::uint16_t reset = 0;
    StateIndex leaf = kNoState; // the leaf entered; kNoState: the general path makes the move
};

/// The step context of a leaf of a nested machine whose tick needs nothing of
/// the general path until a transition fires (see Table::Finalize): its
/// tick as a row of NestedLinks (its active path's transitions and Performs,
/// outermost first), and what a change from it reads. A transition that
/// fires follows its NestedMove, or the general path (NestedFire).
template <class C, class A>
struct NestedStepper : Stepper<C, A> {
    const Table<C, A>* table = nullptr;
    std::span<const std::uint32_t> slots; // the composites' CompositeSlot offsets
    const NestedLink<C, A>* links = nullptr;         // its tick in a crowd (see NestedLink)
    const NestedLink<C, A>* machine_links = nullptr; // its tick in a StateManager: the same, but for `fire`
    const NestedLink<C, A>* perform_links = nullptr; // the Performs' links, run after a change enters the leaf
    std::span<const NestedChain<C, A>> chains;
    std::span<const std::uint32_t> offsets; // every state's object offset, outermost first (for a FusedLeaf's step)
    std::span<const NestedMove> moves;       // the path's transitions, in the order they are tried
    const NestedMoveStep<C, A>* move_steps = nullptr; // what the moves' ranges index
};
/// The nested fast path's plan for a table (lib/engine/table_parts.hpp): the
/// library's alone, so that a file using machines never compiles its containers
/// (deleted by DeleteInLibrary, as the two below).
struct NestedPlan;

/// What the builder said of a table's transitions beyond their chains (an
/// Always, a condition's name), for Describe and Validate: the library's
/// alone (lib/engine/table_parts.hpp).
struct EdgeNote;
struct EdgeNotes;

/// A table's keyed states, sorted by key for Table::FindKey: the library's
/// alone (lib/engine/table_parts.hpp).
struct KeyedStates;

/// A leaf's nested fast step compiled from a compile-time machine's constant
/// (StateManager::Configure of a constant with SetSubstates): its active
/// path's conditions, Performs and changes inlined, by NestedStep's rules. It
/// takes the place of NestedStep and NestedMachineStep when the table is
/// finalized, for a leaf on the nested fast path, while every registered leaf
/// still is what the constant said: the same states, outermost first, each
/// with the one chain the constant gave it (or none). Anything configured
/// since that changes one (another chain, a new parent or substate) leaves
/// every leaf to the generic step, since each step takes the tree for granted.
struct FusedLeaf {
    const void* const* path = nullptr;   // TypeKeys of its active path's states, outermost first
    const void* const* chains = nullptr; // per state of the path: its chain's TypeKey, or null for no transitions
    std::size_t depth = 0;
    StepFn<AnyController, AnyAction> step = nullptr;
    MachineStepFn<AnyController, AnyAction> machine = nullptr;
};
/// Registers a FusedLeaf with a table (kept in its NestedPlan; a second one
/// for the same leaf replaces the first).
void AddFusedLeaf(Table<AnyController, AnyAction>& table, const FusedLeaf& leaf);
/// A FusedLeaf's crowd step found that transition `index` of the path's
/// `chain`th list of transitions holds: the change as NestedFire makes it.
void FusedFire(const StepWord<AnyController, AnyAction>* steps, AnyController& c, const AnyAction& a, Runtime& rt,
               std::byte* data, std::uint32_t chain, int index);
/// FusedFire for a StateManager's step: the Seat's step follows the leaf entered.
void FusedFireMachine(AnyController& c, const AnyAction& a, Runtime& rt, std::uint32_t chain, int index);
/// How many leaves of a finalized table tick with a FusedLeaf's step (for tests).
std::size_t FusedLeafCount(const Table<AnyController, AnyAction>& table) noexcept;

/// A nested fast leaf's steps (lib/engine/nested_step.hpp).
template <class C, class A>
void NestedStep(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt, std::byte* data);
template <class C, class A>
void NestedMachineStep(C& c, const A& a, Runtime& rt);

} // namespace tickfsm::detail
