// The general path and the table, compiled here once for every kind of
// machine: the headers declare these instantiations extern, so a file that
// uses machines compiles only its own kinds' typed code (hooks, conditions,
// steps, configuration).
#include "tickfsm/detail/manager_engine.hpp"
#include "tickfsm/detail/engine.hpp"

namespace tickfsm::detail {

TICKFSM_DETAIL_ENGINE_TEMPLATES(template);
template void MachineGeneralStep<AnyController, AnyAction>(AnyController&, const AnyAction&, Runtime&);

} // namespace tickfsm::detail
