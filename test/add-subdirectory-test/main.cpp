// Minimal tickfsm consumer: a two-state machine that must end up in Open.
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

int main() {
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
