// Must not compile: a std::string made at run time sent as an event (it would
// be a typed event of class std::string, which no named transition takes).
#include <string>

#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};

bool Send(tickfsm::StateManager<Hero, Input>& m, const std::string& name) { return m.SendEvent(name); }
