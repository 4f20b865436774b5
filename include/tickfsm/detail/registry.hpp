#pragma once
// The configuration registry: one per kind of machine (Controller/Action
// pair), a trie of configuration steps whose nodes publish the table built
// by replaying the steps from the root, so that every machine configured the
// same way shares one table. Compiled once in lib/registry.cpp; it sees a
// kind's tables only through TableOps.

#include <cstddef>
#include <string_view>

#include "../text.hpp"
#include "../event.hpp"
#include "owned.hpp"

namespace tickfsm::detail {

/// One configuration step: what tells it from another at the same place
/// (its identity and data), and how to apply it to a table of its kind.
struct StepRecord {
    /// Applies the step to a table of the registry's kind (passed as `void*`).
    using Replay = void (*)(void* table, const StepRecord&);
    const void* key = nullptr;       // TypeKey of the step
    void (*function)() = nullptr;    // a function-pointer condition
    std::size_t chain = 0;           // To: the chain it extends
    Replay replay = nullptr;
    const void* starts_chain_of = nullptr; // Init/From: TypeKey of S
    std::string_view initial;              // Init: name of S
    Event event;                           // On: the event
    const void* event_state = nullptr;     // On: TypeKey of S
    std::size_t edge = 0;                  // Name: the edge of `chain` named
    Text name;                             // Name: the condition's name

    bool Same(const StepRecord& other) const noexcept {
        return key == other.key && function == other.function && chain == other.chain && event == other.event &&
               edge == other.edge && name == other.name;
    }
};

/// What a registry does with the tables of its kind.
struct TableOps {
    void* (*make)(float dt);            // a new, empty table (one owner: the caller), as its base Table
    void (*finalize)(void* table);      // its steps picked (Table::Finalize)
    void (*acquire)(void* table) noexcept;
    void (*release)(void* table) noexcept; // one owner fewer; the last destroys it
};

/// A place on the shared configuration path: the steps root..here.
struct StepNode;
/// The nodes below a node, or a registry's roots: the library's alone
/// (lib/registry.cpp), so that a file that uses machines never compiles their list.
struct StepNodes;

struct StepNode {
    StepRecord step;
    StepNode* parent = nullptr;
    Owned<StepNodes, DeleteInLibrary> children; // made with the first child
    void* table = nullptr; // published table for the configuration root..here
    const TableOps* ops = nullptr;
    // Facts about the path root..here, computed once when the node is made.
    std::string_view initial;    // empty while no initial state
    std::size_t chain_index = 0; // Init/From: index of the chain this step starts
    float dt = 0;

    StepNode() = default;
    StepNode(const StepNode&) = delete;
    StepNode& operator=(const StepNode&) = delete;
    ~StepNode();
};

/// The registry of one kind of machine. Every call takes the registries'
/// lock (RegistryLock): machines of one kind may configure on several threads.
class Registry {
public:
    explicit Registry(const TableOps& table_ops) noexcept : ops(&table_ops) {}
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;
    ~Registry();

    /// The root of the configurations ticking at `dt` seconds a tick.
    StepNode* Root(float dt);
    /// The node after `parent` for `step`, made if new.
    StepNode* Child(StepNode* parent, const StepRecord& step);
    /// The table published at `node` with a reference taken for the caller, or null.
    void* Published(StepNode* node);
    /// Publishes `fresh` at `node` unless another table got there first;
    /// returns the table to use, with one reference for the caller (fresh's
    /// own, or a new one).
    void* Publish(StepNode* node, void* fresh);
    /// A new private table holding the configuration root..node, finalized.
    void* Build(const StepNode* node) const;
    /// The table of the configuration root..node, with a reference for the
    /// caller: the one published there, else one built and published now.
    void* TableAt(StepNode* node);

private:
    const TableOps* ops;
    Owned<StepNodes, DeleteInLibrary> roots; // made with the first root
};

} // namespace tickfsm::detail
