// Minimal tickfsm consumer: a two-state machine that must end up in Open,
// written as a StateManager, as one configured from a constant, and as a
// compile-time machine (every header those need must be installed).
#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>
#include <tickfsm/trace.hpp>

#include <string>

// fmt is a private dependency of the compiled library: no public header brings it in.
#ifdef FMT_VERSION
#error "a tickfsm header included fmt"
#endif

struct Door {
  bool open_requested = false;
};
struct Input {};

struct Closed {};
struct Open {
  void OnStateEnter(Door& d, const Input&) { d.open_requested = false; }
};

class DoorStateManager : public tickfsm::StateManager<Door, Input> {
 public:
  explicit DoorStateManager(Door& d) : StateManager(d) {
    SetInitialState<Closed>().To<Open>([](const Door& dd) { return dd.open_requested; });
  }
};

inline constexpr auto kDoorTransitions = tickfsm::Transitions<Door, Input>()
    .SetInitialState<Closed>().To<Open>([](const Door& dd) { return dd.open_requested; });

class TableDoorStateManager : public tickfsm::StateManager<Door, Input> {
 public:
  explicit TableDoorStateManager(Door& d) : StateManager(d) { Configure(kDoorTransitions); }
};

// The same door through each form: in Open after the second tick.
template <class Machine>
bool OpensOnRequest() {
  Door d;
  Machine m(d);
  m.Perform({});
  d.open_requested = true;
  m.Perform({});
  return m.template IsIn<Open>();
}

int main() {
  if (!OpensOnRequest<TableDoorStateManager>() || !OpensOnRequest<tickfsm::StaticStateManager<kDoorTransitions>>())
    return 1;
  Door d;
  DoorStateManager m(d);
  std::string trace;  // the trace printer is compiled in the library
  tickfsm::TracePrinter printer(trace);
  m.SetObserver(&printer, "Door");
  m.Perform({});
  d.open_requested = true;
  m.Perform({});
  return m.IsIn<Open>() && trace.find("Closed -> Open") != std::string::npos ? 0 : 1;
}
