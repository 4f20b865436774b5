// tickfsm::List and tickfsm::Text, the array and the text of the library's
// tables and queries: what the library and its users rely on std::vector and
// std::string for, checked against them.

#include <catch2/catch.hpp>

#include <cstdint>
#include <iomanip>
#include <iterator>
#include <map>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tickfsm/detail/owned.hpp>
#include <tickfsm/list.hpp>
#include <tickfsm/text.hpp>

using tickfsm::List;

namespace {

/// Counts its live objects, so that a test sees every element destroyed once.
struct Tracked {
    static inline int live = 0;
    int value = 0;
    explicit Tracked(int v = 0) : value(v) { ++live; }
    Tracked(const Tracked& other) : value(other.value) { ++live; }
    Tracked(Tracked&& other) noexcept : value(other.value) { ++live; }
    Tracked& operator=(const Tracked&) = default;
    Tracked& operator=(Tracked&&) noexcept = default;
    ~Tracked() { --live; }
};

struct alignas(64) Wide {
    std::uint8_t byte = 0;
};

template <class T>
std::vector<int> Values(const List<T>& v) {
    std::vector<int> out;
    for (const T& item : v) out.push_back(static_cast<int>(item.value));
    return out;
}

} // namespace

TEST_CASE("A List grows, shrinks and destroys each element once", "[list]") {
    {
        List<Tracked> v;
        for (int i = 0; i < 100; ++i) v.emplace_back(i);
        CHECK(v.size() == 100);
        CHECK(Tracked::live == 100);
        CHECK(v.front().value == 0);
        CHECK(v.back().value == 99);
        v.resize(10);
        CHECK(Tracked::live == 10);
        v.resize(12, Tracked(7));
        CHECK(Values(v) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 7, 7});
        v.pop_back();
        CHECK(v.size() == 11);
        List<Tracked> copy = v;
        CHECK(Tracked::live == 22);
        List<Tracked> moved = std::move(copy);
        CHECK(copy.empty()); // NOLINT: a moved-from List is empty
        CHECK(Values(moved) == Values(v));
        v.clear();
        CHECK(v.empty());
        CHECK(Tracked::live == 11);
    }
    CHECK(Tracked::live == 0);
}

TEST_CASE("A List appends a copy of its own element while it grows", "[list]") {
    List<std::string> v;
    v.push_back(std::string(40, 'a')); // longer than the short-string buffer
    for (int i = 0; i < 20; ++i) v.push_back(v[0]);
    CHECK(v.size() == 21);
    for (const std::string& s : v) CHECK(s == std::string(40, 'a'));
    v.resize(50, v[3]);
    CHECK(v.back() == std::string(40, 'a'));
}

TEST_CASE("A List inserts and erases as std::vector does", "[list]") {
    List<Tracked> v;
    std::vector<int> expected;
    for (int i = 0; i < 8; ++i) {
        v.emplace_back(i);
        expected.push_back(i);
    }
    v.insert(v.begin() + 3, Tracked(42));
    expected.insert(expected.begin() + 3, 42);
    v.insert(v.end(), Tracked(43));
    expected.insert(expected.end(), 43);
    CHECK(Values(v) == expected);
    CHECK(v.erase(v.begin() + 1, v.begin() + 4)->value == 3);
    expected.erase(expected.begin() + 1, expected.begin() + 4);
    v.erase(v.begin());
    expected.erase(expected.begin());
    CHECK(Values(v) == expected);
    CHECK(Tracked::live == static_cast<int>(expected.size()));
}

TEST_CASE("A List holds move-only and over-aligned elements, and is a contiguous range", "[list]") {
    List<tickfsm::detail::Owned<int>> owners;
    for (int i = 0; i < 9; ++i) owners.emplace_back(new int(i));
    owners.erase(owners.begin() + 2);
    CHECK(*owners[2] == 3);

    List<Wide> wide(5);
    wide.reserve(33);
    for (const Wide& w : wide) CHECK(reinterpret_cast<std::uintptr_t>(&w) % 64 == 0);

    List<int> numbers{3, 1, 2};
    const std::span<const int> view(numbers);
    CHECK(view.size() == 3);
    CHECK(view[2] == 2);
    CHECK(numbers == List<int>{3, 1, 2});
    numbers.assign(4, 9);
    CHECK(numbers == List<int>{9, 9, 9, 9});
    List<std::uint16_t> zeros(6);
    for (std::uint16_t z : zeros) CHECK(z == 0);
}

namespace {
/// Its copy throws once `copies_left` reaches 0; counts live objects.
struct Fragile {
    static inline int copies_left = 0;
    static inline int live = 0;
    Fragile() { ++live; }
    Fragile(const Fragile&) {
        if (copies_left-- == 0) throw std::runtime_error("copy");
        ++live;
    }
    Fragile(Fragile&&) noexcept { ++live; }
    Fragile& operator=(const Fragile&) = default;
    ~Fragile() { --live; }
};
} // namespace

TEST_CASE("A List inserts a copy of its own elements while it grows", "[list]") {
    {
        List<Tracked> v;
        for (int i = 0; i < 4; ++i) v.emplace_back(i);
        REQUIRE(v.capacity() == v.size()); // full: the insert grows the block the range points into
        CHECK(v.insert(v.begin() + 1, v.begin() + 1, v.end())->value == 1);
        CHECK(Values(v) == std::vector<int>{0, 1, 2, 3, 1, 2, 3});
        v.reserve(16); // room left: the range is read in place
        v.insert(v.begin(), v.end() - 2, v.end());
        CHECK(Values(v) == std::vector<int>{2, 3, 0, 1, 2, 3, 1, 2, 3});
        v.insert(v.end(), v.begin(), v.begin());
        CHECK(v.size() == 9);
        CHECK(Tracked::live == 9);
    }
    CHECK(Tracked::live == 0);
    { // through iterators that are not pointers
        List<Tracked> v;
        for (int i = 0; i < 4; ++i) v.emplace_back(i);
        REQUIRE(v.capacity() == v.size());
        v.insert(v.end(), std::make_reverse_iterator(v.end()), std::make_reverse_iterator(v.begin()));
        CHECK(Values(v) == std::vector<int>{0, 1, 2, 3, 3, 2, 1, 0});
        CHECK(Tracked::live == 8);
    }
    CHECK(Tracked::live == 0);
}

TEST_CASE("A List whose element's copy throws part-way destroys the elements it had made", "[list]") {
    {
        List<Fragile> some(5);
        Fragile::copies_left = 2;
        CHECK_THROWS_AS(List<Fragile>(some), std::runtime_error);
        CHECK(Fragile::live == 5); // the two copies made were destroyed with the half-built list
        Fragile::copies_left = 1;
        CHECK_THROWS_AS(List<Fragile>(some.begin(), some.end()), std::runtime_error);
        CHECK(Fragile::live == 5);
    }
    CHECK(Fragile::live == 0);
}

TEST_CASE("A Text converts, compares and joins as a std::string does", "[text]") {
    const tickfsm::Text empty;
    CHECK(empty.empty());
    CHECK(std::string_view(empty.c_str()).empty());
    const tickfsm::Text path = std::string("Combat/Attack");
    const std::string copy = path;
    std::string appended = "in ";
    appended += path;
    CHECK(copy == "Combat/Attack");
    CHECK(path == copy);
    CHECK(copy == path);
    CHECK(path == std::string_view("Combat/Attack"));
    CHECK_FALSE(path == "Combat");
    CHECK(appended == "in Combat/Attack");
    CHECK(("now " + path) == "now Combat/Attack");
    CHECK((path + "/Light") == "Combat/Attack/Light");
    CHECK((path + path).size() == 26);
    tickfsm::Text moved = std::move(appended);
    CHECK(moved == "in Combat/Attack");
    moved = path;
    CHECK(moved.view() == "Combat/Attack");
    CHECK(moved.c_str()[moved.size()] == '\0');
}

TEST_CASE("A Text writes to a std::ostream as a std::string does", "[text]") {
    const tickfsm::Text path("Combat/Attack");
    std::ostringstream out;
    out << path << '|' << std::setw(8) << tickfsm::Text("Run") << '|' << tickfsm::Text();
    CHECK(out.str() == "Combat/Attack|     Run|");
}

TEST_CASE("A Text orders as a std::string does, so that it can key a map", "[text]") {
    const tickfsm::Text run("Run"), jump("Jump");
    CHECK(jump < run);
    CHECK(run > "Jump");
    CHECK("Idle" < run);
    CHECK(run <= tickfsm::Text("Run"));
    CHECK_FALSE(run < std::string("Run"));
    std::map<tickfsm::Text, int> seen;
    ++seen[run];
    ++seen[jump];
    ++seen[tickfsm::Text("Run")];
    CHECK(seen.size() == 2);
    CHECK(seen.begin()->first == "Jump");
    CHECK(seen[run] == 2);
}

TEST_CASE("A Text searches as a std::string does", "[text]") {
    const tickfsm::Text path("Combat/Attack/Light");
    const std::string same = path;
    CHECK(path.length() == same.length());
    CHECK(path.starts_with("Combat/"));
    CHECK_FALSE(path.starts_with("Attack"));
    CHECK(path.ends_with("/Light"));
    CHECK(path.starts_with('C'));
    CHECK(path.ends_with('t'));
    CHECK_FALSE(tickfsm::Text().ends_with('t'));
    CHECK(path.find("/") == same.find("/"));
    CHECK(path.find("/", 7) == same.find("/", 7));
    CHECK(path.rfind("/") == same.rfind("/"));
    CHECK(path.find('/') == same.find('/'));
    CHECK(path.rfind('/', 10) == same.rfind('/', 10));
    CHECK(path.find("Heavy") == tickfsm::Text::npos);
    CHECK(path.substr(7) == same.substr(7));
    CHECK(path.substr(0, 6) == "Combat");
    CHECK(path.substr(14, 100) == "Light");
    CHECK(path.substr(path.size()).empty());
}
