// The general path and the table, compiled here once for every kind of
// machine: the headers declare these instantiations extern, so a file that
// uses machines compiles only its own kinds' typed code (hooks, conditions,
// steps, configuration).
#include "tickfsm/detail/config.hpp"
#include "tickfsm/detail/engine.hpp"
#include "tickfsm/detail/manager_engine.hpp"

namespace tickfsm::detail {

TICKFSM_DETAIL_ENGINE_TEMPLATES(template);
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
        table.Fail(Format("From<{}>().To<{}>(): this builder was used already; chain each To<...>() on the "
                          "builder the previous To returned",
                          from_name(), to_name()));
}

ChainPtr<AnyController, AnyAction>& ChainToExtend(ErasedTable& table, const void* from_key, std::size_t chain,
                                                   const void* expected, std::string_view (*from_name)() noexcept,
                                                   std::string_view (*to_name)() noexcept) {
    CheckChainToExtend(table, from_key, chain, expected, from_name, to_name);
    return table.meta[table.Find(from_key)].chains[chain];
}

void CheckStackFor(const ErasedTable& table, std::string_view (*from_name)() noexcept, std::uint8_t kind) {
    if (table.stack_capacity == 0)
        table.Fail(Format("From<{}>().{}(): this machine has no push stack; call SetPushCapacity<N>() before "
                          "configuring pushes and pops",
                          from_name(), kind == kKindPush ? "Push" : "Pop"));
}

void ReplaceChain(ErasedTable& table, StateIndex from, std::size_t chain, ChainBase<AnyController, AnyAction>* fresh,
                  bool always) {
    ChainPtr<AnyController, AnyAction> owned(fresh);
    table.meta[from].chains[chain] = std::move(owned);
    if (always) table.Note(from, chain, fresh->count - 1).always = true;
    table.finalized = false;
}

} // namespace tickfsm::detail
