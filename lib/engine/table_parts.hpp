#pragma once
// The parts of a table that the library alone reads and writes: the nested
// fast path's plan (Table::PlanNested, nested_step.hpp), what the builder
// said of each transition beyond its chain (for Describe and Validate), and
// the keyed states by key (Table::FindKey, SetKey). A table holds them
// through Owned pointers (Table::nested_plan, Table::notes, Table::keyed),
// so a file that uses machines never instantiates their containers. Also
// the untyped part of adding a state (Table::PrepareAdd, PushState, PopLast),
// which a file that configures a machine calls but need not compile.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tickfsm/detail/table.hpp"

namespace tickfsm::detail {

/// The nested fast path's steppers (one per state, set for the leaves that
/// take it) and the ranges they point into, outermost first per leaf.
struct NestedPlan {
    std::vector<NestedStepper<AnyController, AnyAction>> steppers;
    std::vector<std::uint32_t> slots;
    std::vector<NestedChain<AnyController, AnyAction>> chains;
    std::vector<NestedLink<AnyController, AnyAction>> links; // each leaf's crowd links, then its machine links
    std::vector<NestedMove> moves;
    std::vector<NestedMoveStep<AnyController, AnyAction>> move_steps;
    std::vector<std::uint32_t> move_slots; // the CompositeSlot offsets NestedMove::slots ranges index
    std::vector<std::uint32_t> offsets;
    std::vector<FusedLeaf> fused; // registered by configuration (AddFusedLeaf); kept when the table is planned again
};

/// What the builder said of one transition beyond its chain.
struct EdgeNote {
    StateIndex from = kNoState;
    std::size_t chain = 0; // which of from's chains
    std::size_t index = 0; // its place in that chain
    bool always = false;   // no condition: it holds on every tick
    std::string name;      // the condition's name given in the builder
};
struct EdgeNotes {
    std::vector<EdgeNote> list;
};

/// The note of edge `index` of chain `chain` of `from`, made if new (which
/// leaves the table to be finalized again).
inline EdgeNote& NoteOf(Owned<EdgeNotes, DeleteInLibrary>& notes, bool& finalized, StateIndex from,
                        std::size_t chain, std::size_t index) {
    if (!notes) notes.reset(new EdgeNotes());
    for (EdgeNote& note : notes->list)
        if (note.from == from && note.chain == chain && note.index == index) return note;
    finalized = false;
    EdgeNote& note = notes->list.emplace_back();
    note.from = from;
    note.chain = chain;
    note.index = index;
    return note;
}

/// A keyed state: its key's type (TypeKey), the key, its id.
struct Keyed {
    const void* type;
    std::uint64_t value;
    StateIndex id;
    bool Before(const void* t, std::uint64_t v) const noexcept {
        const auto a = reinterpret_cast<std::uintptr_t>(type), b = reinterpret_cast<std::uintptr_t>(t);
        return a < b || (a == b && value < v);
    }
};
struct KeyedStates {
    std::vector<Keyed> list; // sorted by (type, value)

    /// Where (key_type, value) is or would go in the list.
    std::size_t At(const void* key_type, std::uint64_t value) const noexcept {
        std::size_t low = 0, high = list.size();
        while (low < high) {
            const std::size_t mid = low + (high - low) / 2;
            if (list[mid].Before(key_type, value)) low = mid + 1;
            else high = mid;
        }
        return low;
    }
};

/// The first character of `name` that ActivePath() puts between states:
/// '/' anywhere; '{', '}' or ',' outside a template's or a call's brackets,
/// where a class name holds them ("Pair<A, B>", "Holder<{anonymous}::X>").
/// 0 if there is none.
inline char PathSeparatorIn(std::string_view name) noexcept {
    int depth = 0;
    for (const char ch : name) {
        if (ch == '/') return ch;
        if (ch == '<' || ch == '(') ++depth;
        else if ((ch == '>' || ch == ')') && depth > 0) --depth;
        else if (depth == 0 && (ch == '{' || ch == '}' || ch == ',')) return ch;
    }
    return 0;
}

template <class C, class A>
StateIndex Table<C, A>::PrepareAdd(const void* identity, std::string_view name, std::string_view class_name) {
    if (identity)
        if (const StateIndex found = Find(identity); found != kNoState) return found;
    if (meta.size() >= kNoState - 1) Fail(detail::MessageText(detail::Message::TooManyStates, name, kNoState - 1));
    // Names tell states apart wherever a machine is shown or checked:
    // ActivePath, pictures, snapshots, timelines and the testing kit. An
    // empty one reads as no state, and a separator makes a path ambiguous.
    if (name.empty()) Fail(detail::MessageText(detail::Message::StateNameEmpty, class_name, class_name));
    if (const char separator = PathSeparatorIn(name))
        Fail(detail::MessageText(detail::Message::StateNameSeparator, class_name, name,
                                 std::string_view(&separator, 1), class_name));
    for (const StateMeta<C, A>& m : meta)
        if (m.name == name) Fail(detail::MessageText(detail::Message::StateNameTwice, name, name));
    ReserveOneMore(words);
    ReserveOneMore(selfs);
    ReserveOneMore(keys);
    ReserveOneMore(meta);
    ReserveOneMore(items);
    ReserveOneMore(tree);
    return kNoState;
}

template <class C, class A>
StateMeta<C, A>& Table<C, A>::PushState(const void* identity, std::string_view name, DataItem* item) noexcept {
    StateMeta<C, A>& m = meta.emplace_back();
    m.name = name;
    m.key = identity;
    if (item) {
        m.has_data = true;
        items.push_back(std::move(*item));
    }
    keys.push_back(identity);
    tree.push_back({});
    words.push_back({}); // set by Finalize
    selfs.push_back(nullptr);
    finalized = false;
    return m;
}

template <class C, class A>
void Table<C, A>::PopLast() noexcept {
    const StateMeta<C, A>& m = meta.back();
    if (m.has_data) {
        data_size = m.offset; // alignment kept: harmless
        items.pop_back();
    }
    if (any == meta.size() - 1) any = kNoState;
    meta.pop_back();
    keys.pop_back();
    tree.pop_back();
    words.pop_back();
    selfs.pop_back();
}

template <class C, class A>
StateIndex Table<C, A>::FindKey(const void* key_type, std::uint64_t value) const noexcept {
    if (!keyed) return kNoState;
    const std::size_t at = keyed->At(key_type, value);
    const std::vector<Keyed>& list = keyed->list;
    return at < list.size() && list[at].type == key_type && list[at].value == value ? list[at].id : kNoState;
}

template <class C, class A>
void Table<C, A>::SetKey(StateIndex id, const void* key_type, std::uint64_t value) {
    if (!keyed) keyed.reset(new KeyedStates());
    if (FindKey(key_type, value) == kNoState) // first: if it throws, the state has no key yet
        keyed->list.insert(keyed->list.begin() + static_cast<std::ptrdiff_t>(keyed->At(key_type, value)),
                           Keyed{key_type, value, id});
    meta[id].key_type = key_type;
    meta[id].key_value = value;
}

template <class C, class A>
void Table<C, A>::NoteAlways(StateIndex from, std::size_t chain, std::size_t index) {
    NoteOf(notes, finalized, from, chain, index).always = true;
}

template <class C, class A>
void Table<C, A>::NoteName(StateIndex from, std::size_t chain, std::size_t index, std::string_view name) {
    NoteOf(notes, finalized, from, chain, index).name = std::string(name);
}

template <class C, class A>
const EdgeNote* Table<C, A>::FindNote(StateIndex from, std::size_t chain, std::size_t index) const noexcept {
    if (!notes) return nullptr;
    for (const EdgeNote& note : notes->list)
        if (note.from == from && note.chain == chain && note.index == index) return &note;
    return nullptr;
}

} // namespace tickfsm::detail
