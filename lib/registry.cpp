#include <tickfsm/detail/registry.hpp>
#include <tickfsm/detail/sharing.hpp>
#include <vector>

#include "owned_parts.hpp"

namespace tickfsm::detail {

struct StepNodes {
    std::vector<Owned<StepNode>> list;
};

template void DeleteInLibrary::operator()(StepNodes*) const noexcept;

StepNode::~StepNode() {
    if (table) ops->release(table);
}

Registry::~Registry() = default;

StepNode* Registry::Root(float dt) {
    RegistryLock lock;
    if (!roots) roots.reset(new StepNodes());
    for (auto& root : roots->list)
        if (root->dt == dt) return root.get();
    roots->list.push_back(MakeOwned<StepNode>());
    roots->list.back()->dt = dt;
    roots->list.back()->ops = ops;
    return roots->list.back().get();
}

StepNode* Registry::Child(StepNode* parent, const StepRecord& step) {
    RegistryLock lock;
    if (!parent->children) parent->children.reset(new StepNodes());
    for (auto& child : parent->children->list)
        if (child->step.Same(step)) return child.get();
    auto node = MakeOwned<StepNode>();
    node->step = step;
    node->parent = parent;
    node->ops = ops;
    node->dt = parent->dt;
    node->initial = step.initial.empty() ? parent->initial : step.initial;
    if (step.starts_chain_of)
        for (const StepNode* n = parent; n; n = n->parent)
            node->chain_index += n->step.starts_chain_of == step.starts_chain_of;
    parent->children->list.push_back(std::move(node));
    return parent->children->list.back().get();
}

void* Registry::Published(StepNode* node) {
    RegistryLock lock;
    if (node->table) ops->acquire(node->table);
    return node->table;
}

void* Registry::Publish(StepNode* node, void* fresh) {
    RegistryLock lock;
    if (node->table) {
        ops->acquire(node->table);
        ops->release(fresh);
        return node->table;
    }
    ops->acquire(fresh); // the registry's reference
    node->table = fresh;
    return fresh;
}

void* Registry::Build(const StepNode* node) const {
    std::vector<const StepRecord*> path;
    for (const StepNode* n = node; n->parent; n = n->parent) path.push_back(&n->step);
    struct Held { // releases the table if a step throws
        const TableOps* ops;
        void* table;
        ~Held() {
            if (table) ops->release(table);
        }
    } held{ops, ops->make(node->dt)};
    for (auto it = path.rbegin(); it != path.rend(); ++it) (*it)->replay(held.table, **it);
    ops->finalize(held.table);
    void* built = held.table;
    held.table = nullptr;
    return built;
}

void* Registry::TableAt(StepNode* node) {
    if (void* table = Published(node)) return table;
    return Publish(node, Build(node));
}

} // namespace tickfsm::detail
