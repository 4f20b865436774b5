// Machines that talk (seed 002): an Ensemble ticks its machines in the order
// added and delivers posted events before the receiver's next tick.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Bot {
    std::vector<std::string> log;
    tickfsm::Ensemble<Bot, int, 2>* team = nullptr;
    std::size_t reaction = 0;
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
