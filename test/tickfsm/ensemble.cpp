// Machines that talk: an Ensemble ticks its machines in the order
// added and delivers posted events before the receiver's next tick.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Bot {
    std::vector<std::string> log;
    tickfsm::Ensemble<Bot, int, 2>* team = nullptr;
    std::size_t reaction = 0;
    tickfsm::StateManager<Bot, int>* recruit = nullptr;
};
struct Seen {
    int x = 0;
};

struct Scan {
    void Perform(Bot& b, const int& tick) {
        b.log.push_back("scan " + std::to_string(tick));
        if (tick == 2) b.team->Post(b.reaction, Seen{.x = 7});
    }
};
struct Calm {
    void Perform(Bot& b, const int& tick) { b.log.push_back("calm " + std::to_string(tick)); }
};
struct Chase {
    int x = 0;
    void OnEvent(Bot& b, const Seen& s) {
        x = s.x;
        b.log.push_back("seen at " + std::to_string(s.x));
    }
    void Perform(Bot& b, const int& tick) { b.log.push_back("chase " + std::to_string(tick)); }
};
struct Resting {};

struct Sensing : tickfsm::StateManager<Bot, int> {
    explicit Sensing(Bot& b) : StateManager(b) { SetInitialState<Scan>(); }
};
struct Reaction : tickfsm::StateManager<Bot, int> {
    explicit Reaction(Bot& b) : StateManager(b) {
        SetInitialState<Calm>().On<Seen>().To<Chase>();
        From<Chase>().On("rest").To<Resting>();
    }
};

} // namespace

TEST_CASE("An ensemble ticks its machines in order and delivers a posted event before the receiver's next tick",
          "[ensemble]") {
    Bot bot;
    Sensing sensing(bot);
    Reaction reaction(bot);
    tickfsm::Ensemble<Bot, int, 2> team;
    bot.team = &team;
    REQUIRE(team.Add(sensing, "sensing") == 0);
    bot.reaction = team.Add(reaction, "reaction");
    team.Perform(1);
    team.Perform(2); // sensing posts in its tick; reaction, ticked after it, receives it in this Perform
    CHECK(bot.log == std::vector<std::string>{"scan 1", "calm 1", "scan 2", "seen at 7", "chase 2"});
    CHECK(reaction.State<Chase>().x == 7);
    // Posted to a machine ticked already: delivered on its next tick.
    team.Post(0, tickfsm::Event("nothing"));
    team.Post(1, tickfsm::Event("rest"));
    CHECK(team.Waiting(1) == 1);
    team.Perform(3);
    CHECK(team.Waiting(0) == 0);
    CHECK(reaction.IsIn<Resting>());
}

TEST_CASE("A full mailbox, an unknown machine and a machine added twice are ConfigErrors", "[ensemble][config_error]") {
    Bot bot;
    Sensing sensing(bot);
    Reaction reaction(bot);
    tickfsm::Ensemble<Bot, int, 2> team;
    team.Add(sensing, "sensing");
    team.Add(reaction, "reaction");
    CHECK_THROWS_WITH(team.Add(reaction, "again"), Catch::Contains("Ensemble::Add(again): that machine is in the "
                                                                   "ensemble already, as reaction"));
    team.Post(1, Seen{});
    team.Post(1, Seen{});
    CHECK_THROWS_WITH(team.Post(1, Seen{}), Catch::Contains("the mailbox of reaction is full (2 events"));
    CHECK_THROWS_WITH(team.Post(2, tickfsm::Event("x")), Catch::Contains("there is no machine 2"));
    CHECK_THROWS_WITH(team.Waiting(2), Catch::Contains("Ensemble::Waiting(2): there is no machine 2 (the ensemble has 2)"));
    CHECK_THROWS_AS(team.At(5), tickfsm::ConfigError);
    bot.team = &team;
    team.Perform(1); // the two waiting events are delivered; nothing else changed
    CHECK(team.Waiting(1) == 0);
    CHECK(reaction.IsIn<Chase>());
}

namespace {
struct Recruiter { // adds a machine, or ticks the ensemble again, from its Perform
    void Perform(Bot& b, const int& tick) {
        if (tick == 1) b.team->Add(*b.recruit, "recruit");
        if (tick == 2) b.team->Perform(0);
    }
};
struct Recruiting : tickfsm::StateManager<Bot, int> {
    explicit Recruiting(Bot& b) : StateManager(b) { SetInitialState<Recruiter>(); }
};
struct Fragile { // a typed event whose copy may throw
    bool fail = false;
    std::string note = "a note long enough to live on the heap, not in the string itself";
    Fragile() = default;
    Fragile(const Fragile& other) : fail(other.fail), note(other.note) {
        if (other.fail) throw std::runtime_error("copy failed");
    }
};
struct Touchy : tickfsm::StateManager<Bot, int> {
    explicit Touchy(Bot& b) : StateManager(b) { SetInitialState<Calm>().On<Fragile>().To<Chase>(); }
};
} // namespace

TEST_CASE("Adding a machine or ticking the ensemble from a hook during its Perform is a ConfigError",
          "[ensemble][config_error]") {
    Bot bot;
    Recruiting recruiting(bot);
    Reaction reaction(bot);
    bot.recruit = &reaction;
    tickfsm::Ensemble<Bot, int, 2> team;
    bot.team = &team;
    team.Add(recruiting, "recruiting");
    CHECK_THROWS_WITH(team.Perform(1), Catch::Contains("Ensemble::Add(recruit) from a hook while the ensemble ticks"));
    CHECK(team.Size() == 1);
    CHECK_THROWS_WITH(team.Perform(2), Catch::Contains("Ensemble::Perform() from a hook while the ensemble ticks"));
    team.Perform(3); // usable afterwards
    CHECK(team.Add(reaction, "reaction") == 1);
}

TEST_CASE("A typed event whose copy throws is not posted", "[ensemble]") {
    Bot bot;
    Touchy touchy(bot);
    tickfsm::Ensemble<Bot, int, 2> team;
    team.Add(touchy, "touchy");
    team.Perform(1);
    Fragile bad;
    bad.fail = true;
    CHECK_THROWS_AS(team.Post(0, bad), std::runtime_error);
    CHECK(team.Waiting(0) == 0);
    team.Perform(2);
    CHECK(touchy.IsIn<Calm>());
    team.Post(0, Fragile{});
    CHECK(team.Waiting(0) == 1);
    team.Perform(3);
    CHECK(touchy.IsIn<Chase>());
}

TEST_CASE("An ensemble keeps a copy of each machine's name", "[ensemble]") {
    Bot bot;
    Reaction reaction(bot);
    tickfsm::Ensemble<Bot, int, 1> team;
    team.Add(reaction, std::string("reaction ") + std::string(40, 'x')); // the temporary dies here
    team.Post(0, Seen{});
    CHECK_THROWS_WITH(team.Post(0, Seen{}), Catch::Contains("the mailbox of reaction " + std::string(40, 'x') + " is full"));
}

namespace {
struct Echo;
using EchoTeam = tickfsm::Ensemble<Echo, int, 2>;
struct Echo {
    EchoTeam* team = nullptr;
    std::vector<std::string> log;
};
struct Ping {
    int seq = 0;
};
struct Listening { // posts to itself in its first tick; answers each Ping with another
    void Perform(Echo& e, const int& tick) {
        e.log.push_back("tick " + std::to_string(tick));
        if (tick == 1) e.team->Post(0, tickfsm::Event("self"));
    }
    void OnEvent(Echo& e, const Ping& p) {
        e.log.push_back("ping " + std::to_string(p.seq));
        if (p.seq < 10) e.team->Post(0, Ping{.seq = p.seq + 10});
    }
};
struct Answered {
    void Perform(Echo& e, const int& tick) { e.log.push_back("answered " + std::to_string(tick)); }
};
struct EchoMachine : tickfsm::StateManager<Echo, int> {
    explicit EchoMachine(Echo& e) : StateManager(e) {
        SetInitialState<Listening>().On("self").To<Answered>();
        From<Listening>().On<Ping>().Handle();
    }
};
int counted_alive = 0; // Counted values alive
struct Counted {
    Counted() { ++counted_alive; }
    Counted(const Counted&) { ++counted_alive; }
    ~Counted() { --counted_alive; }
};
struct Unread {};
struct CountedMachine : tickfsm::StateManager<Echo, int> {
    explicit CountedMachine(Echo& e) : StateManager(e) { SetInitialState<Unread>().On<Counted>().To<Answered>(); }
};
} // namespace

TEST_CASE("An event a machine posts to itself in its first tick arrives in the next Perform", "[ensemble]") {
    Echo echo;
    EchoMachine machine(echo);
    EchoTeam team;
    echo.team = &team;
    team.Add(machine, "echo");
    team.Perform(1);
    CHECK(machine.IsIn<Listening>());
    CHECK(team.Waiting(0) == 1);
    team.Perform(2);
    CHECK(machine.IsIn<Answered>());
    CHECK(echo.log == std::vector<std::string>{"tick 1", "answered 2"});
}

TEST_CASE("A letter leaves the mailbox before it is delivered, so a full mailbox has room for the answer",
          "[ensemble]") {
    Echo echo;
    EchoMachine machine(echo);
    EchoTeam team;
    echo.team = &team;
    team.Add(machine, "echo");
    team.Post(0, Ping{.seq = 1});
    team.Post(0, Ping{.seq = 2}); // full: each delivery posts one back
    team.Perform(0);
    CHECK(team.Waiting(0) == 2);
    team.Perform(0);
    CHECK(team.Waiting(0) == 0);
    CHECK(echo.log == std::vector<std::string>{"tick 0", "ping 1", "ping 2", "ping 11", "ping 12", "tick 0"});
}

TEST_CASE("ClearMail drops every waiting event and destroys typed values", "[ensemble]") {
    Echo echo;
    EchoMachine machine(echo);
    CountedMachine counted(echo);
    {
        EchoTeam team;
        echo.team = &team;
        team.Add(machine, "echo");
        team.Add(counted, "counted");
        team.Post(0, tickfsm::Event("self"));
        team.Post(1, Counted{});
        team.Post(1, Counted{});
        CHECK(counted_alive == 2);
        team.ClearMail();
        CHECK(counted_alive == 0);
        CHECK(team.Waiting(0) == 0);
        CHECK(team.Waiting(1) == 0);
        team.Perform(2);
        CHECK(machine.IsIn<Listening>());
        CHECK(counted.IsIn<Unread>());
        team.Post(1, Counted{}); // the mailbox works on after a clear
        team.Perform(3);
        CHECK(counted.IsIn<Answered>());
        CHECK(counted_alive == 0);
        team.Post(1, Counted{});
    }
    CHECK(counted_alive == 0); // the ensemble's end destroys what still waits
}

TEST_CASE("Rolling an ensemble's machines back replays the same when the mail is cleared and posted again",
          "[ensemble][snapshot]") {
    Echo echo;
    EchoMachine machine(echo);
    EchoTeam team;
    echo.team = &team;
    team.Add(machine, "echo");
    team.Perform(1); // posts "self" to itself: mail waits between Performs
    REQUIRE(team.Waiting(0) == 1);
    const auto saved = machine.Save();
    team.Perform(2);
    CHECK(machine.IsIn<Answered>());
    machine.Restore(saved);
    team.ClearMail();                     // what waits now is not what waited then
    team.Post(0, tickfsm::Event("self")); // the mail that waited at the snapshot
    team.Perform(2);
    CHECK(machine.IsIn<Answered>());
}

TEST_CASE("An ensemble's mistakes name the kind of machine and say what to do", "[ensemble][config_error]") {
    Bot bot;
    Recruiting recruiting(bot);
    tickfsm::Ensemble<Bot, int, 2> team;
    bot.team = &team;
    team.Add(recruiting, "recruiting");
    CHECK_THROWS_WITH(team.Post(4, tickfsm::Event("x")),
                      Catch::StartsWith("tickfsm: StateManager<Bot, int>: Ensemble::Post(4): there is no machine 4"));
    CHECK_THROWS_WITH(team.Perform(2), Catch::StartsWith("tickfsm: StateManager<Bot, int>: Ensemble::Perform() from "
                                                         "a hook") &&
                                           Catch::Contains("call Perform between ticks") &&
                                           !Catch::Contains("before the first Perform"));
}
