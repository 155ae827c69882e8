// Small text helpers shared by the reader and the elements: case folding and strict number parsing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lodestone {

std::string toUpper(std::string_view text);
std::string toLower(std::string_view text);
bool equalsIgnoreCase(std::string_view a, std::string_view b);
std::string_view trim(std::string_view text);

// Splits on whitespace and commas ("82 83", "1,2, 3").
std::vector<std::string> splitList(std::string_view text);

// Whole-string parses. Accept Fortran-style exponents ("1.0D-3") as exporters sometimes write them;
// reject trailing garbage, NaN and infinities.
std::optional<double> parseReal(std::string_view text);
std::optional<long> parseInteger(std::string_view text);
// TRUE/FALSE, YES/NO, 1/0, case-insensitive.
std::optional<bool> parseBoolean(std::string_view text);

// Shortest text that reads back as exactly the same double ("0.1", "1e-08", "-3.0000000000000004"): for
// messages, and for results files, where a reader must get back the very number written.
std::string formatReal(double value);
void appendReal(std::string& out, double value);  // the same, appended without a temporary string
// A computed number for a message, to `digits` significant digits ("0.414", "1.5e-05").
std::string formatSignificant(double value, int digits);

// Edits (insert, delete, substitute, swap two neighbours) that turn one name into the other, ignoring case:
// "stifness" is 1 from "stiffness", "dampnig" 1 from "damping".
int editDistance(std::string_view a, std::string_view b);
// The candidates nearest to `given` by editDistance, when near enough to be a typing slip of it (1 edit in a name of
// up to 4 characters, 2 up to 8, 3 beyond), in the order given; empty when none is.
std::vector<std::string> nearestNames(std::string_view given, const std::vector<std::string>& candidates);
// "'a'", "'a' or 'b'", "'a', 'b' or 'c'": alternatives for a message, each between `open` and `close`.
std::string listAlternatives(const std::vector<std::string>& names, std::string_view open = "'",
                             std::string_view close = "'");

}  // namespace lodestone
